"""The print pack (issue 15, SPEC §10 ``print pack``): the whole evening in one PDF in the order the
arbiter uses it, and one table's envelope.  Expected values read off the demonstration tournament by
hand: 5 tables × 5 positions, 20 étuis, 20 players; table 2 plays étuis 5–8 at the first position with
N2, S2, E2, W2."""

import re

import pytest

from duplicate.printing import pack, render_kind
from print_helpers import page_count, page_texts


def kinds(parts):
    return [kind for kind, _ in parts]


def test_the_pack_follows_the_arbiter_order(demo):
    parts = pack.parts(demo["export"], demo["ranking"])
    assert kinds(parts) == ["labels", "diagrams", "travellers", "guide-cards", "movement-cards",
                            "ranking", "route-sheets", "frequencies", "hand-records"]
    travellers = dict(parts)["travellers"]
    assert all(not line["plus"] and not line["minus"] for item in travellers["items"] for line in item["lines"])


def test_before_play_the_pack_has_no_result_sheets(demo):
    assert kinds(pack.parts(demo["export"], None)) == ["labels", "diagrams", "travellers", "guide-cards",
                                                         "movement-cards"]


def test_a_table_envelope_holds_its_first_position(demo):
    parts = dict(pack.parts(demo["export"], demo["ranking"], table=2))
    assert list(parts) == ["labels", "diagrams", "travellers", "guide-cards", "movement-cards"]
    assert [item["number"] for item in parts["diagrams"]["items"]] == [5, 6, 7, 8]
    assert [item["table"] for item in parts["guide-cards"]["items"]] == [2]
    assert sorted(item["id"] for item in parts["movement-cards"]["items"]) == ["E2", "N2", "S2", "W2"]
    # 4 étuis × (1 case label + 4 pockets) = 20 stickers, on one sheet of 24
    assert parts["labels"]["count"] == 20 and len(parts["labels"]["items"]) == 1


def test_a_table_outside_the_movement_is_refused(demo):
    with pytest.raises(ValueError, match="table 9"):
        pack.parts(demo["export"], demo["ranking"], table=9)


def test_the_envelope_pdf_is_its_parts_in_order(demo, tmp_path):
    out = tmp_path / "enveloppe.pdf"
    pages = pack.render_pack_to_file(demo["export"], demo["ranking"], str(out), table=2, processes=1)
    data = out.read_bytes()
    # 1 label sheet + 4 diagram pages + 2 fiche pages (two a page) + 1 guide card + movement cards
    cards = page_count(render_kind("movement-cards", demo["export"], entrants=["N2", "S2", "E2", "W2"]))
    assert pages == page_count(data) == 1 + 4 + 2 + 1 + cards
    texts = page_texts(data, layout=False)
    assert "PRENEUR" in texts[0]
    assert all(re.search(r"ÉTUI", t) for t in texts[1:5])
    assert "FICHE AMBULANTE" in texts[5]
