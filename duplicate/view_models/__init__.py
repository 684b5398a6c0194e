"""Plain-data view-models shared by a page and its printout (ARCHITECTURE habit 12: one view-model, two
renderers).

Each function here turns the core's output and the entrants' facts into a dict of strings, numbers and
booleans, formatted once by `duplicate.french`; the Jinja page (`templates/public/…`), the projector and the
WeasyPrint template (`templates/print/…`) only lay that dict out, so that the screen and the paper cannot
disagree on a place, an « ex æquo », an order or a rounding.

* `rankings`: the general, alternated and PM rankings, the team match's quarters and the penalties;
  each entrant's standing on his feuille de route.
* `route_sheet`: the rows of each feuille de route (étuis played, role, score, note, the arbiter's marks,
  relais), its penalties and standing: the private page and the printed sheet.
* `frequencies`: per étui, every score made, how many tables and which, its notes or PM and the arbiter's
  marks: the étui page and the printed frequency report.
* `movement`: what the arbiter's movement page says about a movement — the generator's notes without
  their claims and the statements made from the validator's counts (issue 29).
* `export` and `formatting`: what they all read — the tournament dict indexed for lookups (`Tournament`),
  the French words for seats, rooms and the arbiter's marks, scores, dates and ordinals in French.
  `duplicate.printing` reads this package; nothing here reads `duplicate.printing`.
"""

from .frequencies import frequencies_view
from .rankings import rankings_view, standings_view
from .route_sheet import route_sheets_view

__all__ = ["frequencies_view", "rankings_view", "standings_view", "route_sheets_view"]
