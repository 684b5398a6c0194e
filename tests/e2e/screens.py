"""What the end-to-end tests do on the screens, as the people in the room do it: sign in, type a fiche from
the keyboard, download a file, read a PDF, take the screenshots of a key screen — shared by the test files
of this folder: creating a tournament and importing its players as the arbiter does, the phone's size and
the check that a page fits it.

Predicates of ``wait_for_function`` are written as functions (``"() => …"``): an expression string is
evaluated with ``eval``, which the pages' content-security policy forbids (no ``'unsafe-eval'``).
"""

from __future__ import annotations

import random
import re
import subprocess
import time
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from duplicate.core.scoring import Contract, reachable_scores

PASSWORD = "mot-de-passe-solide"
#: Plausible Garde scores: reachable, not theoretical, between −150 and +200.
ALLOWED = sorted(s for s, theoretical in reachable_scores(Contract.GARDE).items()
                 if not theoretical and -150 <= s <= 200)
#: The two widths every key screen is photographed at: a phone, a full-HD screen.
WIDTHS = (390, 1920)
#: A phone's screen (an iPhone 12–15's CSS pixels).
PHONE = {"width": 390, "height": 844}


def score_for(board: int, table: int) -> int:
    return random.Random(f"e2e-{board}-{table}").choice(ALLOWED)


def fr2(value: float | None) -> str:
    """A percentage as the public pages show it (`fr_number`): half up, decimal comma; none: « — »."""
    if value is None:
        return "—"
    return format(Decimal(str(value)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP), "f").replace(".", ",")


def shot(page, artifacts: Path, name: str) -> None:
    page.screenshot(path=str(artifacts / f"{name}.png"), full_page=True)


def shots(page, artifacts: Path, name: str, fit: bool = True) -> None:
    """The page at a phone's width and at a full-HD screen's (``<name>-390.png``, ``<name>-1920.png``),
    then back to the page's own size; asserts that neither width scrolls sideways (issue 15 point 8: every
    page a browser test looks at fits a 390 px phone), unless ``fit=False`` (a page made for a big screen)."""
    size = page.viewport_size
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        # let the page lay itself out again (two frames) before the picture: else a stale text block
        page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
        page.screenshot(path=str(artifacts / f"{name}-{width}.png"), full_page=True)
        if fit:
            assert page_width(page) <= width, f"{name} at {width} px: {page_width(page)} px wide"
    page.set_viewport_size(size)


def page_width(page) -> int:
    """How wide the page is laid out (CSS px): over the viewport's width, the reader scrolls sideways."""
    return page.evaluate("() => document.documentElement.scrollWidth")


def create_tournament(page, base: str, name: str, kind: str, date: str | None = None, place: str | None = None) -> int:
    """The arbiter's « Nouveau tournoi » form, filled and sent (no date: the form's own, today); returns the
    new tournament's id."""
    page.goto(base + "/arbitre/tournois/nouveau")
    page.fill("#name", name)
    page.select_option("#kind", kind)
    if date is not None:
        page.fill("#date", date)
    if place is not None:
        page.fill("#place", place)
    page.click("button:has-text('Créer le tournoi')")
    match = re.search(r"/arbitre/tournois/(\d+)/$", page.url)
    assert match, (page.url, page.inner_text("main"))
    return int(match.group(1))


def make_free_movement(page, base: str, tournament_id: int, seed: str) -> str:
    """« Faire le mouvement » of a free-play tournament with the draw's ``seed``; returns the page's text."""
    page.goto(f"{base}/arbitre/tournois/{tournament_id}/libre/mouvement")
    page.fill("#seed", seed)
    page.click("button:has-text('Faire le mouvement')")
    return page.inner_text("body")


def numbered_players_csv(surname: str, count: int, first_licence: int, club: str) -> str:
    """A players' list as the club's spreadsheet saves it: licences ``first_licence + 1``…, surnames
    ``<surname>01``…, first names ``Prénom1``…"""
    lines = ["Licence;Nom;Prénom;Club"]
    lines += [f"{first_licence + i};{surname}{i:02d};Prénom{i};{club}" for i in range(1, count + 1)]
    return "\n".join(lines) + "\n"


def import_players(page, base: str, tournament_id: int, csv_path: Path, count: int | None = None) -> str:
    """« Importer des joueurs »: the file, its preview, « Confirmer »; with ``count``, checks the preview
    announces that many and the list says they were imported. Returns the preview's text."""
    page.goto(f"{base}/arbitre/tournois/{tournament_id}/joueurs/import")
    page.set_input_files("#file", str(csv_path))
    page.click("button:has-text('Voir l’aperçu')")
    preview = page.inner_text("body")
    if count is not None:
        assert f"{count} joueur{'s' if count > 1 else ''} à ajouter" in preview, preview  # a preview, nothing stored yet
    page.click("button:has-text('Confirmer')")
    page.wait_for_url(re.compile(r"/joueurs$"))
    if count is not None:
        assert f"{count} joueur{'s importés' if count > 1 else ' importé'}" in page.inner_text("body")
    return preview


def import_teams(page, home: str, csv_path: Path, data: bytes, teams: int) -> None:
    """« Importer des équipes (CSV) » from the « Équipes » page: ``data`` written to ``csv_path``, its
    preview, « Confirmer : former N équipes »; back on « Équipes »."""
    csv_path.write_bytes(data)
    page.goto(f"{home}/equipes")
    page.click("a:has-text('Importer des équipes (CSV)')")
    page.set_input_files("#file", str(csv_path))
    page.click("button:has-text('Voir l’aperçu')")
    page.click(f"button:has-text('Confirmer : former {teams} équipe{'s' if teams > 1 else ''}')")
    page.wait_for_url(re.compile(r"/equipes$"))


def fill_deal(page, row: int, taker: str, contract: str, points: str, bouts: str, poignees: str = "") -> None:
    """One row of a feuille de marque (free play), as a person types it: the selects by keyboard, Tab across."""
    page.select_option(f"[name=taker-{row}]", taker)
    page.select_option(f"[name=contract-{row}]", contract)
    page.fill(f"[name=points-{row}]", points)
    page.fill(f"[name=bouts-{row}]", bouts)
    if poignees:
        page.fill(f"[name=poignees-{row}]", poignees)


def sign_in(page, base: str, username: str) -> None:
    page.goto(base + "/connexion")
    page.fill("#username", username)
    page.fill("#password", PASSWORD)
    with page.expect_navigation():
        page.press("#password", "Enter")
    assert "/connexion" not in page.url, page.content()


def give_access(page, base: str, tournament_id: int, username: str) -> None:
    """The arbiter gives the tournament to an existing account (« Accès » page): a scorer may enter its fiches."""
    page.goto(f"{base}/arbitre/tournois/{tournament_id}/acces")
    page.fill("#grant-username", username)
    page.click("button:has-text('Donner l’accès')")
    assert f"{username} a désormais accès au tournoi." in page.inner_text("body"), page.inner_text("main")


def fetch_pdf(page, url: str, path: Path, timeout: float = 60) -> Path:
    """GET a route-sheet PDF as a browser's link would: rendered off the request path, it first answers
    « en préparation » (202) until the file is ready, then the PDF; written to ``path``."""
    deadline = time.monotonic() + timeout
    while True:
        response = page.request.get(url)
        if response.status == 200:
            path.write_bytes(response.body())
            return path
        assert response.status == 202 and "préparation" in response.text(), (response.status, response.text()[:300])
        assert time.monotonic() < deadline, f"PDF toujours en préparation après {timeout} s : {url}"
        time.sleep(0.5)


def pdf_text(path: Path) -> str:
    assert path.read_bytes().startswith(b"%PDF"), path
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True,
                          check=True, timeout=60).stdout


def assert_images_shown(images) -> None:
    """Every <img> of a locator loaded and decoded (a broken image has no natural width)."""
    images.first.scroll_into_view_if_needed()
    images.page.wait_for_load_state("load")
    images.page.wait_for_function("imgs => imgs.every(i => i.complete)", arg=images.element_handles(), timeout=10_000)
    broken = images.evaluate_all(
        "imgs => imgs.filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.getAttribute('src'))")
    assert not broken, f"images not shown: {broken[:3]}"


def download(page, action) -> Path:
    with page.expect_download(timeout=60_000) as info:
        action()
    target = Path(info.value.path())
    return target.rename(target.with_name(info.value.suggested_filename))


def enter_board(page, base: str, tournament_id: int, number: int, scores: dict[str, str] | None = None) -> list[str]:
    """Open étui `number` from the scoring overview by keyboard and type its fiche; returns its line keys.
    Does not save: the caller presses Enter."""
    page.goto(f"{base}/saisie/tournois/{tournament_id}/")
    page.wait_for_function("() => document.activeElement && document.activeElement.id === 'etui'", timeout=15_000)
    page.keyboard.type(str(number))  # « Aller à l'étui n° » has the focus
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(rf"/etuis/{number}$"))
    inputs = page.locator("input.score-input")
    keys = [name.removeprefix("score-") for name in inputs.evaluate_all("els => els.map(e => e.name)")]
    page.wait_for_function(f"() => document.activeElement && document.activeElement.name === 'score-{keys[0]}'",
                           timeout=15_000)
    for i, key in enumerate(keys):
        board, table = map(int, key.split("-"))
        text = (scores or {}).get(key) or f"{score_for(board, table):+d}"
        page.keyboard.type(text)
        if i < len(keys) - 1:
            page.keyboard.press("Tab")
            assert page.evaluate("document.activeElement.name") == f"score-{keys[i + 1]}"
    return keys


def table_rows(page, selector: str) -> list[list[str]]:
    """The cells' text of each body row of the table at `selector`."""
    return page.locator(f"{selector} tbody tr").evaluate_all(
        "rows => rows.map(r => Array.from(r.cells).map(c => c.innerText.trim()))")
