"""The simultané's national topage and its clubs' files (issue 33, `duplicate.core.simultaneous`).

Hand-derived vectors (SPEC §4: note = 100 × (tables beaten + ½ tied) / (n − 1), n = 1 → 50; SPEC §5:
a player with no attack deal has global = defence %, and the converse), every refusal of a club's file,
and a property: the national taker notes equal the SPEC §4 formula applied by hand to the raw scores of
every club, whatever the clubs and their order.
"""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duplicate.core.deals import seed_hash
from duplicate.core.simultaneous import (
    ClubFile, Event, SimultaneousError, club_envelope, club_ranking, national_file, national_ranking,
    read_club_file,
)
from duplicate.view_models import frequencies_view
from factories import club_evening

SEED_HASH = seed_hash("simultané de décembre")
EVENT = Event("S2026-12", "individual", {1: "N", 2: "S"}, SEED_HASH)
KEYS = {"A": "clé-du-club-A", "B": "clé-du-club-B", "C": "clé-du-club-C"}


def _evening(scores: dict[int, dict[int, int]]) -> dict:
    """A club's evening on `EVENT`'s étuis (`factories.club_evening`)."""
    return club_evening(scores, EVENT.boards)


def _accepted(club: str, evening: dict) -> ClubFile:
    return read_club_file(club_envelope(EVENT.code, club, SEED_HASH, evening, KEYS[club]), EVENT, KEYS)


CLUB_A = {1: {1: 56}, 2: {1: -56}}  # club A: two tables play étui 1
CLUB_B = {1: {1: 62}}               # club B: one table plays it


def _by_id(output: dict) -> dict[str, dict]:
    return {row["id"]: row for row in output["ranking"]}


def test_the_national_topage_tops_each_etui_over_every_club():
    """Étui 1 at three tables of two clubs: 62 beats both (100), 56 beats −56 (50), −56 beats none (0);
    the defenders get 100 minus their taker's note."""
    output = national_ranking(EVENT, [_accepted("A", _evening(CLUB_A)), _accepted("B", _evening(CLUB_B))])
    [board] = output["boards"]
    notes = {(r["club"], r["club_table"]): (r["score"], r["taker_note"], r["defence_note"]) for r in board["results"]}
    assert notes == {("A", 1): (56, 50.0, 50.0), ("A", 2): (-56, 0.0, 100.0), ("B", 1): (62, 100.0, 0.0)}
    rows = _by_id(output)
    assert {ident: rows[ident]["global"] for ident in rows} == {
        "B.N1": 100.0, "A.S2": 100.0, "A.E2": 100.0, "A.W2": 100.0,
        "A.N1": 50.0, "A.S1": 50.0, "A.E1": 50.0, "A.W1": 50.0,
        "A.N2": 0.0, "B.S1": 0.0, "B.E1": 0.0, "B.W1": 0.0}
    assert {ident: rows[ident]["rank"] for ident in ("B.N1", "A.S2", "A.N1", "A.W1", "A.N2", "B.W1")} == {
        "B.N1": 1, "A.S2": 1, "A.N1": 5, "A.W1": 5, "A.N2": 9, "B.W1": 9}
    assert rows["B.N1"]["club"] == "B" and rows["B.N1"]["local_id"] == "N1"
    # the clubs' places among their own on the national topage: a national tie stays one
    assert [(row["id"], row["national_rank"], row["club_rank"]) for row in output["clubs"]["B"]] == [
        ("N1", 1, 1), ("E1", 9, 2), ("S1", 9, 2), ("W1", 9, 2)]
    assert [row["club_rank"] for row in output["clubs"]["A"]] == [1, 1, 1, 4, 4, 4, 4, 8]
    assert output["clubs"]["A"][-1]["id"] == "N2"


def _frequencies(clubs: list[ClubFile]) -> list[tuple[int, int, list[tuple[str, int, str]]]]:
    """The national frequencies as the simultané's page reads them: `view_models.frequencies_view` of the
    national file and its ranking — (étui, tables played, [(score, tables, taker's note)])."""
    output = national_ranking(EVENT, clubs)
    return [(item["number"], item["played"], [(line["score"], line["count"], line["taker_note"]) for line in item["lines"]])
            for item in frequencies_view(national_file(EVENT, clubs)[0], output)["items"] if item["lines"]]


def test_the_national_frequencies_count_every_clubs_tables():
    """Étui 1: 62 once (100), 56 once (50), −56 once (0); a third club scoring 56 twice makes 56 three tables:
    n = 5, 56 beats −56 and ties two → (1 + 1) / 4 = 50; 62 → 4 / 4 = 100; −56 → 0."""
    assert _frequencies([_accepted("A", _evening(CLUB_A)), _accepted("B", _evening(CLUB_B))]) == [
        (1, 3, [("+62", 1, "100,00"), ("+56", 1, "50,00"), ("−56", 1, "0,00")])]
    more = _frequencies([_accepted("A", _evening(CLUB_A)), _accepted("B", _evening(CLUB_B)),
                         _accepted("C", _evening({1: {1: 56}, 2: {1: 56}}))])
    assert more[0][2] == [("+62", 1, "100,00"), ("+56", 3, "50,00"), ("−56", 1, "0,00")]


def test_a_clubs_own_ranking_stays_as_its_evening_gave_it():
    """Club A alone: 56 beats −56 (100 and 0); club B alone: one table, n = 1 → 50. Club B's upload moves A's
    national figures, never A's own ranking."""
    club_a, club_b = _accepted("A", _evening(CLUB_A)), _accepted("B", _evening(CLUB_B))
    alone = _by_id(club_ranking(club_a))
    assert (alone["N1"]["global"], alone["S2"]["global"], alone["N2"]["global"], alone["S1"]["global"]) == \
        (100.0, 100.0, 0.0, 0.0)
    assert {row["global"] for row in club_ranking(club_b)["ranking"]} == {50.0}
    national_alone = _by_id(national_ranking(EVENT, [club_a]))
    assert national_alone["A.N1"]["global"] == 100.0  # one club: its national topage is its own
    national = _by_id(national_ranking(EVENT, [club_a, club_b]))
    assert national["A.N1"]["global"] == 50.0
    assert _by_id(club_ranking(club_a)) == alone


def test_the_clubs_order_changes_nothing():
    club_a, club_b = _accepted("A", _evening(CLUB_A)), _accepted("B", _evening(CLUB_B))
    assert national_ranking(EVENT, [club_a, club_b]) == national_ranking(EVENT, [club_b, club_a])


def _envelope(club: str = "A", evening: dict | None = None, **changes) -> dict:
    envelope = club_envelope(EVENT.code, club, SEED_HASH, evening or _evening(CLUB_A), KEYS[club])
    envelope.update(changes)
    return envelope


def _refusal(envelope) -> str:
    with pytest.raises(SimultaneousError) as caught:
        read_club_file(envelope, EVENT, KEYS)
    return str(caught.value)


def test_a_forged_or_altered_file_is_refused():
    altered = _envelope()
    altered["tournament"]["results"][1]["score"] = 62  # a score changed after signing
    assert _refusal(altered) == ("Signature refusée pour le club A : le fichier a été modifié après sa signature, "
                                 "ou signé avec une autre clé.")
    forged = club_envelope(EVENT.code, "A", SEED_HASH, _evening(CLUB_A), KEYS["B"])  # B's key for A's name
    assert _refusal(forged).startswith("Signature refusée pour le club A")
    assert _refusal(_envelope(signature=None)).startswith("Signature refusée")
    assert _refusal(_envelope(signature="clé-forgée-é")).startswith("Signature refusée")  # not ASCII: no crash


def test_a_file_that_contradicts_the_event_is_refused_with_its_reason():
    assert _refusal([]) == "Ce n’est pas un fichier de simultané (« format » : « tarot-simultane/1 » attendu)."
    other = club_envelope("S2027-01", "A", SEED_HASH, _evening(CLUB_A), KEYS["A"])
    assert _refusal(other) == "Ce fichier est celui d’un autre simultané (« S2027-01 », attendu « S2026-12 »)."
    unknown = club_envelope(EVENT.code, "Z", SEED_HASH, _evening(CLUB_A), "clé")
    assert _refusal(unknown).startswith("Club « Z » inconnu de ce simultané")
    other_deals = club_envelope(EVENT.code, "A", seed_hash("autre graine"), _evening(CLUB_A), KEYS["A"])
    assert _refusal(other_deals).startswith("Le club A a joué d’autres donnes")
    triplettes = {**_evening(CLUB_A), "kind": "triplettes"}
    assert _refusal(_envelope(evening=triplettes)) == ("Fichier du club A : un tournoi « triplettes », le "
                                                       "simultané est en « individual ».")


def test_an_unknown_etui_a_line_twice_or_an_impossible_score_is_refused():
    unknown = _evening({1: {1: 56}})
    unknown["results"][0]["board"] = 29
    assert _refusal(_envelope(evening=unknown)) == ("Fichier du club A, résultat n° 1 : étui « 29 » inconnu du "
                                                    "simultané.")
    extra_board = _evening({1: {1: 56}})
    extra_board["boards"].append({"number": 3, "taker": "E"})
    assert _refusal(_envelope(evening=extra_board)) == ("Fichier du club A : étui « 3 » inconnu du simultané "
                                                        "(étuis 1 à 2).")
    other_taker = _evening({1: {1: 56}})
    other_taker["boards"][0]["taker"] = "W"
    assert _refusal(_envelope(evening=other_taker)) == ("Fichier du club A : l’étui 1 a pour preneur « W », le "
                                                        "simultané « N ».")
    twice = _evening({1: {1: 56}})
    twice["results"].append(copy.deepcopy(twice["results"][0]))
    assert _refusal(_envelope(evening=twice)) == ("Fichier du club A, résultat n° 2 : l’étui 1 à la table 1 "
                                                  "figure deux fois.")
    impossible = _evening({1: {1: 31}})
    message = _refusal(_envelope(evening=impossible))
    assert message.startswith("Fichier du club A : ") and "31" in message
    # an id the core accepts alone, 31 characters, but not as the field names it (« A.N1… », 33): refused at
    # the upload, never a national ranking made impossible for every club
    long_id = json.loads(json.dumps(_evening({1: {1: 56}})).replace('"N1"', '"N1' + "x" * 29 + '"'))
    assert club_ranking(ClubFile("A", long_id))["ranking"]  # valid as the club's own file
    message = _refusal(_envelope(evening=long_id))
    assert message.startswith("Fichier du club A : ") and "A.N1xxx" in message


SCORES = (56, 62, -56, -52, 50, 70, -70, 90)  # garde scores of the seed example and a few more


@st.composite
def _clubs(draw):
    clubs = {}
    for club in draw(st.lists(st.sampled_from(sorted(KEYS)), min_size=1, max_size=3, unique=True)):
        tables = draw(st.integers(1, 3))
        clubs[club] = {table: {board: draw(st.sampled_from(SCORES)) for board in EVENT.boards}
                       for table in range(1, tables + 1)}
    return clubs


@settings(max_examples=60, deadline=None)
@given(_clubs())
def test_the_national_notes_are_the_topage_of_every_clubs_scores(clubs):
    """Independent check: SPEC §4's formula applied here to the raw scores of every club's tables."""
    output = national_ranking(EVENT, [_accepted(club, _evening(scores)) for club, scores in clubs.items()])
    for board in output["boards"]:
        field = [scores[board["number"]] for tables in clubs.values() for scores in tables.values()]
        for row in board["results"]:
            score = clubs[row["club"]][row["club_table"]][board["number"]]
            assert row["score"] == score
            others = len(field) - 1
            expected = 50.0 if others == 0 else 100 * (sum(s < score for s in field)
                                                       + 0.5 * (field.count(score) - 1)) / others
            assert row["taker_note"] == pytest.approx(expected)
            assert row["defence_note"] == pytest.approx(100 - expected)


def test_no_simultane_where_points_de_match_compare_the_two_tables_of_a_match():
    for kind in ("quadrettes", "team_match"):
        with pytest.raises(SimultaneousError) as caught:
            national_ranking(Event("S", kind, {1: "N"}, SEED_HASH), [])
        assert str(caught.value).endswith("les points de match se comptent entre les deux tables d’un match, pas "
                                          "sur tout le champ.")


def test_a_triplettes_simultane_prefixes_teams_and_their_members():
    """Triplettes (tests/ranking_vectors.py, hand-derived): one club alone gives the hand figures under its
    prefix; the same evening in a second club doubles each étui's field — étui 1's scores 62, 56, −56 twice,
    n = 6: 62 beats four and ties one, (4 + ½) / 5 = 90; 56 → (2 + ½) / 5 = 50; −56 → ½ / 5 = 10 — and the
    twins of both clubs stand ex æquo."""
    from ranking_vectors import TRIPLETTES, triplettes_file

    event = Event("S-TRIP", "triplettes", {1: "N", 2: "E", 3: "N", 4: "E"}, SEED_HASH)
    keys = {"A": KEYS["A"], "B": KEYS["B"]}

    def accepted(club: str) -> ClubFile:
        return read_club_file(club_envelope(event.code, club, SEED_HASH, triplettes_file(), keys[club]), event, keys)

    alone = {row["id"]: row for row in national_ranking(event, [accepted("A")])["ranking"]}
    for team, (attack, defence, global_, rank, _alternated) in TRIPLETTES.items():
        row = alone[f"A.{team}"]
        assert (row["attack"], row["defence"], row["global"], row["rank"]) == pytest.approx(
            (float(attack), float(defence), float(global_), rank)), team
    both = national_ranking(event, [accepted("A"), accepted("B")])
    [board_1] = [board for board in both["boards"] if board["number"] == 1]
    assert sorted((r["club"], r["club_table"], r["taker_note"]) for r in board_1["results"]) == [
        ("A", 1, 50.0), ("A", 2, 90.0), ("A", 3, 10.0), ("B", 1, 50.0), ("B", 2, 90.0), ("B", 3, 10.0)]
    rows = {row["id"]: row for row in both["ranking"]}
    for team in TRIPLETTES:
        assert rows[f"A.{team}"]["global"] == rows[f"B.{team}"]["global"]
        assert rows[f"A.{team}"]["rank"] == rows[f"B.{team}"]["rank"]
    assert [row["id"] for row in both["clubs"]["A"]][0] == "NS2"  # the best triplette of each club, 1st ex æquo
