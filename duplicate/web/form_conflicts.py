"""Two arbiters, one form (issue 31, point 3; SPEC §11: nothing is overwritten without an explicit act) — the
rule of the fiches (`duplicate.web.scoring.fiches`: a 409 shows the stored score next to the typed one) for the
arbiter's edit forms.

A guarded form (`Guarded`) carries, in a hidden field (``valeurs_lues``), the values it showed when it was
read. On its save, the row is read again, locked until the request ends (`operations.lock_row`: on
PostgreSQL a second save waits for the first's commit), and each field is compared three ways — what the
form showed, what is stored now, what this arbiter sent:

* a field this arbiter did not change takes the stored value (another arbiter's change there is kept);
* a field this arbiter changed, that nobody else did — or that the other changed to the same value — is saved;
* a field both changed, to different values, is a **conflict**: nothing is saved, the page answers **409**
  with « Un autre arbitre a enregistré ce formulaire pendant que vous le remplissiez », and each field in
  conflict shows what is stored now next to what this arbiter typed, which stays in its input. The hidden
  field then holds the stored values: pressing « Enregistrer » again, having seen them, is the explicit act
  that replaces them (and the journal records it, as any change).

A post without the hidden field (a script, a page older than this rule) is saved as before: no check.

A view uses `guard` in place of ``form.validate_on_submit()`` and answers `status` (409 after a conflict).
"""

from __future__ import annotations

import json
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any, Callable, Mapping

from wtforms import HiddenField

from duplicate import operations
from duplicate.db import get_session

CONFLICT = 409
READ_FIELD = "valeurs_lues"
MESSAGE = ("Un autre arbitre a enregistré ce formulaire pendant que vous le remplissiez : rien n’a été "
           "enregistré. Ce qu’il a enregistré est indiqué sous chaque champ en conflit ; ce que vous avez "
           "tapé est gardé. Pour remplacer ses valeurs par les vôtres, enregistrez de nouveau.")


class Guarded:
    """Mixin of a guarded form: the hidden field of the values it showed (`guard`)."""

    valeurs_lues = HiddenField()


def _text(value: Any) -> str:
    """A value as compared: None and "" alike, booleans as « 1 » / « », numbers without trailing zeros
    (1, 1.0 and « 1 » alike), text stripped."""
    if value is None or value is False:
        return ""
    if value is True:
        return "1"
    if isinstance(value, Fraction):
        value = Decimal(value.numerator) / Decimal(value.denominator)
    if isinstance(value, (int, float, Decimal)):
        try:
            return format(Decimal(str(value)).normalize(), "f")
        except InvalidOperation:
            return str(value)
    return str(value).strip()


def _shown(form, value: Any, name: str) -> str:
    """A stored value as the arbiter reads it: a choice's label, « oui »/« non », « (vide) »."""
    field = form[name]
    if isinstance(value, bool) or field.type == "BooleanField":
        return "coché" if value else "non coché"
    text = _text(value)
    if getattr(field, "choices", None) is not None:
        for choice in field.iter_choices():
            if _text(choice[0]) == text:
                return str(choice[1])
    if isinstance(value, (float, Decimal, Fraction)):
        return text.replace(".", ",")
    return text or "(vide)"


def note_shown(form, values: Mapping[str, Any]) -> None:
    """Put ``values`` (field name → stored value) in the form's hidden field: what this page shows."""
    form.valeurs_lues.data = json.dumps({name: _text(value) for name, value in values.items()},
                                        ensure_ascii=False, sort_keys=True)


def _read(form) -> dict[str, str] | None:
    try:
        shown = json.loads(form.valeurs_lues.data or "")
    except ValueError:
        return None
    return shown if isinstance(shown, dict) else None


def guard(form, row, values: Callable[[Any], Mapping[str, Any]]) -> bool:
    """In place of ``form.validate_on_submit()``: True when the form was posted, is valid and may be saved.

    ``row`` is the database row the form edits, ``values(row)`` its values by field name (the form's types).
    Shown (not posted): the hidden field is filled from ``values(row)``. Posted and valid: the row is locked
    and read again, the fields this arbiter left alone take the stored values, and False is returned on a
    conflict — the form then carries the messages and the stored values, ``form.conflict`` is true
    (`status` gives 409)."""
    form.conflict = False
    if not form.is_submitted():
        note_shown(form, values(row))
        return False
    if not form.validate():
        return False
    shown = _read(form)
    operations.lock_row(get_session(), row)
    stored = values(row)
    if shown is None:  # no values read were sent: saved as before
        return True
    conflicts = {}
    for name, value in stored.items():
        if name not in shown:
            continue
        field = form[name]
        before, now, typed = shown[name], _text(value), _text(field.data)
        if typed == before:
            if now != before:
                field.data = value  # the other arbiter's change, this one left the field alone
        elif now not in (before, typed):
            conflicts[name] = value
    if not conflicts:
        return True
    form.conflict = True
    form.form_errors.append(MESSAGE)
    for name, value in conflicts.items():
        field = form[name]
        field.errors = [*field.errors, f"Enregistré entre-temps par un autre arbitre : « {_shown(form, value, name)} ». "
                                       f"Vous avez tapé : « {_shown(form, field.data, name)} » (gardé ci-dessus)."]
    note_shown(form, stored)  # saving again from this page replaces what it now shows: an explicit act
    return False


def status(form, default: int) -> int:
    """409 after a conflict (`guard`), else ``default``."""
    return CONFLICT if getattr(form, "conflict", False) else default
