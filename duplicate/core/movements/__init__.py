"""Movements: who sits where, with which étuis, at each position (SPEC §7, §9, issue 3).

Public API (wired into ``flask --app app movement …`` by the CLI):

* :func:`generate` — ``generate(kind, tables, positions=None, boards_per_position=None, players=None)``
  for kind in ``individual``, ``triplettes``, ``quadrettes``, ``team_match``; raises
  :class:`MovementError` (French message with the best alternative) when the request cannot be met
  without repeats; ``players`` (individual) gives the headcount: ``players // 4`` tables and the
  relais of ``relais`` when it is not a multiple of 4;
* :func:`individual_entrant_ids` — every id of an individual of n players (relais included);
* :class:`Movement` — ``to_dict()`` / ``Movement.from_dict(d)`` (SPEC §9 ``tarot-movement/1``);
* :func:`check` — the validator, returning a :class:`Report` (``ok``, ``errors``, ``warnings``,
  ``text()``);
* :func:`guide_cards` / :func:`personal_cards` — plain data for the printed cards;
* :func:`next_move` / :func:`describe_move` — the move after a position, as announced in the hall (``moves``);
* :func:`reach` — positions reached without any repeat and at most, per kind and table count.

Modules: ``model`` (values and JSON), ``designs`` + ``offset_tables`` (the arithmetic of the
individual), ``individual``, ``small_clubs`` (3–4 tables), ``triplettes``, ``quadrettes``,
``team_match``, ``relais`` (headcounts not a multiple of 4), ``validator``, ``cards_data``, ``moves``.  Standard library only.
"""

from __future__ import annotations

from .cards_data import guide_cards, personal_cards
from .individual import clean_positions, generate_individual, max_positions
from .moves import Move, describe as describe_move, next_move
from .model import FORMAT, KINDS, Board, Movement, MovementError, Round
from .relais import generate_with_relais, individual_entrant_ids
from .quadrettes import generate_quadrettes, quadrettes_max_positions
from .team_match import QUARTERS, generate_team_match
from .triplettes import from_schedule, generate_triplettes, triplettes_max_positions
from .validator import Report, check

__all__ = [
    "generate", "check", "guide_cards", "personal_cards", "reach", "Movement", "Round", "Board",
    "Report", "MovementError", "FORMAT", "KINDS", "from_schedule", "individual_entrant_ids", "Move", "next_move",
    "describe_move",
]

_GENERATORS = {
    "individual": generate_individual,
    "triplettes": generate_triplettes,
    "quadrettes": generate_quadrettes,
    "team_match": generate_team_match,
}
_ALIASES = {"individuel": "individual", "quadrette": "quadrettes", "triplette": "triplettes",
            "team-match": "team_match", "equipes": "team_match", "équipes": "team_match"}


def generate(kind: str, tables: int | None, positions: int | None = None,
             boards_per_position: int | None = None, players: int | None = None) -> Movement:
    """A movement of this kind for this many tables (see each kind's module for the rule); in the
    individual, ``players`` instead of ``tables`` adds the relais (``relais``)."""
    key = _ALIASES.get(str(kind).lower(), str(kind).lower())
    if key not in _GENERATORS:
        raise MovementError(f"type de mouvement « {kind} » inconnu (attendu : {', '.join(KINDS)})")
    if players is not None:
        if key != "individual":
            raise MovementError("le nombre de joueurs (relais) ne s’applique qu’à l’individuel")
        if isinstance(players, bool) or not isinstance(players, int):
            raise MovementError(f"nombre de joueurs invalide : {players!r}")
        individual_entrant_ids(players)   # refuses fewer than 12 players
        if tables is not None and tables != players // 4:
            raise MovementError(f"{players} joueurs occupent {players // 4} tables, pas {tables}.")
        return generate_with_relais(players, positions, boards_per_position)
    if isinstance(tables, bool) or not isinstance(tables, int):
        raise MovementError(f"nombre de tables invalide : {tables!r}")
    return _GENERATORS[key](tables, positions, boards_per_position)


def reach(kind: str, tables: int) -> tuple[int, int]:
    """(positions without any repeat, most positions generated) for this kind and table count;
    (0, 0) when the kind cannot be played on that many tables."""
    if kind == "individual":
        if tables < 3:
            return (0, 0)
        return (clean_positions(tables), max_positions(tables))
    if kind == "triplettes":
        top = triplettes_max_positions(tables) if tables >= 2 else 0
        return (top, top)
    if kind == "quadrettes":
        top = quadrettes_max_positions(tables) if tables >= 2 else 0
        return (top, top)
    if kind == "team_match":
        return (QUARTERS, QUARTERS) if tables >= 2 and tables % 2 == 0 else (0, 0)
    raise MovementError(f"type de mouvement « {kind} » inconnu")
