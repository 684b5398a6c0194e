"""The form of a fiche (or of a table's round): its fields built from the fiche's lines, named after each
line's key (``<étui>-<table>``) as the page names its inputs (``templates/scoring/_lines.html``).

Each line has ``score-<key>`` (what was typed, as typed: the fiche shows it back in its input, and the
operations judge it with the whole fiche, `operations.save_lines`), ``chelem-<key>`` (ticked: ``1``),
``version-<key>`` (the version of the result the page showed), ``replace-<key>`` (the version shown next
to a line in conflict, read only when the « Remplacer » button, ``replace=1``, was pressed),
``contract-<key>`` (the bid, Garde when not sent; kept where the attack bids it, `Format.bid_contract`: the
team match) and ``attacker-<key>`` (who of the quadrette took: the operations ask the format,
`Format.attacker_of`). A version that is not a whole number of at most 9 digits is no version. The form
refuses only its CSRF token (the page then says it expired); a line is in `FicheForm.entries` when its
score was sent.
"""

from __future__ import annotations

from wtforms import Field

from duplicate import french
from duplicate.web.forms import FrenchForm


class Ticked(Field):
    """A box or button sent with the value ``1``: True, anything else False."""

    def process_formdata(self, valuelist):
        self.data = bool(valuelist) and valuelist[0] == "1"


class Version(Field):
    """A result's version (``version_id``) the page was built from: a whole number of at most 9 digits, else
    None — a forged or mangled one is no version (the line is then saved as from a page without it)."""

    def process_formdata(self, valuelist):
        text = valuelist[0].strip() if valuelist else ""
        self.data = int(text) if french.digits(text) and len(text) < 10 else None


class FicheForm(FrenchForm):
    """A fiche's lines (`fiche_form` adds their fields), its CSRF token and the « Remplacer » button."""

    replace = Ticked()
    keys: tuple[str, ...] = ()  # the lines' keys, in the fiche's order
    format = None  # the tournament's `Format`

    def entries(self) -> dict[str, dict]:
        """What was sent, line by line, for `operations.save_lines`: each line whose score was sent (a blank
        one too), as ``score`` (the text), ``chelem``, ``contract`` (None where the Garde is imposed),
        ``version``, ``replace`` (None unless « Remplacer » was pressed) and, when sent, ``attacker``."""
        entries = {}
        for key in self.keys:
            score, attacker = self[f"score-{key}"], self[f"attacker-{key}"]
            if not score.raw_data:
                continue
            entries[key] = {
                "replace": self[f"replace-{key}"].data if self.replace.data else None,
                "score": score.data,
                "chelem": bool(self[f"chelem-{key}"].data),
                "contract": self.format.bid_contract(self[f"contract-{key}"].data),
                **({"attacker": attacker.data} if attacker.raw_data else {}),
                "version": self[f"version-{key}"].data,
            }
        return entries


def fiche_form(lines, fmt) -> type[FicheForm]:
    """The form class of a fiche whose lines are ``lines``, in a tournament of format ``fmt``."""
    keys = tuple(line.key for line in lines)
    fields: dict[str, Field] = {}
    for key in keys:
        fields.update({f"score-{key}": Field(), f"chelem-{key}": Ticked(), f"version-{key}": Version(),
                       f"replace-{key}": Version(), f"contract-{key}": Field(default="garde"),
                       f"attacker-{key}": Field()})
    return type("FicheForm", (FicheForm,), {**fields, "keys": keys, "format": fmt})
