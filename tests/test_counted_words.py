"""Counts agree with their noun (docs/every-word-true.md § 9b): where the count is known the UI writes
« 2 équipes formées », « 1 étui », « 0 joueur » — never « (s) ».  Hand-written examples through the real
functions and pages, and a scan of duplicate/ and templates/ for a « (s) » after a placeholder or a digit."""

from __future__ import annotations

import ast
import re
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from sqlmodel import Session

from duplicate import db, french, operations

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "web"))

from scoring_helpers import ready  # noqa: E402  (tests/web helper: a ready tournament)

PASSWORD = "mot-de-passe-solide"


# --- the helpers ------------------------------------------------------------------------------------

def test_counted_takes_the_singular_for_0_and_1():
    assert french.counted(0, "joueur", "joueurs") == "0 joueur"
    assert french.counted(1, "étui", "étuis") == "1 étui"
    assert french.counted(2, "équipe formée", "équipes formées") == "2 équipes formées"
    assert french.counted(20, "donne connue", "donnes connues") == "20 donnes connues"
    assert french.counted(1, "résultat déjà saisi", "résultats déjà saisis") == "1 résultat déjà saisi"


@pytest.mark.parametrize("value, shown", [
    (Fraction(5, 2), "2,50 points"), (2, "2,00 points"), (1, "1,00 point"), (0.5, "0,50 point"),
    (1.5, "1,50 point"), (1.995, "2,00 points"), (-3, "−3,00 points"), (Fraction(-1, 2), "−0,50 point")])
def test_points_below_2_are_singular(value, shown):
    assert french.points(value) == shown


def test_unit_word_reads_the_shown_text():
    assert [french.unit_word(text) for text in ("2,50", "1,00", "0,50", "−1,00", "−2,00", "10")] == [
        "points", "point", "point", "point", "points", "points"]


def test_the_filters_exist_on_screen_and_on_paper(app):
    from duplicate.printing.render import environment

    for env in (app.jinja_env, environment()):
        template = env.from_string("{{ n | counted('ligne refusée', 'lignes refusées') }} ; {{ p }} {{ p | unit_word }}")
        assert template.render(n=1, p="0,50") == "1 ligne refusée ; 0,50 point"
        assert template.render(n=3, p="2,50") == "3 lignes refusées ; 2,50 points"


# --- through the real pages -------------------------------------------------------------------------

@pytest.fixture
def arbiter(app):
    with app.app_context(), Session(db.get_engine(app)) as session:
        operations.create_user(session, "arbitre", PASSWORD, "arbiter")
        session.commit()
    client = app.test_client()
    assert client.post("/connexion", data={"username": "arbitre", "password": PASSWORD}).status_code == 302
    return client


def test_the_dashboard_of_a_team_match_counts_its_two_teams(app, arbiter):
    tid = ready(app, "team_match")
    page = arbiter.get(f"/arbitre/tournois/{tid}/").get_data(as_text=True)
    assert "2 équipes formées" in page and "0 attaquant choisi sur 8" in page
    assert "(s)" not in page


def test_the_etuis_flash_agrees(app, arbiter):
    with Session(db.get_engine(app), expire_on_commit=False) as session:
        tid = operations.create_tournament(session, name="Étuis", kind="individual").id
        session.commit()
    url = f"/arbitre/tournois/{tid}/etuis"
    response = arbiter.post(f"{url}/generer", data={"generate-count": "16", "generate-seed": "Open 2026"},
                            follow_redirects=True)
    page = response.get_data(as_text=True)
    assert "16 étuis générés." in page and "16 étuis" in page and "étui(s)" not in page


def test_a_penalty_flash_says_points():
    # the flash of `web.arbiter.results` and the penalties of the public pages say the amount with its unit
    assert f"Pénalité de {french.points(Fraction(5, 2))} donnée" == "Pénalité de 2,50 points donnée"


# --- the scan -----------------------------------------------------------------------------------------

#: « (s) » right after a placeholder (``{n} joueur(s)``, ``{{ n }} joueur(s)``), a digit, or a concatenation
#: (`` ~ " joueur(s)"``): a count is at hand, so the noun must agree.
AFTER_A_COUNT = re.compile(r"(\}\}?|\d|~ \")\s*[a-zàâçéèêëîïôûù’'–-]+\(s\)", re.IGNORECASE)


def _python_strings(path: Path):
    """The string literals of a module that are not docstrings, with their line numbers."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            # an f-string: its text with a « {} » where each placeholder was
            text = "".join(part.value if isinstance(part, ast.Constant) else "{}" for part in node.values)
            yield node.lineno, text
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node.lineno, node.value


def _template_text(path: Path) -> str:
    return re.sub(r"\{#.*?#\}", "", path.read_text(encoding="utf-8"), flags=re.S)  # no Jinja comments


def test_no_plural_in_brackets_after_a_count():
    found = []
    for path in sorted((ROOT / "duplicate").rglob("*.py")):
        for line, text in _python_strings(path):
            if "(s)" in text and (AFTER_A_COUNT.search(text) or re.search(r"\{\}\s*\S*\(s\)", text)):
                found.append(f"{path.relative_to(ROOT)}:{line}: {text.strip()[:80]}")
    for path in sorted((ROOT / "templates").rglob("*.html")):
        for number, line in enumerate(_template_text(path).splitlines(), 1):
            if AFTER_A_COUNT.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:80]}")
    assert not found, "« (s) » after a count:\n" + "\n".join(found)


def test_the_scan_sees_what_it_must():
    assert AFTER_A_COUNT.search("{{ n }} joueur(s)") and AFTER_A_COUNT.search("{n} étui(s) générés")
    assert AFTER_A_COUNT.search("2,50 point(s)") and AFTER_A_COUNT.search('~ " équipe(s)"')
    assert not AFTER_A_COUNT.search("3 pour le(s) premier(s)")
