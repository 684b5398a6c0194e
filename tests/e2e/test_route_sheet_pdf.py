"""A player downloads their feuille de route as a PDF from the page their private link opens.

ARCHITECTURE's data flow ends with « publish rankings, route sheets (HTML + PDF) », and issue 7 has the
player « open the route sheet by its QR link and download the PDF ». The page offers the printed route
sheet (with its QR code) at ``/feuille/<token>/feuille-de-route.pdf``, rendered off the request path
(issue 12): the link first shows « en préparation », which reloads itself until the download starts.
"""

import re
import subprocess
from pathlib import Path

from live import create_users, flask
from screens import shots

PASSWORD = "mot-de-passe-solide"


def test_the_player_downloads_the_route_sheet_pdf(live_server, new_page, sqlite_url, artifacts):
    base = live_server.url
    demo = flask(sqlite_url, "demo").stdout
    tid = int(re.findall(r"\d+", demo.strip().splitlines()[-1])[-1])
    create_users(sqlite_url, ("arbitre", PASSWORD, "arbiter"))
    arbiter = new_page()
    arbiter.goto(base + "/connexion")
    arbiter.fill("#username", "arbitre")
    arbiter.fill("#password", PASSWORD)
    arbiter.press("#password", "Enter")
    arbiter.goto(f"{base}/arbitre/tournois/{tid}/feuilles")
    row = arbiter.locator("table.private-links tbody tr").first
    entrant = row.locator(".place-id").inner_text().strip()
    url = row.locator("td a").first.inner_text().strip()

    player = new_page()
    player.goto(url)
    assert entrant in player.inner_text("body")
    link = player.locator("a[href$='.pdf'], a:has-text('PDF')")
    assert link.count() >= 1, "the route sheet page offers no PDF"
    with player.expect_download(timeout=60_000) as info:
        link.first.click()
        # rendered off the request path: the waiting page first, which reloads itself until the PDF comes
        player.wait_for_selector("h1:has-text('Feuille de route en préparation')")
        assert "réessayez dans quelques secondes" in player.inner_text("body")
        shots(player, artifacts, "feuille-de-route-en-preparation")
    pdf = Path(info.value.path())
    assert pdf.read_bytes().startswith(b"%PDF")
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert entrant in text and "feuille de route" in text.lower()
