"""Étuis (generated, imported, or entered from the diagrams) and the movement.

**Who takes** (one source of truth, SPEC §2): the taker of an étui is the seat printed on its label —
the étui's own ``taker`` (`Board.taker`), whatever order the arbiter prepares things in. The movement's
``boards[].taker`` is only a copy, rewritten from the étuis each time either changes (`_sync_takers`),
so that the export, the printouts and the fiches agree; before any étui exists the movement's takers
(N, S, E, W in turn) stand in. Once results name the players in the taker's seat, the étuis and their
takers can no longer change.

**Changing the movement** (ours, issue 11 point 3): allowed at any time as long as it contradicts no
entered result (`contradicted_results`); so a late arrival (`_evening.add_late_player`) can take the
movement of one more player while the first position is played.
"""

from __future__ import annotations

from typing import Collection, Mapping

from sqlalchemy import bindparam
from sqlmodel import Session, select

from duplicate import french

from duplicate.core.cards import SEATS, CardError, Seat, format_cards
from duplicate.core.deals import Deal, DealError, deals_from_json, generate_boards as core_generate_boards, seed_hash
from duplicate.db import read_columns
from duplicate.models import WITH_PENDING, Board, Movement, Result, Tournament

from ._common import OperationError, _entrants, _format, _kind, _parse_json, _refuse_after_results
from ._layout import MovementRounds, movement_rounds

def boards(session: Session, tournament: Tournament) -> list[Board]:
    return list(session.exec(select(Board).where(Board.tournament_id == tournament.id).order_by(Board.number)))


# built once, bound per request (issue 30: every phone's request reads its étuis' taker seats); a tournament
# has a few dozen étuis: all are read, those asked for kept — an ``IN`` list is rendered again at each
# execution (PostgreSQL: a cast per number), dearer than the rows it spares
_TAKERS = select(Board.number, Board.taker).where(Board.tournament_id == bindparam("tournament_id"),
                                                  Board.taker.is_not(None), Board.taker != "")


def board_takers(session: Session, tournament: Tournament, movement: Movement | MovementRounds | None = None,
                 numbers: Collection[int] | None = None) -> dict[int, str]:
    """Étui number → taker seat: the étui's own seat, else (étui not prepared yet) the movement's
    (``movement``: the tournament's, or its decoded rounds, when the caller has read it); ``numbers``:
    of those étuis only."""
    movement = movement or movement_rounds(session, tournament)
    takers = {}
    if isinstance(movement, MovementRounds):
        takers = {number: movement.takers[number] for number in numbers if number in movement.takers} \
            if numbers is not None else dict(movement.takers)
    elif movement is not None:
        for item in movement.data.get("boards", []) or []:
            if isinstance(item, dict) and isinstance(item.get("number"), int) and item.get("taker"):
                takers[item["number"]] = item["taker"]
    rows = read_columns(session, _TAKERS, {"tournament_id": tournament.id}).all()
    takers.update(rows if numbers is None else ((number, taker) for number, taker in rows if number in numbers))
    return takers


def _sync_takers(session: Session, tournament: Tournament, movement: Movement | None = None) -> None:
    """Copy the étuis' taker seats into the movement's ``boards`` (the étuis are the truth)."""
    movement = movement or get_movement(session, tournament)
    if movement is None:
        return
    takers = {board.number: board.taker for board in boards(session, tournament) if board.taker}
    items = [dict(item, taker=takers[item["number"]]) if isinstance(item, dict) and item.get("number") in takers
             else item for item in movement.data.get("boards", []) or []]
    if items != movement.data.get("boards"):
        movement.data = {**movement.data, "boards": items}  # a new dict: JSON columns track assignment only
        session.flush()


def _replace_boards(session: Session, tournament: Tournament, core_boards) -> list[Board]:
    for board in boards(session, tournament):
        session.delete(board)
    session.flush()
    rows = []
    for board in core_boards:
        deal = board.deal.to_dict() if board.deal is not None else {}
        rows.append(Board(tournament_id=tournament.id, number=board.number, dealer=board.dealer.value,
                          taker=board.taker.value, hands=deal.get("hands"), dog=deal.get("dog")))
    session.add_all(rows)
    session.flush()
    _sync_takers(session, tournament)
    return rows


def generate_boards(session: Session, tournament: Tournament, *, count: int, seed: str) -> list[Board]:
    """Deal ``count`` étuis from ``seed`` (`core.deals.generate_boards`), replacing the tournament's étuis."""
    _refuse_after_results(session, tournament, "les étuis")
    seed = (seed or "").strip()
    if not seed:
        raise OperationError("La graine est obligatoire (elle permet de refaire les mêmes donnes).", "seed")
    if not isinstance(count, int) or not 1 <= count <= 500:
        raise OperationError("Le nombre d’étuis doit être compris entre 1 et 500.", "count")
    try:
        core_boards = core_generate_boards(count, seed)
    except DealError as error:
        raise OperationError(str(error), "seed") from None
    tournament.deal_seed, tournament.seed_sha256 = seed, seed_hash(seed)
    return _replace_boards(session, tournament, core_boards)


def import_deals(session: Session, tournament: Tournament, data: str | bytes | Mapping) -> list[Board]:
    """Étuis from a ``tarot-deals/1`` document (`core.deals.deals_from_json`), replacing the tournament's."""
    _refuse_after_results(session, tournament, "les étuis")
    document = _parse_json(data, "fichier de donnes")
    try:
        core_boards = deals_from_json(document)
    except DealError as error:
        raise OperationError(str(error), "file") from None
    numbers = [board.number for board in core_boards]
    if len(set(numbers)) != len(numbers):
        raise OperationError("Un numéro d’étui figure deux fois dans le fichier.", "file")
    seed = document.get("seed")
    tournament.deal_seed = seed if isinstance(seed, str) else None
    tournament.seed_sha256 = seed_hash(seed) if isinstance(seed, str) else document.get("seed_sha256")
    return _replace_boards(session, tournament, core_boards)


def _cards(value) -> list[str]:
    return value.replace(",", " ").split() if isinstance(value, str) else list(value)


def set_board_hands(session: Session, tournament: Tournament, number: int, *, hands: Mapping, dog,
                    dealer: str | None = None, taker: str | None = None) -> Board:
    """Enter an étui's deal from its diagrams (after a première position): ``hands`` N/S/E/W → 18 cards
    (a list or a text « KS 10D 21T … »), ``dog`` 6 cards; checked by `core.deals.Deal.validate`.
    Creates the étui when it does not exist yet."""
    if not isinstance(number, int) or number < 1:
        raise OperationError("Numéro d’étui invalide.", "number")
    try:
        deal = Deal.from_dict({"hands": {seat: _cards(cards) for seat, cards in hands.items()},
                               "dog": _cards(dog)}).validate()
        seats = {name: Seat.parse(value).value for name, value in (("dealer", dealer), ("taker", taker)) if value}
    except (DealError, CardError) as error:
        raise OperationError(str(error), "hands") from None
    board = session.exec(select(Board).where(Board.tournament_id == tournament.id, Board.number == number)).first()
    if board is None:
        board = Board(tournament_id=tournament.id, number=number)
        session.add(board)
    before = board_takers(session, tournament).get(number)
    played = session.exec(select(Result.id).where(Result.tournament_id == tournament.id, Result.board == number)
                          .execution_options(**{WITH_PENDING: True})).first() is not None  # awaiting confirmation too
    if before is not None and seats.get("taker", before) != before and played:
        raise OperationError(f"L’étui {number} a déjà des résultats qui nomment son preneur en "
                             f"{Seat.parse(before).french} : le preneur ne peut plus changer.", "taker")
    board.hands = {seat.value: format_cards(deal.hands[seat]) for seat in SEATS}
    board.dog = format_cards(deal.dog)
    for name, value in seats.items():
        setattr(board, name, value)
    session.flush()
    _sync_takers(session, tournament)
    return board


# --- movement ---------------------------------------------------------------------------------------------------

def table_count(session: Session, tournament: Tournament) -> int:
    """How many tables the registered entrants fill (see the module docstring)."""
    return _format(tournament).table_count(len(_entrants(session, tournament)))


def get_movement(session: Session, tournament: Tournament) -> Movement | None:
    return session.exec(select(Movement).where(Movement.tournament_id == tournament.id)).first()


def put_movement(session: Session, tournament: Tournament, data: dict) -> tuple[Movement, dict | None]:
    """Store ``data`` as the tournament's movement (its row, made if it has none); the movement and the data
    it replaced (None for a first movement)."""
    movement = get_movement(session, tournament)
    before = movement.data if movement is not None else None
    if movement is None:
        movement = Movement(tournament_id=tournament.id, data=data)
        session.add(movement)
    else:
        movement.data = data
    session.flush()
    return movement, before


def _store_movement(session: Session, tournament: Tournament, data: dict) -> Movement:
    movement, _before = put_movement(session, tournament, data)
    _sync_takers(session, tournament, movement)  # the étuis already dealt say who takes: the movement follows
    return movement


def choose_movement(session: Session, tournament: Tournament, positions: int | None = None,
                    boards_per_position: int | None = None) -> Movement:
    """Generate the movement for the registered entrants (`core.movements.generate`) and keep it; in the
    individual and triplettes, each étui already dealt keeps its taker seat. ``boards_per_position``: the
    étuis a table plays at each position (a team match's quarter: 4, 5 or 6, 16 to 24 étuis, seed
    « DUPLICATE PAR ÉQUIPES »); None, the generator's default."""
    from duplicate.core.movements import MovementError, generate

    tables = table_count(session, tournament)
    if tables < 1:
        raise OperationError("Aucun participant inscrit : impossible de choisir un mouvement.")
    fmt = _format(tournament)
    try:
        if fmt.seats_by_player:   # the players, not the tables, decide the relais (SPEC §7)
            movement = generate(fmt, None, positions, boards_per_position,
                                players=len(_entrants(session, tournament)))
        else:
            movement = generate(fmt, tables, positions, boards_per_position)
    except MovementError as error:
        raise OperationError(str(error), "positions") from None
    refuse_contradicted_results(session, tournament, movement.to_dict())
    return _store_movement(session, tournament, movement.to_dict())


def contradicted_results(session: Session, tournament: Tournament, data: Mapping) -> list[Result]:
    """The results already entered that no line of the movement ``data`` carries.

    Rule (ours, issue 11 point 3): a movement change is allowed when it contradicts no entered result —
    each result finds, in the new movement, a line with the same étui, table and position, the same
    taker at the étui's taker seat and the same defenders. Choice: outside the individual (teams), any
    entered result counts as contradicted (the team movements are not re-checked line by line)."""
    results = list(session.exec(select(Result).where(Result.tournament_id == tournament.id)
                                .execution_options(**{WITH_PENDING: True})))  # a line awaiting confirmation too
    if not _format(tournament).seats_by_player:
        return results
    takers = board_takers(session, tournament)
    rounds = [r for r in data.get("rounds", []) or [] if isinstance(r, Mapping)]

    def carried(result: Result) -> bool:
        for line in rounds:
            seats = line.get("seats") or {}
            if line.get("table") != result.table or result.board not in (line.get("boards") or []) or (
                    result.position is not None and line.get("position") != result.position):
                continue
            seat = takers.get(result.board)
            taker_ok = seats.get(seat) == result.taker if seat else result.taker in seats.values()
            others = sorted(who for who in seats.values() if who != result.taker)
            if taker_ok and others == sorted(result.defenders or []):
                return True
        return False

    return [result for result in results if not carried(result)]


def describe_contradicted(results: list[Result]) -> str:
    """« les résultats déjà saisis de la position 1 ne s’y retrouvent pas (étui 1 à la table 2, …) »."""
    positions = sorted({r.position for r in results if r.position is not None})
    where = ", ".join(f"étui {r.board} à la table {r.table}" for r in sorted(results, key=lambda r: (r.board, r.table))[:4])
    more = " …" if len(results) > 4 else ""
    at = f" de la position {', '.join(map(str, positions))}" if positions else ""
    return f"les résultats déjà saisis{at} ne s’y retrouvent pas ({where}{more})"


def refuse_contradicted_results(session: Session, tournament: Tournament, data: Mapping) -> None:
    """`OperationError` when the movement ``data`` contradicts an entered result (`contradicted_results`)."""
    contradicted = contradicted_results(session, tournament, data)
    if contradicted:
        raise OperationError(f"Ce mouvement ne convient plus : {describe_contradicted(contradicted)}.")


def _registered_ids(session: Session, tournament: Tournament) -> list[str] | None:
    """The individual's entrant ids the movement must seat or rest (SPEC §7 relais): the drawn places,
    else those the draw will give (`core.movements.individual_entrant_ids`); None for teams (choice: a
    team movement may seat a phantom team, whose byes are not checked yet)."""
    from duplicate.core.movements import MovementError, individual_entrant_ids

    if not _format(tournament).seats_by_player:
        return None
    entrants = _entrants(session, tournament)
    drawn = [e.entrant_id for e in entrants if e.entrant_id]
    if drawn:
        return drawn
    try:
        return individual_entrant_ids(len(entrants))
    except MovementError:
        return None


def set_movement(session: Session, tournament: Tournament, data: str | bytes | Mapping) -> Movement:
    """Keep a movement typed in or supplied by the arbiter (Howell, Emmanuel 16…), once
    `core.movements.check` finds it valid for the registered entrants (each seated or at the relais at
    every position)."""
    from duplicate.core.movements import Movement as CoreMovement, MovementError, check

    document = _parse_json(data, "mouvement")
    if document.get("kind", _kind(tournament).value) != _kind(tournament).value:
        raise OperationError(f"Ce mouvement est pour « {document.get('kind')} », pas pour ce tournoi.", "file")
    try:
        report = check(CoreMovement.from_dict(document), _registered_ids(session, tournament))
    except MovementError as error:
        raise OperationError(str(error), "file") from None
    if not report.ok:
        raise OperationError(f"Mouvement refusé :\n{french.places_in_text(report.text())}", "file")
    refuse_contradicted_results(session, tournament, document)
    return _store_movement(session, tournament, dict(document))
