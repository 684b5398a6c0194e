"""What the movement page says about a movement (issue 29 point 3: every word true).

The generators write notes (`core.movements`, ``Movement.notes``) when they build a movement; some of
them are claims — « aucun joueur ne … rencontre deux fois un autre joueur » — that hold for the movement
the generator built but not always for the movement shown: the relais hand a trajectory to another
player, so 23 players meet 14 pairs twice under the 5-table note that says none does; a movement
stored before a change keeps its old notes.  So the page never repeats a generator's claim: it keeps the
notes' descriptions (method, series, how the relais turn) with the claims cut out (:data:`CLAIMS`), and
every statement about repeats, meetings, rooms and rests is made here from the counts of the movement
validator (`core.movements.validator.check`, ``Report.counts``) — a sentence is printed only when its
count says so, and a count above zero is given as a number.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Mapping

from duplicate.core.movements.model import read_notes
from duplicate.french import counted

__all__ = ["CLAIMS", "board_count", "movement_statements", "strip_claims"]

#: The claims the generators write into their notes (individual, small clubs, relais), cut from the
#: notes shown; what they claim is said by :func:`movement_statements` from the validator's counts.
CLAIMS = (
    re.compile(r"\s*:\s*aucun joueur ne joue deux fois un étui ni ne rencontre deux fois un autre joueur"),
    re.compile(r"\s*;\s*aucun joueur ne joue deux fois un étui"),
    re.compile(r"\s*;\s*\d+ paires? de joueurs se rencontre(?:nt)? plus d’une fois \(minimum recherché\)"),
    re.compile(r"\s*;\s*chacun passe au plus une fois au relais avant que tous y soient passés"),
    re.compile(r"\s+sans rejouer un étui"),
)

# per kind: (no one…, a pair of…) for the meetings; (no one…) for the étuis played twice
_WHO = {
    "individual": ("Aucun joueur ne rencontre deux fois un autre joueur.",
                   ("paire de joueurs se rencontre", "paires de joueurs se rencontrent"),
                   "Aucun joueur ne joue deux fois un étui."),
    "triplettes": ("Aucune triplette ne rencontre deux fois une autre triplette.",
                   ("paire de triplettes se rencontre", "paires de triplettes se rencontrent"),
                   "Aucune triplette ne joue deux fois un étui."),
    "quadrettes": ("Aucun attaquant ne rencontre deux fois la même défense.",
                   ("paire attaquant–défense se rencontre", "paires attaquant–défense se rencontrent"),
                   "Aucun attaquant ni aucune défense ne joue deux fois un étui."),
    "team_match": ("", ("", ""), "Aucun attaquant ni aucune défense ne joue deux fois un étui."),
}


def strip_claims(notes: Iterable[str]) -> list[str]:
    """The generator's notes without their claims (:data:`CLAIMS`); a note left empty is dropped."""
    kept = []
    for note in notes:
        text = str(note)
        for claim in CLAIMS:
            text = claim.sub("", text)
        text = text.strip()
        if text and text != ".":
            kept.append(text if text.endswith(".") else text + ".")
    return kept


def movement_statements(data: Mapping[str, Any], counts: Mapping[str, Any]) -> dict:
    """``{"notes", "statements"}`` of the movement page: the generator's notes without their claims, and
    the statements made from the validator's ``counts`` (``Report.counts``; empty when the movement
    could not be read: then no statement at all)."""
    notes = strip_claims(read_notes(data.get("notes")))  # as the reader keeps them: 3.5 is no notes
    if not counts:
        return {"notes": notes, "statements": []}
    kind = data.get("kind") if data.get("kind") in _WHO else "individual"
    nobody_meets, pairs_meet, nobody_replays = _WHO[kind]
    statements = []
    repeats = counts.get("board_repeats", 0)
    statements.append(nobody_replays if repeats == 0 else
                      f"{repeats} fois un participant joue un étui qu’il a déjà joué (voir les erreurs).")
    if counts.get("rooms"):
        groups, mirrored = counts.get("board_groups", 0), counts.get("mirrored", 0)
        if groups and mirrored == groups:
            statements.append("Chaque étui est joué en miroir dans les deux salles de son quart temps, "
                              "comme le veut un match.")
        else:
            statements.append(f"{counted(groups - mirrored, 'étui', 'étuis')} sur {groups} "
                              f"{'n’est pas joué' if groups - mirrored <= 1 else 'ne sont pas joués'} en miroir dans les "
                              "deux salles de leur quart temps (un match le demande).")
    else:
        meetings = counts.get("repeated_meetings", 0)
        statements.append(nobody_meets if meetings == 0 else
                          f"{counted(meetings, *pairs_meet)} plus d’une fois (liste dans les avertissements).")
        simultaneous = counts.get("simultaneous", 0)
        if simultaneous:
            statements.append(f"{simultaneous} fois un étui est à deux tables dans la même position "
                              "(voir les erreurs).")
    if counts.get("rests"):
        relais = counts.get("relais", 0)
        statements.append("Relais : chacun passe au plus une fois au relais avant que tous y soient passés."
                          if relais == 0 else f"Relais : {counted(relais, 'erreur', 'erreurs')} (voir les erreurs).")
    return {"notes": notes, "statements": statements}


def board_count(data: Mapping[str, Any] | None, quarters: bool = False) -> dict:
    """How many étuis to deal for the movement ``data`` and why, in one French sentence (issue 29 point 10):
    ``{"count", "per", "sentence"}`` (``count`` and ``per`` None without a movement).

    Rule: the movement says it.  Each round lists the étuis its table plays at its position; the distinct
    lists are the movement's series — one a quarter in a team match, both rooms playing it (seed
    ``duplicate-tournaments.txt``, « DUPLICATE PAR ÉQUIPES », « Les étuis ») — and the étuis to deal are 1 to
    the highest number played (dealt étuis are numbered from 1): series × étuis per series.  A team match
    plays 16 to 24 donnes in 4 quarters (same seed, « Présentation »): 4, 5 or 6 étuis a quarter, chosen
    with the movement.  ``quarters``: the arbiter chooses a quarter's étuis (`Format.chooses_quarter_boards`)."""
    rounds = [r for r in (data or {}).get("rounds", []) or [] if isinstance(r, Mapping) and r.get("boards")]
    if not rounds:
        return {"count": None, "per": None, "sentence": (
            "Le nombre d’étuis découle du mouvement : 4 quarts temps de 4, 5 ou 6 étuis (16 à 24 donnes), "
            "à choisir sur la page « Mouvement »." if quarters else
            "Le nombre d’étuis découle du mouvement : ses séries d’étuis (chaque table en joue une à chaque "
            "position) × les étuis d’une série (4 par défaut) ; choisissez d’abord le mouvement.")}
    series = {tuple(sorted(int(b) for b in r["boards"])) for r in rounds}
    count = max(max(s) for s in series)
    sizes = {len(s) for s in series}
    per = sizes.pop() if len(sizes) == 1 else None
    if per is None or len(series) * per != count:
        return {"count": count, "per": per, "sentence": f"Le mouvement choisi fait jouer les étuis 1 à {count}."}
    if quarters:
        return {"count": count, "per": per, "sentence": (
            f"Le mouvement choisi fait jouer {count} étuis : {len(series)} quarts temps de {per} étuis.")}
    positions = len({r.get("position") for r in rounds})
    return {"count": count, "per": per, "sentence": (
        f"Le mouvement choisi fait jouer {count} étuis : {len(series)} séries de {per} étuis, chaque table "
        f"jouant une série à chaque position ({positions} position{'s' if positions > 1 else ''}).")}
