"""Phones (issue 15, point 8): the route sheet, the public results, an étui's topage and the fiche entry
page fit a 390 px wide screen without scrolling sideways (they were about 635, 575, 509 and 690 px wide), and so
does the projector's page, made for the hall's screen but linked from the results (420 px).  Screenshots at 390 and
1920 px go to ``artifacts/`` (``phone-*.png``), to be looked at."""

import re

from live import create_users, flask
from screens import PASSWORD, PHONE, page_width, shots, sign_in


def _demo_and_its_arbiter_on_a_phone(base: str, new_page, sqlite_url: str):
    """The demonstration tournament (its id) and its arbiter signed in on a 390 px phone (his page)."""
    tid = int(re.findall(r"\d+", flask(sqlite_url, "demo").stdout.strip().splitlines()[-1])[-1])
    create_users(sqlite_url, ("arbitre", PASSWORD, "arbiter"))
    arbiter = new_page(viewport=PHONE)
    sign_in(arbiter, base, "arbitre")
    return tid, arbiter


def test_route_sheet_results_and_fiche_fit_a_phone(live_server, new_page, sqlite_url, artifacts):
    base = live_server.url
    tid, arbiter = _demo_and_its_arbiter_on_a_phone(base, new_page, sqlite_url)
    arbiter.goto(f"{base}/arbitre/tournois/{tid}/feuilles")
    route_url = arbiter.locator("table.private-links tbody tr").first.locator("td a").first.inner_text().strip()

    pages = {"route-sheet": route_url, "results": f"{base}/tournois/{tid}/",
             "board": f"{base}/tournois/{tid}/etuis/1",  # its eight columns scroll inside their box
             "projector": f"{base}/tournois/{tid}/projecteur",  # a phone may open it from the results page
             "fiche": f"{base}/saisie/tournois/{tid}/etuis/1"}
    widths = {}
    for name, url in pages.items():
        page = arbiter if name == "fiche" else new_page(viewport=PHONE)
        page.goto(url)
        assert page.locator("h1").count() >= 1, name
        widths[name] = page_width(page)
        shots(page, artifacts, f"phone-{name}")
    assert all(width <= 390 for width in widths.values()), widths


def test_the_arbiters_pages_fit_a_phone_in_the_hall(live_server, new_page, sqlite_url, artifacts):
    """The arbiter walks the hall with a phone: none of his pages of an evening under way scrolls sideways,
    a long surname included (the changes and players lists were 442 and 393 px wide, the private links
    525 px: a long link did not wrap; the placement 433 px with that name). The licence column goes on a
    phone (each player's page shows it)."""
    base = live_server.url
    tid, arbiter = _demo_and_its_arbiter_on_a_phone(base, new_page, sqlite_url)
    # a long surname, as real lists have: it breaks in its cell, it never widens the page
    arbiter.goto(f"{base}/arbitre/tournois/{tid}/changements")
    arbiter.locator("table.players a", has_text="Modifier").first.click()
    arbiter.fill("#surname", "VANDENBROUCKE-DESCHAMPS")
    with arbiter.expect_navigation():
        arbiter.click("button:has-text('Enregistrer')")
    pages = ["", "etuis", "etuis/1/fiche", "mouvement", "joueurs", "placement", "tables", "resultats", "salle",
             "changements", "feuilles", "impression/", "journal", "acces"]
    widths = {}
    for path in pages:
        arbiter.goto(f"{base}/arbitre/tournois/{tid}/{path}")
        assert arbiter.locator("h1").count() >= 1, path
        widths[path] = page_width(arbiter)
    for url in (f"{base}/saisie/tournois/{tid}/etuis/1", f"{base}/tournois/{tid}/"):
        arbiter.goto(url)
        widths[url] = page_width(arbiter)
    assert "VANDENBROUCKE" in arbiter.inner_text("table.ranking.general")
    assert {path: width for path, width in widths.items() if width > 390} == {}
    assert arbiter.locator("table.players th", has_text="Licence").is_hidden()
    for path in ("changements", "joueurs", "feuilles", "placement", "journal"):
        arbiter.goto(f"{base}/arbitre/tournois/{tid}/{path}")
        shots(arbiter, artifacts, f"phone-arbiter-{path}")
