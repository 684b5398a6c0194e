"""The four formats of duplicate tournament, and the free-play one, each declared once (SPEC §1, §5–§7, §13).

A :class:`Format` carries what differs between the kinds: who is ranked (players or teams, and how many
players a team has), the seats of the movement and the lines of the draw, the starting places' spelling,
whether the ranking is by percentage (weights of SPEC §5) or by points de match (SPEC §6), the taker's
seat, rooms and contracts.  It is looked up once from the tournament's kind (`format_for`); the code that
follows asks the format, never « which kind? » again (ARCHITECTURE habit 11, after Tabbycat's
``get_result_class``).  What a kind *does* is asked of its format's methods, one place each (habit 15): the
taker's seat of an étui (`Format.taker_seat_for`), a round's lines (`Format.round_lines`), the defenders' and
the confirming seats, a result's sides and contract; the subclasses `Individual`, `Triplettes`, `AttackSouth`
(quadrettes and the team match) and `FreePlay` override what differs.  What the operations and the pages
decide from the kind is asked by name too (issue 32): who attacks (`Format.who_attacks`, its readiness step
`Format.attack_step`), a team's badges and first colour, the line that duplicates an étui, the contract an
entry states (`Format.bid_contract`) and whether the attack bids it, whether the movement seats players one by
one (`Format.seats_by_player`), the carré final and the coefficients between positions, a team's line at
registration and the lines it may be, the team match's pages, rooms and étuis per quarter, whether the tables
play étuis (`Format.has_etuis`: not in free play), whether the entrants are teams (`Format.has_teams`), who
may change during the evening, how PM are written.  Adding a format is adding one `Format` (of a subclass, or a new one) to `FORMATS` (and the module of
`core.movements` its ``movement`` names, its templates' wording where they differ).

Rules carried here, with their sources:

* **Weights of the global %** (SPEC §5; seed ``duplicate-tournaments.txt``, « 3ème étape » and « Le
  classement en triplettes »): individual ¼ attack + ¾ defence, triplettes ½ + ½.  Quadrettes and team
  matches rank by PM (SPEC §6) and have no weights.
* **Taker's seat**: the étui's taker seat (individual, triplettes); always South in quadrettes and team
  matches (SPEC §2, §6: « attacker always South »).
* **Team sizes**: triplettes 3, quadrettes 4, a team of a team match 4 to 6 (SPEC §6).
* **Tables** (SPEC §7): individual ⌊players / 4⌋ (the n mod 4 others at the relais); triplettes
  ⌈triplettes / 2⌉ (Mitchell, NS against EW); quadrettes one per quadrette (its defence's home table);
  team match 2 (open and closed rooms).
* **The team-match PM an attack scores** on one étui (SPEC §6): the side whose attacker did better
  scores |PM|, the other 0 (`Format.scored_pm`); in quadrettes the signed PM.

* **Free play** (« donnes libres », SPEC §13, `core.freeplay`): `FREE_FORMATS`, kept apart from `FORMATS`
  because ``KINDS`` (the duplicate kinds) is what the duplicate movements and files accept. Its format
  says ``free_play``: tables of 4 and of 3 from the FFT movement (`core.freeplay.movements`), ⌈players / 4⌉
  tables, ranked by total points (`core.freeplay.ranking`), no étuis, no weights and no PM.
  `TOURNAMENT_KINDS` is every kind a tournament row may have (the database's ``kind`` column).

Standard library only, like the rest of ``core``.
"""

from __future__ import annotations

import re
from collections import namedtuple
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from functools import cached_property

from .cards import default_taker

__all__ = ["Format", "Individual", "Triplettes", "AttackSouth", "FreePlay", "PlayLine", "FORMATS", "FREE_FORMATS",
           "KINDS", "TOURNAMENT_KINDS", "KIND_LABELS", "ENTERING_SEAT", "format_for"]

#: The seat that enters a table's score; another player (a defender) confirms it (rules of play, art. 28).
ENTERING_SEAT = "N"
_SEATS = ("N", "S", "E", "W")
_OTHERS = {seat: tuple(other for other in _SEATS if other != seat) for seat in _SEATS}


#: One line of a fiche the movement gives: étui ``board`` played at a table by the attack ``taker`` against
#: ``defence`` (a list: three players, or one team), the étui's ``taker_seat`` where the étui decides it (None where
#: the format fixes it), a team match's ``room`` and ``quarter``. A named tuple: thousands are built for a
#: hall's phones (issue 30), a frozen dataclass costs three times as much.
PlayLine = namedtuple("PlayLine", "board taker defence taker_seat room quarter", defaults=(None, None, None))

# typing is imported by none of ``rank``'s modules (issue 12: 2–3 ms a process); its names, used in
# annotations only (``from __future__ import annotations``), are imported for the type checkers alone
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeVar

    _Number = TypeVar("_Number", int, float, Decimal, Fraction)


@dataclass(frozen=True)
class Format:
    """One kind of duplicate tournament and everything that depends on it."""

    id: str                           # the kind as files, rows and URLs spell it
    label: str                        # French name, as screens and printouts show it
    seats: tuple[str, ...]            # a round's seat keys in the movement, in print order; the fiche's columns
    lines: tuple[str, ...]            # the draw's lines, in the order places are dealt (table by table)
    line_labels: tuple[str, ...]      # their French names (the placement table's columns)
    entrant_noun: str                 # an entrant, as a column head: « Joueur », « Triplette »…
    numbered: bool                    # places are line + starting table (N1, NS2, Q3); else the line alone (A, B)
    place_pattern: str = field(repr=False)  # a valid starting place, a regular expression (groups ``line``, ``table``)
    place_examples: str = ""          # French examples of places, as a person types them
    team_size: tuple[int, int] | None = None          # (fewest, most) players per team; None: players ranked
    entrants_needed: tuple[int, int | None] = (2, None)  # (fewest, most) entrants for a draw
    weights: tuple[Fraction, Fraction] | None = None  # (attack, defence) of the global %; None: ranked by PM
    taker_seat: str | None = None     # fixed taker seat; None: the étui's taker seat
    rooms: bool = False               # tables are the open and closed rooms (team match)
    free_contracts: bool = False      # Garde Sans and Garde Contre may be bid (team match)
    badges: bool = False              # attack badges Bleu, Blanc, Rouge rotate in the team (triplettes)
    line_duplicates: bool = False     # the line of a table duplicates the étuis: NS odd, EW even (triplettes)
    chosen_attacker: bool = False     # the attacking team's attacker is named at entry (quadrettes)
    quarters: bool = False            # positions are the match's quarters (team match)
    pm_to_winner: bool = False        # on an étui only the better attack scores, |PM| (team match)
    free_play: bool = False           # donnes libres (SPEC §13): feuilles de marque, total points, no étuis
    movement: str | None = None       # its movement generator: a module of `core.movements` with ``generate(tables,
                                      # positions, boards_per_position)`` and ``reach(tables)``; None: free play
    _tables: Callable[[int], int] = field(default=lambda entrants: entrants, repr=False, compare=False)

    @cached_property
    def entrant_pattern(self) -> re.Pattern:
        """`place_pattern` compiled, on first use: the seven kinds' patterns cost ``rank``, which never reads
        a place, 2.7 M instructions a process (about 1 ms) to compile at import (issue 12)."""
        return re.compile(self.place_pattern)

    # --- who is ranked ----------------------------------------------------------------------------------

    @property
    def ranks_players(self) -> bool:
        """Whether the entrants are players (the individual); else teams."""
        return self.team_size is None

    @property
    def entrants_key(self) -> str:
        """The section of the tournament file that holds the entrants: ``players`` or ``teams``."""
        return "players" if self.ranks_players else "teams"

    @property
    def entrant_word(self) -> str:
        """An entrant as a column head shared by every team kind: « Joueur » (players ranked) or « Équipe »
        (`entrant_noun` names the team kind's own: « Triplette », « Quadrette »)."""
        return "Joueur" if self.ranks_players else "Équipe"

    @property
    def entrants_noun(self) -> str:
        """« joueurs » or « équipes », in a sentence."""
        return "joueurs" if self.ranks_players else "équipes"

    @property
    def players_needed(self) -> int:
        """The fewest registered players for a draw: the fewest entrants, times the fewest per team."""
        return self.entrants_needed[0] * (self.team_size[0] if self.team_size else 1)

    @property
    def free_individual(self) -> bool:
        """Donnes libres ranked player by player (``free``, SPEC §13): the kind with a carré final and a
        prize list."""
        return self.free_play and self.ranks_players

    @property
    def split_roles(self) -> bool:
        """Whether a team's attacker and its defence are different people who sit at different tables
        (quadrettes, team match): the unit of a play is the team's role, not the team."""
        return self.taker_seat is not None

    # --- the ranking --------------------------------------------------------------------------------------

    @property
    def uses_pm(self) -> bool:
        """Ranked by points de match (SPEC §6) rather than by global % (SPEC §5)."""
        return self.weights is None and not self.free_play

    @property
    def weights_text(self) -> str:
        """The global % rule as the printouts state it: « Global = ¼ attaque + ¾ défense »."""
        if self.weights is None:
            return ""
        attack, defence = (_FRACTION_TEXT.get(w, str(w)) for w in self.weights)
        return f"Global = {attack} attaque + {defence} défense"

    def scored_pm(self, pm: _Number | None) -> _Number | None:
        """The PM an attack scores on one étui from the signed PM of its comparison (SPEC §6): in a team
        match only the side whose attacker did better scores (|PM|, the other 0); in quadrettes the PM."""
        if pm is None or not self.pm_to_winner:
            return pm
        return pm if pm > 0 else type(pm)(0)

    @property
    def signs_pm(self) -> bool:
        """Whether PM are written with their sign: a quadrette's (« +12,838 », « −3,162 »); a team match's
        side scores 0 or |PM| an étui (SPEC §6, `scored_pm`), so its PM and totals are written unsigned."""
        return not self.pm_to_winner

    # --- behaviour: what a kind does, asked of its format (ARCHITECTURE habit 15) ---------------------------
    # The base class plays the individual's way; `Individual`, `Triplettes`, `AttackSouth` and `FreePlay`
    # override what differs. Code outside ``core`` calls these instead of branching on the flags.

    def taker_seat_for(self, number: int, takers: Mapping[int, str] | None = None) -> str:
        """The seat the taker of étui ``number`` sits at: the étui's taker seat (``takers``), else the default
        rotation (`cards.default_taker`)."""
        return (takers or {}).get(number, default_taker(number))

    def defender_seats(self, taker_seat: str) -> tuple[str, ...]:
        """The defenders' seats when the taker sits at ``taker_seat``: the three others."""
        return _OTHERS.get(taker_seat) or _SEATS

    def confirming_seats(self, taker_seat: str) -> tuple[str, ...]:
        """The seats that may confirm a line: a defender's, not the entering North's (rules of play, art. 28:
        the North keeps the score, a second person checks it)."""
        return tuple(seat for seat in self.defender_seats(taker_seat) if seat != ENTERING_SEAT)

    def round_lines(self, seats: Mapping[str, str], boards: Iterable[int], takers: Mapping[int, str],
                    *, room: str | None = None, position: int | None = None) -> list[PlayLine]:
        """The lines one round of the movement gives at a table (``seats``: seat key → entrant): one per
        étui, the taker at its taker seat and the three others in defence; none at a table with a bye seat."""
        if any(seat not in seats for seat in _SEATS):
            return []  # a bye seat: that table does not play this position
        seat_of = self.taker_seat_for
        lines = []
        for number in boards:
            seat = seat_of(number, takers)
            lines.append(PlayLine(number, seats[seat], [seats[s] for s in _OTHERS[seat]], seat))
        return lines

    def defender_at(self, seats: Mapping[str, str], defence: Sequence[str], seat: str) -> str:
        """The entrant defending at ``seat`` (a defender's seat, `defender_seats`) of a line whose round seats
        ``seats`` and whose defence is ``defence``: the player sitting there."""
        return seats[seat]

    def result_sides(self, taker: str, defence: Sequence[str]) -> dict:
        """A result's sides as stored: ``taker`` and ``defenders`` (players) or ``taker_team`` and
        ``defence_team`` (teams)."""
        if self.ranks_players:
            return {"taker": taker, "defenders": list(defence)}
        return {"taker_team": taker, "defence_team": defence[0]}

    def result_attack(self, taker: str | None, defenders: Sequence[str] | None, taker_team: str | None,
                      defence_team: str | None) -> tuple[str | None, Sequence[str] | None]:
        """A stored result's attack and defence as the ranking reads them (`result_sides` the other way):
        the taker and the defenders (players), else the two teams."""
        if self.ranks_players:
            return taker, defenders
        return taker_team, [defence_team]

    def contract_of(self, value: str | None) -> str:
        """The contract a line is played in: the imposed Garde, whatever was typed (SPEC §2)."""
        return "garde"

    def attacker_of(self, value: str | None) -> str | None:
        """The attacker named at entry: none, the attack is the taker."""
        return None

    # --- decisions the operations and the pages ask (issue 32: « the format decides ») ---------------------

    @property
    def seats_by_player(self) -> bool:
        """Whether the movement seats players one by one, the n mod 4 others at the relais (SPEC §7,
        `core.movements.relais`): it is generated for a count of players, its places are checked one by one
        (each entered result re-found line by line, each registered place seated or resting) and the
        placement shows the relais. The team movements are generated for a count of tables (choice: their
        lines are not re-checked, a phantom team's byes not counted)."""
        return self.ranks_players

    @property
    def has_final_square(self) -> bool:
        """Whether the arbiter may seat a carré final, the best players' one more position (SPEC §13, booklet
        « carré final »): in the free individual only, the team kinds keep their teams to the end."""
        return self.free_individual

    @property
    def has_position_coefficients(self) -> bool:
        """Whether the arbiter may weight the positions from one on by a coefficient, players eliminated
        before it (championship rules, art. 3; `core.freeplay.coefficients`): in the free individual only."""
        return self.free_individual

    @property
    def registers_team_line(self) -> bool:
        """Whether a team's line (NS or EW) is typed when the team is formed: in triplettes (SPEC §5, Mitchell);
        not where the attack and the defence sit apart (quadrettes, team match: the place is Q1, A or B) nor
        where the movement seats the teams (free play, SPEC §13)."""
        return not (self.split_roles or self.free_play)

    @property
    def has_etuis(self) -> bool:
        """Whether the tables play étuis dealt in advance and duplicated (SPEC §1–§7): fiches ambulantes, the
        hall clock's positions, a table's étui page, the duplicate's readiness, printouts and operations.
        Donnes libres have none (`FreePlay`, SPEC §13): feuilles de marque and free play's own pages."""
        return True

    @property
    def has_teams(self) -> bool:
        """Whether the registered players are formed into teams and the teams are the entrants — drawn,
        seated, named and ranked, a member's private link leading to his team's pages, the files carrying a
        ``teams`` section (SPEC §5–§6; libre duo and libre par 4, SPEC §13); else each player is an entrant
        (the individual, free play's individual), with his club beside his name (SPEC §9)."""
        return not self.ranks_players

    @property
    def changes_players_alone(self) -> bool:
        """Whether a player alone joins, arrives late or is replaced during the evening — joueurs de
        complément, late arrival, replacement (SPEC §11): where each player is an entrant; a team's member
        is not."""
        return self.ranks_players

    @property
    def withdraws_players(self) -> bool:
        """Whether a player may withdraw during play, then ranked last (rules of play, art. 27): where each
        player is an entrant, and in free play's team kinds, which rank players too (`FreePlay`)."""
        return self.ranks_players

    @property
    def entrant_lines(self) -> tuple[str, ...] | None:
        """The lines an entrant's own line must be one of (the triplettes' NS or EW, SPEC §5); None where the
        attack and the defence sit apart (`AttackSouth`: the place alone, Q1, A or B, says where it plays)."""
        return self.lines

    @property
    def who_attacks(self) -> str | None:
        """How the player who attacks for a team is known (SPEC §5–§6): ``colours``, the triplettes' badge
        rotation from the first colour drawn for each team (seed « Règles spécifiques aux tournois
        triplettes »); ``quarters``, a team match's attacker chosen for each quarter before play (SPEC §7);
        ``named``, the quadrettes' attacker named at entry among the quadrette; None where the taker is a
        player, at the étui's taker seat."""
        if self.badges:
            return "colours"
        if self.quarters:
            return "quarters"
        return "named" if self.chosen_attacker else None

    @property
    def attack_step(self) -> str | None:
        """The readiness step that settles who attacks (a key of ``operations.STEP_LABELS``): ``attackers``,
        a team match's attacker in each quarter (SPEC §7); ``first_colour``, the triplettes' first attacking colour
        (SPEC §5, seed « Règles spécifiques aux tournois triplettes »); None where the taker is the étui's."""
        return {"quarters": "attackers", "colours": "first_colour"}.get(self.who_attacks)

    @property
    def chooses_quarter_boards(self) -> bool:
        """Whether the arbiter chooses, with the movement, how many étuis a quarter plays: a team match plays
        16 to 24 donnes in 4 quarters, 4, 5 or 6 étuis a quarter (seed ``duplicate-tournaments.txt``,
        « DUPLICATE PAR ÉQUIPES », « Présentation »; issue 29 point 10); the other formats deal their
        movement generator's default."""
        return self.quarters

    @property
    def has_team_match_pages(self) -> bool:
        """Whether the tournament has a team match's own pages — its quarters' attackers, rooms and bonus
        (SPEC §7), its feuille de marque: the team match, not free play."""
        return self.quarters and not self.free_play

    @property
    def attack_bids(self) -> bool:
        """Whether the attack bids its contract, Garde, Garde Sans or Garde Contre, which the fiche and the
        pages then show (team match, SPEC §6); else the Garde is imposed (SPEC §2)."""
        return self.free_contracts

    def bid_contract(self, value: str | None) -> str | None:
        """The contract an entry states: what was typed (or bid) where the attack bids Garde, Garde Sans or
        Garde Contre (team match, SPEC §6); None where the Garde is imposed (SPEC §2), whatever was typed."""
        return value if self.attack_bids else None

    def team_badges(self, members: Iterable[tuple[str, str]]) -> dict[str, str]:
        """Player id → attack badge of a team's ``members`` (id, « NOM Prénom »): none, badges are the
        triplettes' (`Triplettes.team_badges`)."""
        return {}

    def first_colour(self, seed: str) -> str | None:
        """A team's first attacking colour, drawn from ``seed``: none, colours are the triplettes'
        (`Triplettes.first_colour`)."""
        return None

    def duplicating_line(self, board: int) -> str | None:
        """The line of a table that duplicates étui ``board`` at the first position, as the printouts say it:
        none, the table's players duplicate together; the triplettes' line (`Triplettes.duplicating_line`)."""
        return None

    # --- places and tables ----------------------------------------------------------------------------

    @staticmethod
    def line_of(place: str) -> str:
        """The line a starting place belongs to: the place without its table (« NS2 » → « NS », « A » → « A »)."""
        return place.rstrip("0123456789")

    def drawn_place(self, index: int) -> str:
        """The starting place of the ``index``-th entrant drawn (0-based), tables filled one by one:
        N1, S1, E1, W1, N2… / NS1, EW1, NS2… / Q1, Q2… / A, B."""
        line = self.lines[index % len(self.lines)]
        return f"{line}{index // len(self.lines) + 1}" if self.numbered else line

    def table_count(self, entrants: int) -> int:
        """The movement's tables for ``entrants`` placed entrants (see the module docstring)."""
        return self._tables(entrants)

    @property
    def tables_are_rooms(self) -> bool:
        """Whether the tables are the match's open and closed rooms — named « salle ouverte », « salle
        fermée », not numbered, a result found by its room, a room's fiche per quarter (team match, SPEC §7)."""
        return self.rooms

    @property
    def table_noun(self) -> str:
        """« Table », or « Salle » where tables are the open and closed rooms."""
        return "Salle" if self.tables_are_rooms else "Table"

    @property
    def position_noun(self) -> str:
        """« Position », or « Quart temps » where the positions are a team match's quarters."""
        return "Quart temps" if self.quarters else "Position"

    @property
    def position_feminine(self) -> bool:
        """Whether `position_noun` is feminine, for its ordinal: « 1re position », but « 1er quart temps »."""
        return not self.quarters

    @property
    def taker_noun(self) -> str:
        """The attack's column head: « Preneur » (one player) or « Attaque » (a team)."""
        return "Preneur" if self.ranks_players else "Attaque"

    @property
    def defence_noun(self) -> str:
        """The defence's column head: « Défenseurs » (three players) or « Défense » (a team)."""
        return "Défenseurs" if self.ranks_players else "Défense"


class Individual(Format):
    """The individual (SPEC §5): players ranked, the étui's taker seat, four seats a table."""


class Triplettes(Format):
    """Triplettes (SPEC §5, Mitchell): the line (NS or EW) holding the étui's taker seat attacks, the other
    line defends."""

    def defender_seats(self, taker_seat: str) -> tuple[str, ...]:
        """The line not holding the taker seat (not the taker's partner)."""
        return tuple(next(line for line in self.seats if taker_seat not in line))

    def defender_at(self, seats, defence, seat):
        """The defending triplette, whoever of it sits at ``seat``."""
        return defence[0]

    def team_badges(self, members):
        """Bleu, Blanc, Rouge by surname (seed, « Règles spécifiques aux tournois triplettes »:
        `core.triplettes.member_badges`)."""
        from .triplettes import member_badges  # only where badges are given: ``rank`` gives none (issue 12)

        return member_badges(members)

    def first_colour(self, seed):
        """The arbiter's draw of the colour that attacks first (`core.triplettes.draw_first_colour`)."""
        from .triplettes import draw_first_colour

        return draw_first_colour(seed)

    def duplicating_line(self, board):
        """NS for the odd étuis, EW for the even (seed, « Règles spécifiques aux tournois triplettes » :
        `core.triplettes.duplication_duty`)."""
        from .triplettes import duplication_duty

        return duplication_duty(board)

    def round_lines(self, seats, boards, takers, *, room=None, position=None):
        lines = []
        for number in boards:
            seat = self.taker_seat_for(number, takers)
            attack = "NS" if seat in ("N", "S") else "EW"
            defence = "EW" if attack == "NS" else "NS"
            if attack in seats and defence in seats:
                lines.append(PlayLine(number, seats[attack], [seats[defence]], seat))
        return lines


class AttackSouth(Format):
    """Quadrettes and the team match (SPEC §6): the attack always sits South, whatever the étui says; a
    round seats a team's ``attack`` against another's ``defence``. A team match's tables are its open and
    closed rooms, its positions the quarters, and its attack bids Garde, Garde Sans or Garde Contre;
    quadrettes name their attacker at entry."""

    def taker_seat_for(self, number, takers=None):
        return self.taker_seat

    def defender_at(self, seats, defence, seat):
        """The defending team, whoever of it sits at ``seat``."""
        return defence[0]

    def round_lines(self, seats, boards, takers, *, room=None, position=None):
        if "attack" not in seats or "defence" not in seats:
            return []
        room = room if self.rooms else None
        quarter = position if room is not None else None
        return [PlayLine(number, seats["attack"], [seats["defence"]], None, room, quarter) for number in boards]

    @property
    def entrant_lines(self):
        return None

    def contract_of(self, value):
        if not self.attack_bids:
            return "garde"
        from .scoring import Contract  # only where a contract is free: ``rank`` reads no contract (issue 12)

        return Contract.parse(value or "garde").value

    def attacker_of(self, value):
        return (value or "").strip() or None if self.chosen_attacker else None


@dataclass(frozen=True)
class FreePlay(Format):
    """Donnes libres (SPEC §13): feuilles de marque, no étuis — so no line of a fiche ambulante."""

    pcn_minimum: int = 0              # the fewest entrants of a tournament homologué, that awards PCN (p. 44)

    def round_lines(self, seats, boards, takers, *, room=None, position=None):
        return []

    @property
    def has_etuis(self):
        return False

    @property
    def withdraws_players(self):
        """In its team kinds too: free play ranks players there as well (art. 27)."""
        return True

    def pcn_parameters(self) -> tuple[int, int, int]:
        """The PCN attribution's parameters (`core.freeplay.pcn`, booklet p. 44): the fewest entrants, the
        power of the abattement from one place to the next (c, c² for duos, c⁴ for teams of 4) and the
        players of an entrant — the power is the players of an entrant."""
        players = self.team_size[0] if self.team_size else 1
        return self.pcn_minimum, players, players


_FRACTION_TEXT = {Fraction(1, 4): "¼", Fraction(3, 4): "¾", Fraction(1, 2): "½"}

FORMATS: tuple[Format, ...] = (
    Individual("individual", "Individuel", seats=("N", "S", "E", "W"), lines=("N", "S", "E", "W"),
           line_labels=("Nord", "Sud", "Est", "Ouest"), entrant_noun="Joueur", numbered=True,
           place_pattern=r"^(?P<line>[NSEW])(?P<table>[1-9][0-9]*)$",
           place_examples="N1, S1, E1, O1", entrants_needed=(4, None),
           weights=(Fraction(1, 4), Fraction(3, 4)), movement="individual",
           _tables=lambda players: players // 4),
    Triplettes("triplettes", "Triplettes", seats=("NS", "EW"), lines=("NS", "EW"), line_labels=("Nord-Sud", "Est-Ouest"),
           entrant_noun="Triplette", numbered=True,
           place_pattern=r"^(?P<line>NS|EW)(?P<table>[1-9][0-9]*)$",
           place_examples="NS1, EO1", team_size=(3, 3), weights=(Fraction(1, 2), Fraction(1, 2)), badges=True,
           line_duplicates=True, movement="triplettes",
           _tables=lambda teams: -(-teams // 2)),
    AttackSouth("quadrettes", "Quadrettes", seats=("attack", "defence"), lines=("Q",), line_labels=("Quadrette",),
           entrant_noun="Quadrette", numbered=True,
           place_pattern=r"^Q(?P<table>[1-9][0-9]*)$",
           place_examples="Q1", team_size=(4, 4), taker_seat="S", chosen_attacker=True,
           movement="quadrettes"),
    AttackSouth("team_match", "Match par équipes", seats=("attack", "defence"), lines=("A", "B"),
           line_labels=("Équipe A", "Équipe B"), entrant_noun="Équipe", numbered=False,
           place_pattern=r"^[AB]$", place_examples="A, B", team_size=(4, 6),
           entrants_needed=(2, 2), taker_seat="S", rooms=True, free_contracts=True, quarters=True,
           pm_to_winner=True, movement="team_match", _tables=lambda teams: 2),
)

#: Free play (SPEC §13): the individual (``free``) and the team kinds (``free_duo``: libre duo, teams of 2;
#: ``free_team4``: libre par 4) of `core.freeplay.tournament.FREE_KINDS`. A team kind places both its players
#: (their movement ids, ``N1``…, the seat of the position they skip, booklet p. 21) and its teams (``NS1``/
#: ``EW1`` for duos, ``T1`` for teams of 4, as `core.freeplay.movements.team_movement` names them): the
#: pattern accepts both. Tables: a duo is half a table, a team of 4 a whole one; 4 tables at least (the core
#: refuses the 3-table Howell for teams), full tables only.
FREE_FORMATS: tuple[Format, ...] = (
    FreePlay("free", "Donnes libres (individuel)", seats=("N", "S", "E", "W"), lines=("N", "S", "E", "W"),
           line_labels=("Nord", "Sud", "Est", "Ouest"), entrant_noun="Joueur", numbered=True,
           place_pattern=r"^(?P<line>[NSEWJ])(?P<table>[1-9][0-9]*)$",
           place_examples="N1, S1, E1, O1", entrants_needed=(12, None), free_play=True,
           _tables=lambda players: -(-players // 4), pcn_minimum=11),
    FreePlay("free_duo", "Donnes libres par équipes de 2 (libre duo)", seats=("N", "S", "E", "W"), lines=("NS", "EW"),
           line_labels=("Nord-Sud", "Est-Ouest"), entrant_noun="Équipe", numbered=True,
           place_pattern=r"^(?P<line>NS|EW|[NSEWJ])(?P<table>[1-9][0-9]*)$",
           place_examples="NS1, EO1", team_size=(2, 2), entrants_needed=(8, None), free_play=True,
           _tables=lambda teams: -(-teams // 2), pcn_minimum=6),
    FreePlay("free_team4", "Donnes libres par équipes de 4 (libre par 4)", seats=("N", "S", "E", "W"), lines=("T",),
           line_labels=("Équipe",), entrant_noun="Équipe", numbered=True,
           place_pattern=r"^(?P<line>[NSEWJT])(?P<table>[1-9][0-9]*)$",
           place_examples="T1", team_size=(4, 4), entrants_needed=(4, None), free_play=True,
           _tables=lambda teams: teams, pcn_minimum=5),
)

#: Every duplicate kind, in the order forms and messages list them.
KINDS: tuple[str, ...] = tuple(f.id for f in FORMATS)
#: Every kind a tournament may have: the duplicate ones, then free play.
TOURNAMENT_KINDS: tuple[str, ...] = KINDS + tuple(f.id for f in FREE_FORMATS)
#: French names of the kinds (for choice lists).
KIND_LABELS: dict[str, str] = {f.id: f.label for f in (*FORMATS, *FREE_FORMATS)}
_BY_ID = {f.id: f for f in (*FORMATS, *FREE_FORMATS)}


def format_for(kind) -> Format:
    """The `Format` of ``kind`` (its id, or a str enum of it such as the rows' ``TournamentKind``);
    ``ValueError`` with a French message for an unknown kind."""
    key = getattr(kind, "value", kind)
    try:
        return _BY_ID[key]
    except (KeyError, TypeError):
        raise ValueError(f"type de tournoi inconnu « {kind} » (attendu : {', '.join(TOURNAMENT_KINDS)})") from None
