"""The relais planner's bookkeeping (`movements.relais._Plan`; SPEC §7 relais, module docstring).

The planner keeps, for speed, each player's state only where it changes (« the state of a player is kept
only where it changes »).  These tests recompute that state from its definition — from the occupants per
position (``history``) alone — at every node of the search, and check that a failed attempt is undone
exactly (« undo on failure »).  The expected values are thus derived from the definitions, not read from the
planner:

* ``rests[who]`` — the positions 1 … P (P the last position placed) where ``who`` sits on no trajectory;
* ``seated_by_rests[k]`` — how many of the players seated at P have rested k times (keys at 0 ignored);
* ``last[who]`` — the trajectory ``who`` held at the last position it sat (−1 for an extra never seated);
* ``since[who]`` (seated players) — the first position of its current unbroken stay on that trajectory;
* ``played[who]`` — the étui sets ``who`` played before its last rest: the union of the set bits of the
  trajectories it held at each position before that rest (0 when it never rested);
* ``segments[who]`` — its stays before its last rest, as (first position, last position, trajectory);
* the budget: the search gives up after 300 candidates tried (``_BUDGET``), each trying one trajectory for
  one returner, i.e. one deeper ``_assign`` call.

Field: 34 and 35 players on the 8-table GF(8) movement (8 positions), where the search backtracks (34: it
succeeds after backtracking; 35: three rests per position never fit 8 positions, so the search spends its
whole budget and fails), and 15 players on the 3-table small club, where players rest twice.
"""

import copy

import pytest

from duplicate.core.movements import MovementError
from duplicate.core.movements import relais
from duplicate.core.movements.individual import generate_individual

STATE = ("rests", "seated_by_rests", "since", "played", "last", "segments")


def _snapshot(plan):
    """The state, with the counts at 0 left out (a key at 0 is never chosen by ``_floor``)."""
    state = {name: copy.deepcopy(getattr(plan, name)) for name in STATE}
    state["seated_by_rests"] = {k: v for k, v in state["seated_by_rests"].items() if v}
    return state | {"history": len(plan.history)}


def _expected(plan):
    """The state recomputed from ``plan.history`` (positions 1 … P) and the base movement's sets."""
    history, size, players = plan.history, plan.size, plan.players
    last_position = len(history) - 1
    seated_at = [None] + [{who: t for t, who in enumerate(row)} for row in history[1:]]
    rests, last, since, played, segments = [], [], {}, [], []
    for who in range(players):
        rested = [p for p in range(1, last_position + 1) if who not in seated_at[p]]
        rests.append(len(rested))
        sat = [p for p in range(1, last_position + 1) if who in seated_at[p]]
        last.append(seated_at[sat[-1]][who] if sat else -1)
        last_rest = rested[-1] if rested else 0
        mask, stays = 0, []
        for p in sat:
            if p < last_rest:
                t = seated_at[p][who]
                mask |= plan.mask[t][p]
                if stays and stays[-1][1] == p - 1 and stays[-1][2] == t:
                    stays[-1] = (stays[-1][0], p, t)
                else:
                    stays.append((p, p, t))
        played.append(mask)
        segments.append(stays)
        if who in seated_at[last_position]:
            t, start = seated_at[last_position][who], last_position
            while start > 1 and seated_at[start - 1].get(who) == t:
                start -= 1
            since[who] = start
    seated = [history[last_position][t] for t in range(size)]
    by_rests = {}
    for who in seated:
        by_rests[rests[who]] = by_rests.get(rests[who], 0) + 1
    return rests, by_rests, last, since, played, segments


def _check_state(plan):
    rests, by_rests, last, since, played, segments = _expected(plan)
    assert plan.rests == rests
    assert {k: v for k, v in plan.seated_by_rests.items() if v} == by_rests
    assert plan.last == last
    assert {who: plan.since[who] for who in since} == since
    assert plan.played == played
    assert plan.segments == segments


@pytest.fixture
def watched(monkeypatch):
    """Checks the state at every node, and that a failed ``_advance`` leaves it as it found it."""
    counts = {"nodes": 0, "undone": 0}
    position, advance, assign = relais._Plan._position, relais._Plan._advance, relais._Plan._assign

    def checked_position(self, q, resting):
        _check_state(self)
        return position(self, q, resting)

    def checked_advance(self, q, occupant, chosen):
        before = _snapshot(self)
        if advance(self, q, occupant, chosen):
            return True
        assert _snapshot(self) == before
        counts["undone"] += 1
        return False

    def counted_assign(self, q, i, occupant, resting, chosen):
        if i > 0:
            counts["nodes"] += 1
        return assign(self, q, i, occupant, resting, chosen)

    monkeypatch.setattr(relais._Plan, "_position", checked_position)
    monkeypatch.setattr(relais._Plan, "_advance", checked_advance)
    monkeypatch.setattr(relais._Plan, "_assign", counted_assign)
    return counts


def test_34_players_backtrack_and_keep_their_state(watched):
    plan = relais._Plan(generate_individual(8), 34)
    history = plan.solve(False)
    assert len(history) - 1 == 8
    assert watched["undone"] > 0          # the search did backtrack
    _check_state(plan)
    # the first longest prefix is the whole movement here
    assert plan.best == history


def test_35_players_spend_the_whole_budget_and_undo_every_attempt(watched):
    plan = relais._Plan(generate_individual(8), 35)
    with pytest.raises(MovementError):
        plan.solve(False)
    # 300 candidates tried, then the 301st is refused without trying it
    assert watched["nodes"] == 300
    assert watched["undone"] > 0


def test_15_players_rest_twice_and_their_counts_follow(watched):
    plan = relais._Plan(generate_individual(3), 15)
    history = plan.solve(False)
    assert len(history) - 1 == 6
    _check_state(plan)
    # after position 6 the three who rested there have rested twice (everyone rested once by position 5)
    assert sorted(plan.rests).count(2) == 3 and sorted(plan.rests).count(1) == 12


def test_the_prefix_kept_is_the_first_longest_reached(monkeypatch):
    """A failed search keeps the first of its longest prefixes (the depth-first order's preferred one): every
    prefix is recorded as the search reaches it, and the one kept must be the first of the greatest length."""
    reached = []
    position = relais._Plan._position

    def recording_position(self, q, resting):
        if q > 2:
            reached.append([list(row) for row in self.history])
        return position(self, q, resting)

    monkeypatch.setattr(relais._Plan, "_position", recording_position)
    best = relais._Plan(generate_individual(8), 35).solve(True)
    longest = max(len(h) for h in reached)
    assert len(best) == longest < 9          # 7 positions placed, not 8
    assert best == next(h for h in reached if len(h) == longest)
    assert sum(len(h) == longest for h in reached) > 1   # several prefixes of that length were reached
