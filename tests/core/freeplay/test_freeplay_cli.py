"""The free-play commands (`duplicate.freeplay_cli`, SPEC §10, §13): ``rank`` on a free file, ``movement
free``, ``movement check`` of a free movement, ``pcn``; the duplicate commands are left as they were."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from duplicate.core_cli import CORE_COMMANDS, main

from test_freeplay_ranking import SHEET

ROOT = Path(__file__).resolve().parents[3]


def run(*args, stdin=None):
    return CliRunner().invoke(main, list(args), input=stdin)


def test_commands_are_registered():
    assert {"deal", "score", "rank", "movement", "pcn"} <= set(CORE_COMMANDS)


@pytest.mark.parametrize("command", [["flask", "--app", "app"], ["duplicate"]], ids=["flask", "python-m"])
def test_rank_a_free_file_through_both_entry_points(tmp_path, command):
    """The booklet's feuille de marque, through ``flask --app app rank`` and ``python -m duplicate rank`` (the
    latter without click, `duplicate.rank`): S3 1346 first, W3 −510 last."""
    path = tmp_path / "libre.json"
    path.write_text(json.dumps(SHEET), encoding="utf-8")
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    out = subprocess.run([sys.executable, "-m", *command, "rank", str(path)], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert [(r["id"], r["total"]) for r in data["ranking"]] == [("S3", 1346), ("E3", -390), ("N3", -446), ("W3", -510)]
    assert data["results"][4]["scores"]["S3"] == 1746


def test_rank_refusal_names_the_result():
    bad = json.loads(json.dumps(SHEET))
    bad["results"][2]["bouts"] = 4
    out = run("rank", "-", stdin=json.dumps(bad))
    assert out.exit_code == 1
    assert "résultat n° 3 (table 3, position 1, donne 3) : nombre de bouts impossible" in out.output


def test_rank_still_ranks_a_duplicate_file():
    """A duplicate file goes to the duplicate reader: its own message for an unknown kind, or a ranking."""
    out = run("rank", "-", stdin=json.dumps({"format": "tarot-tournament/1", "kind": "quintettes"}))
    assert out.exit_code == 1 and "type de tournoi inconnu" in out.output
    one = {"format": "tarot-tournament/1", "kind": "individual", "name": "x",
           "players": [{"id": i, "name": i, "line": i[0]} for i in ("N1", "S1", "E1", "W1")],
           "boards": [{"number": 1, "taker": "N"}],
           "results": [{"board": 1, "table": 1, "taker": "N1", "defenders": ["S1", "E1", "W1"], "score": 56}]}
    out = run("rank", "-", stdin=json.dumps(one))
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["boards"][0]["results"][0]["taker_note"] == 50


def test_movement_free_and_check():
    """8 tables: 6 positions (booklet), W −1, the 5th position S +2 and E +3 (module docstring)."""
    out = run("movement", "free", "--tables", "8")
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert (data["kind"], data["tables"], data["positions"], len(data["rounds"])) == ("free", 8, 6, 48)
    assert data["moves"][3] == {"position": 5, "N": 0, "S": 2, "E": 3, "W": -1}
    checked = run("movement", "check", "-", stdin=out.output)
    assert checked.exit_code == 0 and "0 répétée" in checked.output  # 8 × 6 × 6 = 288 meetings
    assert "288 rencontres" in checked.output
    # a seat changed by hand: N1 moved to table 2 at position 2, beside N2 → seated twice, a repeat or more
    data["rounds"][8]["seats"]["S"] = "N1"
    broken = run("movement", "check", "-", stdin=json.dumps(data))
    assert broken.exit_code == 1 and "N1 est placé deux fois" in broken.output
    assert run("movement", "free", "--tables", "5", "--positions", "6").exit_code == 1
    assert run("movement", "individual", "--tables", "5").exit_code == 0  # the duplicate kinds unchanged


def test_movement_free_with_absent_howell_numbers():
    """15 players: the 4-table Howell without J16, 5 positions; 16 × 15 / 2 = 120 pairs less J16's 15 = 105
    meetings, none repeated, nobody twice at 3. 13 players: 4 positions, and 12 players at 3 three times
    (9 seats of 13 are at tables of 3 at every position): the check says so and exits 1, as it does for
    22 players whose tables of 3 cannot be avoided twice."""
    out = run("movement", "free", "--players", "15")
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert (data["tables"], data["positions"], data["absent_players"], data["three_player_tables"]) == (4, 5, ["J16"], [])
    checked = run("movement", "check", "-", stdin=out.output)
    assert checked.exit_code == 0 and checked.output.startswith("105 rencontres, 0 répétée")
    thirteen = run("movement", "free", "--players", "13")
    assert json.loads(thirteen.output)["absent_players"] == ["J8", "J12", "J16"]
    checked = run("movement", "check", "-", stdin=thirteen.output)
    assert checked.exit_code == 1 and "J1 joue à 3 aux positions 2, 3, 4" in checked.output
    refused = run("movement", "free", "--players", "14", "--positions", "5")
    assert refused.exit_code == 1 and "jouent au plus 4 positions" in refused.output


def test_pcn():
    """3 tables of free play: 120, 82, 57, 50, 50, 50 (the booklet's table, column 3)."""
    out = run("pcn", "--event", "free", "--tables", "3")
    assert out.exit_code == 0
    assert [p["pcn"] for p in json.loads(out.output)] == [120, 82, 57, 50, 50, 50]
    refused = run("pcn", "--event", "free_team4", "--tables", "4")
    assert refused.exit_code == 1 and "5 au moins" in refused.output


def test_movement_free_for_teams():
    """5 tables of duos: 5 − 1 = 4 positions (the 1st skipped), teams NS1 = N1 + S1…; the check of the
    file passes; with the teams of the individual movement's 1st position put back, N1 and S1 meet."""
    out = run("movement", "free", "--tables", "5", "--event", "free_duo")
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert (data["kind"], data["positions"], data["teams"][0]) == ("free_duo", 4, {"id": "NS1", "members": ["N1", "S1"]})
    assert run("movement", "check", "-", stdin=out.output).exit_code == 0
    individual = json.loads(run("movement", "free", "--tables", "5").output)
    individual["teams"] = data["teams"]
    broken = run("movement", "check", "-", stdin=json.dumps(individual))
    assert broken.exit_code == 1 and "N1 et S1, coéquipiers, se rencontrent aux positions 1" in broken.output


def test_pcn_file_for_the_federation():
    """12 players, 3 tables (the ranking test's deal: P1 +300, P2–P4 −100, 8 at 0): the CSV lists the
    licensed players with PCN, best first: P1 1st 120; the 8 at 0 share places 2–9: 289 / 8 rounded up is
    37, under the booklet's floor: 50 each (issue 29 point 7); P2–P4 (10th) get none and P6 has no licence: both left out."""
    ids = [f"P{i}" for i in range(1, 13)]
    data = {"kind": "free", "players": [{"id": i, "name": f"NOM {i}", "licence": f"0{i}"} for i in ids],
            "results": [{"table": 1, "position": 1, "deal": 1, "players": ids[:4], "taker": "P1",
                         "contract": "garde", "points": 76, "bouts": 1}]}
    del data["players"][5]["licence"]
    out = run("pcn", "--file", "-", stdin=json.dumps(data))
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[0] == "Licence;Nom;Place;PCN;PP" and lines[1] == "0P1;NOM P1;1;120;0"
    assert "0P5;NOM P5;2;50;0" in lines and not any(line.startswith("0P6;") for line in lines)
    assert len(lines) == 1 + 1 + 7  # the header, P1, the 7 licensed of the 8 at 0; P2–P4 (0 PCN) left out
