"""What every page and printout needs from a SPEC §9 tournament dict: the header, names, the movement's
rounds, the results and the topage notes, indexed for lookups, and the French words for seats, rooms and
the arbiter's marks.  Plain dicts in, plain dicts out: the view-models (`route_sheet`, `frequencies`) and
the printed contexts (`duplicate.printing`) read the same `Tournament`."""

from __future__ import annotations

from functools import cached_property
from typing import Any, Mapping

from duplicate.core.cards import LINE_NAMES
from duplicate.core.formats import format_for
from duplicate.core.triplettes import Triplette, attacking_line, plan_attacks

from . import formatting as fmt

SEAT_LABELS = LINE_NAMES
SEAT_SHORT = {"N": "N", "S": "S", "E": "E", "W": "O", "NS": "NS", "EW": "EO", "attack": "Att.",
              "defence": "Déf."}
ROOMS = {"open": "salle ouverte", "closed": "salle fermée"}


def header(export: Mapping[str, Any]) -> dict:
    """The tournament as every page heads it; ``global_rule`` states the weights of the global %
    (« Global = ¼ attaque + ¾ défense », SPEC §5), empty for the PM kinds."""
    kind = export.get("kind", "individual")
    form = format_for(kind)
    return {
        "name": str(export.get("name") or "Tournoi"),
        "date": fmt.french_date(export.get("date")),
        "place": str(export.get("place") or ""),
        "colour": fmt.tournament_colour(export.get("colour")),
        "kind": kind,
        "kind_french": form.label,
        "global_rule": form.weights_text,
    }


class Tournament:
    """Lookups over one exported tournament (and, when given, its SPEC §9 ranking output)."""

    def __init__(self, export: Mapping[str, Any], ranking: Mapping[str, Any] | None = None):
        self.export = export
        self.ranking = ranking or {}
        self.kind = export.get("kind", "individual")
        self.format = format_for(self.kind)
        self.header = header(export)
        self.players = {p["id"]: p for p in export.get("players", []) if isinstance(p, Mapping) and "id" in p}
        self.teams = {t["id"]: t for t in export.get("teams", []) if isinstance(t, Mapping) and "id" in t}
        self.boards = {b["number"]: b for b in export.get("boards", []) if isinstance(b, Mapping)}
        movement = export.get("movement") or {}
        self.movement = movement
        self.rounds = sorted((r for r in movement.get("rounds", []) if isinstance(r, Mapping)),
                             key=lambda r: (r["position"], r["table"]))
        # who rests (« relais », SPEC §7) at each position: {position: [ids]}
        self.rests = {item["position"]: list(item.get("entrants", [])) for item in movement.get("rests", []) or []
                      if isinstance(item, Mapping) and isinstance(item.get("position"), int)}
        self.movement_takers = {b["number"]: b.get("taker") for b in movement.get("boards", [])
                                if isinstance(b, Mapping)}
        self.results = [r for r in export.get("results", []) if isinstance(r, Mapping)]
        self._results_at = {self._key(r["board"], r["table"], r.get("room")): r for r in self.results}
        self._notes_at = {}
        for board in self.ranking.get("boards", []):
            for row in board.get("results", []):
                self._notes_at[self._key(board["number"], row["table"], row.get("room"))] = row

    def _key(self, board, table, room=None):
        return (board, room) if self.format.tables_are_rooms else (board, table)

    # -- names ------------------------------------------------------------------------------------
    @property
    def entrants(self) -> dict[str, Mapping]:
        """Who is ranked and gets a route sheet: players in the individual, teams otherwise."""
        return {"players": self.players, "teams": self.teams}[self.format.entrants_key]

    def name(self, ident: str | None) -> str:
        if ident is None:
            return ""
        item = self.players.get(ident) or self.teams.get(ident)
        return str(item.get("name", ident)) if item else str(ident)

    # -- boards -----------------------------------------------------------------------------------
    def board_numbers(self) -> list[int]:
        numbers = set(self.boards)
        numbers |= {n for r in self.rounds for n in r.get("boards", [])}
        numbers |= {r["board"] for r in self.results}
        return sorted(numbers)

    def taker_seat(self, number: int) -> str | None:
        if self.format.taker_seat is not None:
            return self.format.taker_seat  # SPEC §2: the taker always sits South in the PM kinds
        board = self.boards.get(number, {})
        return board.get("taker") or self.movement_takers.get(number)

    def dealer_seat(self, number: int) -> str | None:
        return self.boards.get(number, {}).get("dealer")

    def rounds_of_board(self, number: int) -> list[Mapping]:
        return [r for r in self.rounds if number in r.get("boards", [])]

    def result_at(self, board: int, table: int, room: str | None = None) -> Mapping | None:
        return self._results_at.get(self._key(board, table, room))

    def notes_at(self, board: int, table: int, room: str | None = None) -> Mapping | None:
        return self._notes_at.get(self._key(board, table, room))

    def resting_at(self, position) -> list[str]:
        """Who is at the relais at this position (empty when everyone plays)."""
        return self.rests.get(position, [])

    def seats_of(self, round_: Mapping) -> list[tuple[str, str]]:
        seats = round_.get("seats", {})
        order = self.format.seats
        return [(key, seats[key]) for key in order if key in seats] + \
               [(key, who) for key, who in seats.items() if key not in order]


    # -- who attacks (SPEC §5 triplette badges; quadrettes' attacker per line, issue 15) -------------
    @cached_property
    def attacks(self) -> dict:
        """(étui, triplette id) → `core.triplettes.Attack` (empty outside the triplettes): the core's plan
        from the teams' members, first colours and, for a competition's later séance, ``attacked_before``
        (`printing.commands.tournament_data` marks them)."""
        if self.format.who_attacks != "colours":
            return {}
        teams = {ident: Triplette(team.get("first_colour"), tuple((m, self.name(m)) for m in team.get("members", [])),
                                  int(team.get("attacked_before") or 0)) for ident, team in self.teams.items()}
        takers = {n: seat for n in self.board_numbers() if (seat := self.taker_seat(n))}
        return plan_attacks(teams, self.rounds, takers)

    @cached_property
    def badges(self) -> dict[str, str]:
        """Player id → triplette badge colour (`Format.team_badges`: none outside the triplettes)."""
        found: dict[str, str] = {}
        for team in self.teams.values():
            members = team.get("members", [])
            if len(members) == 3:
                found.update(self.format.team_badges((m, self.name(m)) for m in members))
        return found

    @cached_property
    def team_attackers(self) -> dict[tuple[int, str], str]:
        """Team match: (quarter, team) → its attacker's player id, from the places the arbiter chose on the
        « Match » page (``settings["team_attackers"]``, a place in the team's order: `operations._team_match`)."""
        chosen = (self.export.get("settings") or {}).get("team_attackers") or {}
        found = {}
        for quarter, by_team in chosen.items() if isinstance(chosen, Mapping) else ():
            for team, place in (by_team or {}).items():
                members = self.teams.get(team, {}).get("members") or []
                if isinstance(place, int) and 0 <= place < len(members):
                    found[(int(quarter), team)] = members[place]
        return found

    def attacking_team(self, number: int, seats) -> str | None:
        """The team that attacks étui ``number`` at a line with ``seats`` (``[(seat, entrant)]``): in triplettes
        the line of the taker's seat, in quadrettes and team matches the attack seat; None in the individual."""
        seat_of = dict(seats)
        if "attack" in seat_of:
            return seat_of["attack"]
        if self.format.has_teams:
            return seat_of.get(attacking_line(self.taker_seat(number) or "N"))
        return None

    def attacker(self, board: int, team: str | None, result: Mapping | None = None, *, quarter: int | None = None,
                 room: str | None = None) -> dict | None:
        """Who of ``team`` attacks étui ``board``: ``{"name", "colour", "room"}`` — a triplette's by its badge
        rotation (SPEC §5; seed « Règles spécifiques aux tournois triplettes »), a quadrette's as entered on
        the fiche (``result["attacker"]``), a team match's as chosen for the quarter with the room where he
        plays (seed « DUPLICATE PAR ÉQUIPES » : « les capitaines de chaque équipe choisissent […] un
        attaquant », « L'équipe A choisit les salles […] »; the quarter and room are the result's, else
        ``quarter`` and ``room``); None when unknown."""
        who = self.format.who_attacks
        if who == "colours":
            attack = self.attacks.get((board, team))
            return {"name": self.name(attack.player), "colour": attack.colour, "room": ""} \
                if attack and attack.player else None
        if who == "named" and result is not None and result.get("attacker"):
            return {"name": self.name(result["attacker"]), "colour": "", "room": ""}
        if who == "quarters":
            quarter = (result or {}).get("quarter") or quarter
            room = (result or {}).get("room") or room
            player = self.team_attackers.get((quarter, team)) if quarter is not None else None
            return {"name": self.name(player), "colour": "", "room": ROOMS.get(room, "")} if player else None
        return None

    def board_attackers(self, number: int) -> dict[int, dict[str, str]]:
        """Étui ``number``'s attacker at each table that plays it (the movement's rounds; a quadrette's once
        its line names him): table → ``{"text": attacker_text, "colour": badge colour or ""}``."""
        found = {}
        for round_ in self.rounds_of_board(number):
            result = self.result_at(number, round_["table"], round_.get("room"))
            who = self.attacker(number, self.attacking_team(number, self.seats_of(round_)), result,
                                quarter=round_.get("position"), room=round_.get("room"))
            if who:
                found[round_["table"]] = {"text": attacker_text(who), "colour": who["colour"]}
        return found


def attacker_text(who: Mapping | None, *, room: bool = True) -> str:
    """The one wording of an attacker, on every page, phone and printout (issue 29 point 8): « DUPONT Jean
    (Bleu) » (triplettes: his badge), « DUPONT Jean, salle ouverte » (team match: the room where he plays;
    ``room=False`` where a column already says it, the route sheet's « Salle »), « DUPONT Jean »
    (quadrettes), or "" when unknown."""
    if not who:
        return ""
    if who.get("colour"):
        return f"{who['name']} ({who['colour']})"
    return f"{who['name']}, {who['room']}" if room and who.get("room") else str(who["name"])


def flags(result: Mapping | None, notes: Mapping | None = None) -> list[str]:
    """The arbiter's corrections on one result, in French, as flagged on every printout (SPEC §4)."""
    found = []
    if result is None:
        return found
    arbitral = result.get("notes") is not None or bool((notes or {}).get("arbitral_note"))
    if result.get("annulled") or (notes or {}).get("annulled"):
        found.append("donne annulée")
    # ``corrected``: the done score was changed afterwards (`operations.corrected_ids`); an annulment or
    # an arbitral note changes no score and is named for what it is — « score corrigé » only when the
    # score did change too; an adjusted score is named « rectifié par l’arbitre »
    if result.get("corrected") and not (result.get("adjusted") or (notes or {}).get("adjusted")):
        found.append("score corrigé après saisie")
    if result.get("adjusted") or (notes or {}).get("adjusted"):
        found.append("score rectifié par l’arbitre")
    if arbitral:
        found.append("note arbitrale")
    if result.get("chelem"):
        found.append("chelem")
    return found
