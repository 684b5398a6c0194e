"""The hostile inputs Hypothesis found, kept as plain examples (SQLite and PostgreSQL)."""

import json

from sqlmodel import Session

from factories import demo_tournament
from hostile_data import census, integrity

from duplicate import db, interchange


def _demo_file(app) -> dict:
    with Session(db.get_engine(app)) as session:
        data = interchange.export_tournament(session, demo_tournament(session))
        session.rollback()
    return json.loads(json.dumps(data))


def test_a_number_too_big_for_the_database_refuses_the_import(app, arbiter, runner, tmp_path):
    """Was: OverflowError (SQLite) or DataError (PostgreSQL) out of the import, a 500 and a traceback."""
    data = _demo_file(app)
    data["players"][1]["table"] = 2**63
    before = census(app)
    response = arbiter.post("/arbitre/import", data={"text": json.dumps(data)})
    assert response.status_code == 422
    assert "Rien n’a été importé" in response.get_data(as_text=True)
    path = tmp_path / "tournoi.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(args=["import", str(path)])
    assert result.exit_code == 1 and "Erreur" in result.output
    assert census(app) == before
    integrity(app)


def test_a_nul_character_in_a_form_is_refused_in_french(app, arbiter):
    """Was (PostgreSQL): DataError « text fields cannot contain NUL », then the error page itself failed
    (PendingRollbackError): a 500.  Then SQLite stored « Coupe\\x00 » while PostgreSQL refused it; both
    refuse it now, before the view (issue 17: the test accepted either answer)."""
    before = census(app)
    response = arbiter.post("/arbitre/competitions", data={"name": "Coupe\x00"})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "Données refusées" in page and "caractère nul" in page
    assert census(app) == before
    assert arbiter.get("/arbitre/competitions").status_code == 200
    # the same form without the NUL goes through
    assert arbiter.post("/arbitre/competitions", data={"name": "Coupe"}).status_code == 302


def test_a_nul_character_in_a_private_link_is_a_404(app, client):
    """Was (PostgreSQL): DataError on the token lookup, a 500."""
    assert client.get("/feuille/%00").status_code == 404
    assert client.get("/feuille/abc%00def/qr.svg").status_code == 404
