"""The arbiter's « Journal » page (on the ``arbiter`` blueprint): every change of the evening, newest
first — who, when, what, before and after (SPEC §11) — a hundred a page, those of one table or étui on
asking.

The operations journal their values with short keys, some English (``published``, ``fault``…) and some
codes (``paper``, ``garde_sans``, a seat ``E``): the page words every one in French here, in one place
(`journal_lines`): « résultats publiés : Non », « faute : Téléphone qui sonne », « place : Est ».  A key or
a code the table below does not know is shown as stored; `tests/web/test_journal_words.py` walks every
action the operations can journal and fails on such a key.
"""

from __future__ import annotations

from typing import Any

from flask import render_template, request

from duplicate import french, operations
from duplicate.core.cards import SEAT_NAMES
from duplicate.core.freeplay.penalties import CATALOGUE
from duplicate.db import get_session
from duplicate.web.lookups import tournament_or_404
from duplicate.web.blueprints import arbiter as bp
from duplicate.web.freeplay.guard import serves_free_play

#: Every key the journal's « Avant » / « Après » may hold (the operations' ``journal(…, before=, after=)``),
#: as the arbiter reads it; a key already French reads as it is.
KEYS = {
    # the operations' English keys
    "published": "résultats publiés", "entrant": "participant", "fault": "faute", "warning": "avertissement",
    "reason": "motif", "seat": "place", "source": "source", "three_player_tables": "tables à 3",
    "absent_players": "joueurs absents", "equipes": "équipes", "coefficient": "coefficient",
    "eliminated": "éliminés", "points": "points", "minutes": "minutes", "table": "table",
    "position": "position", "tables": "tables", "positions": "positions",
    # a free-play deal (« donnes »: `operations._freeplay.parse_row`)
    "deal": "donne", "taker": "preneur", "partner": "partenaire", "contract": "contrat", "bouts": "bouts",
    "poignees": "poignées", "petit_au_bout": "petit au bout", "chelem": "chelem", "passed": "passée",
    # the team match's bonus, per team
    "A": "équipe A", "B": "équipe B",
    # French already
    **{key: key for key in (
        "nom", "prénom", "licence", "club", "place", "joueur", "joueurs", "hors classement", "forfait",
        "remplaçant", "à partir de la position", "résultats", "archivé", "au relais aux positions",
        "étui", "salle", "score", "statut", "confirmé par", "compte", "compétition", "couleur", "finalistes",
        "coefficients", "donnes", "mouvement", "participant", "motif", "scores des autres tables",
        "étuis", "salle ouverte", "attaquant A", "attaquant B")},
}

SEATS = SEAT_NAMES

#: The codes some values are stored as, per key, in French.
CODES = {
    "source": {"paper": "fiche papier", "table": "saisie à la table"},
    "fault": {code: fault.label for code, fault in CATALOGUE.items()},
    "contract": operations.freeplay.CONTRACT_LABELS, "chelem": operations.freeplay.CHELEM_LABELS,
    "petit_au_bout": operations.freeplay.PETIT_LABELS,
    "mouvement": {code: label[:1].lower() + label[1:] for code, label in operations.freeplay_extras.TEAM4_MODES.items()},
}
PLACES = {"entrant", "participant", "place", "seat", "joueur", "taker", "partner", "finalistes"}


def journal_value(key: str, value: Any) -> str:
    """One stored value as the arbiter reads it: Oui / Non, « — » for nothing, a seat's name, an O place,
    a code's French words, a decimal comma; a list item by item (« ; »), a mapping « clé valeur, … »."""
    if value is None or value == "" or value == []:
        return "—"
    if isinstance(value, bool):
        return "Oui" if value else "Non"
    if isinstance(value, float):
        return french.number(value) if value != int(value) else str(int(value))
    if isinstance(value, dict):  # inside a line: « place Est, joueur E3, nom DUPONT Jean »
        return ", ".join(f"{KEYS.get(k, k)} {journal_value(k, v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return " ; ".join(journal_value(key, item) for item in value)
    if isinstance(value, str):
        if key in CODES and value in CODES[key]:
            return CODES[key][value]
        if key in PLACES:
            return SEATS.get(value) or french.place_label(value)
    return str(value)


def journal_lines(values: dict | None) -> list[str]:
    """An entry's « Avant » or « Après »: one « clé : valeur » line per value, in French."""
    return [f"{KEYS.get(key, key)} : {journal_value(key, value)}" for key, value in (values or {}).items()]


@bp.route("/tournois/<int:tournament_id>/journal")
@serves_free_play
def journal(tournament_id: int):
    """Newest first, `operations.JOURNAL_PAGE` entries a page (``?page=``; ``?page=tout``: all on one page, to
    print); ``?table=`` and ``?etui=`` keep the entries about that table or étui (`operations.journal_page`).
    A number that is not one is ignored."""
    tournament = tournament_or_404(tournament_id)
    table, board = request.args.get("table", type=int), request.args.get("etui", type=int)
    whole = request.args.get("page") == "tout"
    shown = operations.journal_page(get_session(), tournament, 1 if whole else request.args.get("page", 1, type=int),
                                    table=table, board=board, size=None if whole else operations.JOURNAL_PAGE)
    entries = [{"at": entry.at, "who": entry.who, "summary": entry.summary,
                "before": journal_lines(entry.before), "after": journal_lines(entry.after)}
               for entry in shown.entries]
    filters = {key: value for key, value in (("table", table), ("etui", board)) if value is not None}
    return render_template("arbiter/journal.html", tournament=tournament, entries=entries, shown=shown,
                           filters=filters)
