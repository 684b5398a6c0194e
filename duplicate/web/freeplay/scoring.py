"""The scorers' free-play screens (« donnes libres », SPEC §13), on the ``scoring`` blueprint (``/saisie``):
the list of the feuilles de marque and the same entry form as the arbiter's (`freeplay.arbiter.sheet_page`:
same checks, same 409 when someone saved the sheet meanwhile, journalled with who entered it), and the live
marks of a sheet being typed (``…/marques``, JSON, nothing saved), which the arbiter's form calls too.

Who may come: the blueprint's own guards (`scoring.require_staff`, `auth.tournament_for_scorer`): the
tournament's arbiters and the scorers it was given (« Accès »); a duplicate tournament's get a 404
(`freeplay.guard`, before them).
"""

from duplicate.web.lookups import tournament_or_404
from duplicate.web.freeplay.arbiter import marks_json, sheet_page, sheets_page
from duplicate.web.blueprints import scoring as bp


@bp.route("/tournois/<int:tournament_id>/libre/feuilles")
def free_sheets(tournament_id: int):
    """The feuilles the movement expects, entered or not, each with its link."""
    return sheets_page(tournament_or_404(tournament_id), "scoring/free_sheets.html", "scoring")


@bp.route("/tournois/<int:tournament_id>/libre/feuilles/<int:position>/<int:table>", methods=["GET", "POST"])
def free_sheet(tournament_id: int, position: int, table: int):
    """One feuille de marque: the arbiter's form (keyboard-first, a card per deal on a phone)."""
    return sheet_page(tournament_or_404(tournament_id), position, table, "scoring/free_sheet.html", "scoring")


@bp.get("/tournois/<int:tournament_id>/libre/feuilles/<int:position>/<int:table>/marques")
def free_marks(tournament_id: int, position: int, table: int):
    """``{"rows": [{"marks": {id: "+210"} | null}], "foot", "balance", "balanced", "message"}`` for the typed
    fields (the form's names in the query string): the core's marks, nothing saved."""
    return marks_json(tournament_or_404(tournament_id), position, table)

