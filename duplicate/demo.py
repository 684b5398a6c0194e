"""A complete sample tournament, to try every screen: ``flask --app app demo``.

An individual of 5 tables: 20 players (French names, clubs, licences), 20 étuis dealt from the seed
« démo-2026 », the 5-table Rainbow movement (5 positions × 4 étuis) and simulated play — a plausible
Garde score for every table and étui, drawn from the scores the rules allow without a chelem
(`core.scoring.reachable_scores`, theoretical extremes left out) with a seeded generator — plus one
annulled deal, one score adjusted by the arbiter and one penalty. Everything goes through
`duplicate.operations`, like a real tournament. The same call builds the same tournament.

The movement comes from `core.movements.generate` when that module is installed; otherwise it is built
here from the FFT rule (SPEC §7): North fixed, South +1 table, East +2, West −2, étuis −1 table per
position.
"""

from __future__ import annotations

import datetime
import random

from sqlmodel import Session

from duplicate import operations
from duplicate.core.cards import SEATS, default_taker
from duplicate.core.scoring import Contract, reachable_scores
from duplicate.models import Movement, Tournament

TABLES = 5
BOARDS_PER_ROUND = 4
DEAL_SEED = "démo-2026"
DRAW_SEED = "démo-placement"
PLAY_SEED = "démo-jeu"

PLAYERS = [  # licence, surname, first name, club
    ("0412387", "MARTIN", "Claire", "Tarot Club Lyonnais"),
    ("0398214", "BERNARD", "Philippe", "Tarot Club Lyonnais"),
    ("0523871", "DUBOIS", "Nathalie", "Excuse Villeurbannaise"),
    ("0287145", "THOMAS", "Jean-Pierre", "Excuse Villeurbannaise"),
    ("0612093", "ROBERT", "Sylvie", "Les Bouts de Vienne"),
    ("0334762", "RICHARD", "Michel", "Les Bouts de Vienne"),
    ("0456128", "PETIT", "Isabelle", "Tarot Club Lyonnais"),
    ("0501937", "DURAND", "Alain", "Petit au Bout Grenoblois"),
    ("0378420", "LEROY", "Martine", "Petit au Bout Grenoblois"),
    ("0645310", "MOREAU", "Patrick", "Tarot Club Lyonnais"),
    ("0299871", "SIMON", "Françoise", "Excuse Villeurbannaise"),
    ("0587264", "LAURENT", "Christophe", "Les Bouts de Vienne"),
    ("0431956", "LEFÈVRE", "Monique", "Petit au Bout Grenoblois"),
    ("0362718", "MICHEL", "Gérard", "Tarot Club Lyonnais"),
    ("0618342", "GARCIA", "Sandrine", "Excuse Villeurbannaise"),
    ("0274593", "DAVID", "Bernard", "Les Bouts de Vienne"),
    ("0549817", "BERTRAND", "Véronique", "Petit au Bout Grenoblois"),
    ("0415029", "ROUX", "Daniel", "Tarot Club Lyonnais"),
    ("0306654", "VINCENT", "Catherine", "Excuse Villeurbannaise"),
    ("0592481", "FOURNIER", "Éric", "Les Bouts de Vienne"),
]


def rainbow_movement(tables: int = TABLES, boards_per_round: int = BOARDS_PER_ROUND,
                     takers: dict[int, str] | None = None) -> dict:
    """The individual Rainbow for an odd table count prime to 3 (SPEC §7), as a ``tarot-movement/1`` dict:
    ``tables`` positions; étui set ``k`` (étuis ``4k−3``…``4k``) starts at table ``k``."""
    def at(start: int, step: int, position: int) -> int:
        return (start - 1 + step * (position - 1)) % tables + 1

    rounds = []
    for position in range(1, tables + 1):
        for table in range(1, tables + 1):
            # who is at `table` now: the entrant whose start table moved here
            seats = {seat: f"{seat}{start}" for seat, step in (("N", 0), ("S", 1), ("E", 2), ("W", -2))
                     for start in range(1, tables + 1) if at(start, step, position) == table}
            board_set = next(k for k in range(1, tables + 1) if at(k, -1, position) == table)
            first = (board_set - 1) * boards_per_round + 1
            rounds.append({"position": position, "table": table, "seats": seats,
                           "boards": list(range(first, first + boards_per_round))})
    count = tables * boards_per_round
    return {"format": "tarot-movement/1", "kind": "individual", "tables": tables, "positions": tables,
            "boards": [{"number": n, "taker": (takers or {}).get(n, default_taker(n))}
                       for n in range(1, count + 1)],
            "rounds": rounds}


def _movement(session: Session, tournament: Tournament, takers: dict[int, str]) -> dict:
    try:
        movement = operations.choose_movement(session, tournament, positions=TABLES)
        data = movement.data
        played = {int(b) for r in data["rounds"] for b in r["boards"]}
        if played <= set(takers):
            return data
        session.delete(movement)
        session.flush()
    except (ImportError, operations.OperationError):
        pass
    data = rainbow_movement(takers=takers)
    session.add(Movement(tournament_id=tournament.id, data=data))
    session.flush()
    return data


def build_demo(session: Session) -> Tournament:
    """Create the demonstration tournament (flushed, not committed) and return it."""
    tournament = operations.create_tournament(
        session, name="Tournoi de démonstration", kind="individual", date=datetime.date(2026, 3, 14),
        place="Salle des fêtes, Villeurbanne", colour="vert", sessions=1,
    )
    for licence, surname, first_name, club in PLAYERS:
        operations.register_player(session, tournament, licence=licence, surname=surname,
                                   first_name=first_name, club=club)
    operations.draw_places(session, tournament, seed=DRAW_SEED)
    boards = operations.generate_boards(session, tournament, count=TABLES * BOARDS_PER_ROUND, seed=DEAL_SEED)
    takers = {board.number: board.taker for board in boards}
    movement = _movement(session, tournament, takers)

    rng = random.Random(PLAY_SEED)
    allowed = sorted(score for score, theoretical in reachable_scores(Contract.GARDE).items()
                     if not theoretical and -150 <= score <= 200)
    mood = {number: rng.choice((-50, -10, 30, 60, 90, 120)) for number in takers}  # how good each deal is

    def plausible(number: int) -> int:
        target = rng.gauss(mood[number], 40)
        return min(allowed, key=lambda score: (abs(score - target), score))

    recorded = []
    for round_ in sorted(movement["rounds"], key=lambda r: (r["position"], r["table"])):
        seats = round_["seats"]
        for number in round_["boards"]:
            taker_seat = takers[number]
            taker = seats[taker_seat]
            defenders = [seats[seat.value] for seat in SEATS if seat.value != taker_seat]
            recorded.append(operations.record_result(
                session, tournament, board=number, table=round_["table"], position=round_["position"],
                taker=taker, defenders=defenders, score=plausible(number), entered_by="démo",
            ))

    annulled, adjusted = recorded[6], recorded[13]
    operations.annul_result(session, annulled, version_id=annulled.version_id, who="arbitre",
                            reason="Donne mal battue : cartes mélangées entre deux mains")
    better = min(allowed, key=lambda score: abs(score - (adjusted.score + 20)))
    operations.adjust_score(session, adjusted, score=better, version_id=adjusted.version_id, who="arbitre",
                            reason="Poignée oubliée sur la fiche")
    operations.add_penalty(session, tournament, entrant_id="E3", points=2.5,
                           reason="Retard à la deuxième position", created_by="arbitre")
    operations.publish(session, tournament, True, "arbitre")  # a finished evening: its results are public
    return tournament
