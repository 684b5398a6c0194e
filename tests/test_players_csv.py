"""Players lists as clubs have them (issue 11, point 8): UTF-8, UTF-8 with BOM, Windows-1252 (Excel on a
French Windows), « ; » or « , », header or not; a preview that stores nothing, one line per refused row."""

import pytest
from sqlmodel import Session, func, select

from duplicate import db, operations as ops, players_csv
from duplicate.models import Player

ROWS = [("0123", "DUPONT", "Jean", "Lyon"), ("0124", "LEFÈVRE", "Hélène", "Saint-Étienne")]


@pytest.fixture
def session(app):
    with Session(db.get_engine(app)) as session:
        yield session


def _count(session):
    return session.exec(select(func.count()).select_from(Player)).one()


def _file(separator=";", header=True, encoding="utf-8", newline="\r\n"):
    lines = ([separator.join(("Licence", "Nom", "Prénom", "Club"))] if header else []) + \
            [separator.join(row) for row in ROWS]
    return (newline.join(lines) + newline).encode(encoding)


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp1252", "utf-16"])
@pytest.mark.parametrize("separator", [";", ",", "\t"])
@pytest.mark.parametrize("header", [True, False])
def test_every_way_clubs_save_a_list(session, encoding, separator, header):
    tournament = ops.create_tournament(session, name="X", kind="individual")
    added = ops.import_players_csv(session, tournament, _file(separator, header, encoding))
    assert [(p.licence, p.surname, p.first_name, p.club) for p in added] == ROWS


def test_windows_1252_accents_are_read_not_mangled():
    raw = "0124;LEFÈVRE;Hélène;Saint-Étienne\r\n".encode("cp1252")
    assert raw.count(b"\xc8") == 1  # « È » in Windows-1252: not valid UTF-8
    assert players_csv.decode_text(raw) == "0124;LEFÈVRE;Hélène;Saint-Étienne\r\n"
    with pytest.raises(ValueError, match="ni en UTF-8 ni en Windows-1252"):
        players_csv.decode_text(b"\x81\x8d\x90")


def test_a_comma_in_a_club_name_does_not_change_the_separator(session):
    tournament = ops.create_tournament(session, name="X", kind="individual")
    text = "0123;DUPONT;Jean;Paris, 15e\n0124;MARTIN;Claire;Lyon\n0125;ROUX;Anne;Vienne\n"
    added = ops.import_players_csv(session, tournament, text)
    assert [p.club for p in added] == ["Paris, 15e", "Lyon", "Vienne"]


def test_the_preview_stores_nothing_and_gives_one_line_per_refused_row(session):
    tournament = ops.create_tournament(session, name="X", kind="individual")
    ops.register_player(session, tournament, licence="0999", surname="DÉJÀ", first_name="Là", club="")
    text = ("Licence;Nom;Prénom;Club\n"
            "0123;DUPONT;Jean;Lyon\n"
            "01 26;;;Lyon\n"            # two problems on one line: no name, no first name, bad licence
            "0999;BIS;Jean;Lyon\n")     # already registered
    accepted, refused, _empty = ops.preview_players_csv(session, tournament, text)
    assert [row["surname"] for row in accepted] == ["DUPONT"] and accepted[0]["line"] == 2
    assert [line for line, _ in refused] == [3, 4]
    assert "Le nom est obligatoire." in refused[0][1] and "Le prénom est obligatoire." in refused[0][1]
    assert "invalide" in refused[0][1] and " ; " in refused[0][1]
    assert "déjà inscrite" in refused[1][1]
    assert _count(session) == 1


def test_a_confirmed_preview_adds_the_accepted_rows_only(session):
    tournament = ops.create_tournament(session, name="X", kind="individual")
    text = "0123;DUPONT;Jean;Lyon\n0124;;Claire;Lyon\n"
    with pytest.raises(ops.CsvImportError):
        ops.import_players_csv(session, tournament, text)  # all or none by default (CLI, API)
    added = ops.import_players_csv(session, tournament, text, skip_refused=True)
    assert [p.surname for p in added] == ["DUPONT"] and _count(session) == 1
    with pytest.raises(ops.CsvImportError, match="déjà inscrite"):
        ops.import_players_csv(session, tournament, text, skip_refused=True)  # nothing left to add


def test_an_empty_row_is_counted_not_refused():
    # line 1 blank, line 3 « ;;; » (Excel's trailing row), line 4 cells of spaces: 3 empty lines, 1 player
    rows, errors, empty = players_csv.parse_players_csv("\n0123;DUPONT;Jean;Lyon\n;;;\n ; ;  ; \n")
    assert [number for number, _ in rows] == [2] and errors == [] and empty == 3
