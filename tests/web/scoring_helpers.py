"""Helpers for the scoring tests: tournaments ready to score, and filling in the fiches through the screens."""

import html as entities
import random
import re

from sqlmodel import Session

from duplicate import db, operations
from duplicate.core.scoring import Contract, reachable_scores

ALLOWED = sorted(s for s, theoretical in reachable_scores(Contract.GARDE).items() if not theoretical and -150 <= s <= 200)
SIZES = {"individual": (20, 0), "triplettes": (18, 3), "quadrettes": (12, 4), "team_match": (8, 4)}


def ready(app, kind: str = "individual", seed: str = "essai") -> int:
    """A tournament of ``kind`` with players, teams, draw, étuis and movement, no result; its id."""
    players, size = SIZES[kind]
    with Session(db.get_engine(app), expire_on_commit=False) as session:
        tournament = operations.create_tournament(session, name=f"Tournoi {kind}", kind=kind)
        registered = [operations.register_player(session, tournament, licence=f"{kind[:2]}{i:04d}",
                                                 surname=f"NOM{i}", first_name="Prénom", club="Club")
                      for i in range(players)]
        if size:
            for start in range(0, players, size):
                operations.form_team(session, tournament, name=f"Équipe {start // size + 1}",
                                     player_ids=[p.id for p in registered[start:start + size]])
        operations.draw_places(session, tournament, seed=seed)
        positions = 5 if kind == "individual" else None
        movement = operations.choose_movement(session, tournament, positions=positions)
        count = max(int(b) for r in movement.data["rounds"] for b in r["boards"])
        operations.generate_boards(session, tournament, count=count, seed=seed)
        operations.choose_movement(session, tournament, positions=positions)
        session.commit()
        return tournament.id


def score_for(board: int, table: int) -> int:
    return random.Random(f"{board}-{table}").choice(ALLOWED)


def fields(page: str) -> list[str]:
    """The line keys (``<étui>-<table>``) of an entry page."""
    return re.findall(r'name="score-([0-9]+-[0-9]+)"', page)


def fill_board(client, tournament_id: int, number: int, scores=score_for) -> object:
    """Type every score of étui ``number``'s fiche and save it (as the keyboard would)."""
    page = client.get(f"/saisie/tournois/{tournament_id}/etuis/{number}").get_data(as_text=True)
    data = {}
    for key in fields(page):
        board, table = map(int, key.split("-"))
        value = scores(board, table)
        data[f"score-{key}"] = f"{value:+d}"
        if f'name="contract-{key}"' in page:
            data[f"contract-{key}"] = "garde"
    versions = dict(re.findall(r'name="version-([0-9]+-[0-9]+)" value="([0-9]+)"', page))
    data.update({f"version-{key}": value for key, value in versions.items()})
    return client.post(f"/saisie/tournois/{tournament_id}/etuis/{number}", data=data)


def board_numbers(app, tournament_id: int) -> list[int]:
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, tournament_id)
        return [number for number, _, _ in operations.progress(session, tournament)["boards"]]


def rectify(app, tournament_id: int, board: int, table: int, score: int, reason: str) -> None:
    """The arbiter rectifies the stored score of one line (« score rectifié par l’arbitre », SPEC §4)."""
    from sqlmodel import select

    from duplicate.models import Result

    with Session(db.get_engine(app)) as session:
        line = session.exec(select(Result).where(Result.tournament_id == tournament_id, Result.board == board,
                                                 Result.table == table)).one()
        operations.adjust_score(session, line, score=score, version_id=line.version_id, who="arbitre", reason=reason)
        session.commit()


def publish(app, tournament_id: int, published: bool = True) -> None:
    """The arbiter publishes the séance's results (SPEC §11)."""
    with Session(db.get_engine(app)) as session:
        operations.publish(session, operations.get_tournament(session, tournament_id), published, "arbitre")
        session.commit()


#: The keys the API adds to the SPEC §9 ranking output (SPEC §11).
STATUS_KEYS = ("complete", "missing", "published")


def ranking_only(api: dict) -> dict:
    """The API's ranking without its status keys (`STATUS_KEYS`): the SPEC §9 ranking output."""
    return {key: value for key, value in api.items() if key not in STATUS_KEYS}


def give(app, tournament_id: int, username: str) -> None:
    """Give the tournament to the account `username` (a scorer enters only the tournaments given to him:
    docs/accounts.md), as its arbiter does on the « Accès » page."""
    from sqlmodel import select

    from duplicate.models import TournamentAccess, User

    with Session(db.get_engine(app)) as session:
        user = session.exec(select(User).where(User.username == username)).one()
        session.add(TournamentAccess(tournament_id=tournament_id, user_id=user.id, granted_by="tests"))
        session.commit()


def give_scorers(app, tournament_id: int) -> None:
    """Give the tournament to every scorer account there is: the evening's scorers, to whom its arbiter gives it
    (a scorer given no tournament enters none)."""
    from sqlmodel import select

    from duplicate.models import Role, TournamentAccess, User

    with Session(db.get_engine(app)) as session:
        given = set(session.exec(select(TournamentAccess.user_id).where(TournamentAccess.tournament_id == tournament_id)))
        for user in session.exec(select(User).where(User.role == Role.scorer)):
            if user.id not in given:
                session.add(TournamentAccess(tournament_id=tournament_id, user_id=user.id, granted_by="tests"))
        session.commit()


def browser_form(page: str) -> dict[str, str]:
    """What a browser sends for the form as shown, without pressing a named button: text and hidden inputs,
    textareas, ticked boxes, selected options."""
    data = {}
    for tag in re.findall(r"<input\b[^>]*>", page):
        name = re.search(r'name="([^"]+)"', tag)
        if name is None:
            continue
        kind = re.search(r'type="([^"]+)"', tag)
        if kind and kind.group(1) == "checkbox" and "checked" not in tag:
            continue
        value = re.search(r'value="([^"]*)"', tag)
        data[name.group(1)] = entities.unescape(value.group(1)) if value else ""
    for name, text in re.findall(r'<textarea\b[^>]*name="([^"]+)"[^>]*>(.*?)</textarea>', page, re.S):
        data[name] = entities.unescape(text).removeprefix("\r\n").removeprefix("\n")
    for name, options in re.findall(r'<select\b[^>]*name="([^"]+)"[^>]*>(.*?)</select>', page, re.S):
        chosen = re.search(r'<option\b[^>]*selected[^>]*value="([^"]*)"|<option value="([^"]*)" selected', options)
        if chosen:
            data[name] = chosen.group(1) or chosen.group(2) or ""
    return data
