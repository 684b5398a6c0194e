"""Teams from a CSV list and back (issue 15 point 4): UTF-8 with or without BOM or Windows-1252, « ; », « , »
or a tab; a preview first, « Confirmer » only for a list with no refused line; a refused list changes
nothing; the export imports back unchanged."""

import html
import io
import re

from sqlmodel import Session

from duplicate import db, operations

TEAMS = ("Équipe;Licence;Nom;Prénom;Club\r\n"
         "Les Rois;101;LEFÈVRE;Hélène;Saint-Étienne\r\n" "Les Rois;102;MARTIN;Jean;Lyon\r\n"
         "Les Rois;103;DURAND;Zoé;Lyon\r\n" "Les Rois;104;PETIT;Luc;Lyon\r\n"
         "Les Dames;201;ROUX;Anne;Nice\r\n" "Les Dames;202;BLANC;Léa;Nice\r\n"
         "Les Dames;203;NOIR;Éva;Nice\r\n" "Les Dames;204;VERT;Ida;Nice\r\n" "Les Dames;205;GRIS;Noé;Nice\r\n")


def _tournament(app, kind="team_match") -> int:
    with Session(db.get_engine(app)) as session:
        tournament = operations.create_tournament(session, name="Équipes", kind=kind)
        session.commit()
        return tournament.id


def _teams(app, tid) -> dict[str, list[str]]:
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, tid)
        return {team.name: [p.surname for p in operations.team_members(session, team)]
                for team in operations.teams(session, tournament)}


def _confirm_fields(page: str) -> dict:
    return {"confirm": "1", "expected": re.search(r'name="expected" value="([0-9]+)"', page).group(1),
            "text": html.unescape(re.search(r'<textarea name="text" hidden>\n(.*?)</textarea>', page, re.S).group(1))}


def _upload(client, tid, raw: bytes):
    return client.post(f"/arbitre/tournois/{tid}/equipes/import", data={"file": (io.BytesIO(raw), "equipes.csv")},
                       content_type="multipart/form-data")


def test_a_teams_list_is_previewed_confirmed_and_exported_back(app, arbiter):
    tid = _tournament(app)
    preview = _upload(arbiter, tid, "\ufeff".encode() + TEAMS.encode())
    page = preview.get_data(as_text=True)
    assert preview.status_code == 200 and "2 équipes, 9 joueurs" in page and "LEFÈVRE Hélène (101)" in page
    assert _teams(app, tid) == {}                                       # the preview stores nothing
    done = arbiter.post(f"/arbitre/tournois/{tid}/equipes/import", data=_confirm_fields(page))
    assert done.status_code == 302
    assert _teams(app, tid) == {"Les Rois": ["LEFÈVRE", "MARTIN", "DURAND", "PETIT"],
                                "Les Dames": ["ROUX", "BLANC", "NOIR", "VERT", "GRIS"]}

    exported = arbiter.get(f"/arbitre/tournois/{tid}/equipes/export.csv")
    assert exported.mimetype == "text/csv"
    assert exported.data.decode("utf-8") == "\ufeff" + TEAMS              # same columns, order and names
    again = _tournament(app)
    page = _upload(arbiter, again, exported.data).get_data(as_text=True)
    assert arbiter.post(f"/arbitre/tournois/{again}/equipes/import", data=_confirm_fields(page)).status_code == 302
    assert _teams(app, again) == _teams(app, tid)


def test_windows_1252_with_commas_and_a_tab_separated_paste_without_header(app, arbiter):
    tid = _tournament(app, "quadrettes")
    raw = "équipe,licence,nom,prénom,club\nSud-Est,1,ÉLIE,René,Nîmes\nSud-Est,2,B,B,\nSud-Est,3,C,C,\nSud-Est,4,D,D,\n"
    page = _upload(arbiter, tid, raw.encode("cp1252")).get_data(as_text=True)
    assert "1 équipe, 4 joueurs" in page and "ÉLIE René" in page
    pasted = "Nord\t11\tA\tA\tX\nNord\t12\tB\tB\tX\nNord\t13\tC\tC\tX\nNord\t14\tD\tD\tX\n"
    page = arbiter.post(f"/arbitre/tournois/{tid}/equipes/import", data={"text": pasted}).get_data(as_text=True)
    assert "1 équipe, 4 joueurs" in page and "Confirmer" in page


def test_a_refused_list_changes_nothing(app, arbiter):
    tid = _tournament(app)
    short = TEAMS.replace("Les Rois;104;PETIT;Luc;Lyon\r\n", "")      # Les Rois: 3 players, a team needs 4 to 6
    response = arbiter.post(f"/arbitre/tournois/{tid}/equipes/import", data={"text": short})
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "ligne 2 : l’équipe « Les Rois » a 3 joueurs : il en faut 4 à 6" in page and "Confirmer :" not in page
    forced = arbiter.post(f"/arbitre/tournois/{tid}/equipes/import",
                          data={"confirm": "1", "expected": "8", "text": short})
    assert forced.status_code == 422 and _teams(app, tid) == {}
    with Session(db.get_engine(app)) as session:
        assert operations.players(session, operations.get_tournament(session, tid)) == []

    third = TEAMS + "Les Trois;301;A;A;\r\nLes Trois;302;B;B;\r\nLes Trois;303;C;C;\r\nLes Trois;304;D;D;\r\n"
    page = arbiter.post(f"/arbitre/tournois/{tid}/equipes/import", data={"text": third}).get_data(as_text=True)
    assert "un match par équipes oppose 2 équipes (3 avec celles de ce fichier)" in page
    page = arbiter.post(f"/arbitre/tournois/{tid}/equipes/import",
                        data={"text": TEAMS.replace(";102;", ";101;")}).get_data(as_text=True)
    assert "ligne 3 : La licence 101 est déjà inscrite dans ce tournoi." in page


def test_empty_rows_are_skipped_and_counted_not_refused(app, arbiter):
    # issue 29 point 14: the « ;;;; » row Excel leaves and a row of blank cells are no refused lines: the
    # list of 9 players still forms its 2 teams, and the import says « 2 lignes vides ignorées »
    tid = _tournament(app)
    preview = _upload(arbiter, tid, (TEAMS + " ; ; ; ; \r\n;;;;\r\n").encode())
    page = preview.get_data(as_text=True)
    assert preview.status_code == 200 and "lignes refusées" not in page
    assert "2 lignes vides ignorées." in page
    done = arbiter.post(f"/arbitre/tournois/{tid}/equipes/import", data=_confirm_fields(page), follow_redirects=True)
    assert "2 équipes formées, 9 joueurs inscrits, 2 lignes vides ignorées." in done.get_data(as_text=True)
    assert sorted(_teams(app, tid)) == ["Les Dames", "Les Rois"]
