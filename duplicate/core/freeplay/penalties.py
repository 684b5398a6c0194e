"""The arbitration code's penalties in free play (booklet chapter 4, « Code d'arbitrage », p. 37–41 of
``seeds/fft-fascicule-free-play-ocr.txt``), and art. 26 for lateness.

Only the faults the booklet gives an amount (or « avertissement puis pénalité ») for are in the
catalogue; what happens to the deal (annulled, counted, counted if the taker fails…) is the arbiter's entry
of the deal, not a penalty. Where the text says « avertissement puis pénalité de 100 points » (or « 100
points de pénalité si récidive »), the player's first such fault is a warning (0 point) and every later one
costs the amount; « pénalité de 100 points » alone costs it the first time. Faults the booklet punishes
without an amount (smoking: « pénalité » ; ethics, « article 41 du fascicule 1 », not in our seeds) take the
amount the arbiter types (``points``).
"""

from __future__ import annotations

from dataclasses import dataclass

from .ranking import lateness_penalty

__all__ = ["Fault", "CATALOGUE", "Sanction", "sanction"]


@dataclass(frozen=True)
class Fault:
    """A fault of the catalogue: ``warning_first`` — a warning the first time, the penalty on repeat."""

    code: str
    label: str
    points: int | None
    warning_first: bool
    source: str


CATALOGUE = {fault.code: fault for fault in (
    Fault("fausse_donne_avant_jeu", "Fausse donne découverte après l’annonce d’un contrat, avant le jeu", 100,
          False, "« Fausse donne » : « Dans les 2 cas pénalité de 100 points »"),
    Fault("fausse_donne_en_jeu", "Fausse donne découverte en cours de jeu (au donneur)", 100, False,
          "« Fausse donne » : « Pénalité de 100 points au donneur »"),
    Fault("carte_exposee_defense", "Carte exposée par la défense (sans effet sur la donne)", 100, True,
          "« Carte exposée » : « avertissement et 100 points de pénalité si récidive »"),
    Fault("feuille_disparue", "Non-retour de la feuille de marque (à chacun des 4 joueurs)", 400, False,
          "« Autres cas » : « Non-retour de la feuille de marque (feuille « disparue ») 400 points »"),
    Fault("cartes_touchees", "Cartes touchées ou jeu relevé pendant la distribution", 100, True,
          "« Autres cas » : « un avertissement au joueur fautif puis en cas de récidive une pénalité de 100 "
          "points »"),
    Fault("telephone_sonne", "Téléphone qui sonne", 500, True,
          "« Autres cas » : « un avertissement pour un téléphone qui sonne. En cas de récidive … une pénalité "
          "de 500 points »"),
    Fault("telephone_utilise", "Téléphone utilisé pendant une position", 500, False,
          "« Autres cas » : « d’utilisation du téléphone pendant le déroulement d’une position … pénalité de "
          "500 points »"),
    Fault("poignee", "Faute dans la présentation d’une poignée", 100, True,
          "« Faute dans la présentation de la poignée » : « avertissement puis pénalité 100 points »"),
    Fault("fumer", "Fumer (cigarette électronique comprise)", None, False,
          "« Interdiction de fumer (y compris cigarette électronique) : pénalité » (montant non précisé)"),
    Fault("ethique", "Faute contre l’éthique", None, False,
          "« Renonce » : « pénalité pour faute contre l’éthique (article 41 du fascicule 1) »"),
)}


@dataclass(frozen=True)
class Sanction:
    """What a fault costs: ``warning`` (0 point) or ``points``."""

    warning: bool
    points: int

    @property
    def french(self) -> str:
        return "avertissement" if self.warning else f"pénalité de {self.points} points"


def sanction(code: str, earlier: int = 0, points: int | None = None, minutes: int | None = None) -> Sanction:
    """The sanction of a player's fault ``code`` when he has had ``earlier`` sanctions for it already;
    ``retard`` takes ``minutes`` (art. 26); a fault without an amount takes ``points``."""
    if code == "retard":
        if minutes is None or minutes < 0:
            raise ValueError("retard : le nombre de minutes est demandé")
        return Sanction(False, lateness_penalty(minutes))
    fault = CATALOGUE.get(code)
    if fault is None:
        raise ValueError(f"faute inconnue « {code} » ({', '.join(sorted(CATALOGUE))}, retard)")
    if fault.warning_first and earlier == 0:
        return Sanction(True, 0)
    amount = fault.points if fault.points is not None else points
    if amount is None or amount < 0:
        raise ValueError(f"{fault.label} : le code n’en fixe pas le montant, indiquez les points")
    return Sanction(False, amount)
