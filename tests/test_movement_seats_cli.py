"""Issue 29 point 6 through the commands: ``flask --app app rank``, ``python -m duplicate rank`` and
``flask --app app import`` refuse a file whose result puts the taker in a defender's seat, whose movement
gives an étui another taker than ``boards``, or whose movement seats a player at two tables in one position
(exit status 1, the core's French message naming the faulty line); the correct file passes."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlmodel import func, select

from duplicate import db, models
from tests.core.test_movement_seats import swap_taker, text, tournament_file

ROOT = Path(__file__).resolve().parents[1]


def taker_in_defence(players):
    data = tournament_file(players)
    true, false = swap_taker(data, 3)
    return data, f"le preneur est « {true} », pas « {false} » (qui est en défense)"


def contradicting_taker(players):
    data = tournament_file(players)
    seat = data["movement"]["boards"][1]["taker"]
    data["movement"]["boards"][1]["taker"] = other = {"N": "E", "E": "S", "S": "W", "W": "N"}[seat]
    return data, f"étui 2 : le mouvement le fait prendre en {other}, « boards » en {seat}"


def seated_twice(players):
    data = tournament_file(players)
    rounds = data["movement"]["rounds"]
    first = next(r for r in rounds if r["position"] == 1 and r["table"] == 1)
    second = next(r for r in rounds if r["position"] == 1 and r["table"] == 3)
    second["seats"]["N"] = first["seats"]["N"]
    return data, f"mouvement : en position 1, « {first['seats']['N']} » est placé à deux tables (1 et 3)"


FAULTS = [(taker_in_defence, 12), (contradicting_taker, 13), (seated_twice, 26), (taker_in_defence, 61),
          (seated_twice, 13), (contradicting_taker, 61)]


def run(*args):
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("fault, players", FAULTS[:3])
def test_rank_refuses_each_contradiction_with_both_entry_points(tmp_path, fault, players):
    data, message = fault(players)
    path = tmp_path / "faux.json"
    path.write_text(text(data), encoding="utf-8")
    for command in (["-m", "flask", "--app", "app", "rank", str(path)], ["-m", "duplicate", "rank", str(path)]):
        out = run(*command)
        assert out.returncode == 1, out.stdout[:200]
        assert out.stdout == "" and out.stderr.startswith("Erreur : ligne ") and message in out.stderr


def test_rank_accepts_the_correct_file(tmp_path):
    path = tmp_path / "juste.json"
    path.write_text(text(tournament_file(26)), encoding="utf-8")
    out = run("-m", "duplicate", "rank", str(path))
    assert out.returncode == 0, out.stderr
    assert len(json.loads(out.stdout)["ranking"]) == 26


@pytest.mark.parametrize("fault, players", FAULTS)
def test_import_refuses_each_contradiction_and_writes_nothing(app, runner, tmp_path, fault, players):
    data, message = fault(players)
    path = tmp_path / "faux.json"
    path.write_text(text(data), encoding="utf-8")
    result = runner.invoke(args=["import", str(path)])
    assert result.exit_code == 1
    assert result.stderr.startswith("Erreur : ligne ") and message in result.stderr
    with app.app_context():
        assert db.get_session().exec(select(func.count()).select_from(models.Tournament)).one() == 0


def test_import_accepts_the_correct_file(app, runner, tmp_path):
    path = tmp_path / "juste.json"
    path.write_text(text(tournament_file(13)), encoding="utf-8")
    result = runner.invoke(args=["import", str(path)])
    assert result.exit_code == 0, result.output
