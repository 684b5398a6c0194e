"""The players import screen (issue 11, point 8): a preview first, nothing stored before the arbiter
confirms; the confirmation checks the list again."""

import html
import io
import re

from sqlmodel import Session

from duplicate import db, operations

EXCEL = "Licence;Nom;Prénom;Club\r\n0123;LEFÈVRE;Hélène;Saint-Étienne\r\n0124;;Claire;Lyon\r\n".encode("cp1252")


def _tournament(app) -> int:
    with Session(db.get_engine(app)) as session:
        tournament = operations.create_tournament(session, name="Import", kind="individual")
        session.commit()
        return tournament.id


def _players(app, tournament_id):
    with Session(db.get_engine(app)) as session:
        return [p.surname for p in operations.players(session, operations.get_tournament(session, tournament_id))]


def _confirm_fields(page: str) -> dict:
    return {"confirm": "1", "expected": re.search(r'name="expected" value="([0-9]+)"', page).group(1),
            "text": html.unescape(re.search(r'<textarea name="text" hidden>\n(.*?)</textarea>', page, re.S).group(1))}


def test_an_excel_file_is_previewed_then_imported_on_confirmation(app, arbiter):
    tournament_id = _tournament(app)
    url = f"/arbitre/tournois/{tournament_id}/joueurs/import"
    response = arbiter.post(url, data={"file": (io.BytesIO(EXCEL), "joueurs.csv")}, content_type="multipart/form-data")
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "LEFÈVRE" in page and "Hélène" in page and "Saint-Étienne" in page
    assert "1 joueur à ajouter" in page and "ligne 3 : Le nom est obligatoire." in page
    assert _players(app, tournament_id) == []                      # nothing stored by the preview
    confirmed = arbiter.post(url, data=_confirm_fields(page))
    assert confirmed.status_code == 302
    assert _players(app, tournament_id) == ["LEFÈVRE"]


def test_the_confirmation_checks_again(app, arbiter):
    tournament_id = _tournament(app)
    url = f"/arbitre/tournois/{tournament_id}/joueurs/import"
    page = arbiter.post(url, data={"text": "0123;DUPONT;Jean;Lyon\n0124;MARTIN;Claire;Lyon\n"}).get_data(as_text=True)
    fields = _confirm_fields(page)
    assert fields["expected"] == "2"
    with Session(db.get_engine(app)) as session:   # meanwhile, someone registers licence 0124 by hand
        operations.register_player(session, operations.get_tournament(session, tournament_id), licence="0124",
                                   surname="MARTIN", first_name="Claire", club="Lyon")
        session.commit()
    response = arbiter.post(url, data=fields)
    page = response.get_data(as_text=True)
    assert response.status_code == 200 and "a changé depuis l’aperçu" in page
    assert "ligne 2 : La licence 0124 est déjà inscrite dans ce tournoi." in page
    assert _players(app, tournament_id) == ["MARTIN"]


def test_a_file_nobody_can_read_is_refused_in_french(app, arbiter):
    tournament_id = _tournament(app)
    response = arbiter.post(f"/arbitre/tournois/{tournament_id}/joueurs/import",
                            data={"file": (io.BytesIO(b"\x81\x8d\x90;x;y"), "joueurs.csv")},
                            content_type="multipart/form-data")
    assert response.status_code == 422
    assert "ni en UTF-8 ni en Windows-1252" in response.get_data(as_text=True)


def test_the_trailing_empty_row_excel_leaves_is_skipped_and_counted_not_refused(app, arbiter):
    # issue 29 point 14: Excel saves a sheet with a last row of empty cells as « ;;; »; by hand: line 2 is
    # LEFÈVRE (accepted), line 3 has no name (refused), line 4 is « ;;; » (empty: skipped, counted)
    tournament_id = _tournament(app)
    url = f"/arbitre/tournois/{tournament_id}/joueurs/import"
    raw = EXCEL + b";;;\r\n"
    page = arbiter.post(url, data={"file": (io.BytesIO(raw), "joueurs.csv")},
                        content_type="multipart/form-data").get_data(as_text=True)
    assert "1 ligne refusée" in page and "ligne 3 : Le nom est obligatoire." in page
    assert "ligne 4" not in page
    assert "1 ligne vide ignorée." in page
    confirmed = arbiter.post(url, data=_confirm_fields(page), follow_redirects=True).get_data(as_text=True)
    assert "1 joueur importé, 1 ligne laissée de côté, 1 ligne vide ignorée." in confirmed
    assert _players(app, tournament_id) == ["LEFÈVRE"]
