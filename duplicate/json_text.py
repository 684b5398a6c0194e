"""JSON text as the command line prints it: ``json.dumps(data, ensure_ascii=False, indent=2, allow_nan=False)``,
faster.

Python's C encoder ignores ``indent``, so an indented dump runs the pure-Python encoder: 35 ms for the
ranking of a 150-table individual, as long as ranking it. `dumps` writes the very same text about twice as
fast: a flat object (every value a string, number, boolean or null — the rows of a ranking) is filled into
a template made once per set of keys and depth, and the text of each float is written once per value (a
float's ``repr`` costs more than all the rest of a row: the notes of a topage take a few hundred values
over thousands of lines). Anything else it does not expect (other types, keys that are
not strings, a cycle) is handed to ``json.dumps`` itself, so the text never differs.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring

__all__ = ["dumps"]


#: the ``repr`` of the floats that are not JSON (any other float's ``repr`` is what json writes)
_SPECIAL_FLOATS = {"nan", "inf", "-inf"}
_NOT_JSON = "Out of range float values are not JSON compliant"

#: the text of every scalar but a float (`_Memo.float_text`)
_SCALARS = {str: encode_basestring, int: int.__repr__,
            bool: lambda value: "true" if value else "false", type(None): lambda value: "null"}


class _Unexpected(Exception):
    """Something `dumps` leaves to ``json.dumps``."""


class _Memo:
    """What one `dumps` makes once: the template of each set of keys at each depth, the text of each float."""

    def __init__(self):
        self.templates: dict[tuple[str, ...], str] = {}
        self.floats: dict[float, str] = {}

    def float_text(self, value: float) -> str:
        """``repr(value)``, made once per value; never kept for a zero (``0.0 == -0.0``, two texts) nor a
        NaN (never equal to itself: never found)."""
        text = self.floats.get(value)
        if text is None:
            text = float.__repr__(value)
            if value:
                self.floats[value] = text
        return text


def dumps(data) -> str:
    """The text of ``json.dumps(data, ensure_ascii=False, indent=2, allow_nan=False)``: `ValueError` for a
    NaN or an infinity (never printed as the non-JSON ``NaN``/``Infinity``)."""
    parts: list[str] = []
    try:
        _write(data, "", parts, _Memo())
    except (_Unexpected, RecursionError):
        return json.dumps(data, ensure_ascii=False, indent=2, allow_nan=False)
    return "".join(parts)


def _write(value, indent: str, parts: list[str], memo: _Memo) -> None:
    kind = type(value)
    if kind is dict:
        if not value:
            parts.append("{}")
        elif not _write_flat(value, indent, parts, memo):
            inner = indent + "  "
            separator = "{\n"
            for key, item in value.items():
                if type(key) is not str:
                    raise _Unexpected
                parts.append(f"{separator}{inner}{encode_basestring(key)}: ")
                separator = ",\n"
                _write(item, inner, parts, memo)
            parts.append(f"\n{indent}}}")
    elif kind is list or kind is tuple:
        if not value:
            parts.append("[]")
        else:
            inner = indent + "  "
            separator = "[\n" + inner
            for item in value:
                parts.append(separator)
                separator = ",\n" + inner
                _write(item, inner, parts, memo)
            parts.append(f"\n{indent}]")
    else:
        try:
            text = memo.float_text(value) if kind is float else _SCALARS[kind](value)
        except KeyError:
            raise _Unexpected from None
        if kind is float and text in _SPECIAL_FLOATS:
            raise ValueError(_NOT_JSON)
        parts.append(text)


def _write_flat(value: dict, indent: str, parts: list[str], memo: _Memo) -> bool:
    """Write an object whose values are all scalars through its keys' template; False for any other."""
    floats, float_text = memo.floats, memo.float_text
    try:
        texts = tuple([(floats.get(item) or float_text(item)) if type(item) is float else _SCALARS[type(item)](item)
                       for item in value.values()])
    except KeyError:
        return False
    if not _SPECIAL_FLOATS.isdisjoint(texts):  # only a float's repr can be nan or inf (a string is quoted)
        raise ValueError(_NOT_JSON)
    key = (indent, *value)
    templates = memo.templates
    template = templates.get(key)
    if template is None:
        if any(type(name) is not str for name in value):
            raise _Unexpected
        inner = indent + "  "
        lines = ",\n".join(f"{inner}{encode_basestring(name).replace('%', '%%')}: %s" for name in value)
        template = templates[key] = f"{{\n{lines}\n{indent}}}"
    parts.append(template % texts)
    return True
