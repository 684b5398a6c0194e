"""The command line of SPEC §10, run as a user would: ``flask --app app ...``."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def flask(tmp_path):
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'cli.sqlite3'}", "PYTHONIOENCODING": "utf-8"}

    def run(*args, stdin=None):
        return subprocess.run([sys.executable, "-m", "flask", "--app", "app", *args], cwd=ROOT, env=env,
                              input=stdin, capture_output=True, text=True, timeout=120)
    return run


def test_score_prints_the_signed_score_first(flask):
    out = flask("score", "--contract", "garde", "--points", "49", "--bouts", "2", "--poignee", "simple",
                "--petit-au-bout", "taker")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "+106"
    assert "Garde faite de 8" in lines[1] and "+318" in lines[2]
    failed = flask("score", "--contract", "prise", "--points", "34", "--bouts", "2", "--poignee", "simple",
                   "--petit-au-bout", "taker")
    assert failed.stdout.splitlines()[0] == "-42"
    chelem = flask("score", "--points", "87", "--bouts", "2", "--poignee", "simple", "--petit-au-bout", "taker",
                   "--chelem", "announced_made")
    assert chelem.stdout.splitlines()[0] == "+582"


def test_score_check(flask):
    bad = flask("score", "--contract", "garde", "--check", "31")
    assert bad.returncode == 1
    assert "impossible pour une Garde" in bad.stderr and "toujours pair" in bad.stderr
    good = flask("score", "--contract", "garde", "--check", "106")
    assert good.returncode == 0 and good.stdout.splitlines()[0] == "+106"
    extreme = flask("score", "--check", "-212")
    assert extreme.returncode == 0 and "Attention" in extreme.stdout


def test_deal_is_reproducible_json(flask):
    first = flask("deal", "--boards", "4", "--seed", "club-2026")
    second = flask("deal", "--boards", "4", "--seed", "club-2026")
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    data = json.loads(first.stdout)
    assert data["format"] == "tarot-deals/1" and len(data["boards"]) == 4
    assert {board["taker"] for board in data["boards"]} == {"N", "S", "E", "W"}


def _tournament(results):
    players = [{"id": f"{line}{table}", "name": f"J {line}{table}", "line": line}
               for table in (1, 2, 3) for line in "NSEW"]
    return {"format": "tarot-tournament/1", "name": "Essai", "kind": "individual",
            "players": players, "results": results}


def _result(board, table, score):
    return {"board": board, "table": table, "taker": f"N{table}",
            "defenders": [f"S{table}", f"E{table}", f"W{table}"], "score": score}


def test_rank_outputs_the_ranking(flask, tmp_path):
    path = tmp_path / "t.json"
    path.write_text(json.dumps(_tournament([_result(1, 1, 56), _result(1, 2, 62), _result(1, 3, -56)])))
    out = flask("rank", str(path))
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["kind"] == "individual"
    assert [r["taker_note"] for r in data["boards"][0]["results"]] == [50.0, 100.0, 0.0]


@pytest.mark.parametrize("content, message", [
    ('{"kind": "individual",\n "results": [\n', "ligne 3 : JSON mal formé"),
    (json.dumps(_tournament([_result(1, 1, 56), {**_result(1, 2, 56), "taker": "Z2"}]), indent=1),
     "joueur inconnu « Z2 »"),
    (json.dumps(_tournament([_result(1, 1, 57)]), indent=1), "score +57 impossible"),
    (json.dumps(_tournament([_result(1, 1, 56), {**_result(1, 2, 60), "defenders": ["S1", "E2", "W2"]}]), indent=1),
     "« S1 » joue l’étui 1 une deuxième fois"),
])
def test_rank_refuses_bad_files(flask, tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    out = flask("rank", str(path))
    assert out.returncode == 1
    assert message in out.stderr and "ligne" in out.stderr


def test_movement_generate_and_check(flask, tmp_path):
    out = flask("movement", "individual", "--tables", "5")
    assert out.returncode == 0, out.stderr
    movement = json.loads(out.stdout)
    assert movement["format"] == "tarot-movement/1" and movement["positions"] == 5
    tables_of_board_1 = [r["table"] for r in sorted(movement["rounds"], key=lambda r: r["position"])
                         if 1 in r["boards"]]
    assert tables_of_board_1 == [1, 5, 4, 3, 2]
    path = tmp_path / "movement.json"
    path.write_text(json.dumps(movement))
    ok = flask("movement", "check", str(path))
    assert ok.returncode == 0 and "mouvement valide" in ok.stdout
    # the same étuis given twice to table 1: the player N1 plays them twice
    first = next(r for r in movement["rounds"] if r["table"] == 1 and r["position"] == 1)
    second = next(r for r in movement["rounds"] if r["table"] == 1 and r["position"] == 2)
    second["boards"] = list(first["boards"])
    path.write_text(json.dumps(movement))
    broken = flask("movement", "check", str(path))
    assert broken.returncode == 1
    assert "N1" in broken.stdout


def test_a_team_match_movement_of_16_etuis(flask):
    """Issue 29 point 10: 4 quarters of 4 étuis (seed « DUPLICATE PAR ÉQUIPES » : 16 à 24 donnes) —
    quarter q plays étuis 4q − 3 … 4q in both rooms; 16 étuis in all."""
    out = flask("movement", "team_match", "--tables", "2", "--boards-per-position", "4")
    assert out.returncode == 0, out.stderr
    movement = json.loads(out.stdout)
    assert len(movement["boards"]) == 16
    assert [(r["position"], r["table"], r["boards"]) for r in movement["rounds"]] == [
        (q, t, list(range(4 * q - 3, 4 * q + 1))) for q in (1, 2, 3, 4) for t in (1, 2)]


def test_movement_too_many_positions_says_what_is_possible(flask):
    out = flask("movement", "individual", "--tables", "6", "--positions", "7")
    assert out.returncode == 1
    assert "au plus 5 positions" in out.stderr


def test_rank_reads_the_evening_changes(flask, tmp_path):
    """SPEC §11 marks through ``flask rank``: N1 withdrawn, S2 « hors classement », a substitute X1 for N2."""
    data = _tournament([{**_result(1, table, score), "position": 1} for table, score in ((1, 56), (2, 62), (3, -56))])
    for player in data["players"]:
        if player["id"] == "N1":
            player["withdrawn"] = {"position": 1}
        if player["id"] == "S2":
            player["out_of_ranking"] = True
    data["players"].append({"id": "X1", "name": "REMPLAÇANT", "line": "N"})
    data["substitutions"] = [{"seat": "N2", "player": "X1", "from_position": 1, "results_to": "substitute"}]
    path = tmp_path / "t.json"
    path.write_text(json.dumps(data))
    out = flask("rank", str(path))
    assert out.returncode == 0, out.stderr
    rows = {row["id"]: row for row in json.loads(out.stdout)["ranking"]}
    assert rows["N1"]["withdrawn"] == {"position": 1}
    assert rows["N1"]["rank"] == max(r["rank"] for r in rows.values() if r["rank"] is not None)
    assert (rows["S2"]["rank"], rows["S2"]["out_of_ranking"]) == (None, True)
    # X1 took N2's place at table 2 from position 1: X1 has N2's attack note (100), N2 none
    assert (rows["X1"]["attack"], rows["X1"]["rank"], rows["N2"]["attack"]) == (100.0, None, None)


def test_python_m_duplicate_runs_the_core_commands_without_flask(flask, tmp_path):
    """``python -m duplicate rank FILE`` prints what ``flask --app app rank FILE`` prints, refuses a bad file
    with the same message, and imports no Flask (nor any database or PDF library), nor even click."""
    path = tmp_path / "t.json"
    path.write_text(json.dumps(_tournament([_result(1, 1, 56), _result(1, 2, 62), _result(1, 3, -56)])))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(_tournament([_result(1, 1, 57)]), indent=1))

    def python_m(*args):
        code = ("import runpy, sys\nsys.argv = ['duplicate', *sys.argv[1:]]\ntry:\n"
                "    runpy.run_module('duplicate', run_name='__main__')\nfinally:\n"
                "    heavy = [m for m in ('flask', 'click', 'sqlalchemy', 'sqlmodel', 'weasyprint', 'jinja2') if m in sys.modules]\n"
                "    print(','.join(heavy), file=sys.stderr)\n")
        return subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True,
                              timeout=120, env={**os.environ, "PYTHONIOENCODING": "utf-8"})

    fast, slow = python_m("rank", str(path)), flask("rank", str(path))
    assert fast.returncode == 0 and fast.stdout == slow.stdout and fast.stderr.strip() == ""
    fast, slow = python_m("rank", str(bad)), flask("rank", str(bad))
    assert fast.returncode == slow.returncode == 1
    assert fast.stderr.splitlines()[0] == slow.stderr.strip() and "score +57 impossible" in slow.stderr
    assert fast.stderr.splitlines()[1:] == [""]
