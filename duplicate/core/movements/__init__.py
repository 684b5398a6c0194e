"""Movements: who sits where, with which étuis, at each position (SPEC §7, §9, issue 3).

Public API (wired into ``flask --app app movement …`` by the CLI):

* :func:`generate` — ``generate(kind, tables, positions=None, boards_per_position=None, players=None)``
  for kind a `Format` or its id (``individual``, ``triplettes``, ``quadrettes``, ``team_match``): the
  generator is the module the format's ``movement`` names (``generate``, ``reach``); raises
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

from importlib import import_module
from types import ModuleType

from ..formats import FORMATS as _ALL_FORMATS, Format
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

#: The duplicate formats by id (free play has its own movements, `core.freeplay.movements`).
_FORMATS = {f.id: f for f in _ALL_FORMATS}

_ALIASES = {"individuel": "individual", "quadrette": "quadrettes", "triplette": "triplettes",
            "team-match": "team_match", "equipes": "team_match", "équipes": "team_match"}


def _generator(kind: str | Format) -> tuple[Format | None, ModuleType | None]:
    """The format of ``kind`` (a `Format`, or its id) and the module of this package its ``movement`` names
    (``generate``, ``reach``): the one place a kind becomes its generator; (None, None) when it has none."""
    fmt = kind if isinstance(kind, Format) else _FORMATS.get(kind)
    if fmt is None or fmt.movement is None:
        return None, None
    return fmt, import_module(f"{__name__}.{fmt.movement}")


def generate(kind: str | Format, tables: int | None, positions: int | None = None,
             boards_per_position: int | None = None, players: int | None = None) -> Movement:
    """A movement of this kind (its `Format`, or its name) for this many tables (see each kind's module for
    the rule); in the individual, ``players`` instead of ``tables`` adds the relais (``relais``)."""
    key = kind if isinstance(kind, Format) else _ALIASES.get(str(kind).lower(), str(kind).lower())
    fmt, generator = _generator(key)
    if generator is None:
        raise MovementError(f"type de mouvement « {getattr(kind, 'id', kind)} » inconnu "
                            f"(attendu : {', '.join(KINDS)})")
    if players is not None:
        if not fmt.ranks_players:
            raise MovementError("le nombre de joueurs (relais) ne s’applique qu’à l’individuel")
        if isinstance(players, bool) or not isinstance(players, int):
            raise MovementError(f"nombre de joueurs invalide : {players!r}")
        individual_entrant_ids(players)   # refuses fewer than 12 players
        if tables is not None and tables != players // 4:
            raise MovementError(f"{players} joueurs occupent {players // 4} tables, pas {tables}.")
        return generate_with_relais(players, positions, boards_per_position)
    if isinstance(tables, bool) or not isinstance(tables, int):
        raise MovementError(f"nombre de tables invalide : {tables!r}")
    return generator.generate(tables, positions, boards_per_position)


def reach(kind: str | Format, tables: int) -> tuple[int, int]:
    """(positions without any repeat, most positions generated) for this kind and table count;
    (0, 0) when the kind cannot be played on that many tables."""
    _, generator = _generator(kind)
    if generator is None:
        raise MovementError(f"type de mouvement « {getattr(kind, 'id', kind)} » inconnu")
    return generator.reach(tables)
