"""Minimal HTTP clients for the fault and load tests (standard library only, loopback only): the scoring
API with a bearer token, and a scorer's browser session on the entry screens (cookie, CSRF token, the
fiche's fields), as Chromium would post them."""

from __future__ import annotations

import http.client
import http.cookiejar
import json
import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def post_json(base: str, path: str, body, token: str | None, timeout: float = 30) -> tuple[int, dict | list | None]:
    headers = {"Content-Type": "application/json"}
    if token is not None:  # None: no bearer (the table API's secret is in its path)
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        raw = error.read()
        try:
            return error.code, json.loads(raw or b"null")
        except ValueError:
            return error.code, {"raw": raw.decode(errors="replace")}


def get_json(base: str, path: str, timeout: float = 60, token: str | None = None):
    """GET a JSON document; ``token``: an API bearer token (an arbiter's reads unpublished rankings)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    with urllib.request.urlopen(urllib.request.Request(base + path, headers=headers), timeout=timeout) as response:
        return json.loads(response.read())


class Browser:
    """A signed-in scorer's session on the entry screens (no JavaScript needed: the forms work without)."""

    def __init__(self, base: str, timeout: float = 30):
        self.base = base
        self.timeout = timeout
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), NoRedirect)

    def request(self, path: str, data: dict | None = None) -> tuple[int, str, str | None]:
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        try:
            with self.opener.open(self.base + path, data=body, timeout=self.timeout) as response:
                return response.status, response.read().decode(), response.headers.get("Location")
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace"), error.headers.get("Location")

    @staticmethod
    def csrf(page: str) -> str:
        match = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page) or \
            re.search(r'value="([^"]+)"[^>]*name="csrf_token"', page)
        assert match, page[:500]
        return match.group(1)

    def sign_in(self, username: str, password: str) -> None:
        _, page, _ = self.request("/connexion")
        status, _, _ = self.request("/connexion", {"username": username, "password": password,
                                                   "csrf_token": self.csrf(page)})
        assert status == 302, status

    def fiche(self, tournament_id: int, number: int) -> tuple[str, list[str], dict[str, str]]:
        """(csrf token, the line keys, their versions) of étui `number`'s entry page."""
        status, page, _ = self.request(f"/saisie/tournois/{tournament_id}/etuis/{number}")
        assert status == 200, (status, page[:300])
        keys = re.findall(r'name="score-([0-9]+-[0-9]+)"', page)
        versions = dict(re.findall(r'name="version-([0-9]+-[0-9]+)" value="([0-9]+)"', page))
        return self.csrf(page), keys, versions

    def save(self, tournament_id: int, number: int, scores: dict[str, int]) -> tuple[int, str, dict[str, int]]:
        """Open étui `number`'s fiche, type `scores` (line key → score) and save: (status, page, what was sent)."""
        token, keys, versions = self.fiche(tournament_id, number)
        data = {"csrf_token": token}
        sent = {}
        for key in keys:
            if key in scores:
                data[f"score-{key}"] = f"{scores[key]:+d}"
                sent[key] = scores[key]
            if key in versions:
                data[f"version-{key}"] = versions[key]
        status, page, _ = self.request(f"/saisie/tournois/{tournament_id}/etuis/{number}", data)
        return status, page, sent


CONNECTION_ERRORS = (urllib.error.URLError, ConnectionError, http.client.HTTPException, TimeoutError, OSError)


def stored_lines(base: str, tournament_id: int, token: str | None = None) -> dict[tuple[int, int], int]:
    """(étui, table) → score of every line on the tournament's ranking (``token``: staff, before publication
    or past the public's kept view); fails on a line there twice."""
    stored = {}
    for board in get_json(base, f"/api/tournaments/{tournament_id}/ranking", token=token)["boards"]:
        for line in board["results"]:
            key = (board["number"], line["table"])
            assert key not in stored, f"line {key} doubled"
            stored[key] = line["score"]
    return stored


def killed_during_entry(server, tournament_id: int, lines: list[dict], token: str, *, clients: int,
                        kill_after: int, deadline_s: float) -> dict[tuple[int, int], int]:
    """``clients`` scorers send ``lines`` one by one to ``server``'s scoring API; once ``kill_after`` are
    acknowledged (201) the server is killed with SIGKILL (`LiveServer.kill`). The lines acknowledged, (étui,
    table) → score; a line whose answer the kill swallowed is not among them."""
    acked: dict[tuple[int, int], int] = {}
    lock = threading.Lock()
    stop = threading.Event()
    deadline = time.monotonic() + deadline_s

    def scorer(part: list[dict]) -> None:
        for line in part:
            if stop.is_set() or time.monotonic() > deadline:
                return
            try:
                status, _ = post_json(server.url, f"/api/tournaments/{tournament_id}/results", [line], token)
            except CONNECTION_ERRORS:
                return  # the server is gone; this line's fate is unknown to the client
            if status == 201:
                with lock:
                    acked[(line["board"], line["table"])] = line["score"]

    threads = [threading.Thread(target=scorer, args=(lines[i::clients],)) for i in range(clients)]
    for thread in threads:
        thread.start()
    while len(acked) < kill_after and time.monotonic() < deadline:
        time.sleep(0.005)
    server.kill()
    stop.set()
    for thread in threads:
        thread.join(timeout=30)
    return acked
