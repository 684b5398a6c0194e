"""French reading and writing of numbers, places and times: the ONE formatter module that the screens
(Jinja filters, `duplicate.web`), the printed matter (`duplicate.view_models.formatting`) and the flash
messages share, so that a page and its printout cannot disagree (ARCHITECTURE habit 12).

Rules (SPEC §11):

* **Typed numbers** accept a decimal comma or point, a minus sign ``-`` or ``−`` (U+2212), a leading
  ``+``, and spaces anywhere (« 2,5 », « − 3 », « 1 000,5 »).  Choice where the spec is silent: a number
  with both a comma and a point, or two decimal marks, is refused (« 1.000,5 » is ambiguous), as are
  exponents, ``nan`` and ``inf``.  The value is exact (:class:`~fractions.Fraction`).
* **Shown numbers** use the comma and a true minus sign U+2212; never « −0,00 ».
* **One rounding rule**: two decimals (three for PM), half away from zero, applied to the exact value
  (Fractions from the core; a float is read as the shortest decimal that prints it, so 58.125 is
  58,125 and shows « 58,13 », −0.125 shows « −0,13 »).
* **Starting places**: the files say W / EW (SPEC §9); a person reads O / EO (« W2 » → « O2 »,
  « EW3 » → « EO3 »).
* **Times** are stored in UTC and shown in the tournament's time zone (``Tournament.settings
  ["timezone"]``, an IANA name; Europe/Paris when unset), as « 14/03/2026 21:05 ».
"""

from __future__ import annotations

import datetime
import functools
import re
from decimal import Decimal
from fractions import Fraction
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from duplicate.core.scoring import signed

MINUS = "\u2212"
DEFAULT_TIMEZONE = "Europe/Paris"
_SPACES = re.compile(r"[\s\u00a0\u202f\u2009']+")
_NUMBER = re.compile(r"[+-]?(\d+([.,]\d*)?|[.,]\d+)")


class NumberError(ValueError):
    """A typed number that cannot be read; the message is French and says what was expected."""


# --- typed numbers ------------------------------------------------------------------------------------

def digits(text: str) -> bool:
    """Whether ``text`` is one or more of the digits 0 to 9 and nothing else: `str.isdigit` also says yes
    to « ² » (which `int` refuses) and to « ٣ » (Arabic-Indic), which a link, an id or a version never holds."""
    return bool(text) and text.isascii() and text.isdigit()


def parse_number(text: str) -> Fraction:
    """The exact value of a number typed by a person: « 2,5 » → 5/2, « −0,125 » → −1/8, « 1 000 » → 1000.

    Raises `NumberError` (French message) for anything else, including the empty string.
    """
    cleaned = _SPACES.sub("", str(text)).replace(MINUS, "-").replace("\u2013", "-")
    if not cleaned:
        raise NumberError("Indiquez un nombre.")
    if not _NUMBER.fullmatch(cleaned):
        raise NumberError(f"« {str(text).strip()} » n’est pas un nombre (par exemple 2,5 ou −1).")
    return Fraction(cleaned.replace(",", "."))


def parse_whole_number(text: str) -> int:
    """A whole number typed by a person (« 12 », « − 3 », « 1 000 »); « 2,5 » is refused."""
    try:
        value = parse_number(text)
    except NumberError:
        raise NumberError(f"« {str(text).strip()} » n’est pas un nombre entier (par exemple 3).") from None
    if value.denominator != 1:
        raise NumberError(f"« {str(text).strip()} » n’est pas un nombre entier.")
    return int(value)


def plain(value: Fraction) -> int | float:
    """An exact value as the operations take it: an int when whole, else a float."""
    return int(value) if value.denominator == 1 else float(value)


# --- shown numbers ------------------------------------------------------------------------------------

def exact(value) -> Fraction:
    """The exact value of a number to show: Fractions and ints as they are, a float as the shortest
    decimal that prints it (``repr``), a Decimal or a numeric string as written."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, float):
        return Fraction(Decimal(repr(value)))
    if isinstance(value, (int, Decimal)):
        return Fraction(value)
    return Fraction(Decimal(str(value)))


def rounded(value, decimals: int = 2) -> Fraction:
    """THE rounding rule: ``decimals`` places, half away from zero, on the exact value."""
    scaled = exact(value) * 10 ** decimals
    whole = (abs(scaled) + Fraction(1, 2)).__floor__()
    return Fraction(whole if scaled >= 0 else -whole, 10 ** decimals)


def number(value, decimals: int = 2, empty: str = "—") -> str:
    """« 58,13 » for 58.125, « −0,13 » for −0.125, « 75,00 » for 75; ``None`` → ``empty``."""
    if value is None:
        return empty
    value = rounded(value, decimals)
    units = abs(value.numerator) * 10 ** decimals // value.denominator
    text = str(units).rjust(decimals + 1, "0")
    if decimals:
        text = f"{text[:-decimals]},{text[-decimals:]}"
    return (MINUS + text) if value < 0 else text


def score(value: int | None, empty: str = "—") -> str:
    """A deal's score as a fiche shows it: « +106 », « −42 », « 0 » (`duplicate.core.scoring.signed`);
    None → ``empty``. A total that is not whole (free play with a coefficient between positions) keeps two
    decimals: « +479,40 »."""
    if value is None:
        return empty
    value = exact(value)
    if value.denominator != 1:
        return signed_number(value, 2)
    return signed(int(value))


def signed_number(value, decimals: int = 3, empty: str = "—") -> str:
    """PM and other signed decimals: « +12,838 », « −3,162 », « 0,000 »."""
    if value is None:
        return empty
    text = number(value, decimals)
    return text if text.startswith(MINUS) or rounded(value, decimals) == 0 else "+" + text


# --- words that agree with a count ----------------------------------------------------------------------

def counted(count: int, one: str, many: str) -> str:
    """A count and its words, agreed: « 1 ligne vide ignorée », « 2 lignes vides ignorées »; 0 and 1 take
    the singular (French usage: « 0 joueur »)."""
    return f"{count} {one if abs(count) <= 1 else many}"


def unit_word(value, one: str = "point", many: str = "points") -> str:
    """The unit after an amount that is not a count (« 0,50 point », « 1,50 point », « 2,50 points »): the
    plural from 2 on, the singular below (Académie française usage).  ``value``: a number, or the text
    already shown (« 2,50 », « −1,00 »); its rounded value (two decimals) decides."""
    amount = parse_number(value) if isinstance(value, str) else exact(value)
    return one if abs(rounded(amount)) < 2 else many


def points(value, decimals: int = 2) -> str:
    """A penalty or a score in points, agreed: « 0,50 point », « 1,00 point », « 2,50 points »."""
    return f"{number(value, decimals)} {unit_word(value)}"


#: The entrant nouns a ranking counts, with their gender (the participle agrees with the noun).
ENTRANT_NOUNS = {"joueurs": ("joueur", False), "équipes": ("équipe", True), "duos": ("duo", False)}


def ranked(count: int, noun: str = "joueurs") -> str:
    """« 1 joueur classé », « 10 joueurs classés », « 2 équipes classées », « 3 duos classés »
    (``noun``: a plural of `ENTRANT_NOUNS`)."""
    one, feminine = ENTRANT_NOUNS[noun]
    ending = "e" if feminine else ""
    return counted(count, f"{one} classé{ending}", f"{noun} classé{ending}s")


def ordinal(n: int, feminine: bool = True) -> str:
    """« 1re » / « 1er », « 2e », « 3e »… (Imprimerie nationale: never « 1e », « 2ème »)."""
    if n == 1:
        return "1re" if feminine else "1er"
    return f"{n}e"


MONTHS = ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
          "novembre", "décembre")
WEEKDAYS = ("lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche")


def long_date(day: datetime.date, weekday: bool = False) -> str:
    """A date the French way, without depending on the system locale: « 1er mars 2026 », with ``weekday``
    « dimanche 1er mars 2026 »."""
    text = f"{'1er' if day.day == 1 else day.day} {MONTHS[day.month - 1]} {day.year}"
    return f"{WEEKDAYS[day.weekday()]} {text}" if weekday else text


def quarter_label(n: int) -> str:
    """A team match's quarter as the seeds say it: « 1er quart temps », « 2e quart temps »…"""
    return f"{ordinal(n, feminine=False)} quart temps"


# --- starting places ----------------------------------------------------------------------------------

def place_label(ident) -> str:
    """An entrant id or line as a French player reads it: « W2 » → « O2 », « EW3 » → « EO3 »,
    « W » → « O », « EW » → « EO »; anything else unchanged.  Ids stay W / EW in data, API and files."""
    text = "" if ident is None else str(ident)
    if text.startswith("EW"):
        return "EO" + text[2:]
    if text.startswith("W") and (len(text) == 1 or text[1:].isdigit()):
        return "O" + text[1:]
    return text


def place_order(ident: str) -> tuple:
    """The order in which lists of entrants print: N1, S1, E1, W1, N2… (table order, then N S E W),
    J1, J2…, NS1, EW1…"""
    head = ident.rstrip("0123456789")
    tail = ident[len(head):]
    rank = {"N": 0, "S": 1, "E": 2, "W": 3, "NS": 0, "EW": 1}.get(head, 5)
    return (int(tail) if tail else 0, rank, head, ident)


_PLACES_IN_TEXT = re.compile(r"\b(?:EW|W)[1-9][0-9]*\b")


def places_in_text(text: str) -> str:
    """A sentence written with the files' ids (« W2 joue deux fois ») as a person reads it (« O2 … »)."""
    return _PLACES_IN_TEXT.sub(lambda match: place_label(match.group(0)), str(text))


def place_id(typed: str) -> str:
    """A starting place typed by a person, as the data spell it: « o2 » → ``W2``, « EO3 » → ``EW3``
    (« W2 » is accepted as well); upper-cased and stripped; the inverse of `place_label`."""
    text = _SPACES.sub("", str(typed or "")).upper()
    if text.startswith("EO"):
        return "EW" + text[2:]
    if text.startswith("O") and (len(text) == 1 or text[1:].isdigit()):
        return "W" + text[1:]
    return text


# --- times --------------------------------------------------------------------------------------------

def valid_timezone(name: str | None) -> bool:
    """Whether ``name`` is a known IANA time zone (« Europe/Paris », « America/Martinique »…)."""
    return isinstance(name, str) and name in _zones()


@functools.cache
def _zones() -> frozenset[str]:
    found = set()
    for name in available_timezones():
        try:
            ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            continue
        found.add(name)
    return frozenset(found)


def timezones() -> list[str]:
    """Every known time zone name, sorted (for the tournament form)."""
    return sorted(_zones())


def timezone_of(tournament) -> str:
    """The time zone of a tournament (``settings["timezone"]``), Europe/Paris when unset or unknown."""
    settings = getattr(tournament, "settings", None) or {}
    name = settings.get("timezone") if isinstance(settings, dict) else None
    return name if valid_timezone(name) else DEFAULT_TIMEZONE


def local_time(moment: datetime.datetime | None, timezone: str = DEFAULT_TIMEZONE, *,
               seconds: bool = False) -> str:
    """A stored moment shown to a person: « 14/03/2026 21:05 » in ``timezone``; a naive moment is
    taken as UTC (SQLite gives them back naive); ``None`` → « »."""
    if moment is None:
        return ""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.timezone.utc)
    zone = ZoneInfo(timezone if valid_timezone(timezone) else DEFAULT_TIMEZONE)
    return moment.astimezone(zone).strftime("%d/%m/%Y %H:%M:%S" if seconds else "%d/%m/%Y %H:%M")
