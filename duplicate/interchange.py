"""The database in and out of the interchange files (SPEC §9): tournament export and import (the players
CSV is `duplicate.players_csv`'s).

**Tournament file** (``tarot-tournament/1``). `export_tournament` builds the file of one tournament
from the database; `import_tournament` creates a tournament from a file. The file is the same one the
rules engine reads (`duplicate.core.tournament.load_tournament`): the web, the API and the ``rank``
command all rank a tournament by passing this dict through the core (`operations.to_core`).

Fields, besides those of SPEC §9 (extra fields are allowed by the SPEC; these are ours):

* tournament: ``date`` (ISO), ``place``, ``colour`` (printed on the étuis), ``sessions`` (when not 1),
  ``deal_seed``, ``seed_sha256``, ``draw_seed``, ``settings``;
* player: ``licence``, ``club``, ``table`` (starting table); ``name`` is « SURNAME First name »;
  the evening's marks of SPEC §11, ``out_of_ranking`` and ``withdrawn`` (`duplicate.core.tournament`);
* tournament: ``substitutions`` (SPEC §11), naming the substitute by his player id;
* tournament: ``journal``, the journal of the evening's changes (SPEC §11), oldest first, each entry
  ``{"at": "2026-03-14T20:05:00.123456Z" (UTC), "who", "action", "summary", "before", "after"}``;
* team: ``table``, ``first_colour`` (triplettes), ``bonus`` (team match PM);
* board: ``hands`` and ``dog`` when the deal is known;
* result: ``reason``, the arbiter's reason for an annulled deal, an adjusted score or an arbitral note;
  ``attacker`` (quadrettes), the player id of the attacking quadrette's player who took (issue 15).

A player or team not yet placed by the draw has no entrant id; the file names it ``joueur-<n>`` or
``equipe-<n>`` (``n`` its database id). Private tokens and staff data are never exported.

**Lossless round trip.** Every field of an imported file that no column holds — another program's
fields, and explicit default values such as ``"annulled": false``, ``"sessions": 1`` or ``"teams": []`` —
is kept verbatim in the row's ``extra`` column, and the export writes ``extra`` first, then the columns
that differ from their default. So import → export gives back the file (as JSON values; key order and
the text layout are not kept), and a later change to a column still shows.
"""

from __future__ import annotations

import datetime
import json
import logging
from typing import Any, Callable, Mapping

from sqlalchemy.exc import DataError, IntegrityError
from sqlmodel import Session, select

from duplicate.core.deals import Deal, DealError
from duplicate.core.scoring import Contract
from duplicate.core.triplettes import split_name
from duplicate.core.tournament import (ROOM_TABLES, TOURNAMENT_FORMAT, EntryLines, TournamentError, key_line,
                                       load_tournament)
from duplicate.models import (
    MINUTES_PER_BOARD_RANGE, SESSIONS_RANGE, Board, JournalEntry, Movement, Penalty, Player, Result, ResultHistory,
    Substitution, Team, TeamMember, Tournament, TournamentKind,
)

__all__ = [
    "TOURNAMENT_FORMAT", "export_tournament", "import_tournament", "result_to_dict", "player_file_id",
    "team_file_id", "split_name",
]

SECTIONS = ("players", "teams", "boards", "results", "penalties", "substitutions", "journal")


# --- small predicates: which values a column holds (everything else stays in `extra`) -------------------

def _text(value) -> bool:
    return isinstance(value, str) and value != ""


def _int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _true(value) -> bool:
    return value is True


def _iso_moment(value) -> bool:
    try:
        datetime.datetime.fromisoformat(value)
    except (TypeError, ValueError):
        return False
    return True


def _iso_date(value) -> bool:
    try:
        return isinstance(value, str) and datetime.date.fromisoformat(value).isoformat() == value
    except ValueError:
        return False


def _split(item: Mapping, rules: Mapping[str, Callable[[Any], bool]]) -> tuple[dict, dict]:
    """(values the columns hold, everything else verbatim) for one object of the file."""
    mapped, extra = {}, {}
    for key, value in item.items():
        if key in rules and rules[key](value):
            mapped[key] = value
        else:
            extra[key] = value
    return mapped, extra


def _plain(number: float) -> int | float:
    return int(number) if float(number).is_integer() else float(number)


def _merge(extra: Mapping | None, **columns) -> dict:
    """``extra`` then the columns that are set (not None)."""
    data = dict(extra or {})
    data.update({key: value for key, value in columns.items() if value is not None})
    return data


def player_file_id(player: Player) -> str:
    return player.entrant_id or f"joueur-{player.id}"


def team_file_id(team: Team) -> str:
    return team.entrant_id or f"equipe-{team.id}"


# --- export ----------------------------------------------------------------------------------------------

def result_to_dict(result: Result) -> dict:
    """One result as in the file (SPEC §9); also the snapshot kept in the result's history."""
    return _merge(
        result.extra, board=result.board, table=result.table, position=result.position,
        taker=result.taker, defenders=list(result.defenders) if result.defenders is not None else None,
        taker_team=result.taker_team, defence_team=result.defence_team, score=result.score,
        annulled=result.annulled or None, adjusted=result.adjusted or None, notes=result.notes,
        chelem=result.chelem or None, contract=result.contract, quarter=result.quarter, room=result.room,
        attacker=result.attacker, reason=result.reason,
    )


def _rows(session: Session, model, tournament: Tournament, order):
    return session.exec(select(model).where(model.tournament_id == tournament.id).order_by(order)).all()


def export_tournament(session: Session, tournament: Tournament, results: list[dict] | None = None) -> dict:
    """The tournament as a ``tarot-tournament/1`` dict. ``results`` replaces the stored results (used by
    the operations to check a result before writing it)."""
    players = _rows(session, Player, tournament, Player.id)
    file_ids = {player.id: player_file_id(player) for player in players}
    kind = TournamentKind(tournament.kind)
    data = dict(tournament.extra if tournament.extra is not None else {"format": TOURNAMENT_FORMAT})
    data["kind"] = kind.value
    sections: dict[str, Any] = {
        "name": tournament.name or None,
        "date": tournament.date.isoformat() if tournament.date else None,
        "place": tournament.place or None, "colour": tournament.colour or None,
        "sessions": tournament.sessions if tournament.sessions != 1 else None,
        "deal_seed": tournament.deal_seed, "seed_sha256": tournament.seed_sha256,
        "draw_seed": tournament.draw_seed, "settings": tournament.settings or None,
    }
    sections["players"] = [
        _merge(player.extra, id=file_ids[player.id], name=player.name or None, line=player.line,
               licence=player.licence, club=player.club, table=player.start_table,
               out_of_ranking=player.out_of_ranking or None,
               withdrawn={"position": player.withdrawn_from} if player.withdrawn_from is not None else None)
        for player in players
    ]
    teams = []
    for team in _rows(session, Team, tournament, Team.id):
        members = session.exec(select(TeamMember).where(TeamMember.team_id == team.id)
                               .order_by(TeamMember.order, TeamMember.id)).all()
        teams.append(_merge(
            team.extra, id=team_file_id(team), name=team.name or None, line=team.line, table=team.start_table,
            first_colour=team.first_colour, bonus=_plain(team.bonus) if team.bonus else None,
            members=[file_ids[m.player_id] for m in members] or None,
        ))
    sections["teams"] = teams
    sections["boards"] = [
        _merge(board.extra, number=board.number, dealer=board.dealer, taker=board.taker,
               hands=board.hands, dog=board.dog)
        for board in _rows(session, Board, tournament, Board.id)
    ]
    movement = session.exec(select(Movement).where(Movement.tournament_id == tournament.id)).first()
    sections["movement"] = movement.data if movement is not None else None
    if results is None:
        results = [result_to_dict(r) for r in _rows(session, Result, tournament, Result.id)]
    sections["results"] = results
    entrant_key = "player" if tournament.format.ranks_players else "team"
    penalties = []
    for penalty in _rows(session, Penalty, tournament, Penalty.id):
        other = "team" if entrant_key == "player" else "player"
        key = other if (penalty.extra or {}).get(other) == penalty.entrant_id else entrant_key
        penalties.append(_merge(penalty.extra, **{key: penalty.entrant_id}, points=_plain(penalty.points),
                                reason=penalty.reason, board=penalty.board))
    sections["penalties"] = penalties
    sections["substitutions"] = [
        _merge(row.extra, seat=row.seat, player=file_ids[row.player_id], from_position=row.from_position,
               results_to=row.results_to)
        for row in _rows(session, Substitution, tournament, Substitution.id)
    ]
    sections["journal"] = [
        {key: value for key, value in (("at", _utc_text(entry.at)), ("who", entry.who), ("action", entry.action),
                                       ("summary", entry.summary), ("before", entry.before),
                                       ("after", entry.after)) if value is not None}
        for entry in _rows(session, JournalEntry, tournament, JournalEntry.id)
    ]
    for key, value in sections.items():
        if value not in (None, []):
            data[key] = value
    return data


def _utc_text(moment: datetime.datetime) -> str:
    """A stored moment (UTC; naive when the database drops the zone) as ISO 8601 with ``Z``."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(datetime.timezone.utc).replace(tzinfo=None)
    return moment.isoformat() + "Z"


def _utc_moment(text: str) -> datetime.datetime:
    moment = datetime.datetime.fromisoformat(text)
    if moment.tzinfo is None:
        return moment.replace(tzinfo=datetime.timezone.utc)
    return moment.astimezone(datetime.timezone.utc)


# --- import ----------------------------------------------------------------------------------------------

TOURNAMENT_RULES = {
    "name": _text, "kind": _text, "date": _iso_date, "place": _text, "colour": _text,
    "sessions": lambda v: _int(v) and v >= 1 and v != 1, "deal_seed": _text, "seed_sha256": _text,
    "draw_seed": _text, "settings": lambda v: isinstance(v, dict) and bool(v),
    "movement": lambda v: isinstance(v, dict), **{name: lambda v: isinstance(v, list) and bool(v)
                                                for name in SECTIONS},
}
PLAYER_RULES = {
    "id": _text, "name": lambda v: _text(v) and " ".join(p for p in split_name(v) if p) == v,
    "line": _text, "licence": _text, "club": _text, "table": _int, "out_of_ranking": _true,
    "withdrawn": lambda v: isinstance(v, dict) and list(v) == ["position"] and _int(v["position"]),
}
TEAM_RULES = {
    "id": _text, "name": _text, "line": _text, "table": _int, "first_colour": _text,
    "bonus": lambda v: _number(v) and v != 0,
    "members": lambda v: isinstance(v, list) and bool(v) and all(_text(m) for m in v),
}
BOARD_RULES = {
    "number": _int, "dealer": lambda v: v in ("N", "S", "E", "W"), "taker": lambda v: v in ("N", "S", "E", "W"),
    "hands": lambda v: isinstance(v, dict), "dog": lambda v: isinstance(v, list),
}
RESULT_RULES = {
    "board": _int, "table": _int, "position": _int, "taker": _text,
    "defenders": lambda v: isinstance(v, list) and all(_text(d) for d in v),
    "taker_team": _text, "defence_team": _text, "score": _int, "annulled": _true, "adjusted": _true,
    "chelem": _true, "notes": lambda v: isinstance(v, dict), "contract": _text, "quarter": _int, "room": _text, "attacker": _text,
    "reason": _text,
}
PENALTY_RULES_REST = {"points": _number, "reason": _text, "board": _int}  # besides the entrant
JOURNAL_RULES = {"at": lambda v: _text(v) and _iso_moment(v), "who": _text,
                 "action": lambda v: _text(v) and 0 < len(v) <= 40, "summary": lambda v: isinstance(v, str),
                 "before": lambda v: isinstance(v, dict), "after": lambda v: isinstance(v, dict)}
SUBSTITUTION_RULES = {"seat": _text, "player": _text, "from_position": _int,
                      "results_to": lambda v: v in ("player", "substitute")}


# --- what each known field may hold (issue 31 point 1) ------------------------------------------------------
#
# The core (`load_tournament`) checks what it ranks from: ids, kind, lines, members, étuis, scores, notes,
# penalties, substitutions, and the result flags. The fields below are ours (module docstring) or the
# SPEC's that the core does not read; each has one rule here. A known field outside its rule refuses the
# file, naming the field and its line: it is never kept in ``extra``, where the export would write it back
# and a page would trip on it. A value within its rule that no column holds (``"sessions": 1``, an empty
# ``licence``, a name not in « SURNAME First name » form) stays in ``extra`` as before.

def _is_text(value) -> bool:
    return isinstance(value, str)


def _table_number(value) -> bool:
    return _int(value) and 1 <= value <= MAX_TABLE


#: A starting table, as a movement may have (`core.movements`: at most 500 tables).
MAX_TABLE = 500
TEXT = (_is_text, "un texte")
TABLE = (_table_number, f"un numéro de table de 1 à {MAX_TABLE}")
SEAT = (lambda v: isinstance(v, str) and v in ("N", "S", "E", "W"), "N, S, E ou W")
FIELD_RULES: dict[str, dict[str, tuple[Callable[[Any], bool], str]]] = {
    "tournament": {
        "name": TEXT, "date": (_iso_date, "une date AAAA-MM-JJ"), "place": TEXT, "colour": TEXT,
        "sessions": (lambda v: _int(v) and SESSIONS_RANGE[0] <= v <= SESSIONS_RANGE[1],
                     "un nombre entier de séances de %d à %d" % SESSIONS_RANGE),
        "deal_seed": TEXT, "seed_sha256": TEXT, "draw_seed": TEXT,
        "settings": (lambda v: isinstance(v, dict), "un objet JSON"),
        "movement": (lambda v: isinstance(v, dict), "un objet JSON « tarot-movement/1 »"),
    },
    "players": {"name": TEXT, "licence": TEXT, "club": TEXT, "table": TABLE},
    "teams": {"name": TEXT, "table": TABLE, "first_colour": TEXT},
    "boards": {"dealer": SEAT, "taker": SEAT},
    "results": {"contract": (lambda v: isinstance(v, str) and v in {c.value for c in Contract},
                             "garde, garde_sans, garde_contre ou prise"),
                "attacker": TEXT, "reason": TEXT},
    "penalties": {"reason": TEXT},
}
#: The tournament's ``settings`` the application reads (`operations`): each value within its rule, or the
#: file is refused; other keys (another program's) are kept as they are.
SETTINGS_RULES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "timezone": TEXT, "published": (lambda v: isinstance(v, bool), "true ou false"),
    "table_results": (lambda v: isinstance(v, bool), "true ou false"),
    "table_position": (lambda v: v is None or (_int(v) and v >= 1), "un numéro de position (1 ou plus)"),
    "minutes_per_board": (lambda v: _int(v) and MINUTES_PER_BOARD_RANGE[0] <= v <= MINUTES_PER_BOARD_RANGE[1],
                          "un nombre entier de minutes de %d à %d" % MINUTES_PER_BOARD_RANGE),
    "team_attackers": (lambda v: isinstance(v, dict) and all(
        isinstance(places, dict) and all(_int(place) and place >= 0 for place in places.values())
        for places in v.values()), "un objet {quart temps: {équipe: place}}"),
}
NOUNS = {"players": "joueur", "teams": "équipe", "boards": "étui", "results": "résultat", "penalties": "pénalité"}


def _check_fields(data: dict, text: str, lines: Mapping[str, list[int]]) -> None:
    """Refuse a known field outside its rule (`FIELD_RULES`, `SETTINGS_RULES`), naming it and its line."""
    for key, (check, expected) in FIELD_RULES["tournament"].items():
        if key in data and not check(data[key]):
            raise TournamentError(f"« {key} » doit être {expected}", key_line(text, key))
    for key, (check, expected) in SETTINGS_RULES.items():
        settings = data.get("settings", {})
        if key in settings and not check(settings[key]):
            raise TournamentError(f"« settings » : « {key} » doit être {expected}", key_line(text, "settings"))
    for section, rules in FIELD_RULES.items():
        if section == "tournament":
            continue
        for index, item in enumerate(data.get(section, [])):
            for key, (check, expected) in rules.items():
                if key in item and not check(item[key]):
                    entries = lines.get(section, [])
                    raise TournamentError(f"{NOUNS[section]} n° {index + 1} : « {key} » doit être {expected}",
                                          entries[index] if index < len(entries) else None)


def _check_movement(data: dict, text: str) -> None:
    """The file's movement read as ``movement check`` reads it (`core.movements.Movement.from_dict`: every
    round's position, table, seats and étuis), for the tournament's kind: a French refusal naming the round
    and the field, at the line of ``"movement"``. The validator's report (`core.movements.check`: an étui at
    two tables at once, a player playing an étui twice…) is the movement page's business, not a refusal: a
    tournament played on an imperfect movement is still a tournament (docs/nothing-breaks.md)."""
    if "movement" not in data:
        return
    from duplicate.core.movements import Movement as CoreMovement, MovementError

    movement = data["movement"]
    line = key_line(text, "movement")
    if movement.get("kind", data["kind"]) != data["kind"]:
        raise TournamentError(f"mouvement « movement » : il est pour « {movement.get('kind')} », pas pour "
                              f"« {data['kind']} »", line)
    try:
        CoreMovement.from_dict({"kind": data["kind"], **movement})
    except MovementError as error:
        raise TournamentError(f"mouvement « movement » : {error}", line) from None


def _check_file(data: dict, lines: Mapping[str, list[int]]) -> None:
    """What the core does not check but the database and the pages need: valid deals, each member once per
    team, each known field within its rule, the movement as ``movement check`` reads it."""
    def fail(section, index, message):
        entries = lines.get(section, [])
        raise TournamentError(message, entries[index] if index < len(entries) else None)

    text = getattr(lines, "text", "")
    _check_fields(data, text, lines)
    _check_movement(data, text)

    for index, item in enumerate(data.get("boards", [])):
        if "hands" in item or "dog" in item:
            try:
                Deal.from_dict(item).validate()
            except DealError as error:
                fail("boards", index, f"étui {item.get('number')} : {error}")
    for index, item in enumerate(data.get("teams", [])):
        members = item.get("members", [])
        if isinstance(members, list) and len(set(map(str, members))) != len(members):
            fail("teams", index, f"équipe « {item.get('id')} » : un joueur figure deux fois")
    for index, item in enumerate(data.get("penalties", [])):
        if not _number(item.get("points")):
            fail("penalties", index, f"pénalité n° {index + 1} : « points » doit être un nombre")
    journal = data.get("journal", [])
    if not isinstance(journal, list):
        fail("journal", 0, "« journal » doit être une liste")
    for index, item in enumerate(journal):
        wrong = [key for key, check in JOURNAL_RULES.items() if key in item and not check(item[key])] \
            if isinstance(item, dict) else ["entrée"]
        missing = [key for key in ("at", "action") if isinstance(item, dict) and key not in item]
        if wrong or missing:
            fail("journal", index, f"journal, entrée n° {index + 1} : « {(wrong or missing)[0]} » "
                                   f"{'manque' if not wrong else 'est invalide'}")


def import_tournament(session: Session, text: str) -> Tournament:
    """Create a tournament from the text of a ``tarot-tournament/1`` file; return it (flushed).

    The whole file is checked first (`load_tournament`, as ``rank`` does; then `_check_file`: the deals,
    each known field's rule, the movement as ``movement check`` reads it); a TournamentError names the
    faulty line and nothing is written. The rows are written inside a SAVEPOINT, so that even a
    database refusal leaves the database as it was.
    """
    text = text.removeprefix("\ufeff")
    load_tournament(text)  # what ``rank`` checks
    data = json.loads(text)
    _check_file(data, EntryLines(text))
    try:
        with session.begin_nested():
            tournament = _create(session, data)
    except (IntegrityError, DataError, OverflowError) as error:  # a value the database cannot store
        logging.getLogger(__name__).warning("import refused by the database: %s", getattr(error, "orig", error))
        raise TournamentError("le fichier ne peut pas être enregistré : une de ses valeurs manque ou ne tient pas "
                              "dans la base de données (rien n’a été importé)") from None
    return tournament


def _create(session: Session, data: dict) -> Tournament:
    top, extra = _split(data, TOURNAMENT_RULES)
    tournament = Tournament(
        name=top.get("name", ""), kind=TournamentKind(data["kind"]),
        date=datetime.date.fromisoformat(top["date"]) if "date" in top else None,
        place=top.get("place", ""), colour=top.get("colour", ""), sessions=top.get("sessions", 1),
        settings=top.get("settings", {}), deal_seed=top.get("deal_seed"), seed_sha256=top.get("seed_sha256"),
        draw_seed=top.get("draw_seed"), extra=extra,
    )
    session.add(tournament)
    session.flush()
    players: dict[str, Player] = {}
    for item in top.get("players", []):
        fields, extra = _split(item, PLAYER_RULES)
        surname, first_name = split_name(fields["name"]) if "name" in fields else ("", "")
        player = Player(tournament_id=tournament.id, entrant_id=fields["id"], surname=surname,
                        first_name=first_name, line=fields.get("line"), licence=fields.get("licence"),
                        club=fields.get("club"), start_table=fields.get("table"),
                        out_of_ranking="out_of_ranking" in fields,
                        withdrawn_from=fields["withdrawn"]["position"] if "withdrawn" in fields else None,
                        extra=extra or None)
        players[player.entrant_id] = player
        session.add(player)
    session.flush()
    for item in top.get("teams", []):
        fields, extra = _split(item, TEAM_RULES)
        team = Team(tournament_id=tournament.id, entrant_id=fields["id"], name=fields.get("name", ""),
                    line=fields.get("line"), start_table=fields.get("table"),
                    first_colour=fields.get("first_colour"), bonus=float(fields.get("bonus", 0)),
                    extra=extra or None)
        session.add(team)
        session.flush()
        for order, member in enumerate(fields.get("members", [])):
            session.add(TeamMember(team_id=team.id, player_id=players[member].id, order=order))
    for item in top.get("boards", []):
        fields, extra = _split(item, BOARD_RULES)
        session.add(Board(tournament_id=tournament.id, number=fields["number"], dealer=fields.get("dealer"),
                          taker=fields.get("taker"), hands=fields.get("hands"), dog=fields.get("dog"),
                          extra=extra or None))
    if "movement" in top:
        session.add(Movement(tournament_id=tournament.id, data=top["movement"]))
    session.flush()
    for item in top.get("results", []):
        fields, extra = _split(item, RESULT_RULES)
        if "table" not in fields and fields.get("room") in ROOM_TABLES:  # a team match may name its room only:
            fields["table"] = ROOM_TABLES[fields["room"]]  # at the room's table, as `rank` reads it
        result = Result(tournament_id=tournament.id, **{k: v for k, v in fields.items()}, extra=extra or None)
        session.add(result)
        session.flush()
        session.add(ResultHistory(result_id=result.id, who="import", action="import", after=item))
    usual_key = "player" if tournament.format.ranks_players else "team"
    for item in top.get("penalties", []):
        key = "player" if "player" in item else "team"  # as the core reads it
        fields, extra = _split({k: v for k, v in item.items() if k != key}, PENALTY_RULES_REST)
        if key != usual_key:
            extra[key] = item[key]  # remembered, so that the export writes the same key back
        session.add(Penalty(tournament_id=tournament.id, entrant_id=item[key], points=float(fields["points"]),
                            reason=fields.get("reason"), board=fields.get("board"), created_by="import",
                            extra=extra or None))
    for item in top.get("journal", []):
        session.add(JournalEntry(tournament_id=tournament.id, at=_utc_moment(item["at"]), who=item.get("who"),
                                 action=item["action"], summary=item.get("summary", ""),
                                 before=item.get("before"), after=item.get("after")))
    for item in top.get("substitutions", []):
        fields, extra = _split(item, SUBSTITUTION_RULES)  # the core checked seat, player, position
        session.add(Substitution(tournament_id=tournament.id, seat=fields["seat"],
                                 player_id=players[fields["player"]].id, from_position=fields["from_position"],
                                 results_to=fields.get("results_to", "player"), extra=extra or None))
    session.flush()
    return tournament
