"""The tournament's journal: an entry is kept with its change and shown to the arbiter only."""

from sqlmodel import Session

from duplicate import db, operations


def test_journal_entry_is_shown_to_the_arbiter_newest_first(app, client, make_user, sign_in):
    with Session(db.get_engine(app), expire_on_commit=False) as session:
        tournament = operations.create_tournament(session, name="Mardi", kind="individual")
        operations.journal(session, tournament, action="player.edit", who="arbitre",
                           summary="Joueur N1 : nom « DUPONT » → « DUPOND »",
                           before={"nom": "DUPONT"}, after={"nom": "DUPOND"})
        operations.journal(session, tournament, action="penalty.add", who="arbitre",
                           summary="Pénalité de retard : 1 point à S2")
        session.commit()
        url = f"/arbitre/tournois/{tournament.id}/journal"
    anonymous = client.get(url)
    assert anonymous.status_code == 302 and anonymous.headers["Location"].startswith("/connexion?next=")
    assert "DUPOND" not in anonymous.get_data(as_text=True)
    sign_in(client, make_user("arbitre"))
    page = client.get(url).get_data(as_text=True)
    assert "Joueur N1 : nom « DUPONT » → « DUPOND »" in page
    assert page.index("Pénalité de retard") < page.index("Joueur N1")


def _entries(app, count: int, *, table_of=lambda i: None, board_of=lambda i: None) -> int:
    """A tournament whose journal holds ``count`` entries « Entrée 1 » … « Entrée count », oldest first;
    entry ``i`` names ``table_of(i)`` and ``board_of(i)`` in its values when they are not None."""
    with Session(db.get_engine(app), expire_on_commit=False) as session:
        tournament = operations.create_tournament(session, name="Samedi", kind="individual")
        for i in range(1, count + 1):
            after = {key: value for key, value in (("table", table_of(i)), ("étui", board_of(i))) if value is not None}
            operations.journal(session, tournament, action="table.enter", who=None, summary=f"Entrée {i}.",
                               after=after or None)
        session.commit()
        return tournament.id


def _summaries(text: str) -> list[int]:
    import re

    return [int(n) for n in re.findall(r"Entrée (\d+)\.", text)]


def test_the_journal_shows_a_hundred_entries_a_page_newest_first(app, client, make_user, sign_in):
    """250 entries: page 1 holds 250…151, page 2 150…51, page 3 50…1; a page past the last shows the last,
    a page that is no number the first."""
    from tests.pages import visible_text

    tid = _entries(app, 250)
    sign_in(client, make_user("arbitre"))
    url = f"/arbitre/tournois/{tid}/journal"
    first = visible_text(client.get(url))
    assert _summaries(first) == list(range(250, 150, -1))
    assert "250 modifications, page 1 sur 3, les plus récentes d’abord." in first
    assert "Plus anciennes ›" in first and "‹ Plus récentes" not in first
    second = visible_text(client.get(f"{url}?page=2"))
    assert _summaries(second) == list(range(150, 50, -1)) and "page 2 sur 3" in second
    assert "‹ Plus récentes" in second and "Plus anciennes ›" in second
    last = visible_text(client.get(f"{url}?page=3"))
    assert _summaries(last) == list(range(50, 0, -1)) and "Plus anciennes ›" not in last
    assert _summaries(visible_text(client.get(f"{url}?page=99"))) == list(range(50, 0, -1))
    assert _summaries(visible_text(client.get(f"{url}?page=deux"))) == list(range(250, 150, -1))
    whole = visible_text(client.get(f"{url}?page=tout"))  # to print: all, and no pager
    assert _summaries(whole) == list(range(250, 0, -1)) and "250 modifications, les plus récentes d’abord." in whole
    assert "Plus anciennes ›" not in whole


def test_the_journal_filters_one_table_or_one_etui(app, client, make_user, sign_in):
    """Entry i names table i % 7 + 1 and étui i % 5 + 1 (entry 35: none): table 3 is entries 2, 9, 16, 23, 30
    (i % 7 = 2); with étui 3 too (i % 5 = 2), entry 2 only; a table nobody names, a sentence and no row."""
    from tests.pages import visible_text

    tid = _entries(app, 35, table_of=lambda i: i % 7 + 1 if i < 35 else None,
                   board_of=lambda i: i % 5 + 1 if i < 35 else None)
    sign_in(client, make_user("arbitre"))
    url = f"/arbitre/tournois/{tid}/journal"
    table = visible_text(client.get(f"{url}?table=3"))
    assert _summaries(table) == [30, 23, 16, 9, 2]
    assert "5 modifications concernant la table 3, les plus récentes d’abord." in table and "Tout le journal" in table
    both = visible_text(client.get(f"{url}?table=3&etui=3"))
    assert _summaries(both) == [2] and "1 modification concernant la table 3 et l’étui 3" in both
    none = visible_text(client.get(f"{url}?table=40"))
    assert _summaries(none) == [] and "Aucune modification ne concerne la table 40." in none
    assert _summaries(visible_text(client.get(f"{url}?table=trois"))) == list(range(35, 0, -1))


def test_the_filter_keeps_a_phone_s_entries_by_who(app):
    """A refused code journalled by the phone (who « table 4 ») is about table 4 even with no table in its
    values; « table 40 » is not table 4."""
    with Session(db.get_engine(app), expire_on_commit=False) as session:
        tournament = operations.create_tournament(session, name="Samedi", kind="individual")
        operations.journal(session, tournament, action="table.code_refused", who="table 4", summary="Code refusé.")
        operations.journal(session, tournament, action="table.code_refused", who="table 40", summary="Autre.")
        session.commit()
        shown = operations.journal_page(session, tournament, table=4)
        assert [entry.summary for entry in shown.entries] == ["Code refusé."]
        assert (shown.page, shown.pages, shown.total) == (1, 1, 1)
