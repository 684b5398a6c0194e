"""Use cases: the only code that touches both the rules (`duplicate.core`) and the tables (`models`).

Each function takes the SQLModel session first, adds and flushes, never commits: the request (or the
CLI's application context) commits once, and rolls back on an error. Refused input raises
`OperationError` with a French message and, when it comes from one form field, that field's name;
input is checked before anything is written, so a refused call leaves the session as it was.

The rules are never re-implemented here: scores are checked by `core.scoring.check_score`, and every
new or changed result with the other results of its étui through `core.tournament.read_tournament`
(unknown players, a board played twice, a table the movement does not send the étui to…); rankings are
`core.tournament.ranking_output` of the stored rows mapped to core values (`to_core`: the same values
that reading of the export gives), exactly as the ``rank`` command does, cached until the tournament's
data change (``_changes``: its data version, raised by every commit that writes them).

Our choices:

* **Draw** (`draw_places`): entrants are ordered by SHA-256 of ``tarot-draw/1|<seed>|<n>`` (``n`` the
  registration order), so a seed gives the same draw on any machine; then seats are filled table by
  table — individual N1, S1, E1, W1, N2…; triplettes NS1, EW1, NS2…; quadrettes Q1, Q2… (the home
  table of its defence); team match A, B. The triplettes' first attacking colour is drawn once for the
  tournament (`core.triplettes.draw_first_colour` of the draw seed) and can be changed per team.
* **Tables** of the movement: individual ⌊players / 4⌋, the others at the relais (SPEC §7,
  `core.movements.relais`; the draw's ids N1…W T then N, S, E of table T + 1 are theirs);
  triplettes ⌈triplettes / 2⌉; quadrettes one per quadrette; team match 2 (open and closed rooms).
* Places, étuis and deals cannot be changed once a result is entered: the results name them.

Modules, by concept (import from the package): ``_tournaments`` (tournaments, dashboard, ranking),
``_entrants`` (players, teams, draw), ``_deals`` (étuis, movement), ``_results`` (results, history,
penalties), ``_users`` (staff accounts, passwords, API tokens), ``_access`` (who may see and change which
tournament: owner, co-arbiters, scorers), ``_sign_in`` (sign-in throttling), ``_scoring`` (the fiches ambulantes laid out by the movement, their entry,
the scoring API's lines), ``_publishing`` (route sheets by private token, competitions of several
séances, publication), ``_table`` (scoring at the table: links, entry, confirmation, conflicts with the
paper fiches), ``_triplettes`` (badges and attackers of the triplettes), ``_quadrettes`` (the quadrettes' attackers), ``_journal`` (the tournament's journal of changes), ``_evening`` (the evening's changes:
players edited, fill-in players, withdrawals, substitutes, lateness, archive and deletion), ``_changes`` (the tournament's data version and the views cached until it
changes), ``_freeplay`` (free play, SPEC §13: seating and movement, feuilles de marque, ranking; reached as
``operations.freeplay``), ``_simultaneous`` (a simultané's event, clubs and files, its national ranking and embargo), ``_live`` (the hall
during play: the position's countdown, the projector, the arbiter's live grid), ``_common`` (errors and
shared guards). The file formats are in
`duplicate.interchange`.
"""

from ._common import (
    STEP_LABELS, ConflictError, CsvImportError, NotFound, OperationError, Refused, entrant_rows, lock_row,
    players, teams,
)
from ._deals import (
    boards, choose_movement, generate_boards, get_movement, import_deals, set_board_hands, set_movement, table_count,
)
from ._entrants import (
    draw_places, entrant_clubs, form_team, import_players_csv, place_by_hand, register_player, set_first_colour,
    team_members,
)
from ._results import (
    RESULT_FIELDS, add_penalty, adjust_score, annul_result, get_result, penalties, record_result, remove_penalty,
    result_history, results, set_arbitral_note, update_result,
)
from ._results import SettledLine, check_entered_score, refuse_if_settled, settled_by_arbiter
from ._changes import AudienceChanged, cached_view, data_version
from ._tournaments import create_tournament, get_tournament, list_tournaments, ranking, readiness, to_core
from ._tournaments import set_timezone
from ._entrants import preview_players_csv
from ._users import authenticate, authenticate_token, create_token, create_user, password_matches, user_named
from ._users import change_password, end_sessions, set_active, set_password, tokens
from ._users import CLI_ONLY, all_tokens, revoke_any_token
from ._access import (
    access_list, can_manage, can_score, create_scorer, grant, is_owner, managed_scorer, managed_scorers, owner,
    take_over, token_serves, visible_tournaments, withdraw,
)
from ._access import (
    can_manage_series, can_revoke_token, grant_series, is_series_owner, manages_account, revoke_token,
    series_access_list, series_owner, take_over_series, token_refusal, visible_series, withdraw_series,
)
from ._sign_in import (
    GLOBAL_KEY, account_key, address_key, clear_failures, device_key, failures, lock_after, locked_for,
    record_failure, record_failures,
)
from ._scoring import (
    CONTRACTS, ApiLineError, Line, LinesError, all_lines, corrected_ids, parse_score, progress, record_api_results,
    save_lines, table_round, traveller,
)
from ._simultaneous import (
    add_club, clubs, create_simultaneous, deals_for, embargoed, get_simultaneous, national_for, receive_club_file,
)
from ._simultaneous import club_by_key, club_file, list_simultaneous, national_frequencies
from ._journal import JOURNAL_PAGE, JournalPage, journal, journal_entries, journal_page
from ._evening import (
    RESULTS_TO_LABELS, add_fill_in_player, archive_tournament, cancel_withdrawal, delete_tournament, edit_player,
    get_player, lateness_penalty, name_substitute, restore_tournament, substitutions, withdraw_player,
)
from ._evening import add_late_player
from ._publishing import (
    create_series, find_by_token, get_series, list_series, marked_export, private_links, route_sheet_data,
    series_ranking,
    series_sessions, set_series, remove_from_series,
)
from ._publishing import SECRET_RESULT_FIELDS, completeness, is_published, publish, without_scores
from ._scoring import adjusted_lines, board_numbers
from ._live import (
    STATUS_LABELS, clock_state, extend_clock, find_clock, grid_status, hall_version, live_room, minutes_per_board,
    pause_clock, projector, projector_ranking, resume_clock, set_minutes_per_board, start_position, stop_clock,
)
from ._results import flag_conflict
from ._codes import MAX_REFUSED_CODES, player_code
from ._table import (
    RefusedAttempt, TableConflict, TableEntry, board_results, confirm_table_result, record_table_result,
)
from ._table_conflicts import conflict_result, conflicts, resolve_conflict
from ._table_links import find_table, table_codes, table_links, table_numbers, table_secret
from ._table_view import position_in_play, set_table_options, table_view, table_watch
from ._steps import next_step
from ._triplettes import TriplettePlan, draw_colour, first_colours, rotation_starts, triplette_plan
from ._quadrettes import quadrette_attackers

__all__ = [
    "STEP_LABELS", "ConflictError", "CsvImportError", "NotFound", "entrant_rows",
    "OperationError", "lock_row", "players", "teams", "boards", "choose_movement", "generate_boards", "get_movement",
    "import_deals", "set_board_hands", "set_movement", "table_count", "draw_places", "entrant_clubs", "form_team",
    "import_players_csv", "place_by_hand", "register_player", "set_first_colour", "team_members",
    "RESULT_FIELDS", "add_penalty", "adjust_score", "annul_result", "get_result", "penalties", "record_result",
    "remove_penalty", "result_history", "results", "set_arbitral_note", "update_result", "create_tournament",
    "SettledLine", "check_entered_score", "refuse_if_settled", "settled_by_arbiter",
    "get_tournament", "list_tournaments", "ranking", "AudienceChanged", "cached_view", "data_version",
    "readiness", "to_core", "authenticate", "create_user", "password_matches", "user_named",
    "authenticate_token", "create_token", "CONTRACTS", "ApiLineError", "Line", "LinesError", "all_lines",
    "corrected_ids", "parse_score", "progress", "record_api_results", "save_lines", "table_round", "traveller",
    "create_series", "find_by_token", "get_series", "list_series", "private_links", "route_sheet_data", "marked_export",
    "series_ranking", "series_sessions", "set_series", "journal", "journal_entries", "journal_page", "JournalPage", "JOURNAL_PAGE",
    "RESULTS_TO_LABELS", "add_fill_in_player", "add_late_player", "archive_tournament", "cancel_withdrawal", "delete_tournament",
    "edit_player", "get_player", "lateness_penalty", "name_substitute", "restore_tournament", "substitutions",
    "withdraw_player", "SECRET_RESULT_FIELDS", "completeness", "is_published", "publish", "without_scores",
    "set_timezone", "preview_players_csv", "adjusted_lines", "board_numbers",
    "change_password", "end_sessions", "revoke_token", "set_active", "set_password", "tokens",
    "access_list", "can_manage", "can_score", "create_scorer", "grant", "is_owner", "managed_scorer",
    "managed_scorers", "owner", "take_over", "token_serves", "visible_tournaments", "withdraw",
    "CLI_ONLY", "all_tokens", "revoke_any_token", "can_manage_series", "can_revoke_token", "grant_series",
    "is_series_owner", "manages_account", "series_access_list", "series_owner", "take_over_series",
    "visible_series", "withdraw_series", "token_refusal", "remove_from_series", "Refused",
    "clear_failures", "failures", "lock_after", "locked_for", "record_failure", "record_failures", "account_key",
    "GLOBAL_KEY", "address_key", "device_key",
    "STATUS_LABELS", "clock_state", "extend_clock", "find_clock", "grid_status", "hall_version", "live_room",
    "minutes_per_board", "pause_clock", "projector", "projector_ranking", "resume_clock", "set_minutes_per_board", "start_position",
    "stop_clock",
    "MAX_REFUSED_CODES", "player_code", "RefusedAttempt", "position_in_play", "table_codes", "TableConflict", "TableEntry", "board_results", "confirm_table_result", "conflict_result", "conflicts", "find_table",
    "flag_conflict", "record_table_result", "resolve_conflict", "set_table_options",
    "table_links", "table_numbers", "table_secret", "table_view", "table_watch",
    "next_step", "TriplettePlan", "draw_colour", "first_colours", "rotation_starts", "triplette_plan", "quadrette_attackers",
]
from ._team_match import QUARTERS as TEAM_MATCH_QUARTERS, parse_series, set_bonus, set_quarter
from ._team_match import attacker_names, plan as team_match_plan
from ._team_sheet import sheet as team_match_sheet

__all__ += ["TEAM_MATCH_QUARTERS", "attacker_names", "parse_series", "set_bonus", "set_quarter", "team_match_plan", "team_match_sheet"]
from ._team_csv import import_teams_csv, preview_teams_csv, teams_csv

__all__ += ["import_teams_csv", "preview_teams_csv", "teams_csv"]
from . import _freeplay as freeplay  # free play (SPEC §13): `operations.freeplay.save_sheet`…

from . import _freeplay_import as freeplay_import  # a SPEC §13 free file into a new tournament
from . import _freeplay_extras as freeplay_extras  # team free play, carré final, palmarès (issue 16, 5 and 7)
from . import _freeplay_table as freeplay_table  # free play at the table: the phone enters, a player confirms
__all__ += ["freeplay", "freeplay_import", "freeplay_extras"]
