"""The validator's hand-worked cases (tests/core/test_rules_pinned.py) at the outer layers (issue 17): the
results API (a Garde: +216 accepted, +218 refused, +582 only with a chelem marked; SQLite and PostgreSQL)
and the command line (``flask score --check``: the Garde Contre's dog, its extremes, a chelem).

Derivations, by hand from the seeds' rules (SPEC §3):
* Garde, the taker winning 17 tricks: 74 cards, the defence's 4 cards at least 2 points → 89 points with
  3 bouts, made by 53: (25 + 53) × 2 + 40 (triple poignée) + 20 (petit au bout) = +216, the highest
  without a chelem; +218 is beyond it.
* +582 (seed's example): Garde, announced chelem made while the defence keeps its Excuse — 2 bouts,
  87 points: (25 + 46) × 2 + 20 + 20 + 400.  Without the chelem marked it is refused.
* Garde Contre: the dog is the defence's.  17 tricks → 68 cards; the defence's 10 cards at least 5 points
  → 86, made by 50: 75 × 6 + 40 + 60 = +550 (theoretical: a warning); with the dog +568 would be
  reachable — it is refused.  One trick: 4 cards, 2 points, failed by 54: −79 × 6 − 100 = −574.
* Card points run from 0 to 91: ``--points 92`` is refused.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from scoring_helpers import ready

ROOT = Path(__file__).resolve().parents[2]


def _token(app) -> str:
    from sqlmodel import Session

    from duplicate import db, operations
    with Session(db.get_engine(app)) as session:
        value = operations.create_token(session, "scorer", "tablette")
        session.commit()
        return value


def _line(app, tournament_id: int) -> dict:
    """The first line of the fiches as a SPEC §9 result object, without its score."""
    from sqlmodel import Session

    from duplicate import db, operations
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, tournament_id)
        return operations.all_lines(session, tournament)[0].fields(tournament.kind)


@pytest.fixture
def line_and_post(app, client):
    tournament_id = ready(app)
    bearer = _token(app)
    line = _line(app, tournament_id)

    def post(**fields):
        return client.post(f"/api/tournaments/{tournament_id}/results", json=[dict(line, **fields)],
                           headers={"Authorization": f"Bearer {bearer}"})
    return post


def test_api_refuses_above_216_and_a_chelem_score_without_the_chelem(line_and_post):
    post = line_and_post
    response = post(score=218)
    assert response.status_code == 422
    assert "le plus fort score possible est +216" in response.get_json()["error"]
    response = post(score=582)
    assert response.status_code == 422 and "qu’avec un chelem" in response.get_json()["error"]
    response = post(score=582, chelem=True)
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["results"][0]["score"] == 582


def test_api_accepts_the_theoretical_216(line_and_post):
    response = line_and_post(score=216)
    assert response.status_code == 201, response.get_json()


@pytest.fixture
def flask(tmp_path):
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'cli.sqlite3'}", "PYTHONIOENCODING": "utf-8"}

    def run(*args):
        return subprocess.run([sys.executable, "-m", "flask", "--app", "app", *args], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=120)
    return run


@pytest.mark.parametrize("contract, score, chelem, ok, text", [
    ("garde_contre", 550, False, True, "Attention"),
    ("garde_contre", 568, False, False, "le plus fort score possible est +550"),
    ("garde_contre", -574, False, True, "Attention"),
    ("garde_contre", -576, False, False, "le plus faible score possible est −574"),
    ("garde", 582, False, False, "qu’avec un chelem"),
    ("garde", 582, True, True, "possible pour une Garde"),
    ("garde", 340, True, False, "impossible pour une Garde"),
])
def test_cli_check_pins_the_validator(flask, contract, score, chelem, ok, text):
    args = ["score", "--contract", contract, "--check", str(score)]
    if chelem:
        args += ["--chelem", "announced_made"]
    out = flask(*args)
    assert out.returncode == (0 if ok else 1), (out.stdout, out.stderr)
    assert text in out.stdout + out.stderr


def test_cli_refuses_92_points(flask):
    out = flask("score", "--contract", "garde", "--points", "92", "--bouts", "3")
    assert out.returncode != 0 and "92" in out.stderr
    # 91 points is every card: the taker won every trick, a chelem (not announced: +200)
    out = flask("score", "--contract", "garde", "--points", "91", "--bouts", "3", "--chelem", "unannounced_made")
    assert out.returncode == 0 and out.stdout.splitlines()[0] == "+360"  # (25 + 55) × 2 + 200
    # without the chelem, the defence won a trick: 4 low cards at least (2 points), 89 at most
    out = flask("score", "--contract", "garde", "--points", "91", "--bouts", "3")
    assert out.returncode == 1 and "de 17 à 89 points" in out.stderr
