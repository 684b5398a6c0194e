"""A team match's arbiter settings (SPEC §6–§7 « Team match », issue 15 point 3): the PM bonus, and per
quarter the étui series, the rooms and each team's attacker — set on screen, journalled, refused when the
results already entered say otherwise.

Source: ``seeds/duplicate-tournaments.txt``, « DUPLICATE PAR ÉQUIPES »:

* « A chaque quart temps, les capitaines de chaque équipe choisissent au sein de leur équipe un attaquant
  […] L'attaquant doit être différent à chaque quart temps » — an attacker is a member of the team, and
  no member attacks in two quarters;
* « L'équipe A choisit les salles de ses joueurs pour les 1er et 3ème quart temps, l'équipe B […] pour les
  2ème et 4ème » — the choice is where the team's attacker plays (its defence is then in the other room);
* « les attaquants A et B choisissent une série d'étuis à jouer (l'attaquant A choisissant pour les 1er et
  3ème quart temps, l'attaquant B pour les 2ème et 4ème) » — both rooms play the series; no étui is in two
  quarters' series (a team never plays an étui twice, SPEC §7);
* « Un bonus en PM peut être attribué à chaque équipe avant le début du match » — the bonus is refused
  once a result is entered.

Where it is kept: the series and the rooms in the movement (`core.movements.team_match`: position = quarter,
table 2k − 1 the open room and 2k the closed room of match k, ``seats`` who attacks there), the attackers
in ``settings["team_attackers"]`` (``{"1": {"A": 0, "B": 2}}``: the attacker's place in the team's order,
0 first — not a database id, so that the choice survives export and import), the bonus in ``Team.bonus``.

Refusals (ours, the seeds are silent; the rule of a movement change, `_deals.contradicted_results`): a
quarter's series may lose only étuis with no result in that quarter; its rooms and a team's attacker
change only while that quarter has no result (of that team's attack, for the attacker).  A line entered
at a table and awaiting confirmation counts as a result here.
"""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction
from typing import Any, Iterable, Mapping

from sqlmodel import Session, select

from duplicate import french
from duplicate.models import WITH_PENDING, Board, Player, Result, Tournament, TournamentKind

from ._common import OperationError, _kind, lock_row, teams
from ._deals import _store_movement, get_movement
from ._entrants import team_members
from ._journal import journal

QUARTERS = (1, 2, 3, 4)
ROOM_LABELS = {"open": "salle ouverte", "closed": "salle fermée"}
SETTING = "team_attackers"


def _require_team_match(tournament: Tournament) -> None:
    if _kind(tournament) is not TournamentKind.team_match:
        raise OperationError("Ce réglage n’existe qu’en match par équipes.")


def chooser(quarter: int) -> str:
    """Who chooses the series (its attacker) and the rooms (its team) this quarter: A in the 1st and 3rd,
    B in the 2nd and 4th (seed, « Les salles », « Les étuis »)."""
    return "A" if quarter % 2 else "B"


def _rounds(data: Mapping, quarter: int, match: int = 1) -> tuple[dict, dict]:
    """(open room's round, closed room's round) of ``quarter`` for match ``match`` (tables 2k − 1, 2k)."""
    found = {r.get("table"): r for r in data.get("rounds", []) if r.get("position") == quarter
             and r.get("table") in (2 * match - 1, 2 * match)}
    if len(found) != 2:
        raise OperationError(f"Le mouvement n’a pas de {french.quarter_label(quarter)} : choisissez d’abord le "
                             "mouvement (page « Mouvement »).")
    first, second = found[2 * match - 1], found[2 * match]
    return (first, second) if first.get("room", "open") == "open" else (second, first)


def _movement_data(session: Session, tournament: Tournament) -> dict:
    movement = get_movement(session, tournament)
    if movement is None:
        raise OperationError("Choisissez d’abord le mouvement (page « Mouvement ») : il donne les quarts temps.")
    if len({r.get("table") for r in movement.data.get("rounds", [])}) != 2:
        raise OperationError("Ces écrans règlent un seul match (2 tables) ; avec plusieurs matchs, "
                             "importez le mouvement.")
    return movement.data


def _results(session: Session, tournament: Tournament, quarter: int | None = None) -> list[Result]:
    query = select(Result).where(Result.tournament_id == tournament.id).execution_options(**{WITH_PENDING: True})
    if quarter is not None:
        query = query.where(Result.quarter == quarter)
    return list(session.exec(query))


def _members(session: Session, tournament: Tournament) -> dict[str, list[Player]]:
    """Team A's and team B's players, in the team's order."""
    return {team.entrant_id: team_members(session, team) for team in teams(session, tournament)
            if team.entrant_id in ("A", "B")}


def _attackers(session: Session, tournament: Tournament) -> dict[str, dict[str, int]]:
    """``{"1": {"A": <player id>, …}, …}`` from the places kept in the settings (module docstring)."""
    stored = (tournament.settings or {}).get(SETTING) or {}
    members = _members(session, tournament)
    chosen: dict[str, dict[str, int]] = {}
    for quarter in QUARTERS:
        chosen[str(quarter)] = {}
        for team, place in (stored.get(str(quarter)) or {}).items():
            if isinstance(place, int) and 0 <= place < len(members.get(team, [])):
                chosen[str(quarter)][team] = members[team][place].id
    return chosen


def plan(session: Session, tournament: Tournament) -> dict[str, Any]:
    """What the settings screen shows: the two teams (``Team``, members, bonus) and per quarter its
    chooser, series, who attacks in the open room, each team's attacker (a `Player` or None) and how many
    results it has."""
    _require_team_match(tournament)
    by_id = {team.entrant_id: team for team in teams(session, tournament) if team.entrant_id in ("A", "B")}
    members = {ident: team_members(session, team) for ident, team in by_id.items()}
    players = {p.id: p for group in members.values() for p in group}
    movement = get_movement(session, tournament)
    attackers = _attackers(session, tournament)
    counts: dict[int, int] = {}
    for result in _results(session, tournament):
        counts[result.quarter or 0] = counts.get(result.quarter or 0, 0) + 1
    quarters = []
    for quarter in QUARTERS:
        try:
            open_round, _closed = _rounds(movement.data, quarter) if movement is not None else (None, None)
        except OperationError:
            open_round = None
        chosen = attackers[str(quarter)]
        quarters.append({
            "number": quarter, "ordinal": french.ordinal(quarter, feminine=False), "chooser": chooser(quarter),
            "boards": [int(b) for b in open_round.get("boards", [])] if open_round else [],
            "open_attack": (open_round.get("seats") or {}).get("attack") if open_round else None,
            "attackers": {team: players.get(chosen.get(team)) for team in ("A", "B")},
            "results": counts.get(quarter, 0),
        })
    return {"teams": by_id, "members": members, "quarters": quarters, "has_movement": movement is not None,
            "results": sum(counts.values())}


def parse_series(text: str) -> list[int]:
    """The étuis typed by the arbiter: « 1-5 », « 1 à 5 », « 1, 3, 5 », « 6–8, 12 » → sorted numbers."""
    numbers: set[int] = set()
    joined = re.sub(r"\s*(?:-|–|\bà\b)\s*", "-", (text or "").strip())
    for part in re.split(r"[,;\s]+", joined):
        part = part.strip()
        if not part:
            continue
        match = re.fullmatch(r"(\d{1,4})-(\d{1,4})", part)
        if match:
            low, high = int(match[1]), int(match[2])
            if low > high or high - low > 200:
                raise OperationError(f"Série « {part} » illisible : le premier étui vient avant le dernier.", "boards")
            numbers.update(range(low, high + 1))
        elif french.digits(part):
            numbers.add(int(part))
        else:
            raise OperationError(f"« {part} » n’est pas un numéro d’étui (exemples : 1-5 ou 1, 2, 3).", "boards")
    if not numbers or 0 in numbers:
        raise OperationError("Indiquez les étuis de la série (exemples : 1-5 ou 1, 2, 3).", "boards")
    return sorted(numbers)


def _list(numbers: Iterable[int]) -> str:
    return ", ".join(str(n) for n in sorted(numbers))


def set_quarter(session: Session, tournament: Tournament, quarter: int, *, boards: list[int], open_attack: str,
                attackers: Mapping[str, int | None], who: str | None = None) -> None:
    """Set one quarter: its étui series, which team attacks in the open room, each team's attacker.

    Refused (`OperationError`, French, nothing changed) when an étui is unknown or already in another
    quarter's series, when an attacker is not a member of the team or attacks in another quarter, or
    when the results entered for the quarter say otherwise (module docstring)."""
    _require_team_match(tournament)
    if quarter not in QUARTERS:
        raise OperationError(f"Quart temps {quarter} inconnu (1 à 4).")
    if open_attack not in ("A", "B"):
        raise OperationError("Choisissez l’équipe dont l’attaquant joue en salle ouverte.", "open_attack")
    lock_row(session, tournament)  # the settings as another arbiter may just have saved them
    data = _movement_data(session, tournament)
    open_round, closed_round = _rounds(data, quarter)
    name = french.quarter_label(quarter)
    boards = sorted(set(int(b) for b in boards))
    known = set(session.exec(select(Board.number).where(Board.tournament_id == tournament.id)).all())
    if known and not known.issuperset(boards):
        unknown = set(boards) - known
        raise OperationError(f"{'Étuis' if len(unknown) > 1 else 'Étui'} {_list(unknown)} "
                             f"{'inconnus' if len(unknown) > 1 else 'inconnu'} : le tournoi a les étuis "
                             f"{min(known)} à {max(known)}.", "boards")
    for other in QUARTERS:
        if other != quarter:
            taken = set(boards) & {int(b) for b in _rounds(data, other)[0].get("boards", [])}
            if taken:
                raise OperationError(f"{'Étuis' if len(taken) > 1 else 'Étui'} {_list(taken)} déjà dans la série du "
                                     f"{french.quarter_label(other)} : "
                                     "une équipe ne joue pas deux fois le même étui.", "boards")
    entered = _results(session, tournament, quarter)
    dropped = sorted({r.board for r in entered} - set(boards))
    if dropped:
        raise OperationError(f"Série refusée : les étuis {_list(dropped)} du {name} ont déjà des résultats "
                             "(retirez d’abord ces résultats).", "boards")
    was_open = (open_round.get("seats") or {}).get("attack")
    if open_attack != was_open and entered:
        raise OperationError(f"Salles refusées : le {name} a déjà "
                             f"{french.counted(len(entered), 'résultat saisi', 'résultats saisis')} "
                             f"avec l’attaquant {was_open} en salle ouverte.", "open_attack")
    team_rows = {team.entrant_id: team for team in teams(session, tournament)}
    stored = _attackers(session, tournament)
    chosen: dict[str, int] = {}
    for team in ("A", "B"):
        player_id = attackers.get(team)
        before = stored[str(quarter)].get(team)
        if player_id is None:
            if before is not None and any(r.taker_team == team for r in entered):
                raise OperationError(f"L’attaquant de l’équipe {team} a déjà joué au {name}.", f"attacker_{team}")
            continue
        if team not in team_rows or player_id not in {p.id for p in team_members(session, team_rows[team])}:
            raise OperationError(f"Ce joueur n’est pas de l’équipe {team}.", f"attacker_{team}")
        for other in QUARTERS:
            if other != quarter and stored[str(other)].get(team) == player_id:
                player = session.get(Player, player_id)
                raise OperationError(f"{player.name} attaque déjà au {french.quarter_label(other)} : l’attaquant "
                                     "doit être différent à chaque quart temps.", f"attacker_{team}")
        if before is not None and before != player_id and any(r.taker_team == team for r in entered):
            raise OperationError(f"Attaquant refusé : l’équipe {team} a déjà des résultats en attaque au {name}.",
                                 f"attacker_{team}")
        chosen[team] = player_id
    before_state = _quarter_state(session, open_round, stored[str(quarter)])
    new_rounds = []
    for round_ in data.get("rounds", []):
        if round_ is open_round or round_ is closed_round:
            attack = open_attack if round_ is open_round else ("B" if open_attack == "A" else "A")
            defence = "B" if attack == "A" else "A"
            round_ = {**round_, "boards": boards, "seats": {"attack": attack, "defence": defence}}
        new_rounds.append(round_)
    _store_movement(session, tournament, {**data, "rounds": new_rounds})
    members = _members(session, tournament)
    places = {q: {team: [p.id for p in members[team]].index(pid) for team, pid in by_team.items()}
              for q, by_team in {**stored, str(quarter): chosen}.items() if by_team}
    tournament.settings = {**(tournament.settings or {}), SETTING: places}
    after_state = _quarter_state(session, {"boards": boards, "seats": {"attack": open_attack}}, chosen)
    if before_state != after_state:
        changes = " ; ".join(f"{label} : {before_state[label]} → {after_state[label]}" for label in after_state
                            if before_state[label] != after_state[label])
        journal(session, tournament, action="team_match.quarter", who=who, summary=f"{name.capitalize()} : {changes}.",
                before=before_state, after=after_state)
    session.flush()


def _quarter_state(session: Session, open_round: Mapping, attackers: Mapping[str, int]) -> dict[str, str]:
    """A quarter's settings as the journal words them."""
    def named(player_id):
        player = session.get(Player, player_id) if player_id is not None else None
        return player.name if player is not None else "—"
    return {"étuis": _list(int(b) for b in open_round.get("boards", [])),
            "salle ouverte": f"attaquant {(open_round.get('seats') or {}).get('attack')}",
            "attaquant A": named(attackers.get("A")), "attaquant B": named(attackers.get("B"))}


def set_bonus(session: Session, tournament: Tournament, bonus: Mapping[str, str | Fraction | Decimal],
              who: str | None = None) -> None:
    """Each team's PM bonus (typed « 2,5 »), 0 to 100 PM; refused once a result is entered (« avant le
    début du match »)."""
    _require_team_match(tournament)
    rows = {team.entrant_id: team for team in teams(session, tournament) if team.entrant_id in ("A", "B")}
    values: dict[str, Fraction] = {}
    for team, typed in bonus.items():
        try:
            value = typed if isinstance(typed, (Fraction, Decimal)) else french.parse_number(typed or "0")
        except french.NumberError as error:
            raise OperationError(str(error), f"bonus_{team}") from None
        if not 0 <= value <= 100:
            raise OperationError("Le bonus est un nombre de PM de 0 à 100.", f"bonus_{team}")
        if team not in rows:
            raise OperationError(f"Pas d’équipe {team} : faites d’abord le placement.", f"bonus_{team}")
        values[team] = Fraction(value)
    before = {team: french.number(rows[team].bonus, 3) for team in values}
    after = {team: french.number(value, 3) for team, value in values.items()}
    if before == after:
        return
    entered = _results(session, tournament)
    if entered:
        raise OperationError(f"Le bonus se fixe avant le début du match : "
                             f"{french.counted(len(entered), 'résultat déjà saisi', 'résultats déjà saisis')}.")
    for team, value in values.items():
        rows[team].bonus = float(value)
    journal(session, tournament, action="team_match.bonus", who=who,
            summary="Bonus en PM : " + ", ".join(f"équipe {t} {before[t]} → {after[t]}" for t in after
                                                 if before[t] != after[t]),
            before=before, after=after)
    session.flush()


def attackers_step(session: Session, tournament: Tournament) -> tuple[str, bool, str]:
    """The readiness step « Attaquants » (`readiness`): done when each team has its attacker in each quarter,
    counted on the choices `set_quarter` keeps and checks (`_attackers`)."""
    needed = len(QUARTERS) * 2
    chosen = sum(len(by_team) for by_team in _attackers(session, tournament).values())
    return "attackers", chosen == needed, (f"{french.counted(chosen, 'attaquant choisi', 'attaquants choisis')} "
                                           f"sur {needed}")


def attacker_names(session: Session, tournament: Tournament) -> dict[tuple[int, str], str]:
    """``(quarter, team) → attacker's name`` for the entry screens and the sheet."""
    if _kind(tournament) is not TournamentKind.team_match:
        return {}
    names = {}
    for quarter, chosen in _attackers(session, tournament).items():
        for team, player_id in chosen.items():
            player = session.get(Player, player_id)
            if player is not None:
                names[(int(quarter), team)] = player.name
    return names
