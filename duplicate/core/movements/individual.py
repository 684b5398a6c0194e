"""Individual duplicate movements (SPEC §7 « Individual »).

Rule.  Seed ``duplicate-tournaments.txt``: players keep their orientation and move from table to
table; étuis and players never meet twice; the 5-table example shows étui 1 at tables 1, 5, 4, 3, 2.
Seed ``fft-fascicule-free-play-ocr.txt``: North fixed, South +1, East +2, West −2 (« Mouvement de base
préconisé par la FFT »), special moves for other table counts, and for 3 and 4 tables the « Mouvement
Howell FFT » where players have a number instead of a line and change orientation.

What we generate:

* 5 tables and more — a translation design (``designs``): the Rainbow (N fixe, S +1, E +2, O −2,
  étuis −1) whenever it reaches the asked positions, else field arithmetic, the stored special moves,
  a product or sections.  Entrants are ``N1``, ``S3``… (line + starting table); each table plays one
  set of ``boards_per_position`` étuis per position, set k (from 0) being étuis k·b+1 … k·b+b, and
  set k starts at table k+1.
* 3 and 4 tables — players ``J1``… who change orientation (``small_clubs``): the FFT Howell
  tables are free-play tables that cannot carry shared étuis, so we build blocks where every player
  plays every étui of the block once and meetings are as few as possible.

Choices where the seeds are silent: 4 étuis per position by default (takers N, S, E, W, so that each
player attacks ¼ and takes each defensive place once per position, whatever the orientation); the
default number of positions is the most we reach without any repeat, capped at the number of tables
(see ``small_clubs`` for 3 and 4 tables, whose unavoidable repeated meetings are warnings).
"""

from __future__ import annotations

from .designs import Layout, best_positions, layout_for
from .model import Movement, MovementError, Round, boards_per_position as per_position, build_rounds, default_takers
from .small_clubs import SMALL_MAX, generate_small

__all__ = ["generate_individual", "max_positions", "clean_positions", "generate", "reach"]

SEAT_ORDER = ("N", "S", "E", "W")


def max_positions(tables: int) -> int:
    """The most positions we generate for this table count (repeated meetings allowed at 3 tables)."""
    if tables in SMALL_MAX:
        return SMALL_MAX[tables]
    return best_positions(tables) if tables >= 5 else 0


def clean_positions(tables: int) -> int:
    """Positions reached without any repeat at all (no repeated étui, no repeated meeting)."""
    if tables in SMALL_MAX:
        return 1
    return max_positions(tables)


def generate_individual(tables: int, positions: int | None = None,
                        boards_per_position: int | None = None) -> Movement:
    if tables < 3:
        raise MovementError(
            f"Un tournoi individuel demande au moins 3 tables (12 joueurs) ; reçu {tables} table{'s' if tables > 1 else ''}.")
    per = per_position(boards_per_position)
    if tables in SMALL_MAX:
        return generate_small(tables, positions, per)
    top = max_positions(tables)
    if positions is None:
        positions = min(top, tables)
    if positions < 1:
        raise MovementError("Il faut au moins une position.")
    if positions > top:
        raise MovementError(
            f"Avec {tables} tables, au plus {top} positions sans répétition ; proposez {top} positions.")
    layout = layout_for(tables, positions)
    assert layout is not None   # positions ≤ best_positions(tables)
    return _from_layout(layout, positions, per)


def _from_layout(layout: Layout, positions: int, per: int) -> Movement:
    rounds = []
    start = 0
    for part in layout.parts:
        n = part.tables
        for p, (s, e, w, b) in enumerate(part.offsets[:positions], start=1):
            for g in range(n):
                seats = (("N", f"N{start + g + 1}"),
                         ("S", f"S{start + part.sub(g, s) + 1}"),
                         ("E", f"E{start + part.sub(g, e) + 1}"),
                         ("W", f"W{start + part.sub(g, w) + 1}"))
                board_set = start + part.sub(g, b)
                boards = tuple(range(board_set * per + 1, board_set * per + per + 1))
                rounds.append(Round(p, start + g + 1, seats, boards))
        start += n
    return Movement("individual", layout.tables, positions, default_takers(layout.tables * per),
                    build_rounds(rounds), _notes(layout, positions, per))


def layout_notes(tables: int, positions: int, per: int) -> tuple[str, ...]:
    """The notes of ``generate_individual(tables, positions, per)`` for 5 tables and more, without
    building its rounds (the relais cut a longer movement to its first positions)."""
    layout = layout_for(tables, positions)
    assert layout is not None
    return _notes(layout, positions, per)


def _notes(layout: Layout, positions: int, per: int) -> tuple[str, ...]:
    notes = (f"Méthode : {layout.method}.",
             f"{layout.tables} tables, {positions} positions de {per} étuis : aucun joueur ne joue deux fois "
             "un étui ni ne rencontre deux fois un autre joueur.")
    if per % 4:
        notes += ("Le nombre d’étuis par position n’est pas un multiple de 4 : l’attaque et les places "
                  "en défense ne sont pas équilibrées.",)
    return notes


#: The generator `core.formats` names for the individual (``Format.movement``).
generate = generate_individual


def reach(tables: int) -> tuple[int, int]:
    """(positions without any repeat, most positions generated) at ``tables`` tables; (0, 0) below 3."""
    if tables < 3:
        return (0, 0)
    return (clean_positions(tables), max_positions(tables))
