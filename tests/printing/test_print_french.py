"""The printed matter speaks French as the screens do (SPEC §11): O / EO, the one rounding rule,
the penalties the screen shows, « note arbitrale »."""

import re

from duplicate import printing
from duplicate.view_models.export import flags
from print_helpers import pdf_text


def _row(demo, ident):
    return next(r for r in demo["ranking"]["ranking"] if r["id"] == ident)


def test_the_printed_ranking_reads_o_not_w(demo):
    text = pdf_text(printing.render_kind("ranking", demo["export"], demo["ranking"]), layout=False)
    assert re.search(r"\bO\d+\b", text) and re.search(r"\bE\d+\b", text)
    assert not re.search(r"\bW\d+\b", text), "a starting place printed W instead of O"


def test_route_sheets_and_table_cards_read_o_not_w(demo):
    west = sorted(r["id"] for r in demo["ranking"]["ranking"] if r["id"].startswith("W"))[0]
    for kind, options in (("route-sheets", {"entrants": [west]}), ("guide-cards", {}), ("movement-cards", {})):
        text = pdf_text(printing.render_kind(kind, demo["export"], demo["ranking"], **options), layout=False)
        assert not re.search(r"\bW\d+\b", text), kind
    assert "N° O" + west[1:] in pdf_text(printing.render_kind("route-sheets", demo["export"], demo["ranking"],
                                                               entrants=[west]), layout=False)


def test_58_125_prints_58_13_as_on_the_screen(demo_copy):
    from duplicate.web.filters import fr_number

    row = demo_copy["ranking"]["ranking"][0]
    row["global"] = 58.125          # exact in binary: half away from zero gives 58,13, not 58,12
    row["attack"] = -0.125          # negative half: « −0,13 »
    text = pdf_text(printing.render_kind("ranking", demo_copy["export"], demo_copy["ranking"]), layout=False)
    assert "58,13" in text and "58,12" not in text
    assert "−0,13" in text
    assert fr_number(58.125) == "58,13" and fr_number(-0.125) == "−0,13"


def test_a_per_board_penalty_is_not_printed_as_a_zero_penalty(demo_copy):
    export, ranking = demo_copy["export"], demo_copy["ranking"]
    ident = ranking["ranking"][0]["id"]
    assert _row(demo_copy, ident)["penalty"] == 0
    export["penalties"] = [{"player": ident, "points": 3, "board": 1, "reason": "Bavardage"}]
    text = pdf_text(printing.render_kind("route-sheets", export, ranking, entrants=[ident]), layout=False)
    assert "PÉNALITÉS" not in text and "0,00" not in text.split("Global")[0][-40:]
    assert "3,00 points sur l’étui 1" in text


def test_a_global_penalty_is_printed_with_its_value(demo_copy):
    export, ranking = demo_copy["export"], demo_copy["ranking"]
    penalised = next(r for r in ranking["ranking"] if r["penalty"])
    text = pdf_text(printing.render_kind("route-sheets", export, ranking, entrants=[penalised["id"]]), layout=False)
    assert "PÉNALITÉS" in text and "−2,50" in text


def test_an_arbitral_note_is_printed_as_such_not_as_a_corrected_score():
    # « corrected » now means the done score was changed (issue 28, `operations.corrected_ids`): a note or an
    # annulment alone is named for what it is; with a score changed too, both are said
    assert flags({"board": 1, "table": 1, "score": 56, "notes": {"taker": 60, "defence": 40}}) == ["note arbitrale"]
    assert flags({"board": 1, "table": 1, "score": 56, "annulled": True}) == ["donne annulée"]
    result = {"board": 1, "table": 1, "score": 56, "notes": {"taker": 60, "defence": 40}, "corrected": True}
    assert flags(result) == ["score corrigé après saisie", "note arbitrale"]
    assert flags({"board": 1, "table": 1, "score": 56, "annulled": True, "corrected": True}) == [
        "donne annulée", "score corrigé après saisie"]
    assert flags({"board": 1, "table": 1, "score": 56, "corrected": True}) == ["score corrigé après saisie"]
    assert flags({"board": 1, "table": 1, "score": 60, "adjusted": True, "corrected": True}) == [
        "score rectifié par l’arbitre"]
