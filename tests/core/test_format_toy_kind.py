"""A fifth kind is one class and its movement module (issue 32, ARCHITECTURE habit 15).

The toy kind below — four players at a table, the taker always East whatever the étui says — is declared
the way `core.formats` declares the real ones: one `Format` subclass that overrides the one rule that
differs (the taker's seat), one instance naming its movement module, and that module (``generate``,
``reach``). Nothing else in ``core`` is told about it: the movement is generated through the format, and a
round's lines, the defenders and the confirming seats follow from the class's method — the flags of the
other kinds (``ranks_players``, ``rooms``, ``badges``…) are never read to decide them."""

import sys
import types

import pytest

from duplicate.core import formats, movements
from duplicate.core.formats import Format, PlayLine, format_for
from duplicate.core.movements.model import Movement, Round, build_rounds, default_takers


class EastTakes(Format):
    """The toy kind's whole rule: the taker sits East."""

    def taker_seat_for(self, number, takers=None):
        return "E"


TOY = EastTakes("toy", "Jouet (preneur en Est)", seats=("N", "S", "E", "W"), lines=("N", "S", "E", "W"),
                line_labels=("Nord", "Sud", "Est", "Ouest"), entrant_noun="Joueur", numbered=True,
                place_pattern=r"^(?P<line>[NSEW])(?P<table>[1-9][0-9]*)$", entrants_needed=(4, 4),
                movement="toy", _tables=lambda players: players // 4)

#: The format's flags: what the kinds' switches read before issue 32.
FLAGS = {"ranks_players", "free_play", "rooms", "badges", "uses_pm", "free_contracts", "line_duplicates",
         "chosen_attacker", "quarters", "pm_to_winner", "free_individual", "split_roles", "taker_seat"}


def _toy_movement(tables, positions=None, boards_per_position=None):
    """One table of four players A–D, who turn one seat each position; 2 étuis a position."""
    per = boards_per_position or 2
    positions = positions or 4
    players = ("A", "B", "C", "D")
    rounds = [Round(p, 1, tuple(zip(("N", "S", "E", "W"), players[p - 1:] + players[:p - 1])),
                    tuple(range((p - 1) * per + 1, p * per + 1))) for p in range(1, positions + 1)]
    return Movement("toy", tables, positions, default_takers(positions * per), build_rounds(rounds))


@pytest.fixture
def toy_kind(monkeypatch):
    """The toy kind known by its id, as a declaration in `FORMATS` would make it, and its movement module."""
    module = types.ModuleType("duplicate.core.movements.toy")
    module.generate = _toy_movement
    module.reach = lambda tables: (4, 4) if tables == 1 else (0, 0)
    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setitem(formats._BY_ID, TOY.id, TOY)
    return TOY


class Watched(EastTakes):
    """The toy format, counting which of its attributes are read."""

    def __getattribute__(self, name):
        if not name.startswith("__"):
            object.__getattribute__(self, "__dict__").setdefault("_read", set()).add(name)
        return object.__getattribute__(self, name)


def _watched() -> Watched:
    values = {name: getattr(TOY, name) for name in Format.__dataclass_fields__}
    return Watched(**values)


def test_the_toy_kind_is_found_and_generated_through_its_format(toy_kind):
    assert format_for("toy") is toy_kind
    movement = movements.generate(toy_kind, 1)
    assert movement.format is toy_kind
    assert (movement.tables, movement.positions, len(movement.rounds)) == (1, 4, 4)
    assert movements.reach(toy_kind, 1) == (4, 4)


def test_a_round_s_lines_follow_the_class_s_taker_seat(toy_kind):
    movement = movements.generate(toy_kind, 1)
    first = movement.round_at(1, 1)        # A North, B South, C East, D West; étuis 1 and 2
    # étui 1 is « taken N » and étui 2 « taken S » by the rotation: the toy kind seats the taker East anyway
    assert [b.taker for b in movement.boards[:2]] == ["N", "S"]
    assert toy_kind.round_lines(first.seat_map, first.boards, {b.number: b.taker for b in movement.boards}) == [
        PlayLine(1, "C", ["A", "B", "D"], "E"), PlayLine(2, "C", ["A", "B", "D"], "E")]
    third = movement.round_at(3, 1)        # C North, D South, A East, B West
    assert [(line.taker, line.defence) for line in toy_kind.round_lines(third.seat_map, third.boards, {})] == [
        ("A", ["C", "D", "B"]), ("A", ["C", "D", "B"])]


def test_defenders_and_confirming_seats_follow_from_the_taker_seat(toy_kind):
    seat = toy_kind.taker_seat_for(7)
    assert seat == "E"
    assert toy_kind.defender_seats(seat) == ("N", "S", "W")
    # the North enters the score; a defender other than him confirms it (rules of play, art. 28)
    assert toy_kind.confirming_seats(seat) == ("S", "W")


def test_the_core_asks_the_format_s_methods_not_its_flags(toy_kind, monkeypatch):
    watched = _watched()
    monkeypatch.setitem(formats._BY_ID, "toy", watched)
    movement = movements.generate(watched, 1)
    takers = {b.number: b.taker for b in movement.boards}
    lines = [line for r in movement.rounds for line in watched.round_lines(r.seat_map, r.boards, takers)]
    confirming = {watched.confirming_seats(line.taker_seat) for line in lines}
    assert len(lines) == 8 and {line.taker_seat for line in lines} == {"E"} and confirming == {("S", "W")}
    read = watched.__dict__["_read"]
    assert {"taker_seat_for", "round_lines", "defender_seats", "confirming_seats", "movement"} <= read
    assert not read & FLAGS, f"flags read: {sorted(read & FLAGS)}"


def test_the_real_kinds_are_classes_of_their_own():
    # each kind's behaviour is its class's, found from its id (Tabbycat's get_result_class)
    kinds = {f.id: type(f).__name__ for f in (*formats.FORMATS, *formats.FREE_FORMATS)}
    assert kinds == {"individual": "Individual", "triplettes": "Triplettes", "quadrettes": "AttackSouth",
                     "team_match": "AttackSouth", "free": "FreePlay", "free_duo": "FreePlay",
                     "free_team4": "FreePlay"}
