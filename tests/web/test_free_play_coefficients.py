"""A coefficient between positions with elimination (regional championship art. 3) on the web: the arbiter sets
it on the ranking page after a carré final; values derived by hand.

The `evening` (22 players, 5 positions, totals by hand) then the carré final of the 16 best at position 6:
6 eliminated of 22 = 27,27 % → 1,15 at most (20 % reached, not 30 %). At table 1 of position 6, West takes a
garde made by 10 (2 bouts, 51 points): (25 + 10) × 2 = 70 a defender, +210; × 1,15: +241,5 and −80,5.
"""

import json

from sqlmodel import Session, select

from duplicate import db
from duplicate.core.freeplay.tournament import rank_free
from duplicate.models import JournalEntry

from test_free_play_teams import _post_sheet, _ranking, _seats, evening  # noqa: F401 (the fixture)


def _coefficient(arbiter, tournament_id, position, coefficient, eliminated):
    return arbiter.post(f"/arbitre/tournois/{tournament_id}/libre/coefficients", data={
        "coef-position": position, "coef-coefficient": coefficient, "coef-eliminated": eliminated})


def test_coefficient_after_the_carre_final(app, arbiter, evening):  # noqa: F811
    tournament_id, _, totals, _ = evening
    output, _ = _ranking(app, tournament_id)
    ranked = [row["id"] for row in output["ranking"]]
    assert arbiter.post(f"/arbitre/tournois/{tournament_id}/libre/carre-final", data={"finalists": "16"}).status_code == 302
    seats, _ = _seats(app, tournament_id)
    first = seats[6, 1]
    _post_sheet(arbiter, tournament_id, 6, 1, [{"taker": first["W"], "contract": "garde", "points": "51", "bouts": "2"}])

    # refused: more than art. 3 allows, too few eliminated, a finalist eliminated, unreadable — what was typed is kept
    response = _coefficient(arbiter, tournament_id, "6", "1,20", "6")
    text = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "Coefficient 1,20 refusé : 6 éliminés sur 22 (27,27 %) permettent au plus 1,15." in text
    assert 'value="1,20"' in text
    response = _coefficient(arbiter, tournament_id, "6", "1,10", "2")
    assert response.status_code == 422 and "il faut éliminer au moins 10 % des joueurs" in response.get_data(as_text=True)
    response = _coefficient(arbiter, tournament_id, "6", "1,15", "7")  # the 16th plays the carré final
    assert response.status_code == 422
    assert f"{ranked[15]} est éliminé avant la position 6 mais joue la position 6." in response.get_data(as_text=True)
    response = _coefficient(arbiter, tournament_id, "6", "un virgule un", "6")
    assert response.status_code == 422 and "illisible" in response.get_data(as_text=True)
    assert 'value="un virgule un"' in response.get_data(as_text=True)
    response = _coefficient(arbiter, tournament_id, "9", "1,15", "6")
    assert response.status_code == 422 and "Position : de 2 à 6" in response.get_data(as_text=True)

    response = _coefficient(arbiter, tournament_id, "6", "1,15", "6")
    assert response.status_code == 302, response.get_data(as_text=True)[:3000]
    output, export = _ranking(app, tournament_id)
    rows = output["ranking"]
    by_id = {row["id"]: row["total"] for row in rows}
    assert by_id[first["W"]] == totals[first["W"]] + 241.5
    for seat in "NSE":
        assert by_id[first[seat]] == totals[first[seat]] - 80.5
    assert {row["id"] for row in rows[:16]} == set(ranked[:16])  # the finalists first
    assert [row["id"] for row in rows[16:]] == ranked[16:]  # then the eliminated, their totals unchanged
    assert all(row["eliminated_before"] == 6 and row["total"] == totals[row["id"]] for row in rows[16:])
    assert export["coefficients"] == [{"position": 6, "coefficient": "1.15", "eliminated": 6}]
    assert rank_free(json.loads(json.dumps(export)))["ranking"] == rows
    page = arbiter.get(f"/arbitre/tournois/{tournament_id}/libre/classement").get_data(as_text=True)
    west = totals[first["W"]] + 241.5
    assert f"+{int(west)},50" in page  # decimal comma, two decimals
    assert "coefficient <strong>1,15</strong>" in page and "éliminé avant la position 6" in page
    with Session(db.get_engine(app)) as session:
        entry = session.exec(select(JournalEntry).where(JournalEntry.action == "freeplay.coefficient")).one()
        assert entry.summary == "Coefficient 1,15 à partir de la position 6 : 6 joueurs éliminés"
    # removed: journalled, the plain totals come back
    response = arbiter.post(f"/arbitre/tournois/{tournament_id}/libre/coefficients/6/supprimer", follow_redirects=True)
    assert "Coefficient de la position 6 supprimé." in response.get_data(as_text=True)
    output, export = _ranking(app, tournament_id)
    assert {row["id"]: row["total"] for row in output["ranking"]}[first["W"]] == totals[first["W"]] + 210
    assert "coefficients" not in export
    with Session(db.get_engine(app)) as session:
        assert session.exec(select(JournalEntry).where(JournalEntry.action == "freeplay.coefficient_remove")).one()


def test_coefficients_travel_in_the_file(app, arbiter, evening):  # noqa: F811
    tournament_id, _, _, _ = evening
    assert arbiter.post(f"/arbitre/tournois/{tournament_id}/libre/carre-final", data={"finalists": "16"}).status_code == 302
    assert _coefficient(arbiter, tournament_id, "6", "1,1", "6").status_code == 302
    first = arbiter.get(f"/arbitre/tournois/{tournament_id}/export").get_data(as_text=True)
    response = arbiter.post("/arbitre/import", data={"text": first})
    assert response.status_code == 302, response.get_data(as_text=True)[:3000]
    new_id = int(response.headers["Location"].split("/tournois/")[1].split("/")[0])
    assert json.loads(arbiter.get(f"/arbitre/tournois/{new_id}/export").get_data(as_text=True)) == json.loads(first)
    assert json.loads(first)["coefficients"] == [{"position": 6, "coefficient": "1.1", "eliminated": 6}]
    assert _ranking(app, new_id)[0]["ranking"] == _ranking(app, tournament_id)[0]["ranking"]
