"""The hand-worked ranking vectors (``tests/ranking_vectors.py``: weights ¼ + ¾ and ½ + ½, ex æquo, the
alternated order across lines, an entrant with no deal, a taker's per-étui penalty, repeated penalties)
at the outer layers (issue 17): the JSON API after an import into the database (SQLite and PostgreSQL),
the command line (``flask rank FILE``, ``flask import`` then ``flask print ranking``) and the printed
ranking read back with pdftotext.  Every expected number is typed in the vectors module, never taken
from the application."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from sqlmodel import Session

import ranking_vectors as vectors
from duplicate import db, interchange, operations

ROOT = Path(__file__).resolve().parents[2]

FILES = {
    "individual": (lambda: vectors.individual_file(), vectors.INDIVIDUAL),
    "triplettes": (lambda: vectors.triplettes_file(), vectors.TRIPLETTES),
}


def _expected_rows(table):
    """id → (attack, defence, global, rank, alternated) as the §9 output's floats."""
    return {ident: (None if a is None else float(a), None if d is None else float(d), float(g), rank, alt)
            for ident, (a, d, g, rank, alt) in table.items()}


def _same(actual, expected) -> bool:
    """Element by element: None and whole numbers exactly, percentages to 1e-9 (the output's floats)."""
    return len(actual) == len(expected) and all(
        a == e if e is None or isinstance(e, int) else a is not None and abs(a - e) < 1e-9
        for a, e in zip(actual, expected))


def _published_ranking(app, client, data) -> dict:
    with Session(db.get_engine(app)) as session:
        tournament = interchange.import_tournament(session, json.dumps(data))
        operations.publish(session, tournament, True, "arbitre")
        session.commit()
        tournament_id = tournament.id
    response = client.get(f"/api/tournaments/{tournament_id}/ranking")
    assert response.status_code == 200
    return response.get_json()


def _rows(output) -> dict:
    return {row["id"]: (row["attack"], row["defence"], row["global"], row["rank"], row["alternated_rank"])
            for row in output["ranking"]}


# --- the API (SQLite and PostgreSQL) -------------------------------------------------------------------

@pytest.mark.parametrize("kind", FILES)
def test_api_ranking_is_the_hand_worked_vector(app, client, kind):
    build, table = FILES[kind]
    output = _published_ranking(app, client, build())
    rows = _rows(output)
    expected = _expected_rows(table)
    assert rows.keys() == expected.keys()
    for ident, values in expected.items():
        assert _same(rows[ident], values), (ident, rows[ident], values)


def test_api_ranking_with_penalties_and_an_entrant_without_deal(app, client):
    output = _published_ranking(app, client, vectors.individual_file(penalties=True))
    rows = {row["id"]: row for row in output["ranking"]}
    for ident, (attack, defence, global_, penalty, rank, alternated) in vectors.PENALISED.items():
        row = rows[ident]
        assert _same((row["attack"], row["defence"], row["global"], row["penalty"]),
                     (float(attack), float(defence), float(global_), float(penalty))), ident
        assert (row["rank"], row["alternated_rank"]) == (rank, alternated), ident
    n4 = rows["N4"]
    assert (n4["attack"], n4["defence"], n4["global"], n4["flagged"]) == (None, None, 0.0, True)
    assert (n4["attack_boards"], n4["defence_boards"], n4["rank"]) == (0, 0, 13)
    assert (rows["E1"]["attack_boards"], rows["E1"]["defence_boards"]) == (1, 3)


# --- the command line ----------------------------------------------------------------------------------

@pytest.fixture
def flask(tmp_path, sqlite_template):
    """``flask(*args)``: a ``flask --app app`` command on a SQLite file already at the head (a copy of the
    migrated template: tests/test_migrations.py migrates from empty), as a user types it."""
    import os
    import shutil
    shutil.copy(sqlite_template, tmp_path / "cli.sqlite3")
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'cli.sqlite3'}", "PYTHONIOENCODING": "utf-8"}

    def run(*args):
        return subprocess.run([sys.executable, "-m", "flask", "--app", "app", *args], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=180)
    return run


@pytest.mark.parametrize("kind", FILES)
def test_cli_rank_is_the_hand_worked_vector(flask, tmp_path, kind):
    build, table = FILES[kind]
    path = tmp_path / f"{kind}.json"
    path.write_text(json.dumps(build()), encoding="utf-8")
    out = flask("rank", str(path))
    assert out.returncode == 0, out.stderr
    rows = _rows(json.loads(out.stdout))
    for ident, values in _expected_rows(table).items():
        assert _same(rows[ident], values), (ident, rows[ident], values)


def test_cli_rank_with_penalties(flask, tmp_path):
    path = tmp_path / "penalties.json"
    path.write_text(json.dumps(vectors.individual_file(penalties=True)), encoding="utf-8")
    out = flask("rank", str(path))
    assert out.returncode == 0, out.stderr
    rows = {row["id"]: row for row in json.loads(out.stdout)["ranking"]}
    assert (rows["N2"]["attack"], rows["N2"]["global"]) == (90.0, 60.0)
    assert (rows["E3"]["global"], rows["E3"]["penalty"]) == (90.25, 3.5)
    assert rows["S3"]["global"] == 42.5 and rows["S3"]["alternated_rank"] == 10


# --- the printed ranking -------------------------------------------------------------------------------

def _printed_text(flask, tmp_path, data) -> str:
    path = tmp_path / "tournoi.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    imported = flask("import", str(path))
    assert imported.returncode == 0, imported.stderr
    tournament_id = imported.stdout.split()[-1]  # « Tournoi « … » importé. » then its id
    pdf = tmp_path / "classements.pdf"
    printed = flask("print", "ranking", "--tournament", tournament_id, "--out", str(pdf))
    assert printed.returncode == 0, printed.stderr
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout


ROW = re.compile(r"^\s*(?P<place>\d+)(?P<tie> ex æquo)?\s+(?:(?P<general>\d+)\s+)?\S+\s+"
                 r"(?:JOUEUR|ÉQUIPE) (?P<id>\S+)(?P<rest>.*)$")


def _printed_tables(text: str) -> tuple[list[dict], list[dict]]:
    """The rows of the general and of the alternated ranking, top to bottom: place, tie, general place
    (alternated table only), id and the numbers of the line (« — » for none)."""
    general_text, alternated_text = text.split("Classement alterné\n", 1)
    tables = []
    for part in (general_text, alternated_text):
        rows = []
        for line in part.splitlines():
            match = ROW.match(line)
            if match:
                rows.append({"place": int(match["place"]), "tie": bool(match["tie"]), "id": match["id"],
                             "general": int(match["general"]) if match["general"] else None,
                             "flagged": match["rest"].startswith(" *"),
                             "numbers": re.findall(r"\d+,\d\d|—", match["rest"])})
        tables.append(rows)
    return tables[0], tables[1]


def _printed_numbers(attack, defence, penalty, global_) -> list[str]:
    """What a row shows, typed by hand: attack, defence, the penalty when there is one, global."""
    shown = ["—" if attack is None else vectors.french(attack), "—" if defence is None else vectors.french(defence)]
    return shown + ([vectors.french(penalty)] if penalty else []) + [vectors.french(global_)]


@pytest.mark.parametrize("penalties", [False, True], ids=["plain", "penalties"])
def test_printed_individual_ranking_is_the_hand_worked_vector(flask, tmp_path, penalties):
    text = _printed_text(flask, tmp_path, vectors.individual_file(penalties=penalties))
    assert "Global = ¼ attaque + ¾ défense" in text
    expected = {ident: (a, d, 0, g, rank, alt) for ident, (a, d, g, rank, alt) in vectors.INDIVIDUAL.items()}
    if penalties:
        expected.update({ident: (a, d, pen, g, rank, alt)
                         for ident, (a, d, g, pen, rank, alt) in vectors.PENALISED.items()})
    general, alternated = _printed_tables(text)
    # best first, ties in id order
    assert [row["id"] for row in general] == sorted(expected, key=lambda i: (expected[i][4], i))
    assert [row["id"] for row in alternated] == sorted(expected, key=lambda i: (expected[i][5], i))
    for row in general:
        attack, defence, penalty, global_, rank, _alt = expected[row["id"]]
        assert row["numbers"] == _printed_numbers(attack, defence, penalty, global_), row
        assert row["place"] == rank and row["flagged"] == (attack is None), row
        assert row["tie"] == ([e[4] for e in expected.values()].count(rank) > 1), row
    for row in alternated:
        attack, defence, penalty, global_, rank, alt = expected[row["id"]]
        assert (row["place"], row["general"]) == (alt, rank), row
        assert row["numbers"] == _printed_numbers(attack, defence, penalty, global_), row
        assert row["tie"] == ([e[5] for e in expected.values()].count(alt) > 1), row
    footer = " ".join(text.split())
    if penalties:
        assert "Pénalité : JOUEUR N2 (N2), 10,00 sur l’étui 1 — retard." in footer
        assert "Pénalité : JOUEUR E3 (E3), 1,50 — bavardage." in footer
    else:
        assert "Pénalité" not in footer.replace("Pénalité Global", "")


def test_printed_triplettes_ranking_is_the_hand_worked_vector(flask, tmp_path):
    text = _printed_text(flask, tmp_path, vectors.triplettes_file())
    assert "Global = ½ attaque + ½ défense" in text
    general, alternated = _printed_tables(text)
    table = vectors.TRIPLETTES
    assert [row["id"] for row in general] == ["NS2", "EW1", "EW3", "NS1", "NS3", "EW2"]
    assert [row["id"] for row in alternated] == ["NS2", "EW1", "EW3", "NS1", "NS3", "EW2"]
    for row in general:
        attack, defence, global_, rank, _alt = table[row["id"]]
        assert row["numbers"] == _printed_numbers(attack, defence, 0, global_), row
        assert row["place"] == rank, row
    for row in alternated:
        _a, _d, _g, rank, alt = table[row["id"]]
        assert (row["place"], row["general"], row["tie"]) == (alt, rank, False), row
