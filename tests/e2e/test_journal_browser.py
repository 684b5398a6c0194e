"""The arbiter reads the journal of a long evening (issue 30's follow-up: an evening on the phones journals
each entry and confirmation — 8,400 entries at 150 tables, a 3.3 MB page and 1.5 s of the server's core
when shown whole): a hundred entries a page, newest first, and the entries of one table or étui on asking.
On a 390 px phone and a 1920 px screen (``journal-*.png`` in ``artifacts/``)."""

import re
import subprocess

from live import PYTHON, REPO, app_env
from screens import shots
from test_phone_widths import _demo_and_its_arbiter_on_a_phone

# 240 entries as the phones write them: entry i at table i % 6 + 1, étui i % 4 + 1
_ENTRIES = """
import sys
from sqlmodel import Session
from duplicate import create_app, db, operations
app = create_app()
with Session(db.get_engine(app)) as session:
    tournament = operations.get_tournament(session, int(sys.argv[1]))
    for i in range(1, 241):
        table, board = i % 6 + 1, i % 4 + 1
        operations.journal(session, tournament, action="table.enter", who=f"table {table}",
                           summary=f"Saisie n° {i} : étui {board}, table {table}.",
                           after={"étui": board, "table": table, "score": "+56"})
    session.commit()
db.get_engine(app).dispose()
"""


def test_the_arbiter_pages_and_filters_a_long_journal(live_server, new_page, sqlite_url, artifacts):
    base = live_server.url
    tid, arbiter = _demo_and_its_arbiter_on_a_phone(base, new_page, sqlite_url)
    subprocess.run([PYTHON, "-c", _ENTRIES, str(tid)], cwd=REPO, env=app_env(sqlite_url), check=True,
                   timeout=120, capture_output=True)
    arbiter.goto(f"{base}/arbitre/tournois/{tid}/journal")
    count = arbiter.inner_text("p.journal-count")
    total = int(re.match(r"(\d+) modifications", count).group(1))
    assert total >= 240 and f"page 1 sur {-(-total // 100)}" in count
    rows = arbiter.locator("table.journal tbody tr")
    assert rows.count() == 100 and "Saisie n° 240 :" in rows.first.inner_text()  # the newest first
    shots(arbiter, artifacts, "journal-page-1")

    arbiter.click("text=Plus anciennes ›")
    arbiter.wait_for_url(re.compile(r"page=2"))
    assert "Saisie n° 140 :" in arbiter.locator("table.journal tbody tr").first.inner_text()

    arbiter.fill("input[name=table]", "3")  # i % 6 = 2: 2, 8, …, 236 — 40 entries
    with arbiter.expect_navigation():
        arbiter.click("button:has-text('Filtrer')")
    assert arbiter.inner_text("p.journal-count").startswith("40 modifications concernant la table 3")
    summaries = arbiter.locator("table.journal tbody tr td:nth-child(3)").all_inner_texts()
    assert len(summaries) == 40 and all(text.endswith("table 3.") for text in summaries)
    assert summaries[0] == "Saisie n° 236 : étui 1, table 3."
    shots(arbiter, artifacts, "journal-table-3")

    arbiter.fill("input[name=etui]", "1")  # and i % 4 = 0: 8, 20, …, 236 (i % 12 = 8) — 20 entries
    with arbiter.expect_navigation():
        arbiter.click("button:has-text('Filtrer')")
    assert arbiter.inner_text("p.journal-count").startswith("20 modifications concernant la table 3 et l’étui 1")
    arbiter.click("text=Tout le journal")
    arbiter.wait_for_url(re.compile(r"/journal$"))
    assert arbiter.locator("table.journal tbody tr").count() == 100
