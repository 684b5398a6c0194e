"""Several app processes on one PostgreSQL (issue 33, point 4: how a hosted instance outgrows one process —
never a home-made cluster): nothing that matters is kept in one process. Three `make run` servers (waitress)
on one database:

* a line written through one process is on the others' rankings: at once for staff (their views are computed
  from the data they read), and on the public ranking each process keeps, once its worker has recomputed it
  (it learns of the other process's commit from the database's data version, `operations._changes`);
* one process killed with SIGKILL in the middle of its writes: every line it acknowledged is on the
  survivors, nothing doubled, and the rest of the evening goes through them.

The time a public ranking takes to follow is measured in `bench/`, not asserted here (a wall-clock assert
fails on a loaded machine); here each wait has a deadline."""

from __future__ import annotations

import threading
import time

import pytest

from clients import CONNECTION_ERRORS, get_json, post_json
from live import LiveServer, create_token, pg_schema, postgres_reachable, ready_tournament

DEADLINE = 60  # seconds: every loop stops by then


def _stored(base: str, tournament_id: int, token: str | None = None) -> dict[tuple[int, int], int]:
    stored = {}
    for board in get_json(base, f"/api/tournaments/{tournament_id}/ranking", token=token)["boards"]:
        for line in board["results"]:
            key = (board["number"], line["table"])
            assert key not in stored, f"line {key} doubled"
            stored[key] = line["score"]
    return stored


def _until(condition, deadline_s: float = DEADLINE) -> bool:
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


def test_three_processes_on_one_postgresql_share_every_line_and_survive_a_kill(tmp_path):
    if not postgres_reachable():
        pytest.skip("PostgreSQL is not reachable on 127.0.0.1:5432")
    with pg_schema("duplicate_faults_processes") as url:
        tournament_id, lines = ready_tournament(url, tmp_path)  # the demonstration, published, no result yet
        token = create_token(url, role="arbiter")
        # kept public views as in production; each process free on the cores (three pinned to the same one
        # would share it: docs/serving.md)
        env = {"PUBLIC_RESULTS_MAX_STALE": "10", "SERVER_CPU": "all"}
        servers = [LiveServer(url, tmp_path / f"server{i}.log", production=True, env=env).start() for i in range(3)]
        try:
            for server in servers:  # each process keeps the public ranking it served
                assert _stored(server.url, tournament_id) == {}
            first, rest = lines[:6], lines[6:]
            for number, line in enumerate(first):
                writer = servers[number % 3]
                status, body = post_json(writer.url, f"/api/tournaments/{tournament_id}/results", [line], token)
                assert status == 201, body
                key = (line["board"], line["table"])
                for other in servers:
                    if other is not writer:  # staff: at once
                        assert _stored(other.url, tournament_id, token).get(key) == line["score"]
            expected = {(line["board"], line["table"]): line["score"] for line in first}
            for server in servers:  # the public: once the process's worker has recomputed its kept ranking
                assert _until(lambda: _stored(server.url, tournament_id) == expected), server.log()

            # the second process dies in the middle of its writes; the others go on
            victim, survivors = servers[1], [servers[0], servers[2]]
            acked: dict[tuple[int, int], int] = {}
            lock = threading.Lock()
            deadline = time.monotonic() + DEADLINE

            def scorer(part: list[dict]) -> None:
                for line in part:
                    if time.monotonic() > deadline:
                        return
                    try:
                        status, _ = post_json(victim.url, f"/api/tournaments/{tournament_id}/results", [line], token)
                    except CONNECTION_ERRORS:
                        return  # the process is gone; this line's fate is unknown to its client
                    if status == 201:
                        with lock:
                            acked[(line["board"], line["table"])] = line["score"]

            threads = [threading.Thread(target=scorer, args=(rest[i::3],)) for i in range(3)]
            for thread in threads:
                thread.start()
            assert _until(lambda: len(acked) >= 20, 30)
            victim.kill()
            for thread in threads:
                thread.join(timeout=30)
            assert 20 <= len(acked) < len(rest), "the kill did not land in the middle of the writes"
            for survivor in survivors:
                stored = _stored(survivor.url, tournament_id, token)
                assert {key: stored.get(key) for key in acked} == acked, "acknowledged, then lost"
            for number, line in enumerate(rest):  # the clients send again what they had not seen acknowledged
                if (line["board"], line["table"]) not in acked:
                    status, body = post_json(survivors[number % 2].url, f"/api/tournaments/{tournament_id}/results",
                                             [line], token)
                    assert status in (201, 409), body  # 409: stored before the kill, its answer lost
            everything = {(line["board"], line["table"]): line["score"] for line in lines}
            for survivor in survivors:
                assert _stored(survivor.url, tournament_id, token) == everything
                assert _until(lambda: _stored(survivor.url, tournament_id) == everything), survivor.log()
        finally:
            for server in servers:
                server.stop()
