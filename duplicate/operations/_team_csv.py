"""Teams and their members from a CSV list, and back (issue 15 point 4).

The file is the players list (`players_csv.parse_players_csv`: UTF-8 with or without BOM, else
Windows-1252; « ; », « , » or a tab) with the team's name first: « Équipe;Licence;Nom;Prénom;Club », one
line per player, the players of a team in the team's order.  A header line naming the columns may give
them in another order.

All or nothing (our choice: a team missing a member would be formed wrong): the preview lists every
refused line, and the arbiter may confirm only a list with none; the import checks it again.  A line is
refused for the players list's reasons (`_entrants._player_problems`: names, licence format, licence
already registered or met earlier in the file) or without a team name; a team for its size
(`Format.team_size`: 3, 4, 4 to 6 players), for a name already taken in the tournament, and a team match for
more than two teams (SPEC §6: « elle oppose 2 équipes »).

The export writes the same columns, « ; » separated, UTF-8 with a BOM (what Excel opens with its
accents), so that an exported list imports back into another tournament unchanged. A name a spreadsheet
would run as a formula (« =HYPERLINK(…) », « +1+2 », « @SUM(A1) ») is written with a leading apostrophe
(`core.spreadsheet.safe_cell`), which the import takes off again.
"""

from __future__ import annotations

import csv
import io

from sqlmodel import Session

from duplicate import french, players_csv
from duplicate.core.spreadsheet import safe_row, unescape_cell
from duplicate.models import Player, Tournament

from ._common import CsvImportError, OperationError, _clean, _format, teams
from ._entrants import _licences, _player_problems, form_team, team_members

HEADER = ("Équipe", "Licence", "Nom", "Prénom", "Club")


def preview_teams_csv(session: Session, tournament: Tournament, text: str | bytes
                      ) -> tuple[list[dict], list[tuple[int, str]], int]:
    """``(teams, refused, empty)``: the teams the list would form, in file order (``{"name", "members":
    [{line, licence, surname, first_name, club}]}``), one ``(line number, French reason)`` per refused line
    (line 0: the file as a whole), and the number of empty lines skipped (not refused).  Nothing is
    stored."""
    fmt = _format(tournament)
    if fmt.team_size is None:
        raise OperationError("Un tournoi individuel n’a pas d’équipes : importez des joueurs.")
    rows, errors, empty = players_csv.parse_players_csv(text, players_csv.TEAMS_CSV_COLUMNS)
    problems: dict[int, list[str]] = {}
    for number, message in errors:
        problems.setdefault(number, []).append(message)
    licences = _licences(session, tournament)
    found: dict[str, dict] = {}
    for number, row in rows:
        row = {key: _clean(unescape_cell(value)) for key, value in row.items()}  # « '=x » exported: « =x »
        messages = [message for _field, message in _player_problems(session, tournament, row, licences)]
        if not row["team"]:
            messages.append("le nom de l’équipe manque")
        elif len(row["team"]) > 200:
            messages.append("le nom de l’équipe est trop long (200 caractères au plus)")
        if messages:
            problems.setdefault(number, []).extend(messages)
            continue
        if row["licence"]:
            licences.add(row["licence"])
        team = found.setdefault(row["team"].casefold(), {"name": row["team"], "line": number, "members": []})
        team["members"].append({"line": number, **{k: v for k, v in row.items() if k != "team"}})
    taken = {team.name.casefold() for team in teams(session, tournament)}
    low, high = fmt.team_size
    size = f"{low}" if low == high else f"{low} à {high}"
    for key, team in found.items():
        if key in taken:
            problems.setdefault(team["line"], []).append(f"l’équipe « {team['name']} » existe déjà dans ce tournoi")
        count = len(team["members"])
        if not low <= count <= high and not any(m["line"] in problems for m in team["members"]):
            problems.setdefault(team["line"], []).append(
                f"l’équipe « {team['name']} » a {french.counted(count, 'joueur', 'joueurs')} : il en faut {size}")
    most = fmt.entrants_needed[1]  # the most teams a tournament holds: a team match's two (SPEC §6), else None
    if most is not None and len(taken) + len(found) > most:
        problems.setdefault(0, []).append(f"un match par équipes oppose 2 équipes ({len(taken) + len(found)} "
                                          "avec celles de ce fichier)")
    if not problems and not found:
        problems[0] = ["aucune équipe dans le fichier"]
    refused = [(number, " ; ".join(messages)) for number, messages in sorted(problems.items())]
    return list(found.values()), refused, empty


def import_teams_csv(session: Session, tournament: Tournament, text: str | bytes) -> list:
    """Register the players of a teams list and form its teams (checked as by `preview_teams_csv`);
    `CsvImportError` and nothing added when a line is refused."""
    found, refused, _empty = preview_teams_csv(session, tournament, text)
    if refused:
        raise CsvImportError(refused)
    formed = []
    for team in found:
        players = [Player(tournament_id=tournament.id, licence=m["licence"] or None, surname=m["surname"],
                          first_name=m["first_name"], club=m["club"] or None) for m in team["members"]]
        session.add_all(players)
        session.flush()
        formed.append(form_team(session, tournament, name=team["name"], player_ids=[p.id for p in players]))
    return formed


def teams_csv(session: Session, tournament: Tournament) -> str:
    """The tournament's teams and members as a list `import_teams_csv` reads (BOM, « ; »)."""
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    writer.writerow(HEADER)
    for team in teams(session, tournament):
        for player in team_members(session, team):
            writer.writerow(safe_row((team.name, player.licence or "", player.surname, player.first_name,
                                      player.club or "")))
    return out.getvalue()
