"""The form of a fiche (`web.scoring.fiche_form`), built from its lines: the fields of each kind's line, named as
the page names its inputs, what `FicheForm.entries` gives `operations.save_lines`, a mangled version read as
none, the CSRF token its only refusal — and a junk score refused, through the form's entries, with the
fiche's French message."""

import re
from contextlib import ExitStack

import pytest
from flask import Flask, request
from sqlmodel import Session

from duplicate import db, operations
from duplicate.core.formats import format_for
from duplicate.web.scoring.fiche_form import fiche_form
from scoring_helpers import ready

LINES = [operations.Line(board=3, table=1, position=1, taker="N1", defence=["E1", "W1"]),
         operations.Line(board=3, table=2, position=2, taker="N2", defence=["E2", "W2"])]
#: every line's fields, whatever the kind: the page of a kind shows some (a team match's contract, a quadrette's
#: attacker), the format decides what the others mean (`Format.bid_contract`, `Format.attacker_of`)
EVERY_LINE = {f"{name}-{key}" for key in ("3-1", "3-2")
              for name in ("score", "chelem", "version", "replace", "contract", "attacker")}


@pytest.fixture
def posted():
    """``posted(data, kind, csrf, lines)``: the form of the fiche of ``lines`` (`LINES`) in a ``kind`` tournament,
    as posted with ``data``, its CSRF check on with ``csrf``."""
    with ExitStack() as requests:
        def form(data: dict, kind: str = "individual", csrf: bool = False, lines=LINES):
            app = Flask(__name__)
            app.config.update(SECRET_KEY="test", WTF_CSRF_ENABLED=csrf)
            requests.enter_context(app.test_request_context("/", method="POST", data=data))
            return fiche_form(lines, format_for(kind))(formdata=request.form)

        yield form


@pytest.mark.parametrize("kind", ["individual", "triplettes", "quadrettes", "team_match"])
def test_the_fields_of_each_kind_s_line(posted, kind):
    form = posted({}, kind)
    assert {field.name for field in form} == EVERY_LINE | {"replace"}
    assert str(form.hidden_tag()) == ""  # the page writes its own inputs: no field rendered twice


@pytest.mark.parametrize("kind", ["quadrettes", "team_match"])
def test_the_page_s_inputs_are_the_form_s_fields(posted, app, arbiter, kind):
    """Every input, select and button of a fiche's form on its page (but the CSRF token) is a field of its form."""
    tournament_id = ready(app, kind)
    page = arbiter.get(f"/saisie/tournois/{tournament_id}/etuis/1").get_data(as_text=True)
    fiche = re.search(r'<form method="post" class="scoring-form".*?</form>', page, re.S).group(0)
    with Session(db.get_engine(app)) as session:
        lines = operations.traveller(session, operations.get_tournament(session, tournament_id), 1)
    sent = set(re.findall(r'name="([^"]+)"', fiche)) - {"csrf_token"}
    assert sent == {f"{name}-{line.key}" for line in lines
                    for name in ("score", "contract" if kind == "team_match" else "attacker")}
    assert sent <= {field.name for field in posted({}, kind, lines=lines)}


@pytest.mark.parametrize("kind", ["individual", "triplettes", "quadrettes"])
def test_entries_are_the_lines_whose_score_was_sent_as_typed(posted, kind):
    form = posted({"score-3-1": " +56 ", "chelem-3-1": "1", "version-3-1": " 7 ", "replace-3-1": "8",
                   "contract-3-1": "garde_sans", "attacker-3-1": "Q1-2"}, kind)
    assert form.validate()
    # the Garde imposed whatever was sent (SPEC §2); « Remplacer » not pressed; the attacker as sent
    assert form.entries() == {"3-1": {"score": " +56 ", "chelem": True, "contract": None, "version": 7,
                                      "replace": None, "attacker": "Q1-2"}}


def test_a_team_match_line_s_contract_is_a_garde_unless_sent(posted):
    form = posted({"score-3-1": "+56", "score-3-2": "", "contract-3-2": "garde_contre"}, "team_match")
    entries = form.entries()
    assert entries["3-1"]["contract"] == "garde" and entries["3-2"]["contract"] == "garde_contre"
    assert entries["3-2"]["score"] == "" and "attacker" not in entries["3-1"]


def test_replace_is_read_when_the_button_was_pressed(posted):
    data = {"score-3-1": "+56", "version-3-1": "4", "replace-3-1": "5", "score-3-2": "+60"}
    assert posted({**data, "replace": "1"}).entries()["3-1"]["replace"] == 5
    assert posted({**data, "replace": "oui"}).entries()["3-1"]["replace"] is None
    assert posted({**data, "replace": "1"}).entries()["3-2"]["replace"] is None  # no version shown


@pytest.mark.parametrize("junk", ["abc", "-3", "4.0", "²", "٣", "1234567890", ""])
def test_a_mangled_version_is_no_version_and_refuses_nothing(posted, junk):
    form = posted({"score-3-1": "+56", "version-3-1": junk, "chelem-3-1": "on"})
    assert form.validate() and form.entries()["3-1"]["version"] is None
    assert form.entries()["3-1"]["chelem"] is False  # a ticked box sends « 1 »


def test_without_its_token_the_form_is_refused_and_keeps_what_was_typed(posted):
    form = posted({"score-3-1": "+56"}, csrf=True)
    assert not form.validate() and list(form.errors) == ["csrf_token"]
    assert form.entries()["3-1"]["score"] == "+56"


@pytest.mark.parametrize("kind", ["individual", "team_match"])
def test_a_junk_score_is_refused_with_the_fiche_s_message(posted, app, kind):
    """What the fiche shows next to the line (`operations.save_lines`), whatever the kind."""
    tournament_id = ready(app, kind)
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, tournament_id)
        lines = operations.traveller(session, tournament, 1)
        form = posted({f"score-{lines[0].key}": "abc", f"score-{lines[1].key}": "+56"}, kind, lines=lines)
        with pytest.raises(operations.LinesError) as refused:
            operations.save_lines(session, tournament, lines, form.entries(), "marqueur")
    assert refused.value.errors == {
        lines[0].key: "Score illisible « abc » : tapez un nombre avec son signe, par exemple +106 ou -42."}
    assert refused.value.message.startswith("1 ligne refusée : rien n’a été enregistré.")
