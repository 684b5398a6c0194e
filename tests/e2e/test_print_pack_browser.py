"""« Tout imprimer » in a real browser (issue 15, point 5): the arbiter asks for a table's envelope, the
job page follows the progress through static/js/print-job.js (no reload by hand), then offers the PDF."""

import re
import subprocess
from pathlib import Path

from live import create_users, flask
from screens import PASSWORD, shots


def test_the_arbiter_prints_a_table_envelope(live_server, new_page, sqlite_url, artifacts):
    base = live_server.url
    tid = int(re.findall(r"\d+", flask(sqlite_url, "demo").stdout.strip().splitlines()[-1])[-1])
    create_users(sqlite_url, ("arbitre", PASSWORD, "arbiter"))
    page = new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(base + "/connexion")
    page.fill("#username", "arbitre")
    page.fill("#password", PASSWORD)
    page.press("#password", "Enter")
    page.goto(f"{base}/arbitre/tournois/{tid}/impression/")
    shots(page, artifacts, "print-pack-page")
    page.fill("input[name=table]", "4")
    page.get_by_role("button", name="Préparer").first.click()
    page.wait_for_selector("h1:has-text('Enveloppe de la table 4')")
    link = page.get_by_role("link", name="Télécharger le PDF")
    link.wait_for(timeout=180_000)  # the script reloads the page once the job is done
    shots(page, artifacts, "print-pack-done")
    with page.expect_download(timeout=60_000) as info:
        link.click()
    pdf = Path(info.value.path())
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert "PRENEUR" in text and "Étui 13" in text  # table 4 starts with étuis 13–16
    assert info.value.suggested_filename == f"tournoi-{tid}-enveloppe-table-4.pdf"
    assert not errors, errors
