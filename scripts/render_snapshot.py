"""Save the HTML of every page and every printout (its HTML, before WeasyPrint), to prove that a change of
the templates changed nothing a user sees: run it before and after the change, then compare the two folders.

    python scripts/render_snapshot.py DATABASE_DIR OUT_DIR
    python scripts/render_snapshot.py --compare BEFORE_DIR AFTER_DIR

The first run makes, in DATABASE_DIR, a SQLite database: the demonstration tournament (``flask demo``, a player
withdrawn), a free-play evening and a published libre duo with a feuille entered, a team match, an archived
tournament, a competition, an API token, the accounts « arbitre » and « marqueur »; later runs reuse it, so that
the private links, the secrets and the stored times are the same in both snapshots. Then the arbiter, the scorer
and a visitor each follow every link of the pages they reach (GET only, PDFs and downloads left aside), the
import previews are posted, and every printed kind is rendered to HTML.

Masked: CSRF tokens, the offered seed and the clock (new on each request), and the repository's path (the
printouts name their fonts by it), so that a copy of an older commit (``git archive``) can make the « before »
— give its static/fonts the dates of the working tree's (``touch -r``): the diagrams' grid image is named after
the font's. Nothing else is, so a difference is a difference.

``--compare`` sorts the files of two snapshots: identical; different only by white space between tags (the
indentation of a line that starts with a tag, a line of white space alone between two tags), which a browser
collapses: invisible; or different (exit status 1).
"""

from __future__ import annotations

import io
import re
import sys
from collections import deque
from pathlib import Path
from urllib.parse import urlsplit

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

PASSWORD = "mot-de-passe-solide"
MAX_PAGES = 1500
SKIP = re.compile(r"\.(pdf|csv|json|svg|png)$|/static/|/deconnexion|/fichier$|/etat$|/export$")
PLAYERS_CSV = ("Licence;Nom;Prénom;Club\n1001;DUPONT;Ana;Lyon\n1002;MARTIN;Luc;\n;;;\nx;;Y;Z\n"
               "1001;DOUBLON;Eve;Nice\n")
TEAMS_CSV = ("Équipe;Licence;Nom;Prénom;Club\n"
             "Les Rois;101;LEFÈVRE;Hélène;Lyon\nLes Rois;102;MARTIN;Jean;Lyon\n"
             "Les Rois;103;DURAND;Zoé;Lyon\nLes Rois;104;PETIT;Luc;Lyon\n"
             "Les Dames;201;ROUX;Anne;Nice\nLes Dames;202;BLANC;Léa;Nice\n"
             "Les Dames;203;NOIR;Éva;Nice\nLes Dames;204;VERT;Ida;Nice\n")
#: what is new on each request: CSRF tokens, the random seed offered for dealing, the server's clock
MASKS = [re.compile(r'(<input[^>]*name="[^"]*csrf_token"[^>]*value=")[^"]*(")'),
         re.compile(r'(<input[^>]*name="generate-seed"[^>]*value=")[^"]*(")'),
         re.compile(r'(data-now=")[^"]*(")')]


def make_app(database: Path):
    from duplicate import create_app

    return create_app({"DATABASE_URL": f"sqlite:///{database}", "PUBLIC_RESULTS_MAX_STALE": 0,
                       "ROUTE_SHEET_PDF_WAIT": 0})


def sign_in(app, username: str):
    client = app.test_client()
    response = client.post("/connexion", data={"username": username, "password": PASSWORD,
                                               "csrf_token": csrf_token(client.get("/connexion"))})
    assert response.status_code == 302, response.get_data(as_text=True)
    return client


def csrf_token(response) -> str:
    """The CSRF token of a page's form (empty while CSRF is off)."""
    found = re.search(r'name="csrf_token" type="hidden" value="([^"]*)"', response.get_data(as_text=True))
    return found.group(1) if found else ""


def _created(response) -> int:
    assert response.status_code == 302, response.get_data(as_text=True)
    return int(re.search(r"/tournois/(\d+)/", response.headers["Location"]).group(1))


def post(client, url: str, data: dict, status: int = 302) -> None:
    """A step of the set-up; it must be accepted (a redirection), or the snapshot would miss what it makes."""
    response = client.post(url, data=data)
    assert response.status_code == status, (url, response.status_code, response.get_data(as_text=True)[-3000:])


def build(app) -> None:
    """The data of the snapshot (CSRF off while it is made, as in the tests)."""
    from sqlmodel import Session, select

    from duplicate import db, operations
    from duplicate.models import Player

    result = app.test_cli_runner().invoke(args=["demo"])
    assert result.exit_code == 0, result.output
    with app.app_context(), Session(db.get_engine(app)) as session:
        operations.create_user(session, "arbitre", PASSWORD, "arbiter")
        operations.create_user(session, "arbitre2", PASSWORD, "arbiter")
        operations.create_user(session, "marqueur", PASSWORD, "scorer")
        session.commit()
    arbiter = sign_in(app, "arbitre")
    new = {"date": "2026-11-24", "place": "Club", "sessions": "1", "timezone": "Europe/Paris"}
    post(arbiter, "/arbitre/tournois/1/acces/donner", {"grant-username": "marqueur"})
    post(arbiter, "/arbitre/tournois/1/jetons", {"token-label": "tablette", "token-role": "scorer"}, 200)
    with Session(db.get_engine(app)) as session:
        withdrawn = session.exec(select(Player).where(Player.tournament_id == 1).order_by(Player.id)).first().id
    post(arbiter, "/arbitre/tournois/1/changements/forfait",
         {"withdrawal-player_id": str(withdrawn), "withdrawal-position": "3"})

    free = _created(arbiter.post("/arbitre/tournois/nouveau", data={**new, "name": "Mardi libre", "kind": "free"}))
    for i in range(18):
        arbiter.post(f"/arbitre/tournois/{free}/joueurs", data={
            "licence": f"L{i:04d}", "surname": f"NOM{i:02d}", "first_name": "Prénom", "club": "Club"})
    post(arbiter, f"/arbitre/tournois/{free}/libre/mouvement", {"positions": "", "seed": "mardi"})
    post(arbiter, f"/arbitre/tournois/{free}/acces/donner", {"grant-username": "marqueur"})
    post(arbiter, f"/arbitre/tournois/{free}/acces/marqueur",
         {"scorer-username": "marqueur2", "scorer-password": PASSWORD})
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, free)
        seats = operations.freeplay.table_seats(session, tournament, 1, 1)
    post(arbiter, f"/arbitre/tournois/{free}/libre/feuilles/1/1", {
        "rows": "2", "version": "",
        "taker-0": seats["S"], "contract-0": "garde", "points-0": "51", "bouts-0": "2",
        "taker-1": seats["N"], "contract-1": "prise", "points-1": "45", "bouts-1": "1"})
    post(arbiter, f"/arbitre/tournois/{free}/libre/retard", {"entrant_id": seats["S"], "minutes": "7"})

    team = _created(arbiter.post("/arbitre/tournois/nouveau", data={**new, "name": "Match", "kind": "team_match"}))
    post(arbiter, f"/arbitre/tournois/{team}/equipes/import", {"confirm": "1", "expected": "8", "text": TEAMS_CSV})

    old = _created(arbiter.post("/arbitre/tournois/nouveau", data={**new, "name": "Ancien", "kind": "individual"}))
    post(arbiter, f"/arbitre/tournois/{old}/archiver", {})
    _created(arbiter.post("/arbitre/tournois/nouveau", data={**new, "name": "Quadrettes", "kind": "quadrettes"}))
    duo = _created(arbiter.post("/arbitre/tournois/nouveau", data={**new, "name": "Libre duo", "kind": "free_duo"}))
    for i in range(16):
        post(arbiter, f"/arbitre/tournois/{duo}/joueurs", {
            "licence": f"D{i:04d}", "surname": f"DUO{i:02d}", "first_name": "Prénom", "club": "Club"})
    with Session(db.get_engine(app)) as session:
        ids = [p.id for p in session.exec(select(Player).where(Player.tournament_id == duo).order_by(Player.id))]
    for n in range(8):
        post(arbiter, f"/arbitre/tournois/{duo}/equipes",
             {"name": f"Équipe {n + 1}", "player_ids": ids[2 * n:2 * n + 2]})
    post(arbiter, f"/arbitre/tournois/{duo}/libre/mouvement", {"positions": "", "seed": "duo"})
    with Session(db.get_engine(app)) as session:
        seats = operations.freeplay.table_seats(session, operations.get_tournament(session, duo), 1, 1)
    post(arbiter, f"/arbitre/tournois/{duo}/libre/feuilles/1/1", {
        "rows": "1", "version": "", "taker-0": seats["E"], "contract-0": "garde", "points-0": "51", "bouts-0": "2"})
    with Session(db.get_engine(app)) as session:  # its results public
        operations.publish(session, operations.get_tournament(session, duo), True, "arbitre")
        session.commit()
    post(arbiter, "/arbitre/competitions", {"name": "Championnat"})
    post(arbiter, "/arbitre/competitions/1/acces/donner", {"grant-username": "arbitre2"})
    post(arbiter, f"/arbitre/tournois/{free}/competition", {"series_id": "1", "coefficient": "1"})


def crawl(client, starts: list[str], out: Path, prefix: str) -> int:
    seen, queue, saved = set(starts), deque(starts), 0
    while queue and saved < MAX_PAGES:
        url = queue.popleft()
        response = client.get(url)
        if response.mimetype != "text/html":
            continue
        text = response.get_data(as_text=True)
        save(out, prefix, url, response.status_code, text)
        saved += 1
        for href in re.findall(r'href="([^"#]+)', text):
            href = href.replace("&amp;", "&")
            parts = urlsplit(href)
            if parts.netloc and parts.netloc not in ("localhost", "127.0.0.1:5000"):
                continue
            path = parts.path + (f"?{parts.query}" if parts.query else "")
            if path.startswith("/") and not SKIP.search(parts.path) and path not in seen:
                seen.add(path)
                queue.append(path)
    return saved


def save(out: Path, prefix: str, url: str, status: int, text: str) -> None:
    name = prefix + (re.sub(r"[^A-Za-z0-9]+", "_", url).strip("_") or "root") + ".html"
    (out / name).write_text(f"<!-- {status} {url} -->\n" + masked(text), encoding="utf-8")


def masked(text: str) -> str:
    for mask in MASKS:
        text = mask.sub(r"\1MASKED\2", text)
    return text.replace(str(REPO), "REPO")


def posts(app, out: Path) -> None:
    """The import previews (players, teams): accepted and refused lines, a list changed since its preview."""
    arbiter = sign_in(app, "arbitre")
    for name, url, data in [
        ("players_text", "/arbitre/tournois/1/joueurs/import", {"text": PLAYERS_CSV}),
        ("players_file", "/arbitre/tournois/1/joueurs/import",
         {"file": (io.BytesIO(PLAYERS_CSV.encode("cp1252")), "j.csv")}),
        ("players_none", "/arbitre/tournois/1/joueurs/import", {"text": ";;;\n"}),
        ("players_changed", "/arbitre/tournois/1/joueurs/import",
         {"confirm": "1", "expected": "9", "text": PLAYERS_CSV}),
        ("teams_ok", "/arbitre/tournois/5/equipes/import", {"text": TEAMS_CSV}),
        ("teams_refused", "/arbitre/tournois/5/equipes/import", {"text": TEAMS_CSV.replace("104", "101")}),
        ("teams_changed", "/arbitre/tournois/5/equipes/import", {"confirm": "1", "expected": "2", "text": TEAMS_CSV}),
    ]:
        response = arbiter.post(url, data={**data, "csrf_token": csrf_token(arbiter.get(url))},
                                content_type="multipart/form-data")
        save(out, "post_", name, response.status_code, response.get_data(as_text=True))


def printouts(app, out: Path) -> None:
    """Every printed kind of the demo (1), the free evenings (2, 6) and the team match (3), as HTML."""
    from sqlmodel import Session

    from duplicate import db, operations, printing
    from duplicate.printing import commands

    with app.app_context(), Session(db.get_engine(app)) as session:
        for tid in (1, 3):
            export, ranking, tokens = commands.tournament_data(session, tid)
            for kind in printing.KINDS:
                options = {}
                if kind == "route-sheets":
                    options["route_urls"] = printing.route_urls_from_tokens(commands.DEFAULT_BASE_URL, tokens)
                if kind == "guide-cards":
                    options["table_urls"] = commands.table_urls(session, tid)
                if kind == "movement-cards":
                    options["codes"] = commands.confirmation_codes(session, tid)
                write_print(out, f"{tid}_{kind}", kind, export, ranking, **options)
        for tid in (2, 6):
            tournament = operations.get_tournament(session, tid)
            export = operations.freeplay.free_export(session, tournament)
            ranking = operations.freeplay.free_ranking(session, tournament)
            codes = {item["id"]: item["code"] for item in operations.freeplay_table.player_codes(session, tournament)}
            for kind in printing.FREE_KINDS:
                options = {"codes": codes} if kind == "free-cards" else {}
                write_print(out, f"{tid}_{kind}", kind, export, ranking if kind == "free-ranking" else None,
                            **options)
        export = operations.freeplay.free_export(session, operations.get_tournament(session, 2))
        write_print(out, "2_free-pcn-district", "free-pcn", export, None, championship="district")


def write_print(out: Path, name: str, kind: str, export, ranking, **options) -> None:
    from duplicate.printing.contexts import build_context
    from duplicate.printing.render import render_html

    try:
        text = render_html(kind, build_context(kind, export, ranking, **options))
    except Exception as error:  # noqa: BLE001 — a kind this data cannot print: its message is the snapshot
        text = f"ERROR {type(error).__name__}: {error}"
    (out / f"print_{name}.html").write_text(masked(text), encoding="utf-8")


def main(database_dir: str, out_dir: str) -> None:
    database = Path(database_dir) / "snapshot.sqlite3"
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    fresh = not database.exists()
    database.parent.mkdir(parents=True, exist_ok=True)
    app = make_app(database)
    if fresh:
        build(app)
    app.config["WTF_CSRF_ENABLED"] = True
    count = crawl(sign_in(app, "arbitre"), ["/", "/arbitre/", "/arbitre/archives", "/arbitre/competitions",
                                            "/arbitre/competitions/1/gerer", "/arbitre/comptes", "/saisie/"],
                  out, "arbiter_")
    count += crawl(sign_in(app, "marqueur"), ["/saisie/", "/saisie/tournois/2/libre/feuilles"], out, "scorer_")
    count += crawl(app.test_client(), ["/", "/tournois/1/", "/tournois/2/", "/tournois/6/"], out, "public_")
    posts(app, out)
    printouts(app, out)
    print(f"{count} pages crawled, {len(list(out.iterdir()))} files in {out}")


def between_tags(text: str) -> list[str]:
    """The lines of `text` without the white space a browser collapses between two tags: the indentation of a
    line that starts with a tag, a line of white space alone between a line that ends with a tag and one that
    starts with a tag. Inside a <textarea> or a <pre>, where white space shows, every line is kept as it is."""
    lines = text.split("\n")
    kept, verbatim = [], False
    for i, line in enumerate(lines):
        opened = re.search(r"<(textarea|pre)\b", line, re.IGNORECASE)
        closed = re.search(r"</(textarea|pre)>", line, re.IGNORECASE)
        if verbatim or (opened and not closed and line.rfind("<") == opened.start()):
            verbatim = not closed if verbatim else True
            kept.append(line if not opened else line.lstrip())
            continue
        if not line.strip():
            after = next((later.strip() for later in lines[i + 1:] if later.strip()), "")
            if kept and kept[-1].rstrip().endswith(">") and after.startswith("<"):
                continue
        kept.append(line.lstrip() if line.lstrip().startswith("<") else line)
    return kept


def compare(before_dir: str, after_dir: str) -> int:
    """Print the files that differ, and how; 0 when nothing a browser shows differs."""
    before, after = Path(before_dir), Path(after_dir)
    names = sorted({p.name for p in before.iterdir()} | {p.name for p in after.iterdir()})
    spacing, different = [], []
    for name in names:
        a, b = before / name, after / name
        if not (a.exists() and b.exists()):
            different.append(name)
            continue
        x, y = a.read_text(encoding="utf-8"), b.read_text(encoding="utf-8")
        if x == y:
            continue
        (spacing if between_tags(x) == between_tags(y) else different).append(name)
    for name in spacing:
        print(f"white space between tags only: {name}")
    for name in different:
        print(f"DIFFERENT: {name}")
    print(f"{len(names)} files: {len(names) - len(spacing) - len(different)} identical, "
          f"{len(spacing)} white space between tags only, {len(different)} different")
    return 1 if different else 0


if __name__ == "__main__":
    if sys.argv[1] == "--compare":
        sys.exit(compare(*sys.argv[2:4]))
    main(*sys.argv[1:3])
