"""French display of numbers, scores, dates, seats and cards for the printed matter.

Everything here returns plain strings (or small dicts of strings and booleans), so that the
templates receive primitive data only (ARCHITECTURE habit 6).  Typographic choices, as a French
club prints them:

* decimal comma and two decimals for percentages and notes (« 75,00 »), three for PM (« 12,838 »),
  rounded half away from zero by `duplicate.french` (the one rule of SPEC §11, shared with the screens);
* signed scores with a true minus sign U+2212 (« +106 », « −42 »);
* ordinals « 1re », « 2e » (Imprimerie nationale); dates « samedi 14 mars 2026 »;
* ex æquo written « ex æquo » (with the ligature), shortened « ex æ. » in narrow columns.
"""

from __future__ import annotations

import datetime

from duplicate import french
from duplicate.core import cards
from duplicate.core.cards import SUITS, Card, CardError

SEAT_NAMES = {**cards.SEAT_NAMES, "O": cards.SEAT_NAMES["W"]}
SEAT_LETTERS = {"N": "N", "S": "S", "E": "E", "W": "O", "O": "O"}
#: Diagram colour by orientation (seed « duplicate-tournaments.txt »: Nord jaune, Sud bleu, Est rouge,
#: Ouest vert).  ``strong`` draws the circles and the band, ``light`` fills the circled cards.
SEAT_COLOURS = {
    "N": {"name": "jaune", "strong": "#e0b000", "light": "#fff3b0", "ink": "#3a2f00"},
    "S": {"name": "bleu", "strong": "#1f5fbf", "light": "#d6e4fb", "ink": "#ffffff"},
    "E": {"name": "rouge", "strong": "#c8202c", "light": "#fbd9dc", "ink": "#ffffff"},
    "W": {"name": "vert", "strong": "#1e8a3c", "light": "#d5f0dc", "ink": "#ffffff"},
    "dog": {"name": "gris", "strong": "#555555", "light": "#e4e4e4", "ink": "#ffffff"},
}
#: The tournament colour (a French word typed by the arbiter) → a printable colour.  Unknown words
#: print as text on a neutral band.
TOURNAMENT_COLOURS = {
    "rouge": "#c8202c", "bleu": "#1f5fbf", "vert": "#1e8a3c", "jaune": "#e0b000", "orange": "#e87511",
    "violet": "#7b3fa0", "rose": "#e2619f", "marron": "#7a4a21", "gris": "#8a8a8a", "noir": "#222222",
    "blanc": "#ffffff", "turquoise": "#1aa3a3", "mauve": "#b07cc6", "bordeaux": "#7d1f2c",
    "beige": "#d8c7a0", "or": "#c9a227", "argent": "#b8b8b8", "saumon": "#f08c72",
}
MINUS = french.MINUS
EX_AEQUO = "ex æquo"


def number(value, decimals: int = 2, empty: str = "—") -> str:
    """``75.0`` → « 75,00 »; ``None`` → « — » (`duplicate.french.number`: the screens' rounding too)."""
    return french.number(value, decimals, empty)


def signed_number(value, decimals: int = 3) -> str:
    """PM and other signed decimals: « +12,838 », « −3,162 », « 0,000 »."""
    return french.signed_number(value, decimals)


def pm_text(fmt, pm) -> str:
    """The PM a side scores on one étui, from the signed PM of its comparison (ranking output ``"pm"``),
    as the feuille de marque and the totals count it (`Format.scored_pm`, SPEC §6): in a team match the
    better attacker's side scores |PM| and the other 0 — never a negative PM (« 4,000 », « 0,000 »); in
    quadrettes the signed PM (« −3,162 »); ``None`` → « ».  The one place the étui page and the frequency
    report turn a comparison into PM scored (issue 29 point 5)."""
    value = fmt.scored_pm(pm)
    return "" if value is None else total_pm_text(fmt, value)


def total_pm_text(fmt, pm) -> str:
    """PM as the feuille de marque writes them (SPEC §6): a team match's side scores 0 or |PM| an étui, so
    its PM and totals are written unsigned (« 4,000 »); a quadrette's are signed (« +12,838 », « −3,162 »);
    ``None`` → « — »."""
    return french.signed_number(pm, 3) if fmt.signs_pm else french.number(pm, 3)


#: An entrant id as a person reads it: « W2 » → « O2 », « EW3 » → « EO3 » (SPEC §11).
place = french.place_label


def score(value) -> str:
    """The taker's score as written on the fiche: « +106 », « −42 », « 0 »; ``None`` → empty (`french.score`)."""
    return french.score(None if value is None else int(value), empty="")


ordinal = french.ordinal  # « 1re position », « 1er quart temps »: one helper (`french.ordinal`)


def french_date(iso: str | None) -> str:
    if not iso:
        return ""
    try:
        day = datetime.date.fromisoformat(iso)
    except ValueError:
        return str(iso)
    return french.long_date(day, weekday=True)


def seat_name(seat: str) -> str:
    return SEAT_NAMES.get(str(seat).upper(), str(seat))


def seat_letter(seat: str) -> str:
    """N, S, E, O (French: Ouest is « O »)."""
    return SEAT_LETTERS.get(str(seat).upper(), str(seat))


def tournament_colour(word: str | None) -> dict:
    """``{"name": "vert", "css": "#1e8a3c", "ink": "#fff"}`` for the tournament colour."""
    name = (word or "").strip()
    css = TOURNAMENT_COLOURS.get(name.lower())
    if css is None:
        return {"name": name, "css": "#ffffff", "ink": "#000000", "known": False}
    light = name.lower() in ("blanc", "jaune", "beige", "argent", "or")
    return {"name": name, "css": css, "ink": "#000000" if light else "#ffffff", "known": True}


def card(notation: str) -> dict:
    """A card as printed: ``{"rank": "R", "symbol": "♠", "red": False, "trump": False, "text": "R♠"}``.

    Trumps print their number (« 21 »), the Excuse « Excuse » (« Exc. » in narrow spots).
    """
    try:
        parsed = Card.parse(notation)
    except CardError:
        return {"rank": str(notation), "symbol": "", "red": False, "trump": False, "text": str(notation)}
    text = parsed.french
    if parsed.suit in SUITS:
        symbol = SUITS[parsed.suit][1]
        return {"rank": text[: -len(symbol)], "symbol": symbol, "red": parsed.suit in "HD", "trump": False,
                "text": text}
    return {"rank": text, "symbol": "", "red": False, "trump": True, "text": text}


def hand_by_suit(cards) -> list[dict]:
    """A hand laid out line by line: ♠, ♥, ♦, ♣ (high to low), then trumps (high to low) and the Excuse.

    Returns ``[{"symbol": "♠", "red": False, "label": "pique", "ranks": "R D 10 7"}, …,
    {"symbol": "", "label": "atouts", "ranks": "21 17 12 1 Excuse"}]``; a void is « — ».
    """
    parsed = sorted((Card.parse(c) for c in cards), key=lambda c: -c.rank)
    lines = []
    for suit, (label, symbol) in SUITS.items():
        ranks = [c.french[: -len(symbol)] for c in parsed if c.suit == suit]
        lines.append({"symbol": symbol, "red": suit in "HD", "label": label, "ranks": " ".join(ranks) or "—"})
    trumps = [c.french for c in parsed if c.suit == "T"] + [c.french for c in parsed if c.suit == "X"]
    lines.append({"symbol": "", "red": False, "label": "atouts", "ranks": " ".join(trumps) or "—"})
    return lines
