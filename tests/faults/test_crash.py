"""The server is killed with SIGKILL in the middle of the entry, then restarted on the same database:
every score it had acknowledged is there (API: 201; entry screen: the redirect after « Enregistrer »),
with its value; nothing is doubled; the rest of the entry then completes. On SQLite and PostgreSQL for
the API, SQLite for the entry screens (the same commit path on both databases)."""

from __future__ import annotations

import threading
import time

import pytest

from clients import CONNECTION_ERRORS, Browser, killed_during_entry, post_json, stored_lines
from live import LiveServer, create_token, create_users, give_tournament, pg_schema, postgres_reachable, ready_tournament

CLIENTS = 4
KILL_AFTER_ACKS = 30  # SIGKILL once this many lines are acknowledged (of the demo's 99)
DEADLINE = 60  # seconds: every loop stops by then


def _crash_during_api_entry(database_url: str, tmp_path) -> None:
    tournament_id, lines = ready_tournament(database_url, tmp_path)
    token = create_token(database_url)
    server = LiveServer(database_url, tmp_path / "server.log").start()
    acked = killed_during_entry(server, tournament_id, lines, token, clients=CLIENTS, kill_after=KILL_AFTER_ACKS,
                                deadline_s=DEADLINE)
    assert KILL_AFTER_ACKS <= len(acked) < len(lines), "the kill did not land in the middle of the entry"

    with LiveServer(database_url, tmp_path / "server2.log") as again:
        stored = stored_lines(again.url, tournament_id)
        missing = {key: score for key, score in acked.items() if stored.get(key) != score}
        assert not missing, f"acknowledged but lost after SIGKILL: {missing}"
        # the scorers send what they had not seen acknowledged; already stored lines answer 409
        for line in lines:
            key = (line["board"], line["table"])
            if key not in acked:
                status, body = post_json(again.url, f"/api/tournaments/{tournament_id}/results", [line], token)
                assert status in (201, 409), (status, body)
        final = stored_lines(again.url, tournament_id)
        assert final == {(line["board"], line["table"]): line["score"] for line in lines}


def test_sigkill_during_api_entry_loses_no_acknowledged_score_sqlite(tmp_path):
    _crash_during_api_entry(f"sqlite:///{tmp_path / 'crash.sqlite3'}", tmp_path)


def test_sigkill_during_api_entry_loses_no_acknowledged_score_postgresql(tmp_path):
    if not postgres_reachable():
        pytest.skip("PostgreSQL is not reachable on 127.0.0.1:5432")
    with pg_schema("duplicate_faults_crash") as url:
        _crash_during_api_entry(url, tmp_path)


def test_sigkill_during_screen_entry_loses_no_saved_fiche(tmp_path):
    database_url = f"sqlite:///{tmp_path / 'crash-screens.sqlite3'}"
    tournament_id, lines = ready_tournament(database_url, tmp_path)
    create_users(database_url, *[(f"marqueur{i}", "mot-de-passe-solide", "scorer") for i in range(2)])
    give_tournament(database_url, tournament_id, "marqueur0", "marqueur1")
    scores = {f"{line['board']}-{line['table']}": line["score"] for line in lines}
    boards = sorted({line["board"] for line in lines})
    server = LiveServer(database_url, tmp_path / "server.log").start()
    acked: dict[str, int] = {}
    lock = threading.Lock()
    deadline = time.monotonic() + DEADLINE

    def scorer(index: int) -> None:
        browser = Browser(server.url)
        try:
            browser.sign_in(f"marqueur{index}", "mot-de-passe-solide")
            for number in boards[index::2]:
                if time.monotonic() > deadline:
                    return
                status, page, sent = browser.save(tournament_id, number, scores)
                assert status == 302, (status, page[:500])
                with lock:
                    acked.update(sent)
        except CONNECTION_ERRORS:
            return

    threads = [threading.Thread(target=scorer, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    while len(acked) < 40 and time.monotonic() < deadline:
        time.sleep(0.005)
    server.kill()
    for thread in threads:
        thread.join(timeout=30)
    assert 40 <= len(acked) < len(lines)

    with LiveServer(database_url, tmp_path / "server2.log") as again:
        stored = stored_lines(again.url, tournament_id)
        lost = {key: score for key, score in acked.items() if stored.get(tuple(map(int, key.split("-")))) != score}
        assert not lost, f"saved fiches lost after SIGKILL: {lost}"
        # the entry completes after the restart
        browser = Browser(again.url)
        browser.sign_in("marqueur0", "mot-de-passe-solide")
        for number in boards:
            status, page, _ = browser.save(tournament_id, number, scores)
            assert status == 302, (status, page[:500])
        assert stored_lines(again.url, tournament_id) == {tuple(map(int, k.split("-"))): v for k, v in scores.items()}
