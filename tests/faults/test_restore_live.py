"""A restore the running server sees (issue 31, point 2): ``flask restore`` while the server runs, on SQLite
and PostgreSQL, after its caches were warmed on data the restore discards — and then after as many new
commits as the discarded ones, so that a counter brought back by the restore would have climbed back to the
discarded versions. No reader, public or signed-in arbiter, page, JSON, table API or route-sheet PDF, is then
served anything but what a server started on the restored database serves; no screen holding an ETag of the
discarded data is answered « 304, nothing new ».

The running server serves kept public views up to 30 s stale (``PUBLIC_RESULTS_MAX_STALE``): a restore must
not be taken for a commit the worker is catching up with."""

from __future__ import annotations

import re
import shutil
import subprocess
import time
import urllib.error
import urllib.request

import pytest

from clients import Browser, get_json, post_json
from live import (LiveServer, create_token, create_users, flask, pg_schema, postgres_reachable,
                  ready_tournament)

PASSWORD = "mot-de-passe-solide"


def _publish_and_links(database_url: str, tournament_id: int) -> tuple[str, str]:
    """Publish the results (the public sees the scores) — (table 1's link secret, a player's route-sheet token)."""
    from sqlmodel import Session, select

    from duplicate import operations
    from duplicate.db import make_engine
    from duplicate.models import Player

    engine = make_engine(database_url)
    with Session(engine) as session:
        tournament = operations.get_tournament(session, tournament_id)
        operations.publish(session, tournament, True, "tests")
        session.commit()
        secret = operations.table_secret(tournament, 1)
        token = session.exec(select(Player.token).where(Player.tournament_id == tournament_id,
                                                        Player.token.is_not(None))).first()
    engine.dispose()
    assert token
    return secret, token


def _get(base: str, path: str, headers: dict | None = None) -> tuple[int, bytes, object]:
    request = urllib.request.Request(base + path, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=60) as r:
            return r.status, r.read(), r.headers
    except urllib.error.HTTPError as error:
        return error.code, error.read(), error.headers


def _pdf_text(base: str, token: str) -> str:
    """The route sheet's PDF (waiting out « en préparation »), as text when pdftotext is there, else its bytes
    without their creation date."""
    deadline = time.monotonic() + 120
    while True:
        status, body, _ = _get(base, f"/feuille/{token}/feuille-de-route.pdf")
        if status == 200:
            break
        assert status == 202 and time.monotonic() < deadline, status
        time.sleep(0.2)
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", "-layout", "-", "-"], input=body, capture_output=True,
                              check=True).stdout.decode()
    else:
        text = re.sub(rb"/(CreationDate|ModDate) \([^)]*\)", b"", body).decode("latin-1")
    return text.replace(base, "BASE")


def _normal(page: bytes, base: str) -> str:
    """A page without what differs from one session, or server, to another."""
    text = page.decode().replace(base, "BASE")
    text = re.sub(r'(name="csrf_token"[^>]*value=")[^"]+', r"\1", text)
    text = re.sub(r'(<meta name="csrf-token" content=")[^"]+', r"\1", text)
    return re.sub(r'nonce="[^"]+"', 'nonce=""', text)


def _readings(base: str, tournament_id: int, secret: str, token: str, arbiter: Browser,
              boards: list[int]) -> dict[str, object]:
    """What every reader is served: the public pages, JSON, projector, table API and route-sheet PDF; the
    arbiter's results and étui pages."""
    seen: dict[str, object] = {}
    for path in [f"/tournois/{tournament_id}/", *(f"/tournois/{tournament_id}/etuis/{n}" for n in boards),
                 f"/tournois/{tournament_id}/projecteur/classements"]:
        status, body, _ = _get(base, path)
        assert status == 200, (path, status)
        seen["public " + path] = _normal(body, base)
        status, page, _ = arbiter.request(path)
        assert status == 200, (path, status)
        seen["arbiter " + path] = _normal(page.encode(), base)
    seen["ranking.json"] = get_json(base, f"/api/tournaments/{tournament_id}/ranking")
    status, body, _ = _get(base, f"/api/table/{secret}")
    assert status == 200
    seen["table api"] = body.decode().replace(base, "BASE")
    seen["pdf"] = _pdf_text(base, token)
    return seen


def _etags(base: str, tournament_id: int, secret: str) -> dict[str, str]:
    tags = {}
    for path in (f"/tournois/{tournament_id}/version.json", f"/tournois/{tournament_id}/projecteur.json",
                 f"/api/table/{secret}"):
        status, _, headers = _get(base, path)
        assert status == 200 and headers.get("ETag"), (path, status)
        tags[path] = headers["ETag"]
    return tags


def _lines(base: str, tournament_id: int, wanted: set | None = None) -> set[tuple[int, int, int]]:
    """The lines of the public JSON ranking; ``wanted``: once the views' worker has caught up with the last
    commits (a public view may be served a few seconds stale after a commit), within 30 s."""
    deadline = time.monotonic() + 30
    while True:
        ranking = get_json(base, f"/api/tournaments/{tournament_id}/ranking")
        lines = {(board["number"], line["table"], line["score"]) for board in ranking["boards"]
                 for line in board["results"]}
        if wanted is None or lines == wanted or time.monotonic() > deadline:
            return lines
        time.sleep(0.2)


def _keys(lines: list[dict]) -> set[tuple[int, int, int]]:
    return {(line["board"], line["table"], line["score"]) for line in lines}


def _version(base: str, tournament_id: int) -> int:
    return get_json(base, f"/tournois/{tournament_id}/version.json")["version"]


def _restore_while_serving(database_url: str, tmp_path) -> None:
    tournament_id, lines = ready_tournament(database_url, tmp_path)
    secret, route_token = _publish_and_links(database_url, tournament_id)
    scorer = create_token(database_url)
    create_users(database_url, ("arbitre", PASSWORD, "arbiter"))
    kept, discarded, later = lines[:30], lines[30:50], lines[50:70]
    boards = sorted({line["board"] for line in discarded + later})[:4]

    def post(part: list[dict]) -> None:
        for line in part:
            status, body = post_json(server.url, f"/api/tournaments/{tournament_id}/results", [line], scorer)
            assert status == 201, (status, body)

    env = {"PUBLIC_RESULTS_MAX_STALE": "30", "ROUTE_SHEET_CACHE_DIR": str(tmp_path / "pdfs-running")}
    server = LiveServer(database_url, tmp_path / "server.log", production=True, env=env).start()
    try:
        arbiter = Browser(server.url)
        arbiter.sign_in("arbitre", PASSWORD)
        post(kept)
        _lines(server.url, tournament_id, _keys(kept))
        _readings(server.url, tournament_id, secret, route_token, arbiter, boards)
        backup = tmp_path / "sauvegarde"
        flask(database_url, "backup", str(backup))
        post(discarded)
        _lines(server.url, tournament_id, _keys(kept + discarded))
        _readings(server.url, tournament_id, secret, route_token, arbiter, boards)
        time.sleep(1.5)  # the views' worker has recomputed the public views read: every view is kept at the discarded
        warm = _readings(server.url, tournament_id, secret, route_token, arbiter, boards)
        stale_tags = _etags(server.url, tournament_id, secret)
        discarded_version = _version(server.url, tournament_id)

        flask(database_url, "restore", str(backup), "--yes")
        restored = _keys(kept)
        assert _lines(server.url, tournament_id) == restored
        assert _version(server.url, tournament_id) > discarded_version  # the open pages reload
        reference = LiveServer(database_url, tmp_path / "reference.log", production=True,
                               env={"PUBLIC_RESULTS_MAX_STALE": "0",  # never stale: the truth
                                    "ROUTE_SHEET_CACHE_DIR": str(tmp_path / "pdfs-reference")}).start()
        try:
            reference_arbiter = Browser(reference.url)
            reference_arbiter.sign_in("arbitre", PASSWORD)
            reference_arbiter.request("/")  # its « Bienvenue » shown
            for moment in ("just restored", "as many commits later as were discarded"):
                if moment != "just restored":
                    # the counter a restore brings back would now be at the discarded version again; the public
                    # may be served the restored data a few seconds stale meanwhile (not the discarded ones)
                    post(later)
                    restored |= _keys(later)
                    _lines(server.url, tournament_id, restored)
                else:
                    assert _lines(server.url, tournament_id) == restored, moment  # at once: nothing kept serves
                expected = _readings(reference.url, tournament_id, secret, route_token, reference_arbiter, boards)
                deadline = time.monotonic() + (0 if moment == "just restored" else 30)
                while True:
                    seen = _readings(server.url, tournament_id, secret, route_token, arbiter, boards)
                    if seen == expected or time.monotonic() > deadline:
                        break
                    time.sleep(0.5)
                for reader, value in seen.items():
                    assert value == expected[reader], f"{moment}: {reader} serves the data the restore discarded"
                assert seen != warm
                for path, tag in stale_tags.items():
                    status, _, _ = _get(server.url, path, {"If-None-Match": tag})
                    assert status == 200, f"{moment}: {path} answers {status} to the ETag of the discarded data"
        finally:
            reference.stop()
    finally:
        server.stop()


def test_restore_seen_by_the_running_server_sqlite(tmp_path):
    _restore_while_serving(f"sqlite:///{tmp_path / 'tarot.sqlite3'}", tmp_path)


@pytest.mark.skipif(not postgres_reachable() or shutil.which("pg_dump") is None,
                    reason="PostgreSQL ou pg_dump absent")
def test_restore_seen_by_the_running_server_postgresql(tmp_path):
    with pg_schema("restore_live") as database_url:
        _restore_while_serving(database_url, tmp_path)
