"""The Jinja filters of every page, in one module: French numbers, dates, places and scores
(`duplicate.french`, which the printouts use too: the screen and the paper cannot disagree). `init_app`
adds them to the application (`FILTERS`: the name a template uses → the function). Imports no view."""

import datetime

from duplicate import french
from duplicate.core.cards import LINE_NAMES
from duplicate.core.formats import KIND_LABELS
from duplicate.operations import CONTRACTS

#: Seats and lines by their French names (`core.cards.LINE_NAMES`), the roles of the PM kinds left as they are.
_SEAT_NAMES = {key: LINE_NAMES[key] for key in ("N", "S", "E", "W", "NS", "EW")}


def kind_label(kind) -> str:
    """The French name of a tournament kind (a `TournamentKind` or its value)."""
    value = getattr(kind, "value", kind)
    return KIND_LABELS.get(value, str(value))


def line_label(ident) -> str:
    """A line or starting place as a French player reads it: W → « O », EW3 → « EO3 » (the files keep
    W / EW, SPEC §9); see `duplicate.french.place_label`."""
    return french.place_label(ident)


def date_fr(value: datetime.date | None) -> str:
    """A date the French way, e.g. « 1er mars 2026 », without depending on the system locale; None → ""."""
    return "" if value is None else french.long_date(value)


def seat_name(seat) -> str:
    """A seat or a line as the screens name it: N → « Nord », EW → « Est-Ouest »; anything else as it is."""
    return _SEAT_NAMES.get(seat, seat)


def contract_name(contract):
    """A team match's contract by its French name (`operations.CONTRACTS`): garde_sans → « Garde Sans »."""
    return CONTRACTS.get(contract)


def fr_number(value, decimals: int = 2) -> str:
    """A number with a decimal comma, rounded half away from zero (`duplicate.french.number`, the
    rounding the printouts use too): 58.125 → « 58,13 »; None → « — »."""
    return french.number(value, decimals)


def signed(value) -> str:
    """A score as on a fiche: « +106 », « −42 » (true minus sign), « 0 »; None → « — » (`french.score`)."""
    return french.score(value)


def signed_number(value, decimals: int = 3) -> str:
    """PM with their sign and a decimal comma: « +4,000 », « −3,162 »; None → « — »."""
    return french.signed_number(value, decimals)


def places_in_text(text) -> str:
    """A message written with the files' ids (« W2 ») as a person reads it (« O2 »)."""
    return french.places_in_text(text)


def local_time(moment, tournament=None, seconds: bool = False) -> str:
    """A stored (UTC) moment in the tournament's time zone, « 14/03/2026 21:05 »."""
    return french.local_time(moment, french.timezone_of(tournament), seconds=seconds)


#: The name a template uses → the filter.
FILTERS = {
    "kind_label": kind_label,
    "place": line_label,
    "line_label": line_label,
    "date_fr": date_fr,
    "seat_name": seat_name,
    "contract_name": contract_name,
    "fr_number": fr_number,
    "signed": signed,
    "signed_number": signed_number,
    "quarter": french.quarter_label,  # « 1er quart temps »
    "ranked": french.ranked,  # « 2 équipes classées »
    "counted": french.counted,  # « 2 lignes refusées », « 1 joueur »
    "unit_word": french.unit_word,  # « 0,50 point », « 2,50 points »
    "places_in_text": places_in_text,
    "local_time": local_time,
}


def init_app(app) -> None:
    """Add every filter of `FILTERS` to `app`'s templates."""
    for name, function in FILTERS.items():
        app.add_template_filter(function, name)
