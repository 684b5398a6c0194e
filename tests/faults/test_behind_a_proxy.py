"""A hosted instance as docs/serving.md deploys it (issue 33, point 4): nginx on loopback in front of three
`make run` processes on one PostgreSQL, with the shipped configuration (`docs/deploy/nginx-tarot.conf`, its
ports replaced by the test's). The scorers know one address, nginx's:

* every line sent through nginx is stored once, whichever process took it;
* one process killed with SIGKILL in the middle of the writes: nginx sends the next requests to the two
  others; the clients send again what they had not seen acknowledged (a 409 then means « already stored »);
  every acknowledged line is there, none twice, and no answer of the rest of the evening is a 5xx;
* the sign-in throttle and the sessions are the database's and the shared secret's: a session opened
  through one process is honoured by the others.

Skipped, with the reason, when nginx or PostgreSQL is missing (`make test` installs nginx-light)."""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from clients import Browser, killed_during_entry, post_json, stored_lines
from live import LiveServer, create_token, create_users, free_port, pg_schema, postgres_reachable, ready_tournament
from screens import PASSWORD

ROOT = Path(__file__).resolve().parents[2]
DEADLINE = 60


class Proxy:
    """nginx in the foreground on 127.0.0.1:`port`, the shipped site in front of ``ports``."""

    def __init__(self, folder: Path, ports: list[int]):
        self.folder, self.port = folder, free_port()
        site = (ROOT / "docs" / "deploy" / "nginx-tarot.conf").read_text(encoding="utf-8")
        servers = iter(ports)
        site = re.sub(r"server 127\.0\.0\.1:800\d", lambda _: f"server 127.0.0.1:{next(servers)}", site)
        site = site.replace("listen 80;", f"listen 127.0.0.1:{self.port};")
        (folder / "site.conf").write_text(site, encoding="utf-8")
        (folder / "nginx.conf").write_text(
            "worker_processes 1;\nevents {}\nhttp {\n  access_log off;\n"
            + "".join(f"  {kind}_temp_path {folder / kind};\n" for kind in ("client_body", "proxy", "fastcgi",
                                                                            "uwsgi", "scgi"))
            + f"  include {folder / 'site.conf'};\n}}\n", encoding="utf-8")
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = None

    def __enter__(self) -> "Proxy":
        self.process = subprocess.Popen(
            [shutil.which("nginx"), "-p", str(self.folder), "-c", str(self.folder / "nginx.conf"),
             "-e", str(self.folder / "error.log"), "-g", f"daemon off; pid {self.folder / 'nginx.pid'};"],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                Browser(self.url).request("/")
                return self
            except OSError:
                assert self.process.poll() is None, (self.folder / "error.log").read_text()
                time.sleep(0.1)
        raise AssertionError("nginx did not start")

    def __exit__(self, *exc) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


def test_three_processes_behind_nginx_lose_nothing_when_one_is_killed(tmp_path):
    if shutil.which("nginx") is None:
        pytest.skip("nginx absent : `make test` l’installe (nginx-light)")
    if not postgres_reachable():
        pytest.skip("PostgreSQL injoignable sur 127.0.0.1:5432")
    with pg_schema("duplicate_faults_proxy") as url:
        tournament_id, lines = ready_tournament(url, tmp_path)  # the demonstration, published, no result yet
        token = create_token(url, role="arbiter")
        create_users(url, ("arbitre", PASSWORD, "arbiter"))
        env = {"PUBLIC_RESULTS_MAX_STALE": "10", "SERVER_CPU": "all", "PROXY_FIX": "1"}
        servers = [LiveServer(url, tmp_path / f"server{i}.log", production=True, env=env).start() for i in range(3)]
        try:
            with Proxy(tmp_path, [server.port for server in servers]) as proxy:
                # a session opened through one process, honoured by the next ones (round robin)
                arbiter = Browser(proxy.url)
                arbiter.sign_in("arbitre", PASSWORD)
                for _ in range(6):  # every process in turn
                    assert arbiter.request("/arbitre/")[0] == 200

                first, rest = lines[:6], lines[6:]
                for line in first:
                    status, body = post_json(proxy.url, f"/api/tournaments/{tournament_id}/results", [line], token)
                    assert status == 201, body
                # one process dies in the middle of the writes sent through nginx
                victim = servers[1]

                class ThroughProxy:
                    url = proxy.url

                    @staticmethod
                    def kill():
                        victim.kill()

                acked = killed_during_entry(ThroughProxy, tournament_id, rest, token, clients=3, kill_after=20,
                                            deadline_s=DEADLINE)
                assert 20 <= len(acked), "the kill did not land in the middle of the writes"
                statuses = []
                for line in rest:  # the clients send again what they had not seen acknowledged
                    if (line["board"], line["table"]) not in acked:
                        status, body = post_json(proxy.url, f"/api/tournaments/{tournament_id}/results", [line],
                                                 token)
                        statuses.append(status)
                        assert status in (201, 409), body  # 409: stored before the kill, its answer lost
                assert all(status < 500 for status in statuses)
                everything = {(line["board"], line["table"]): line["score"] for line in lines}
                assert stored_lines(proxy.url, tournament_id, token) == everything  # each once (stored_lines)
                for _ in range(4):  # the session still good on the survivors
                    assert arbiter.request("/arbitre/")[0] == 200
        finally:
            for server in servers:
                server.stop()
