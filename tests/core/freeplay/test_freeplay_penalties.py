"""The arbitration code's penalties (`duplicate.core.freeplay.penalties`; booklet chapter 4, p. 37–41)."""

import copy

import pytest

from duplicate.core.freeplay.penalties import CATALOGUE, sanction
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
