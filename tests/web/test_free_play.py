"""Free play on the web (issue 16, SPEC §13): creation, registration, the FFT movement with its tables of 3,
the feuille de marque (marks derived by hand below), the ranking, publication and the export.

Marks derived by hand from the rules (rules-of-play « La marque », booklet p. 8–11; SPEC §3):

* 4 players, Garde made by 10 (2 bouts, 51 points: 41 needed): (25 + 10) × 2 = 70 per defender → the taker
  +210 (« trois fois ce total »), each defender −70.
* 4 players, Prise failed by 6 (1 bout, 45 points: 51 needed): 25 + 6 = 31 → taker −93, defenders +31.
* 4 players, Garde made by 10 (3 bouts, 46 points: 36 needed) with a simple poignée (20, to the winning
  side) and the petit au bout to the attack (10 × 2): 70 + 20 + 20 = 110 → taker +330, defenders −110.
* 3 players, Garde with 2 bouts and 40½ points: « le ½ point va toujours au camp gagnant » → 40, failed
  by 1: (25 + 1) × 2 = 52 → taker −104 (« multipliés par 2 »), each of the two defenders +52.
* Everyone passed: 0 for all.
"""

import json
import re

import pytest
from sqlmodel import Session, select

from duplicate import db, operations
from duplicate.core.freeplay.movements import free_movement
from duplicate.core.freeplay.tournament import rank_free
from duplicate.models import FreeSheet, JournalEntry, Player

PLAYERS = 18  # 5 tables: the core removes two Norths (two tables of 3)


#: The tournament of these tests (and of test_free_printing's), as `tournament_factory` creates it.
EVENING = {"name": "Mardi libre", "date": "2026-11-24"}


@pytest.fixture
def seated(free_evening_factory):
    return free_evening_factory(PLAYERS, "mardi", form={"positions": ""}, **EVENING)


def _seats(app, tournament_id: int, position: int, table: int) -> dict:
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, tournament_id)
        return operations.freeplay.table_seats(session, tournament, position, table)


def _row(i: int, **values) -> dict:
    return {f"{name}-{i}": value for name, value in values.items()}


def _post_sheet(client, tournament_id, position, table, rows: list[dict], version="", **extra):
    data = {"rows": str(len(rows)), "version": version, **extra}
    for i, row in enumerate(rows):
        data.update(_row(i, **row))
    return client.post(f"/arbitre/tournois/{tournament_id}/libre/feuilles/{position}/{table}", data=data)


def _four_and_three(app, tournament_id):
    """(a table of 4 and a table of 3 at position 1, with their seats)."""
    rounds, three = free_movement(players=PLAYERS)
    four = next(r.table for r in rounds if r.position == 1 and len(r.players()) == 4)
    return (four, _seats(app, tournament_id, 1, four)), (min(three), _seats(app, tournament_id, 1, min(three)))


def test_create_register_and_seat_by_the_core_movement(app, arbiter, seated):
    page = arbiter.get(f"/arbitre/tournois/{seated}/libre/mouvement").get_data(as_text=True)
    rounds, three = free_movement(players=PLAYERS)
    assert len(three) == 2 and "5 tables" in page
    assert f"Tables à 3 joueurs : <strong>{', '.join(map(str, sorted(three)))}</strong>" in page
    with Session(db.get_engine(app)) as session:
        people = session.exec(select(Player).where(Player.tournament_id == seated)).all()
    first = {p for r in rounds if r.position == 1 for p in r.players()}
    assert {p.entrant_id for p in people} == first  # every player on a starting seat of the movement
    dashboard = arbiter.get(f"/arbitre/tournois/{seated}/").get_data(as_text=True)
    assert "Donnes libres" in dashboard and "Feuilles de marque" in dashboard and "Étuis" not in dashboard


def test_feuille_marks_and_foot_by_hand(app, arbiter, seated):
    (four, seats), _ = _four_and_three(app, seated)
    north, south, east, west = seats["N"], seats["S"], seats["E"], seats["W"]
    response = _post_sheet(arbiter, seated, 1, four, [
        {"taker": south, "contract": "garde", "points": "51", "bouts": "2"},
        {"passed": "1"},
        {"taker": east, "contract": "prise", "points": "45", "bouts": "1"},
        {"taker": north, "contract": "garde", "points": "46", "bouts": "3", "poignees": "s", "petit": "taker"},
        {},  # a blank row is ignored
    ])
    assert response.status_code == 302, response.get_data(as_text=True)
    page = arbiter.get(f"/arbitre/tournois/{seated}/libre/feuilles/1/{four}").get_data(as_text=True)
    table = page[page.index("free-marks"):]
    # deal 1: S +210, the others −70; deal 2: passe; deal 3: E −93, +31; deal 4: N +330, −110
    assert re.search(r"<td class=\"number\">1</td>\s*<td>.*?</td>\s*"
                     r"<td class=\"number\">−70</td>\s*<td class=\"number\">\+210</td>\s*"
                     r"<td class=\"number\">−70</td>\s*<td class=\"number\">−70</td>", table, re.S)
    bilans = {north: -70 + 31 + 330, south: 210 + 31 - 110, east: -70 - 93 - 110, west: -70 + 31 - 110}
    assert sum(bilans.values()) == 0
    foot = table[table.index('class="bilan"'):]
    for seat in (north, south, east, west):
        assert f"{bilans[seat]:+d}".replace("-", "−") in foot
    assert "Somme des bilans : 0 — la feuille est juste." in page
    with Session(db.get_engine(app)) as session:
        entry = session.exec(select(JournalEntry).where(JournalEntry.action == "freeplay.sheet.create")).one()
        assert entry.after["donnes"][1] == {"deal": 2, "passed": True}
        assert f"table {four}, position 1" in entry.summary


def test_table_of_three_half_point_to_the_winning_side(app, arbiter, seated):
    _, (three, seats) = _four_and_three(app, seated)
    assert seats["N"] is None
    taker = seats["S"]
    response = _post_sheet(arbiter, seated, 1, three, [{"taker": taker, "contract": "garde", "points": "40,5", "bouts": "2"}])
    assert response.status_code == 302, response.get_data(as_text=True)
    page = arbiter.get(f"/arbitre/tournois/{seated}/libre/feuilles/1/{three}").get_data(as_text=True)
    assert "Table à 3 joueurs" in page and 'value="40,5"' in page
    marks = page[page.index("free-marks"):page.index("<tfoot>")]
    assert marks.count(">+52<") == 2 and marks.count(">−104<") == 1


def test_refused_sheet_keeps_what_was_typed(app, arbiter, seated):
    (four, seats), _ = _four_and_three(app, seated)
    response = _post_sheet(arbiter, seated, 1, four, [
        {"taker": seats["S"], "contract": "garde", "points": "51", "bouts": "2"},
        {"taker": seats["E"], "contract": "garde", "points": "95", "bouts": "2"},
    ])
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "Feuille refusée, rien n’est enregistré : Donne 2 :" in page
    assert 'value="95"' in page and 'value="51"' in page
    response = _post_sheet(arbiter, seated, 1, four, [{"contract": "garde", "points": "50", "bouts": "2"}])
    assert response.status_code == 422 and "le preneur manque" in response.get_data(as_text=True)
    with Session(db.get_engine(app)) as session:
        assert session.exec(select(FreeSheet)).all() == []


def test_two_people_saving_one_sheet_never_overwrite_silently(app, arbiter, seated):
    (four, seats), _ = _four_and_three(app, seated)
    first = [{"taker": seats["S"], "contract": "garde", "points": "51", "bouts": "2"}]
    other = [{"taker": seats["E"], "contract": "prise", "points": "60", "bouts": "1"}]
    assert _post_sheet(arbiter, seated, 1, four, first, version="").status_code == 302
    # a second person whose form was built before the first save (no sheet then)
    response = _post_sheet(arbiter, seated, 1, four, other, version="")
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "enregistrée entre-temps" in page and 'value="60"' in page and "Remplacer" in page
    with Session(db.get_engine(app)) as session:
        sheet = session.exec(select(FreeSheet)).one()
        assert sheet.deals[0]["taker"] == seats["S"]
        current = sheet.version_id
    # Enter again (same stale version): refused again; « Remplacer » with the version shown: saved
    assert _post_sheet(arbiter, seated, 1, four, other, version="").status_code == 409
    response = _post_sheet(arbiter, seated, 1, four, other, version="", replace="1", replace_version=str(current))
    assert response.status_code == 302
    with Session(db.get_engine(app)) as session:
        assert session.exec(select(FreeSheet)).one().deals[0]["taker"] == seats["E"]
        assert session.exec(select(JournalEntry).where(JournalEntry.action == "freeplay.sheet.replace")).one()


def test_ranking_lateness_publication_and_export(app, arbiter, client, seated):
    (four, seats), _ = _four_and_three(app, seated)
    assert _post_sheet(arbiter, seated, 1, four, [
        {"taker": seats["S"], "contract": "garde", "points": "51", "bouts": "2"}]).status_code == 302
    # art. 26: 7 minutes late → 2 started slices of 5 minutes → 200 points
    response = arbiter.post(f"/arbitre/tournois/{seated}/libre/retard", data={"entrant_id": seats["S"], "minutes": "7"})
    assert response.status_code == 302
    page = arbiter.get(f"/arbitre/tournois/{seated}/libre/classement").get_data(as_text=True)
    assert "−200" in page and "+10" in page  # 210 − 200
    # hidden from the public until published
    arbiter.get("/deconnexion")
    with app.test_client() as public:
        hidden = public.get(f"/tournois/{seated}/").get_data(as_text=True)
        assert "pas encore publiés" in hidden and "+210" not in hidden and "NOM" not in hidden
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, seated)
        operations.publish(session, tournament, True, "arbitre")
        session.commit()
        export = operations.freeplay.free_export(session, tournament)
        shown = operations.freeplay.free_ranking(session, tournament)
    with app.test_client() as public:
        visible = public.get(f"/tournois/{seated}/").get_data(as_text=True)
    assert "Classement par total de points" in visible
    # the exported file, read back by the ``rank`` command's function, gives the same ranking
    file = json.loads(json.dumps(export, ensure_ascii=False))
    assert file["kind"] == "free" and file["penalties"][0]["late_minutes"] == 7
    assert rank_free(file)["ranking"] == shown["ranking"]
    assert shown["ranking"][0]["id"] == seats["S"]  # +10: ahead of the 0 of those who have not played
    by_id = {row["id"]: row for row in shown["ranking"]}
    assert by_id[seats["S"]]["total"] == 10 and by_id[seats["S"]]["penalty"] == 200
    assert by_id[seats["E"]]["total"] == -70


def test_export_download_is_the_rank_file(app, arbiter, seated, runner, tmp_path):
    (four, seats), _ = _four_and_three(app, seated)
    _post_sheet(arbiter, seated, 1, four, [{"taker": seats["W"], "contract": "garde_sans", "points": "56", "bouts": "1"}])
    body = arbiter.get(f"/arbitre/tournois/{seated}/export").get_data(as_text=True)
    path = tmp_path / "libre.json"
    path.write_text(body, encoding="utf-8")
    result = runner.invoke(args=["rank", str(path)])
    assert result.exit_code == 0, result.output
    output = json.loads(result.output)
    by_id = {row["id"]: row for row in output["ranking"]}
    # Garde sans made by 5: (25 + 5) × 4 = 120 per defender → +360
    assert by_id[seats["W"]]["total"] == 360 and by_id[seats["N"]]["total"] == -120


def test_duplicate_pages_are_closed_and_nothing_is_a_500(app, arbiter, seated):
    for url in ("/arbitre/", "/saisie/", "/", f"/arbitre/tournois/{seated}/journal", f"/arbitre/tournois/{seated}/joueurs",
                f"/arbitre/tournois/{seated}/libre/feuilles", f"/arbitre/tournois/{seated}/libre/classement"):
        assert arbiter.get(url).status_code == 200, url
    response = arbiter.get(f"/arbitre/tournois/{seated}/etuis")
    assert response.status_code == 302 and response.headers["Location"].endswith(f"/arbitre/tournois/{seated}/")
    assert arbiter.get(f"/saisie/tournois/{seated}/").headers["Location"].endswith(f"/saisie/tournois/{seated}/libre/feuilles")
    assert arbiter.get(f"/tournois/{seated}/projecteur").status_code == 404
    assert arbiter.get(f"/arbitre/tournois/{seated}/libre/feuilles/9/99").status_code == 404
    for data in ({"rows": "abc"}, {"rows": "-5"}, {"rows": "99999999999"}, {"rows": "2", "version": "x" * 40},
                 {"rows": "1", "taker-0": "nobody", "contract-0": "x", "points-0": "1e9", "bouts-0": "7"},
                 {"rows": "1", "taker-0": "", "passed-0": "1", "poignees-0": "zz"},
                 {"rows": "1", "replace": "1", "replace_version": "99999999999999999999"}):
        response = arbiter.post(f"/arbitre/tournois/{seated}/libre/feuilles/1/1", data=data)
        assert response.status_code in (302, 409, 422), (data, response.status_code)
    for data in ({"entrant_id": "ZZ9", "minutes": "7"}, {"entrant_id": "S1", "minutes": "-3"},
                 {"entrant_id": "S1", "minutes": "abc"}):
        assert arbiter.post(f"/arbitre/tournois/{seated}/libre/retard", data=data).status_code == 422
    assert arbiter.post(f"/arbitre/tournois/{seated}/libre/forfait", data={"player_id": "x", "position": "2"}).status_code == 422
    assert arbiter.post(f"/arbitre/tournois/{seated}/libre/mouvement", data={"positions": "99"}).status_code == 422


def test_a_headcount_the_core_refuses_says_why(arbiter, tournament_factory):
    tournament_id = tournament_factory("free", 10, **EVENING)  # under the booklet's minimum of 11
    response = arbiter.post(f"/arbitre/tournois/{tournament_id}/libre/mouvement", data={"seed": ""})
    assert response.status_code == 422
    assert ("10 joueurs inscrits : 10 joueurs : il en faut au moins 11 (3 tables, dont une à 3)."
            in response.get_data(as_text=True))


def test_the_free_formats_are_kinds_the_core_ranks():
    from duplicate.core.formats import FREE_FORMATS, KINDS, TOURNAMENT_KINDS, format_for
    from duplicate.core.freeplay.tournament import FREE_KINDS

    assert {f.id for f in FREE_FORMATS} <= set(FREE_KINDS)
    assert "free" not in KINDS and "free" in TOURNAMENT_KINDS  # the duplicate movements and files keep theirs
    assert format_for("free").free_play and not format_for("free").uses_pm
