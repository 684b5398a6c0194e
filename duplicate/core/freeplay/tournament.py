"""A free-play tournament file (SPEC §13 interchange) → the deals' marks and the ranking (``rank``).

The file is the SPEC §9 tournament with ``"kind": "free" | "free_duo" | "free_team4"``; a result is one
deal at one table (SPEC §13): ``{"table": 2, "position": 1, "deal": 3, "taker": "N2", "partner": null,
"contract": "garde", "points": 49, "bouts": 2, "poignees": [], "petit_au_bout": null, "chelem": null}`` or
``{"table": 2, "position": 1, "deal": 4, "passed": true}``.

Our choices where SPEC §13 is silent (docs/free-play.md):

* **Who is at the table**: the result's ``"players"`` (a list of ids) when it has one, else the seats of
  the ``movement``'s round at that position and table (an empty seat, ``null``, is a table of 3; a fifth
  seat makes a table of 5). Without either the result is refused.
* **A table of 5** (`scoring`): ``"dead": id`` names the player who deals and sits out (a deal at 4, he
  marks 0); without it the five play the called-king game, ``"partner"`` being the called player
  (``null`` or the taker himself: the taker is alone against four).
* **Points** are whole at 4 players, by halves at 3 and 5 (``40.5``).
* **Penalties**: ``{"player": id, "points": 100, "reason": "…"}`` (points off the total),
  ``{"player": id, "late_minutes": 7}`` (art. 26: 100 points per started 5 minutes) or ``{"player": id,
  "fault": "telephone_sonne"}`` (the arbitration code's catalogue, `penalties`); a player's
  ``"withdrawn": {"position": k}`` ranks him last (art. 27), as in the duplicate file.
* **Teams** (``free_duo``, ``free_team4``): ``"teams": [{"id": "T1", "name": "…", "members": [ids]}]``;
  the ``ranking`` is the teams' (sum of the members), ``"players"`` the individual one; a player who plays
  a deal while in no team is refused (booklet « Tournoi en donnes libres par équipes »: « Les joueurs d'une
  équipe cumulent leurs points acquis individuellement »: a team tournament's marks are all a team's).
  Libre par 4 in « 4 tournois en parallèle » (the movement's ``"parallel": {"tables": t}``,
  `movements.parallel_movement`) adds ``"tournaments"``: each tournament's (A, B, C, D) own individual ranking.

Coefficients (`coefficients`, regional championship art. 3): ``"coefficients": [{"position": 6,
"coefficient": "1,15", "eliminated": 6}]`` (individual only): from position 6 the qualified players'
bilans × 1,15, the 6 eliminated ranked after them; totals then exact, as full-precision floats in the
output when not whole.

PCN (chapter 5): ``"pcn": true`` or ``{"championship": "regional_final", "tables": 12}`` adds ``"pcn"``
and ``"pp"`` to each ranking row (`_add_pcn`).

Ties and « homologation » (SPEC §13, issue 29 point 7): ``"championship": true`` (top level) marks a
championship, whose ties art. 29 breaks (« Règles générales applicables aux Championnats Libre »); in any
other tournament the tied share the place (`ranking.rank_entries`) and the PCN of the places they cover
(`pcn.share_ties`: booklet ch. 5 « Ex-aequo »). The PCN level (``"pcn": {"championship": …}``) is the
indice and the cap, not the tie rule. An event with a table of 5 players « n'est pas homologable »
(booklet ch. 2, « Le jeu à 5 joueurs »: « Les tournois à 5 joueurs ne sont pas homologables »): the output
says why in ``"not_homologable"`` (French), and with ``"pcn"`` asked it gets ``"pcn_refused"`` (the same
reason) and no PCN.

Output: the input's results, each with ``"scores"`` ({player: mark}, summing to zero), and ``"ranking"``:
``[{"id", "total", "points", "penalty", "best_position", "contracts_made", "rank"}]`` best first
(``"withdrawn": true`` on a withdrawn row).
"""

from __future__ import annotations

from fractions import Fraction

from duplicate.core.formats import FREE_FORMATS
from duplicate.core.scoring import ScoreError

from .coefficients import CoefficientError, Stage, apply_stages, parse_coefficient

from .movements import PARALLEL_LETTERS, MovementError, parallel_letter, rounds_from_dict
from .pcn import PcnError, attribution, share_ties
from .penalties import sanction
from .ranking import ScoredDeal, entries, lateness_penalty, rank_entries, team_entries
from .scoring import DealFacts, deal_score, share

__all__ = ["FREE_KINDS", "FreePlayError", "rank_free", "federation_csv", "sheet_marks"]

#: The free kinds and the players of a team of the team kinds, as their formats declare them (`core.formats`).
FREE_KINDS = tuple(f.id for f in FREE_FORMATS)
_TEAM_SIZES = {f.id: f.team_size[0] for f in FREE_FORMATS if f.team_size}


class FreePlayError(ValueError):
    """A free-play file that cannot be ranked; the message is French and names the faulty item."""


def _ids(items, what: str) -> dict[str, dict]:
    if not isinstance(items, list):
        raise FreePlayError(f"« {what} » : liste attendue")
    found = {}
    for index, item in enumerate(items, start=1):
        ident = item.get("id") if isinstance(item, dict) else None
        if not isinstance(ident, str) or not ident:
            raise FreePlayError(f"{what} n° {index} : « id » (texte) attendu")
        if ident in found:
            raise FreePlayError(f"{what} n° {index} : identifiant « {ident} » en double")
        found[ident] = item
    return found


def _table_players(result: dict, seatings: dict) -> list[str]:
    listed = result.get("players")
    if listed is not None:
        if not isinstance(listed, list) or not all(isinstance(p, str) for p in listed):
            raise ScoreError("« players » : liste d’identifiants attendue")
        return listed
    key = (result.get("position"), result.get("table"))
    if key not in seatings:
        raise ScoreError("ni « players » ni mouvement pour dire qui joue à cette table")
    return seatings[key]


def _score(result: dict, seatings: dict, known: dict) -> tuple[dict[str, int], ScoredDeal]:
    position = result["position"]
    people = _table_players(result, seatings)
    for player in people:
        if player not in known:
            raise ScoreError(f"joueur inconnu « {player} »")
    if len(set(people)) != len(people) or not 3 <= len(people) <= 5:
        raise ScoreError(f"table de {len(people)} joueurs : 3, 4 ou 5 joueurs distincts attendus")
    if result.get("passed") is True:
        return dict.fromkeys(people, 0), ScoredDeal(position, dict.fromkeys(people, 0))
    taker, partner, dead = result.get("taker"), result.get("partner"), result.get("dead")
    for role, who in (("preneur", taker), ("partenaire", partner), ("mort", dead)):
        if who is not None and not isinstance(who, str):
            raise ScoreError(f"{role} : identifiant (texte) attendu")
        if who is not None and who not in people:
            raise ScoreError(f"{role} « {who} » absent de la table ({', '.join(people)})")
    if taker is None:
        raise ScoreError("« taker » manquant (ou « passed »: true si tous ont passé)")
    playing = len(people) - (dead is not None)
    if partner is not None and partner != taker and playing != 5:
        raise ScoreError("un partenaire appelé seulement quand cinq joueurs jouent")
    poignees = result.get("poignees") or []
    if not isinstance(poignees, list):
        raise ScoreError("« poignees » : liste attendue (simple, double, triple)")
    facts = DealFacts.of(result.get("contract"), result.get("points"), result.get("bouts"),
                         poignees, result.get("petit_au_bout"), result.get("chelem"))
    score = deal_score(facts, playing)
    attack = {taker} | ({partner} if partner else set())
    defenders = [p for p in people if p not in attack and p != dead]
    marks = share(score, taker, defenders, partner, dead)
    return marks, ScoredDeal(position, marks, taker, facts.contract, facts.made)


def sheet_marks(people: list[str], deals: list[dict]) -> list[dict[str, int]]:
    """Each deal's marks on one feuille de marque (one table at one position): ``people`` the players at
    the table (3, 4 or 5), ``deals`` the SPEC §13 results without table and position. The checks and the
    marks are those of `rank_free` (the same function scores both); a deal that cannot be scored raises
    `ScoreError`, its message prefixed with « donne n » (its place in the list)."""
    known = dict.fromkeys(people)
    marks = []
    for number, deal in enumerate(deals, start=1):
        try:
            marks.append(_score({**deal, "players": list(people), "position": 1}, {}, known)[0])
        except ScoreError as error:
            raise ScoreError(f"donne {number} : {error}") from None
    return marks


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _penalties(items, players: dict) -> dict[str, int]:
    """Points off each player's total: ``points``, ``late_minutes`` (art. 26) or a ``fault`` of the
    arbitration code (`penalties.CATALOGUE`: a warning the first time where the code says so, counted in
    the order of the list)."""
    if items is not None and not isinstance(items, list):
        raise FreePlayError("« penalties » : liste attendue")
    points: dict[str, int] = {}
    earlier: dict[tuple[str, str], int] = {}
    for index, item in enumerate(items or [], start=1):
        who = item.get("player") if isinstance(item, dict) else None
        if not isinstance(who, str) or who not in players:
            raise FreePlayError(f"pénalité n° {index} : joueur inconnu « {who} »")
        minutes, amount, fault = item.get("late_minutes"), item.get("points"), item.get("fault")
        if (minutes is not None and not _whole(minutes)) or (amount is not None and not _whole(amount)):
            raise FreePlayError(f"pénalité n° {index} : « points » et « late_minutes » sont des entiers")
        if fault is not None:
            code = str(fault)
            try:
                result = sanction(code, earlier.get((who, code), 0), amount, minutes)
            except ValueError as error:
                raise FreePlayError(f"pénalité n° {index} : {error}") from None
            earlier[who, code] = earlier.get((who, code), 0) + 1
            amount = result.points
        elif minutes is not None:
            if not isinstance(minutes, int) or isinstance(minutes, bool) or minutes < 0:
                raise FreePlayError(f"pénalité n° {index} : « late_minutes » (minutes, entier ≥ 0) attendu")
            amount = lateness_penalty(minutes)
        elif not isinstance(amount, int) or isinstance(amount, bool):
            raise FreePlayError(f"pénalité n° {index} : « points » (entier) ou « late_minutes » attendu")
        points[who] = points.get(who, 0) + amount
    return points


def _number(value):
    """An exact value for JSON: an int when whole, else a full-precision float (a coefficient's total)."""
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else float(value)
    return value


def _stages(items) -> list[Stage]:
    """The file's ``"coefficients"``: ``[{"position": 6, "coefficient": "1,15", "eliminated": 6}]``."""
    if not isinstance(items, list):
        raise FreePlayError("« coefficients » : liste attendue")
    stages = []
    for index, item in enumerate(items, start=1):
        where = f"coefficient n° {index}"
        if not isinstance(item, dict) or not _whole(item.get("position")) or not _whole(item.get("eliminated")):
            raise FreePlayError(f"{where} : « position » et « eliminated » (entiers) attendus")
        try:
            stages.append(Stage(item["position"], parse_coefficient(item.get("coefficient")), item["eliminated"]))
        except CoefficientError as error:
            raise FreePlayError(f"{where} : {error}") from None
    return stages


def _row(entry) -> dict:
    row = {"id": entry.id, "total": _number(entry.total), "points": _number(entry.points), "penalty": entry.penalty,
           "best_position": _number(entry.best_position), "contracts_made": entry.made, "rank": entry.rank}
    if entry.withdrawn:
        row["withdrawn"] = True
    if entry.eliminated_at is not None:
        row["eliminated_before"] = entry.eliminated_at
    return row


def rank_free(data: dict) -> dict:
    """Score every deal and rank (module docstring); `FreePlayError` names the faulty item."""
    kind = data.get("kind")
    if kind not in FREE_KINDS:
        raise FreePlayError(f"type « {kind} » : free, free_duo ou free_team4 attendu")
    players = _ids(data.get("players"), "joueur")
    seatings: dict[tuple[int, int], list[str]] = {}
    if data.get("movement") is not None:
        try:
            rounds = rounds_from_dict(data["movement"])
        except MovementError as error:
            raise FreePlayError(str(error)) from None
        seatings = {(r.position, r.table): r.players() for r in rounds}
    results = data.get("results")
    if not isinstance(results, list):
        raise FreePlayError("« results » : liste attendue")
    championship = data.get("championship", False)
    if not isinstance(championship, bool):
        raise FreePlayError("« championship » : true ou false attendu")
    scored, output = [], []
    table_of_five: tuple[int, int] | None = None  # (table, position) of the first table of 5
    seen_deals: set = set()
    seated: dict[tuple[int, str], int] = {}
    for index, result in enumerate(results, start=1):
        if not isinstance(result, dict):
            raise FreePlayError(f"résultat n° {index} : objet attendu")
        key = (result.get("position"), result.get("table"), result.get("deal"))
        if not all(_whole(v) and v >= 1 for v in key):
            raise FreePlayError(f"résultat n° {index} : « position », « table » et « deal » : entiers positifs attendus")
        where = f"résultat n° {index} (table {key[1]}, position {key[0]}, donne {key[2]})"
        if key in seen_deals:
            raise FreePlayError(f"{where} : cette donne figure deux fois")
        seen_deals.add(key)
        try:
            marks, deal = _score(result, seatings, players)
        except ScoreError as error:
            raise FreePlayError(f"{where} : {error}") from None
        for player in marks:
            other = seated.setdefault((deal.position, player), result["table"])
            if other != result["table"]:
                raise FreePlayError(f"{where} : {player} joue aussi à la table {other} à cette position")
        if table_of_five is None and len(marks) == 5:
            table_of_five = (result["table"], deal.position)
        scored.append(deal)
        output.append({**result, "scores": marks})
    withdrawn = [p for p, item in players.items() if item.get("withdrawn") is not None]
    table = entries(players, scored, _penalties(data.get("penalties"), players), withdrawn)
    answer = {"kind": kind, "results": output}
    if kind in _TEAM_SIZES and data.get("coefficients"):
        raise FreePlayError("« coefficients » : prévus pour le tournoi individuel (championnat, art. 3)")
    if kind in _TEAM_SIZES:
        teams = _ids(data.get("teams"), "équipe")
        members = {}
        for team, item in teams.items():
            listed = item.get("members")
            if (not isinstance(listed, list) or len(listed) != _TEAM_SIZES[kind]
                    or not all(isinstance(m, str) and m in players for m in listed)):
                raise FreePlayError(f"équipe « {team} » : {_TEAM_SIZES[kind]} membres (joueurs connus) attendus")
            taken = next((m for m in listed if any(m in other for other in members.values())), None)
            if taken is not None or len(set(listed)) != len(listed):
                raise FreePlayError(f"équipe « {team} » : {taken or 'un joueur'} figure dans deux équipes ou deux fois")
            members[team] = listed
        teamed = {player for listed in members.values() for player in listed}
        alone = next((player for deal in scored for player in deal.marks if player not in teamed), None)
        if alone is not None and not members:
            raise FreePlayError(f"« teams » : les équipes de {_TEAM_SIZES[kind]} joueurs sont attendues")
        if alone is not None:
            raise FreePlayError(f"joueur {alone} : joue sans être membre d’une équipe (dans un tournoi par "
                                "équipes, chaque joueur marque pour son équipe)")
        answer["ranking"] = [_row(e) for e in rank_entries(team_entries(members, table), championship)]
        answer["players"] = [_row(e) for e in rank_entries(table, championship)]
        parallel = _parallel_tables(data, seatings)
        if parallel:
            answer["tournaments"] = _parallel_rankings(parallel, rounds, table, championship)
    elif data.get("coefficients"):
        try:
            seated: dict[str, set[int]] = {}
            for (position, _), people in seatings.items():
                for player in people:
                    seated.setdefault(player, set()).add(position)
            answer["ranking"] = [_row(e) for e in apply_stages(table, _stages(data["coefficients"]), seated)]
        except CoefficientError as error:
            raise FreePlayError(f"coefficients : {error}") from None
        answer["coefficients"] = data["coefficients"]
    else:
        answer["ranking"] = [_row(e) for e in rank_entries(table, championship)]
    if championship:
        answer["championship"] = True
    if table_of_five is not None:
        answer["not_homologable"] = not_homologable(*table_of_five)
    if data.get("pcn") is not None:
        _add_pcn(kind, data["pcn"], len(players), answer)
    return answer


def not_homologable(table: int, position: int) -> str:
    """Why an event with a table of 5 awards no PCN (booklet ch. 2, « Le jeu à 5 joueurs »)."""
    return (f"une table de 5 joueurs (table {table}, position {position}) : « les tournois à 5 joueurs ne sont "
            "pas homologables » (fascicule FFT, le jeu à 5 joueurs)")


def _parallel_tables(data: dict, seatings: dict) -> int | None:
    """The tables of each of the 4 parallel tournaments (the movement's ``"parallel": {"tables": t}``),
    or None for a movement without « parallel ». Refused in French unless t is whole and 3 at least
    (`movements.parallel_movement`: 3 tables a tournament) and every table of the movement (``seatings``:
    (position, table) → players) is one of the four tournaments' 1…4t."""
    movement = data.get("movement")
    parallel = movement.get("parallel") if isinstance(movement, dict) else None
    if parallel is None:
        return None
    tables = parallel.get("tables") if isinstance(parallel, dict) else None
    if not _whole(tables) or tables < 3:
        raise FreePlayError("mouvement, « parallel » : {\"tables\": t} attendu, t les tables de chaque tournoi "
                            "(3 au moins)")
    beyond = next((table for _, table in sorted(seatings) if table > 4 * tables), None)
    if beyond is not None:
        raise FreePlayError(f"mouvement, « parallel » : la table {beyond} dépasse les {4 * tables} tables des "
                            "4 tournois")
    return tables


def _parallel_rankings(tables: int, rounds, table: dict, championship: bool = False) -> list[dict]:
    """Libre par 4 in 4 parallel tournaments (`movements.parallel_movement`): each tournament's own
    individual ranking, ``[{"tournament": "A", "ranking": [rows]}, …]``; a player belongs to the tournament
    of his table at the first position."""
    letter_of = {player: parallel_letter(r.table, tables) for r in rounds if r.position == 1
                 for player in r.players()}
    return [{"tournament": letter,
             "ranking": [_row(e) for e in rank_entries({p: e for p, e in table.items() if letter_of.get(p) == letter},
                                                       championship)]}
            for letter in PARALLEL_LETTERS]


def _add_pcn(kind: str, asked, player_count: int, answer: dict) -> None:
    """``"pcn": {"championship": …, "tables": T}`` (both optional; ``true`` for a club tournament): each
    row of ``ranking`` gets ``"pcn"`` (for each player of a team) and ``"pp"``, ex æquo sharing the places
    (`pcn.share_ties`). Tables default to the players / 4, rounded up; an event too small for PCN, or not
    « homologable » (a table of 5), gets ``"pcn_refused"`` (the reason) instead."""
    options = asked if isinstance(asked, dict) else {}
    if asked is not True and not isinstance(asked, dict):
        raise FreePlayError("« pcn » : true ou {\"championship\": …, \"tables\": …} attendu")
    tables = options.get("tables", -(-player_count // 4))
    if not _whole(tables):
        raise FreePlayError("« pcn » : « tables » (entier) attendu")
    if not isinstance(options.get("championship"), (str, type(None))):
        raise FreePlayError("« pcn » : « championship » (texte) attendu")
    rows = answer["ranking"]
    if "not_homologable" in answer:
        answer["pcn_refused"] = answer["not_homologable"]
        return
    try:
        places = attribution(kind, tables, len(rows), options.get("championship"))
    except PcnError as error:
        answer["pcn_refused"] = str(error)
        return
    for row, (pcn, pp) in zip(rows, share_ties([row["rank"] for row in rows], places)):
        row["pcn"], row["pp"] = pcn, pp



def federation_csv(data: dict, answer: dict) -> str:
    """The PCN file for the federation (issue 16, point 6): ``Licence;Nom;Place;PCN;PP``, one line a player
    with PCN, best first (each member of a team on its own line, with the team's place and PCN). Our
    choices: « ; » separates (as French spreadsheets do), no byte-order mark, players without a licence
    are left out (PCN are « pour certains joueurs, si ceux-ci sont affiliés à la FFT », booklet p. 43). A
    licence or a name a spreadsheet would run as a formula gets a leading apostrophe; the numbers stay numbers
    (`core.spreadsheet.safe_cell`)."""
    import csv
    import io

    from duplicate.core.spreadsheet import safe_row

    people = {item["id"]: item for item in data.get("players", []) if isinstance(item, dict)}
    members = {t["id"]: t.get("members", []) for t in data.get("teams") or [] if isinstance(t, dict)}
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\n")
    writer.writerow(["Licence", "Nom", "Place", "PCN", "PP"])
    for row in answer["ranking"]:
        if not row.get("pcn") and not row.get("pp"):
            continue
        for player in members.get(row["id"], [row["id"]]):
            item = people.get(player, {})
            licence = item.get("licence")
            if isinstance(licence, str) and licence.strip():
                writer.writerow(safe_row([licence.strip(), item.get("name") or player, row["rank"], row["pcn"],
                                          row["pp"]]))
    return out.getvalue()
