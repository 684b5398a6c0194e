"""Free play at the table (issue 16): the table's phone enters its feuille de marque, another player of the table
confirms it with his code, only then it counts — on SQLite and PostgreSQL (the ``app`` fixture).

Marks by hand (rules-of-play « La marque », SPEC §3), as in test_free_play: at 4 players a Garde made by 10
(2 bouts, 51 points: 41 needed) is (25 + 10) × 2 = 70 per defender → taker +210, each defender −70; a Prise
failed by 6 (1 bout, 45 points: 51 needed) is 25 + 6 = 31 → taker −93, each defender +31. Together, for a
taker S then E: S +210 + 31 = +241, E −70 − 93 = −163, N and W −70 + 31 = −39 (sum 0).
"""

import re

import pytest
from sqlmodel import Session, select

from duplicate import db, operations
from duplicate.models import FreeSheet, FreeTableEntry, JournalEntry

from test_free_play import PLAYERS, _four_and_three, _row


@pytest.fixture
def seated(arbiter, tournament_factory):
    tournament_id = tournament_factory("free", PLAYERS, name="Mardi libre")
    response = arbiter.post(f"/arbitre/tournois/{tournament_id}/libre/mouvement", data={"positions": "", "seed": "mardi"})
    assert response.status_code == 302, response.get_data(as_text=True)
    return tournament_id


def _links(app, tournament_id) -> tuple[dict[int, str], dict[str, str]]:
    """(table → secret, player → code) as the arbiter's screen gives them."""
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, tournament_id)
        links = operations.freeplay_table.table_links(session, tournament)
        codes = {item["id"]: item["code"] for item in operations.freeplay_table.player_codes(session, tournament)}
    return {link["table"]: link["secret"] for link in links}, codes


def _form(rows: list[dict]) -> dict:
    data = {"rows": str(len(rows))}
    for i, row in enumerate(rows):
        data.update(_row(i, **row))
    return data


def _stored(app, tournament_id):
    with Session(db.get_engine(app)) as session:
        return (session.exec(select(FreeSheet).where(FreeSheet.tournament_id == tournament_id)).all(),
                session.exec(select(FreeTableEntry).where(FreeTableEntry.tournament_id == tournament_id)).all())


def _totals(app, tournament_id) -> dict[str, int]:
    with Session(db.get_engine(app)) as session:
        output = operations.freeplay.free_ranking(session, operations.get_tournament(session, tournament_id))
    return {row["id"]: row["total"] for row in output["ranking"]}


def test_the_north_enters_another_player_confirms_with_his_code(app, arbiter, seated):
    (four, seats), _ = _four_and_three(app, seated)
    secrets, codes = _links(app, seated)
    phone = app.test_client()  # the table's phone: no account
    page = phone.get(f"/table/libre/{secrets[four]}")
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    html = page.get_data(as_text=True)
    assert f"Table {four}, position 1" in html and 'name="taker-0"' in html and "Envoyer pour confirmation" in html
    rows = [{"taker": seats["S"], "contract": "garde", "points": "51", "bouts": "2"},
            {"taker": seats["E"], "contract": "prise", "points": "45", "bouts": "1"}]
    response = phone.post(f"/table/libre/{secrets[four]}/1", data=_form(rows))
    assert response.status_code == 302, response.get_data(as_text=True)[:2000]
    stored, pending = _stored(app, seated)
    assert stored == [] and len(pending) == 1  # pending: it does not count yet
    assert all(total == 0 for total in _totals(app, seated).values())
    # the pending feuille, with its marks, for the confirmer to read
    html = phone.get(f"/table/libre/{secrets[four]}").get_data(as_text=True)
    assert "En attente de confirmation" in html and "+241" in html and "−163" in html
    assert 'value="N"' not in html.split("free-table-confirm", 1)[1].split("</form>", 1)[0]  # North enters, others confirm
    # the North cannot confirm his own entry; a wrong code changes nothing but is journalled
    url = f"/table/libre/{secrets[four]}/1/confirmer"
    response = phone.post(url, data={"seat": "N", "code": codes[seats["N"]]})
    assert response.status_code == 422 and "un autre joueur de la table la confirme" in response.get_data(as_text=True)
    wrong = "0000" if codes[seats["E"]] != "0000" else "1111"
    response = phone.post(url, data={"seat": "E", "code": wrong})
    assert response.status_code == 422 and "Code incorrect pour Est" in response.get_data(as_text=True)
    response = phone.post(url, data={"seat": "S", "code": codes[seats["E"]]})  # East's code is not South's
    assert response.status_code == 422
    assert _stored(app, seated)[0] == []
    # East confirms with his code: the feuille counts, as the arbiter would have typed it
    response = phone.post(url, data={"seat": "E", "code": codes[seats["E"]]})
    assert response.status_code == 302, response.get_data(as_text=True)[:2000]
    stored, pending = _stored(app, seated)
    assert pending == [] and len(stored) == 1 and stored[0].entered_by == f"table {four} (confirmée par {seats['E']})"
    totals = _totals(app, seated)
    assert (totals[seats["S"]], totals[seats["E"]], totals[seats["N"]], totals[seats["W"]]) == (241, -163, -39, -39)
    with Session(db.get_engine(app)) as session:
        actions = [e.action for e in session.exec(select(JournalEntry).where(JournalEntry.tournament_id == seated)
                                                  .order_by(JournalEntry.id))]
    assert actions[-5:] == ["freeplay.table.enter", "freeplay.table.code_refused", "freeplay.table.code_refused",
                            "freeplay.sheet.create", "freeplay.table.confirm"]
    # the phone now says « enregistrée » without a mark, and cannot change it
    html = phone.get(f"/table/libre/{secrets[four]}?position=1").get_data(as_text=True)
    assert "Feuille enregistrée" in html and "+241" not in html and 'name="taker-0"' not in html
    response = phone.post(f"/table/libre/{secrets[four]}/1", data=_form(rows[:1]))
    assert response.status_code == 422 and "seul l’arbitre peut la changer" in response.get_data(as_text=True)
    # by default the phone opens at the table's next position still to enter
    html = phone.get(f"/table/libre/{secrets[four]}").get_data(as_text=True)
    assert f"Table {four}, position 2" in html


def test_a_refused_feuille_keeps_what_was_typed_and_nothing_is_stored(app, seated):
    (four, seats), (three, small) = _four_and_three(app, seated)
    secrets, _ = _links(app, seated)
    phone = app.test_client()
    rows = [{"taker": seats["S"], "contract": "garde", "points": "95", "bouts": "2"}]  # 91 points at most
    response = phone.post(f"/table/libre/{secrets[four]}/1", data=_form(rows))
    html = response.get_data(as_text=True)
    assert response.status_code == 422 and "Donne 1 :" in html and 'value="95"' in html
    for junk in ({"rows": "abc"}, {"rows": "1", "taker-0": "ZZ9", "contract-0": "garde", "points-0": "1e999",
                                   "bouts-0": "9"}, {"rows": "0"}, {}):
        assert phone.post(f"/table/libre/{secrets[four]}/1", data=junk).status_code == 422, junk
    assert _stored(app, seated) == ([], [])
    # a position the table does not play, an unknown link: 404, never a 500
    assert phone.post(f"/table/libre/{secrets[four]}/99", data=_form(rows)).status_code == 404
    assert phone.get("/table/libre/1.1.abcdefghijklmnopqrstuv").status_code == 404
    assert phone.get(f"/table/libre/{secrets[four][:-2]}xx").status_code == 404
    assert phone.post(f"/table/libre/{secrets[four]}/1/confirmer", data={"seat": "E", "code": "1"}).status_code == 404
    # a table of 3 (no North): the players seated there confirm, the empty seat is not offered
    people = [p for p in small.values() if p]
    response = phone.post(f"/table/libre/{secrets[three]}/1", data=_form([{"passed": "1"}]))
    assert response.status_code == 302
    html = phone.get(f"/table/libre/{secrets[three]}").get_data(as_text=True)
    confirm = html.split("free-table-confirm", 1)[1].split("</form>", 1)[0]
    assert confirm.count("<option") == len(people) == 3


def test_the_arbiter_hands_out_links_and_codes_and_his_sheet_wins(app, arbiter, seated):
    (four, seats), _ = _four_and_three(app, seated)
    secrets, codes = _links(app, seated)
    page = arbiter.get(f"/arbitre/tournois/{seated}/libre/tables").get_data(as_text=True)
    assert f"/table/libre/{secrets[four]}" in page and "<svg" in page
    assert all(re.fullmatch(r"\d{4}", code) for code in codes.values()) and len(codes) == 18
    assert f"<strong>{codes[seats['E']]}</strong>" in page
    assert f"/arbitre/tournois/{seated}/libre/tables" in arbiter.get(f"/arbitre/tournois/{seated}/libre/feuilles").get_data(as_text=True)
    # the table sends; the arbiter saves the same feuille meanwhile: his supersedes the table's pending one
    phone = app.test_client()
    table_rows = [{"taker": seats["S"], "contract": "garde", "points": "51", "bouts": "2"}]
    assert phone.post(f"/table/libre/{secrets[four]}/1", data=_form(table_rows)).status_code == 302
    assert f"table {four} (position 1)" in arbiter.get(f"/arbitre/tournois/{seated}/libre/tables").get_data(as_text=True)
    data = {"version": "", **_form([{"passed": "1"}])}
    assert arbiter.post(f"/arbitre/tournois/{seated}/libre/feuilles/1/{four}", data=data).status_code == 302
    response = phone.post(f"/table/libre/{secrets[four]}/1/confirmer", data={"seat": "E", "code": codes[seats["E"]]})
    assert response.status_code == 404 and "Rien n’attend de confirmation" in response.get_data(as_text=True)
    assert "Feuille enregistrée" in response.get_data(as_text=True)
    stored, pending = _stored(app, seated)
    assert pending == [] and stored[0].deals == [{"deal": 1, "passed": True}] and stored[0].entered_by == "arbitre"
    # links and codes are the arbiter's: nobody else sees them
    with app.test_client() as anonymous:
        assert anonymous.get(f"/arbitre/tournois/{seated}/libre/tables").status_code in (302, 401, 403)


def test_the_phone_page_fits_390_px_as_the_arbiters_form():
    """The page uses the arbiter's feuille form (`_free_sheet_body.html`), whose cards under 40rem are tested at
    390 px by the e2e tests; the page adds only text and a small form, no wide element."""
    import pathlib

    page = (pathlib.Path(__file__).parents[2] / "templates" / "table" / "free_page.html").read_text(encoding="utf-8")
    assert '{% include "arbiter/_free_sheet_body.html" %}' in page and "<table" not in page


def test_the_duplicates_table_addresses_send_a_free_table_to_its_page(app, seated):
    """The printed QR of a table may be scanned by the duplicate's page: it sends a free table to its own
    page; the duplicate's table API answers a free table's secret with a 404 (no étui), never a 500."""
    (four, _), _ = _four_and_three(app, seated)
    secrets, _ = _links(app, seated)
    phone = app.test_client()
    response = phone.get(f"/table/{secrets[four]}")
    assert response.status_code == 302 and response.headers["Location"].endswith(f"/table/libre/{secrets[four]}")
    for url in (f"/api/table/{secrets[four]}", f"/api/table/{secrets[four]}/boards/1"):
        assert phone.get(url).status_code == 404, url
    assert phone.post(f"/api/table/{secrets[four]}/results", json={"board": 1, "score": 50}).status_code == 404


def test_each_fiche_personnelle_carries_the_players_code(app, arbiter, seated):
    """The printed fiche personnelle (web « Impression ») gives the player his code; the SPEC §13 file never
    has the codes (they come from the tournament's secret table key)."""
    from test_free_printing import pdf_text

    _, codes = _links(app, seated)
    text = " ".join(pdf_text(arbiter.post(f"/arbitre/tournois/{seated}/impression/free-cards").data, layout=False).split())
    assert text.count("Code pour confirmer une feuille sur le téléphone de la table :") == 18
    from collections import Counter

    printed = re.findall(r"de la table : (\d{4}) \(personnel\)", text)
    assert Counter(printed) == Counter(codes.values())  # every player's code, once
    # and each on his own fiche: the context the template prints
    from duplicate.printing import freeplay as free_print

    with Session(db.get_engine(app)) as session:
        export = operations.freeplay.free_export(session, operations.get_tournament(session, seated))
    items = free_print.personal_cards(export, codes=codes)["items"]
    assert {item["id"]: item["code"] for item in items} == {ident.replace("W", "O"): code for ident, code in codes.items()}
    text = arbiter.get(f"/arbitre/tournois/{seated}/export").get_data(as_text=True)
    assert all(f'"{code}"' not in text for code in codes.values())


def test_five_refused_codes_and_the_phone_no_longer_confirms(app, arbiter, seated):
    """4 digits: 1 chance in 10 000 a try. After 5 refused codes at a table for a position, even the right code
    is refused on the phone (« appelez l’arbitre ») and nothing counts; the arbiter's entry still works."""
    (four, seats), _ = _four_and_three(app, seated)
    secrets, codes = _links(app, seated)
    phone = app.test_client()
    assert phone.post(f"/table/libre/{secrets[four]}/1", data=_form([{"passed": "1"}])).status_code == 302
    url = f"/table/libre/{secrets[four]}/1/confirmer"
    wrong = [c for c in ("0000", "1111", "2222", "3333", "4444", "5555") if c != codes[seats["S"]]][:5]
    for code in wrong:
        response = phone.post(url, data={"seat": "S", "code": code})
        assert response.status_code == 422 and "Code incorrect pour Sud" in response.get_data(as_text=True)
    response = phone.post(url, data={"seat": "S", "code": codes[seats["S"]]})
    assert response.status_code == 422 and "5 codes refusés" in response.get_data(as_text=True)
    assert _stored(app, seated)[0] == []
    assert arbiter.post(f"/arbitre/tournois/{seated}/libre/feuilles/1/{four}",
                        data={"version": "", **_form([{"passed": "1"}])}).status_code == 302
    stored, pending = _stored(app, seated)  # the arbiter's feuille supersedes the table's pending one
    assert len(stored) == 1 and pending == []
    assert "En attente de confirmation" not in arbiter.get(f"/arbitre/tournois/{seated}/libre/tables").get_data(as_text=True)


def test_a_feuille_sent_on_a_full_disk_comes_back_as_typed(app, seated):
    """Issue 31, point 6: the database cannot store the feuille (disk full): 503, the French reason, the typed
    fields in their inputs, nothing stored; sent again once there is room."""
    from test_fiche_storage_full import disk_switch

    (four, seats), _ = _four_and_three(app, seated)
    secrets, _ = _links(app, seated)
    phone = app.test_client()
    rows = [{"taker": seats["S"], "contract": "garde", "points": "51", "bouts": "2"}]
    full = disk_switch(app)
    full(True)
    response = phone.post(f"/table/libre/{secrets[four]}/1", data=_form(rows))
    html = response.get_data(as_text=True)
    assert response.status_code == 503, html[:2000]
    assert "disque" in html and "Rien n’a été enregistré" in html and 'value="51"' in html
    assert _stored(app, seated) == ([], [])
    full(False)
    assert phone.post(f"/table/libre/{secrets[four]}/1", data=_form(rows)).status_code == 302
    assert len(_stored(app, seated)[1]) == 1
