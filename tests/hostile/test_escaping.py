"""HTML typed in a name is shown as text everywhere: arbiter, scoring and public pages, the private route
sheet, the JSON, and every printed PDF (WeasyPrint would drop a ``<script>`` or turn ``<b>`` bold; the
text extracted from the PDF must hold the characters as typed)."""

from __future__ import annotations

import subprocess

import pytest
from sqlmodel import Session, select

from hostile_data import HOSTILE, RAW, hostile_tournament

from duplicate import db, operations, printing
from duplicate.models import Result


@pytest.fixture
def sqlite_app(sqlite_copy):
    from duplicate import create_app

    app = create_app({"DATABASE_URL": sqlite_copy("pdf.sqlite3")})
    yield app
    db.get_engine(app).dispose()


def pages(app, tid: int) -> dict[str, list[str]]:
    """The pages showing names, by who can see them."""
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, tid)
        tokens = [link["token"] for link in operations.private_links(session, tournament)]
        result_id = session.exec(select(Result.id).where(Result.tournament_id == tid)).first()
    staff = [f"/saisie/tournois/{tid}/", f"/saisie/tournois/{tid}/etuis/1", f"/saisie/tournois/{tid}/tables/1/1"]
    arbiter = [
        "/arbitre/", f"/arbitre/tournois/{tid}/", f"/arbitre/tournois/{tid}/joueurs",
        f"/arbitre/tournois/{tid}/placement", f"/arbitre/tournois/{tid}/placement/impression",
        f"/arbitre/tournois/{tid}/etuis", f"/arbitre/tournois/{tid}/mouvement",
        f"/arbitre/tournois/{tid}/resultats", f"/arbitre/tournois/{tid}/etuis/7/fiche",
        f"/arbitre/tournois/{tid}/feuilles", f"/arbitre/tournois/{tid}/competition",
        f"/arbitre/tournois/{tid}/impression/",
    ]
    public = ["/", f"/tournois/{tid}/", f"/tournois/{tid}/etuis/7", f"/tournois/{tid}/etuis/14",
              f"/feuille/{tokens[0]}", f"/feuille-de-route/{tokens[2]}"]
    assert result_id is not None
    return {"arbiter": arbiter + staff + public, "public": public}


def assert_escaped(body: str, where: str) -> None:
    for raw in RAW:
        assert raw not in body, f"{where}: « {raw} » is not escaped"


def test_html_in_names_is_escaped_on_every_page(app, arbiter):
    tid = hostile_tournament(app)
    visitor = app.test_client()
    for path in pages(app, tid)["arbiter"]:
        response = arbiter.get(path)
        assert response.status_code == 200, path
        body = response.get_data(as_text=True)
        assert_escaped(body, path)
    for path in pages(app, tid)["public"]:
        body = visitor.get(path).get_data(as_text=True)
        assert_escaped(body, path)
    results = visitor.get(f"/tournois/{tid}/").get_data(as_text=True)
    assert "&lt;b&gt;Zoé&lt;/b&gt;" in results and "&lt;script&gt;" in results  # shown, as text
    penalties = arbiter.get(f"/arbitre/tournois/{tid}/resultats").get_data(as_text=True)
    assert "&lt;i&gt;retard&lt;/i&gt;" in penalties


def test_json_keeps_names_as_data(app, client):
    tid = hostile_tournament(app)
    response = client.get(f"/api/tournaments/{tid}/ranking")
    assert response.status_code == 200 and response.mimetype == "application/json"
    # the names come back exactly as typed — data, neither escaped for HTML nor stripped
    ranking = response.get_json()["ranking"]
    assert {row["name"] for row in ranking} == {f"{HOSTILE['surname']}{i} {HOSTILE['first_name']}"
                                                for i in range(len(ranking))}
    assert len(ranking) == 20
    body = response.get_data(as_text=True)
    assert "&lt;" not in body and "&gt;" not in body and "&#34;" not in body and "&quot;" not in body


@pytest.mark.parametrize("kind", ["travellers", "ranking", "route-sheets", "movement-cards", "guide-cards",
                                  "labels", "frequencies"])
def test_html_in_names_is_printed_as_text_in_pdfs(sqlite_app, kind, tmp_path):
    """The PDFs are built from the export, the same on both databases: SQLite only."""
    from duplicate import interchange

    app = sqlite_app
    tid = hostile_tournament(app)
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, tid)
        export = interchange.export_tournament(session, tournament)
        ranking = operations.ranking(session, tournament)
    options = {"scored": True} if kind == "travellers" else {}
    if kind in ("route-sheets", "movement-cards"):
        options["entrants"] = ["N1", "E3"]
    pdf = printing.render_kind(kind, export, ranking, **options)
    assert pdf.startswith(b"%PDF")
    path = tmp_path / f"{kind}.pdf"
    path.write_bytes(pdf)
    text = subprocess.run(["pdftotext", "-raw", str(path), "-"], capture_output=True, text=True, check=True,
                          timeout=60).stdout
    squeezed = "".join(text.split())
    # whatever of the names the document prints, it prints with its markup as text, never interpreted
    shown = 0
    for typed, inner in ((HOSTILE["tournament"], "alert('t')"), (HOSTILE["surname"], "Zoé"),
                         (HOSTILE["club"], "alert('c')"), (HOSTILE["first_name"], "onerror=alert(1)")):
        if inner in squeezed:
            shown += 1
            assert "".join(typed.split()) in squeezed, f"{kind}: « {typed} » lost its markup\n{text[:800]}"
    assert shown, f"{kind}: none of the names is printed\n{text[:800]}"
    if kind in ("ranking", "route-sheets", "movement-cards"):
        assert HOSTILE["surname"] in squeezed
