"""The arbitration code's penalties (`duplicate.core.freeplay.penalties`; booklet chapter 4, p. 37–41)."""

import copy

import pytest

from duplicate.core.freeplay.penalties import CATALOGUE, Sanction, sanction
from duplicate.core.freeplay.tournament import FreePlayError, rank_free

from test_freeplay_ranking import SHEET


def test_warning_then_penalty():
    """« un avertissement pour un téléphone qui sonne. En cas de récidive … une pénalité de 500 points »;
    « avertissement puis pénalité 100 points » (poignée); « Non-retour de la feuille de marque … 400
    points » at once; « Pénalité de 100 points au donneur » at once."""
    assert sanction("telephone_sonne", 0).french == "avertissement"
    assert sanction("telephone_sonne", 1).points == 500 and sanction("telephone_sonne", 2).points == 500
    assert (sanction("poignee", 0).points, sanction("poignee", 1).points) == (0, 100)
    assert sanction("feuille_disparue", 0).points == 400
    assert sanction("fausse_donne_en_jeu", 0).french == "pénalité de 100 points"
    assert sanction("retard", minutes=12).points == 300  # art. 26: 3 started fractions of 5 minutes
    assert sanction("fumer", points=50).points == 50
    with pytest.raises(ValueError, match="montant"):
        sanction("fumer")
    with pytest.raises(ValueError, match="faute inconnue"):
        sanction("bavardage")
    assert all(f.source for f in CATALOGUE.values())


def test_faults_in_a_file():
    """W3 (−510 on the sheet): a phone rings twice (warning, then 500) and the sheet disappears (400):
    −510 − 900 = −1410. N3's first poignée fault is a warning: −446 unchanged."""
    data = copy.deepcopy(SHEET)
    data["penalties"] = [{"player": "W3", "fault": "telephone_sonne"}, {"player": "N3", "fault": "poignee"},
                         {"player": "W3", "fault": "telephone_sonne"}, {"player": "W3", "fault": "feuille_disparue"}]
    rows = {r["id"]: r for r in rank_free(data)["ranking"]}
    assert (rows["W3"]["total"], rows["W3"]["penalty"]) == (-1410, 900)
    assert (rows["N3"]["total"], rows["N3"]["penalty"]) == (-446, 0)
    data["penalties"] = [{"player": "W3", "fault": ["x"]}]
    with pytest.raises(FreePlayError, match="pénalité n° 1 : faute inconnue"):
        rank_free(data)
    data["penalties"] = [{"player": "W3", "points": 1.5}]
    with pytest.raises(FreePlayError, match="entiers"):
        rank_free(data)


def test_each_sanction_exactly():
    """The sanction as a whole (warning flag and points): a fault « avertissement puis … » with no
    earlier one is a warning — « earlier » defaults to none; art. 26 is a penalty, never a warning, and 0
    minutes late cost 0 points (no started fraction of 5 minutes); a fault without an amount takes the
    points typed, 0 included."""
    assert sanction("telephone_sonne") == Sanction(True, 0)
    assert sanction("telephone_sonne").french == "avertissement"
    assert sanction("retard", minutes=12) == Sanction(False, 300)
    assert sanction("retard", minutes=12).french == "pénalité de 300 points"
    assert sanction("retard", minutes=0) == Sanction(False, 0)
    assert sanction("retard", minutes=1) == Sanction(False, 100)
    assert sanction("fausse_donne_avant_jeu") == Sanction(False, 100)
    assert sanction("telephone_utilise", 0) == Sanction(False, 500)
    assert sanction("cartes_touchees", 1) == Sanction(False, 100)
    assert sanction("fumer", points=0) == Sanction(False, 0)
    assert sanction("ethique", points=200) == Sanction(False, 200)


def test_sanction_refusals_word_for_word():
    for minutes in (None, -1):
        with pytest.raises(ValueError) as caught:
            sanction("retard", minutes=minutes)
        assert str(caught.value) == "retard : le nombre de minutes est demandé"
    with pytest.raises(ValueError) as caught:
        sanction("bavardage")
    assert str(caught.value) == (
        "faute inconnue « bavardage » (carte_exposee_defense, cartes_touchees, ethique, fausse_donne_avant_jeu, "
        "fausse_donne_en_jeu, feuille_disparue, fumer, poignee, telephone_sonne, telephone_utilise, retard)")
    for points in (None, -50):
        with pytest.raises(ValueError) as caught:
            sanction("fumer", points=points)
        assert str(caught.value) == ("Fumer (cigarette électronique comprise) : le code n’en fixe pas le montant, "
                                     "indiquez les points")


def test_penalties_of_every_kind_in_a_file():
    """On the booklet's sheet (N3 −446, S3 1346, E3 −390, W3 −510): E3 smokes, the arbiter types 50
    points; N3 is 7 minutes late as a « retard » fault (art. 26: 2 started fractions, 200); S3 gets 100
    points typed. W3's late_minutes 11 → 300; the « retard » fault with 0 minutes costs nothing."""
    data = copy.deepcopy(SHEET)
    data["penalties"] = [{"player": "E3", "fault": "fumer", "points": 50},
                         {"player": "N3", "fault": "retard", "late_minutes": 7},
                         {"player": "S3", "points": 100, "reason": "comportement"},
                         {"player": "W3", "late_minutes": 11},
                         {"player": "W3", "fault": "retard", "late_minutes": 0}]
    rows = {r["id"]: (r["total"], r["penalty"]) for r in rank_free(data)["ranking"]}
    assert rows == {"S3": (1246, 100), "E3": (-440, 50), "N3": (-646, 200), "W3": (-810, 300)}


@pytest.mark.parametrize("penalties, message", [
    ([{"player": "ZZ", "points": 100}], "pénalité n° 1 : joueur inconnu « ZZ »"),
    ("W3", "« penalties » : liste attendue"),
    ([{"player": "W3", "fault": "fumer"}],
     "pénalité n° 1 : Fumer (cigarette électronique comprise) : le code n’en fixe pas le montant, indiquez les "
     "points"),
    ([{"player": "W3", "fault": "retard"}], "pénalité n° 1 : retard : le nombre de minutes est demandé"),
    ([{"player": "W3", "late_minutes": -1}], "pénalité n° 1 : « late_minutes » (minutes, entier ≥ 0) attendu"),
    ([{"player": "W3", "late_minutes": 2.5}], "pénalité n° 1 : « points » et « late_minutes » sont des entiers"),
    ([{"player": "W3", "reason": "rien"}], "pénalité n° 1 : « points » (entier) ou « late_minutes » attendu"),
])
def test_penalty_refusals_word_for_word(penalties, message):
    data = copy.deepcopy(SHEET)
    data["penalties"] = penalties
    with pytest.raises(FreePlayError) as caught:
        rank_free(data)
    assert str(caught.value) == message


def test_zero_minutes_late_costs_nothing():
    """Art. 26 counts started fractions of 5 minutes: 0 minutes late starts none, 0 points (« entier ≥ 0 »
    is accepted); W3 keeps the sheet's −510."""
    data = copy.deepcopy(SHEET)
    data["penalties"] = [{"player": "W3", "late_minutes": 0}]
    rows = {r["id"]: (r["total"], r["penalty"]) for r in rank_free(data)["ranking"]}
    assert rows["W3"] == (-510, 0)
