"""Fixtures for the end-to-end tests: the real application in a child process (`live`), on a SQLite file,
and Debian's Chromium driven by Playwright (no browser download: ``executable_path=/usr/bin/chromium``).

Screenshots of the key screens go to ``tests/e2e/artifacts/`` (git-ignored), to be looked at after a run.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from live import LiveServer  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).parent / "artifacts"
TIMEOUT_MS = 20_000


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def browser():
    """Chromium, headless, launched once for the session."""
    if not shutil.which(CHROMIUM) and not os.path.exists(CHROMIUM):
        pytest.fail(f"Chromium is missing at {CHROMIUM}: `make test` installs Debian's chromium package")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, timeout=60_000)
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser):
    """``new_page()``: a page in a fresh browser context (its own cookies: one person, one device)."""
    contexts = []

    def make(**options):
        options = {"viewport": {"width": 1280, "height": 900}, **options}  # a phone passes its own
        context = browser.new_context(accept_downloads=True, locale="fr-FR", **options)
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def sqlite_url(sqlite_copy) -> str:
    """The test's SQLite file: a copy of the worker's migrated template (tests/conftest.py `sqlite_copy`),
    what the server would make of an empty file at start-up, without migrating it again for each test
    (issue 32). The faults' servers and tests/test_migrations.py still migrate from empty."""
    return sqlite_copy("e2e.sqlite3")


@pytest.fixture
def live_server(sqlite_url, tmp_path):
    """The application running in a child process on the test's SQLite file (`sqlite_url`)."""
    with LiveServer(sqlite_url, tmp_path / "server.log") as server:
        yield server
