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

import time

import pytest

from clients import killed_during_entry, post_json, stored_lines
from live import LiveServer, create_token, pg_schema, postgres_reachable, ready_tournament

DEADLINE = 60  # seconds: every loop stops by then


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
                assert stored_lines(server.url, tournament_id) == {}
            first, rest = lines[:6], lines[6:]
            for number, line in enumerate(first):
                writer = servers[number % 3]
                status, body = post_json(writer.url, f"/api/tournaments/{tournament_id}/results", [line], token)
                assert status == 201, body
                key = (line["board"], line["table"])
                for other in servers:
                    if other is not writer:  # staff: at once
                        assert stored_lines(other.url, tournament_id, token).get(key) == line["score"]
            expected = {(line["board"], line["table"]): line["score"] for line in first}
            for server in servers:  # the public: once the process's worker has recomputed its kept ranking
                assert _until(lambda: stored_lines(server.url, tournament_id) == expected), server.log()

            # the second process dies in the middle of its writes; the others go on
            victim, survivors = servers[1], [servers[0], servers[2]]
            acked = killed_during_entry(victim, tournament_id, rest, token, clients=3, kill_after=20,
                                        deadline_s=DEADLINE)
            assert 20 <= len(acked) < len(rest), "the kill did not land in the middle of the writes"
            for survivor in survivors:
                stored = stored_lines(survivor.url, tournament_id, token)
                assert {key: stored.get(key) for key in acked} == acked, "acknowledged, then lost"
            for number, line in enumerate(rest):  # the clients send again what they had not seen acknowledged
                if (line["board"], line["table"]) not in acked:
                    status, body = post_json(survivors[number % 2].url, f"/api/tournaments/{tournament_id}/results",
                                             [line], token)
                    assert status in (201, 409), body  # 409: stored before the kill, its answer lost
            everything = {(line["board"], line["table"]): line["score"] for line in lines}
            for survivor in survivors:
                assert stored_lines(survivor.url, tournament_id, token) == everything
                assert _until(lambda: stored_lines(survivor.url, tournament_id) == everything), survivor.log()
        finally:
            for server in servers:
                server.stop()
