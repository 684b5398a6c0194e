"""Reading the text of an interchange file (SPEC §9) without trusting it.

A file a careless or hostile user hands over is read by :func:`parse_json` with bounds set before any
value is built, so that no input ends in a Python traceback nor eats the memory:

* size: at most :data:`MAX_FILE_BYTES` (8 Mio, UTF-8) — a large tournament (300 tables, 30 étuis, all
  deals) takes under 3 Mio; the web's request limit (``MAX_CONTENT_LENGTH``) is set a little above it;
* a leading byte-order mark is dropped (Windows editors write one), by every reader alike;
* nesting: at most :data:`MAX_DEPTH` levels of arrays and objects (the format uses 5);
* integers: at most :data:`MAX_DIGITS` digits (no field needs more; Python refuses 4,300 anyway);
* numbers must be finite: ``NaN``, ``Infinity`` and a float out of range (``1e999``) are not JSON
  numbers a program can use (and ``Infinity`` cannot be written back as JSON);
* strings: no lone surrogate (``"\\ud800"``), which cannot be printed, encoded nor stored.

Every refusal is a :class:`FileTextError` whose French message names the line (found by a scan of the
text that only runs once a fault is known; a sound file is never scanned twice).
"""

from __future__ import annotations

import json
import math
import re

__all__ = ["MAX_FILE_BYTES", "MAX_DEPTH", "MAX_DIGITS", "FileTextError", "parse_json", "one_line"]

MAX_FILE_BYTES = 8 * 1024 * 1024
MAX_DEPTH = 32
MAX_DIGITS = 20
BOM = "\ufeff"

#: A JSON token, strings first so that nothing inside a string is taken for a bracket or a number. Compiled
#: by `_locate` alone, on a refusal (``re`` keeps it), not at import: about 1 M instructions that every
#: ``rank`` of a sound file would pay (issue 12).
_TOKEN = r'"(?:[^"\\]|\\.)*"?|[\[{]|[\]}]|-?\d[\d.eE+-]*|[A-Za-z]+|\n'
_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


class FileTextError(ValueError):
    """The text is not JSON a program can use; ``line`` is the faulty line (1-based) when known."""

    def __init__(self, message: str, line: int | None = None):
        self.line = line
        self.reason = message
        super().__init__(f"ligne {line} : {message}" if line else message)


class _Refused(Exception):
    """Raised by the decoder's hooks; the line is found afterwards."""

    def __init__(self, kind: str):
        self.kind = kind


def one_line(text: str, limit: int = 300) -> str:
    """A message fit for one line of a terminal: control characters and lone surrogates shown escaped,
    at most ``limit`` characters (a 5,000-character name is cut with « … »)."""
    text = "".join(ch if ch.isprintable() and not "\ud800" <= ch <= "\udfff" else ascii(ch)[1:-1] for ch in text)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _number_token_bad(token: str) -> str | None:
    """Why a number token is refused, or None."""
    if re.fullmatch(r"-?\d+", token):
        return "digits" if len(token.lstrip("-")) > MAX_DIGITS else None
    try:
        return None if math.isfinite(float(token)) else "float"
    except ValueError:
        return None


def _locate(text: str, kind: str) -> int:
    """The line of the first token of the ``kind`` the decoder refused (1 when it cannot be found)."""
    line, depth = 1, 0
    for match in re.finditer(_TOKEN, text, re.S):
        token = match.group()
        if token == "\n":
            line += 1
            continue
        if token in "[{":
            depth += 1
            if kind == "depth" and depth > MAX_DEPTH:
                return line
        elif token in "]}":
            depth -= 1
        elif token.startswith('"'):  # a sound string (the text decoded up to the fault): no raw newline
            if kind == "surrogate" and _bad_surrogates(token):
                return line
        elif kind == "constant" and token in ("NaN", "Infinity"):
            return line
        elif kind in ("digits", "float") and token[0] in "-0123456789" and _number_token_bad(token) == kind:
            return line
    return 1


def _bad_surrogates(token: str) -> bool:
    try:
        value = json.loads(token)
    except ValueError:
        return False
    return isinstance(value, str) and _raw_surrogate(value) is not None


def _parse_float(token: str) -> float:
    value = float(token)
    if not math.isfinite(value):
        raise _Refused("float")
    return value


def _parse_constant(token: str):
    raise _Refused("constant")


_MESSAGES = {
    "digits": f"nombre de plus de {MAX_DIGITS} chiffres",
    "float": "nombre hors limites (trop grand pour être calculé)",
    "constant": "« NaN » et « Infinity » ne sont pas des nombres JSON",
    "depth": f"plus de {MAX_DEPTH} niveaux de crochets ou d’accolades imbriqués",
    "surrogate": "caractère Unicode invalide (demi-paire « \\ud800 » isolée)",
}


#: an integer of more than `MAX_DIGITS` digits is at least this far from zero (JSON writes no leading zero)
_INT_BOUND = 10 ** MAX_DIGITS


def _check_tree(value, text: str) -> str | None:
    """``depth``, ``digits`` or ``surrogate`` when the decoded value breaks a bound, else None. An
    iterative walk of the arrays and objects; strings are looked at only when the text escapes a
    surrogate. Integers are checked here rather than by a ``parse_int`` hook, which would call Python
    once per number of the file (half the time of reading a 150-table file, issue 12)."""
    strings = bool(_ESCAPED_SURROGATE.search(text))
    stack = [(value, 1)] if type(value) in (dict, list) else []
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            return "depth"
        if type(item) is dict:
            if strings and any(_raw_surrogate(key) is not None for key in item):
                return "surrogate"
            item = item.values()
        for child in item:
            kind = type(child)
            if kind is dict or kind is list:
                stack.append((child, depth + 1))
            elif kind is int:
                if not -_INT_BOUND < child < _INT_BOUND:
                    return "digits"
            elif strings and kind is str and _raw_surrogate(child) is not None:
                return "surrogate"
    if type(value) is int and not -_INT_BOUND < value < _INT_BOUND:
        return "digits"
    if strings and type(value) is str and _raw_surrogate(value) is not None:
        return "surrogate"
    return None


def _raw_surrogate(text: str) -> int | None:
    """The index of the first lone surrogate of the text, or None. Found by UTF-8 encoding it, which only a
    surrogate stops (a search with the regular expression of the range U+D800–U+DFFF takes ten times as long: 6 ms
    for a 150-table file, and compiling it 2.3 M instructions a process); an ASCII text, which Python knows
    without looking, holds none."""
    if text.isascii():
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        return error.start
    return None


def parse_json(text: str, limit: int = MAX_FILE_BYTES):
    """The JSON value of a file's text, within the bounds above; raise `FileTextError` (French, with
    the line) otherwise. A leading byte-order mark is dropped."""
    if len(text) > limit or (len(text) * 4 > limit and len(text.encode("utf-8", "surrogatepass")) > limit):
        raise FileTextError(f"fichier trop gros (plus de {limit // (1024 * 1024)} Mio)")
    text = text.removeprefix(BOM)
    surrogate = _raw_surrogate(text)
    if surrogate is not None:  # a raw one (not escaped): only a caller's str can hold it
        raise FileTextError(_MESSAGES["surrogate"], text.count("\n", 0, surrogate) + 1)
    try:
        value = json.loads(text, parse_float=_parse_float, parse_constant=_parse_constant)
    except _Refused as refused:
        raise FileTextError(_MESSAGES[refused.kind], _locate(text, refused.kind)) from None
    except json.JSONDecodeError as error:
        raise FileTextError(f"JSON mal formé ({error.msg}, colonne {error.colno})", error.lineno) from None
    except ValueError:  # an integer over Python's 4,300 digits
        raise FileTextError(_MESSAGES["digits"], _locate(text, "digits")) from None
    except RecursionError:
        raise FileTextError(_MESSAGES["depth"], _locate(text, "depth")) from None
    fault = _check_tree(value, text)
    if fault is not None:
        raise FileTextError(_MESSAGES[fault], _locate(text, fault))
    return value
