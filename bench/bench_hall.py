"""Latency of the hall's live screens (issue 30), on loopback, side by side with a floor: the same clients,
the same pacing, asking the same server for a static file instead.

The server is the one ``make run`` starts (`tests/e2e/live.py` `LiveServer`, ``production=True``: waitress,
the public views kept as in production: ``PUBLIC_RESULTS_MAX_STALE`` 10), on SQLite and on PostgreSQL.
Each run imports a fresh simulated individual of ``--tables`` tables, ``--positions`` positions (7: the
grid's size in the hall; `live.ready_tournament`), launches position 1 (`live.launch`), then runs, together:

* the tables' phones — one thread a table, each starting at a moment drawn uniformly within ``--window``
  seconds, entering its 4 lines of position 1 through the table API as `bench_table_load` ``--api table``
  does: per étui ``POST /api/table/<secret>/results`` (202) then a defender's ``…/confirm`` (200);
* the arbiter's grid (« Salle », `static/js/live-room.js`): one signed-in client asking
  ``/arbitre/tournois/<id>/salle.json`` with ``If-None-Match`` (its last ETag) and ``Accept-Encoding: gzip,
  br``, waiting the page's ``data-poll-ms`` (500 ms) after each answer, as the page's setTimeout does;
* the hall's projector (`static/js/projector.js`): one client asking ``/tournois/<id>/projecteur.json`` the
  same way every ``data-poll-ms`` (1000 ms); when ``published`` changes it fetches the page again (the
  script reloads it); once published, when the JSON's ``ranking`` is newer than the ``data-ranking`` of the
  rankings shown, it fetches ``/tournois/<id>/projecteur/classements`` (the script swaps it in) — again
  after each poll until it gets the newer one;
* the arbiter, who presses « Publier les résultats » (the dashboard's form, CSRF token, signed in) the
  instant the grid shows every cell of position 1 « saisi ».

Once the projector shows the published ranking the arbiter launches position 2 (the live room's « Lancer
la position » form) and table 1's phone enters and confirms one line of it.

Measured, per run (median / min / max over ``--runs``):

* (a) last confirmation answered → the grid poller holds a salle.json where position 1 is complete;
* (b) publish click → the projector poller holds the projector page showing the ranking;
* (c) published: one more confirmation answered → the projector poller holds rankings drawn from the new
  ``ranking`` (the data version);
* (d) bytes on the wire (status line, headers and compressed body) per salle.json ``200`` and per ``304``;
* (e) server CPU ms per ``304`` poll of salle.json and of projecteur.json vs per static-file request (200
  and 304), and per salle.json drawn afresh (200, no ETag sent), measured in a quiet phase after the runs:
  ``--cpu-requests`` requests back to back each;
* (f) 503s (« base occupée », sent again at most 10 times), lines lost or doubled (must be 0: exit 1).

A screen that never shows the change within ``--step-timeout`` (30 s) ends the run as failed (exit 1): before
issue 30 (no ``ranking`` in projecteur.json, a published projector never re-reads its rankings), (c) ends so.

The floor replaces every request by a GET of the static file (``If-None-Match`` for the pollers): its (a),
(b), (c) are what the pacing alone costs — the first poll that starts after the event, and the page's fetch.
Each screen starts polling at a moment of its own (a random phase), and the extra line of (c) too, so that
no two are in step.

Targets printed beside the figures: (a) ≤ 1 s, (b) ≤ 2 s, (c) ≤ 2 s, (d) ≤ 20 KB at 150 tables.
Bounded: a deadline per run, every request times out, 127.0.0.1 only.

Run: ``.venv/bin/python bench/bench_hall.py [--tables 150] [--databases sqlite,postgresql] [--runs 5]
[--positions 7] [--window 20] [--cpu-requests 200] [--max-stale 10] [--no-floor]`` (PostgreSQL:
127.0.0.1:5432, database ``test``, trust auth, as `bench_table_load`). About a minute per run and database
at 150 tables.
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import json
import os
import random
import re
import statistics
import sys
import tempfile
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e"), str(ROOT / "tests" / "faults"), str(ROOT / "bench")]

from bench_table_load import STATIC, _stored, _taker_seats, process_cpu  # noqa: E402
from clients import Browser, get_json  # noqa: E402
from live import (LiveServer, create_token, create_users, launch, pg_schema, postgres_reachable,  # noqa: E402
                  ready_tournament)

RETRIES = 10
TIMEOUT = 60
ARBITER, PASSWORD = "arbitre", "mot-de-passe-solide"
ENCODINGS = "gzip, br"
TARGETS = {"a": 1.0, "b": 2.0, "c": 2.0}
TARGET_BYTES = 20_000  # per salle.json update, at 150 tables
CELL_LETTERS = {"done": "d", "pending": "p", "conflict": "c", "missing": "m"}


# --- a client as a browser tab: one kept-alive connection, its bytes counted -------------------------------

@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes  # decoded (gzip, br)
    wire: int  # bytes received: status line, headers, body as sent
    start: float
    end: float


class Tab:
    """One browser tab's connection to the server (HTTP/1.1 keep-alive), sending its cookie if any."""

    def __init__(self, base: str, cookie: str | None = None):
        self.host, self.port = base.removeprefix("http://").split(":")
        self.cookie = cookie
        self.connection: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, headers: dict[str, str] | None = None,
                body: bytes | None = None) -> Answer:
        headers = {"Accept-Encoding": ENCODINGS, **(headers or {})}
        if self.cookie:
            headers["Cookie"] = self.cookie
        start = time.monotonic()
        for attempt in (1, 2):  # the server may have closed a kept-alive connection: one new one
            if self.connection is None:
                self.connection = http.client.HTTPConnection(self.host, int(self.port), timeout=TIMEOUT)
            try:
                self.connection.request(method, path, body=body, headers=headers)
                response = self.connection.getresponse()
                raw = response.read()
                break
            except (http.client.HTTPException, ConnectionError, OSError):
                self.close()
                if attempt == 2:
                    raise
        end = time.monotonic()
        fields = {key.lower(): value for key, value in response.getheaders()}
        wire = len(f"HTTP/1.1 {response.status} {response.reason}\r\n") + 2 + sum(
            len(f"{key}: {value}\r\n") for key, value in response.getheaders()) + len(raw)
        encoding = fields.get("content-encoding", "")
        if encoding == "gzip":
            raw = gzip.decompress(raw)
        elif encoding == "br":
            import brotli

            raw = brotli.decompress(raw)
        if fields.get("connection", "").lower() == "close":
            self.close()
        return Answer(response.status, fields, raw, wire, start, end)

    def get(self, path: str, etag: str | None = None) -> Answer:
        return self.request("GET", path, {"If-None-Match": etag} if etag else None)

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


def cookie_of(browser: Browser) -> str:
    return "; ".join(f"{cookie.name}={cookie.value}" for cookie in browser.jar)


def page_ranking(html: str) -> str | None:
    """The ranking a projector page (or its ``projecteur/classements``) shows: its ``.p-rankings``'s
    ``data-ranking``, the data version it was drawn from (None: no ranking, not published)."""
    match = re.search(r'class="p-rankings"[^>]*\sdata-ranking="([^"]*)"', html)
    return match.group(1) if match and match.group(1) else None


def poll_ms(html: str, default: int) -> int:
    match = re.search(r'data-poll-ms="(\d+)"', html)
    return int(match.group(1)) if match else default


def cell_status(cell) -> str:
    """A salle.json cell's status letter: the compact string's first letter (or the older object's status)."""
    return cell[0] if isinstance(cell, str) else CELL_LETTERS[cell["status"]]


# --- one run --------------------------------------------------------------------------------------------

@dataclass
class Polls:
    """What one poller received."""
    answers: list[Answer] = field(default_factory=list)
    pages: list[tuple[float, float, str | None, bool]] = field(default_factory=list)  # start, end, ranking, shown
    errors: list[str] = field(default_factory=list)


@dataclass
class Outcome:
    a: float | None = None
    b: float | None = None
    c: float | None = None
    grid: Polls = field(default_factory=Polls)
    projector: Polls = field(default_factory=Polls)
    busy: int = 0
    errors: list[str] = field(default_factory=list)
    sent: list[tuple[int, int]] = field(default_factory=list)  # (étui, table) confirmed
    tournament: int = 0


class Run:
    """One run: phones, grid, projector and arbiter together, against the app (``floor=False``) or the
    static file (``floor=True``)."""

    def __init__(self, server: LiveServer, args, tournament: int, lines: list[dict], token: str, floor: bool):
        self.server, self.args, self.tournament, self.floor = server, args, tournament, floor
        self.base = server.url
        self.deadline = time.monotonic() + args.deadline
        self.out = Outcome(tournament=tournament)
        self.lock = threading.Lock()
        self.phase = random.Random(f"phase-{tournament}-{floor}")  # the screens' and the extra line's moments
        self.stop = threading.Event()
        self.complete = threading.Event()  # the grid shows position 1 complete
        self.markers: dict[str, float] = {}  # floor: the events the pollers are to see (their start time)
        self.lines = lines
        self.groups: dict[tuple[int, int], list[dict]] = defaultdict(list)
        for line in lines:
            self.groups[(line["table"], line["position"])].append(line)
        self.arbiter = Browser(self.base, timeout=TIMEOUT)
        self.arbiter.sign_in(ARBITER, PASSWORD)
        if not floor:
            self.secrets = {link["table"]: link["secret"] for link in
                            get_json(self.base, f"/api/tournaments/{tournament}/tables", token=token)["tables"]}
            self.takers = _taker_seats(server.database_url, tournament)
            self.codes = launch(server.database_url, tournament, 1)

    # the tables' phones

    def post(self, tab: Tab, path: str, body: dict) -> Answer:
        for _attempt in range(RETRIES):
            if time.monotonic() > self.deadline:
                raise TimeoutError(f"délai dépassé : {path}")
            answer = tab.request("POST", path, {"Content-Type": "application/json"}, json.dumps(body).encode())
            if answer.status != 503:
                return answer
            with self.lock:
                self.out.busy += 1
            time.sleep(0.1)
        return answer

    def enter(self, tab: Tab, line: dict) -> float:
        """A line entered by the North then confirmed by a defender; returns when the confirmation was answered."""
        if self.floor:
            for _ in range(2):
                answer = tab.get(STATIC)
            return answer.end
        table, board = line["table"], line["board"]
        secret = self.secrets[table]
        answer = self.post(tab, f"/api/table/{secret}/results", {"board": board, "score": line["score"]})
        if answer.status != 202:
            raise AssertionError(f"saisie {board}-{table} : {answer.status} {answer.body[:160]!r}")
        taker = self.takers[board]
        seat = next(s for s in "ESW" if s != taker)  # a defender, not the North who entered it
        defender = line["defenders"][[s for s in "NSEW" if s != taker].index(seat)]
        answer = self.post(tab, f"/api/table/{secret}/results/{board}/confirm",
                           {"seat": seat, "code": self.codes[defender]})
        if answer.status != 200:
            raise AssertionError(f"confirmation {board}-{table} : {answer.status} {answer.body[:160]!r}")
        with self.lock:
            self.out.sent.append((board, table))
        return answer.end

    def phones(self) -> float:
        """Every table enters its position-1 lines; returns when the last confirmation was answered."""
        ends: list[float] = []
        tables = sorted(table for table, position in self.groups if position == 1)
        barrier = threading.Barrier(len(tables))

        def phone(table: int) -> None:
            tab = Tab(self.base)
            try:
                barrier.wait(timeout=120)
                time.sleep(random.Random(f"{table}-{self.tournament}").uniform(0, self.args.window))
                for line in sorted(self.groups[(table, 1)], key=lambda line: line["board"]):
                    end = self.enter(tab, line)
                    with self.lock:
                        ends.append(end)
            except Exception as error:  # noqa: BLE001 -- reported, and the run fails
                with self.lock:
                    self.out.errors.append(f"table {table} : {error!r}")
            finally:
                tab.close()

        threads = [threading.Thread(target=phone, args=(table,)) for table in tables]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=self.args.deadline + 120)
        return max(ends, default=time.monotonic())

    # the pollers

    def grid(self, interval: float) -> None:
        """live-room.js: salle.json, If-None-Match, then wait the page's interval after each answer."""
        tab = Tab(self.base, cookie_of(self.arbiter))
        path = STATIC if self.floor else f"/arbitre/tournois/{self.tournament}/salle.json"
        etag = None
        polls = self.out.grid
        self.stop.wait(self.phase.uniform(0, interval))  # opened at its own moment, not in step with the projector
        try:
            while not self.stop.is_set() and time.monotonic() < self.deadline:
                answer = tab.get(path, etag)
                polls.answers.append(answer)
                if answer.status == 200:
                    etag = answer.headers.get("etag")
                    if not self.floor:
                        cells = json.loads(answer.body)["cells"]
                        if all(cell_status(cell) == "d" for key, cell in cells.items() if key.startswith("1-")):
                            self.complete.set()
                elif answer.status != 304:
                    polls.errors.append(f"salle.json {answer.status}")
                if self.floor and "complete" in self.markers and answer.start >= self.markers["complete"]:
                    self.complete.set()
                self.stop.wait(interval)
        except Exception as error:  # noqa: BLE001
            polls.errors.append(repr(error))
        finally:
            tab.close()

    def projector(self, interval: float) -> None:
        """projector.js: projecteur.json with If-None-Match; ``published`` other than the page's: the page
        again (the script reloads it); a ``ranking`` newer than the one shown: ``projecteur/classements``,
        put in place if newer still (else asked again after the next poll, as the script does)."""
        tab = Tab(self.base)
        page_path = STATIC if self.floor else f"/tournois/{self.tournament}/projecteur"
        path = STATIC if self.floor else f"/tournois/{self.tournament}/projecteur.json"
        polls = self.out.projector
        published, shown, wanted = False, None, None
        if not self.floor:
            html = tab.get(page_path).body.decode()
            published, shown = 'data-published="true"' in html, page_ranking(html)
        seen: set[str] = set()  # floor: the markers already fetched for
        etag = None
        self.stop.wait(self.phase.uniform(0, interval))
        try:
            while not self.stop.is_set() and time.monotonic() < self.deadline:
                answer = tab.get(path, etag)
                polls.answers.append(answer)
                fetch = None
                if answer.status == 200:
                    etag = answer.headers.get("etag")
                    if not self.floor:
                        data = json.loads(answer.body)
                        wanted = data.get("ranking")
                        if bool(data["published"]) != published:
                            fetch = page_path  # window.location.reload()
                elif answer.status != 304:
                    polls.errors.append(f"projecteur.json {answer.status}")
                if not self.floor and fetch is None and wanted is not None and shown is not None \
                        and int(shown) < int(wanted):
                    fetch = f"/tournois/{self.tournament}/projecteur/classements"
                if self.floor:
                    due = {name for name, at in self.markers.items()
                           if name != "complete" and name not in seen and answer.start >= at}
                    seen |= due
                    fetch = page_path if due else None
                if fetch:
                    page = tab.get(fetch)
                    html = page.body.decode(errors="replace")
                    if not self.floor:
                        fresh = page_ranking(html)
                        if fetch == page_path:
                            published, shown = 'data-published="true"' in html, fresh
                        elif fresh is not None and (shown is None or int(fresh) > int(shown)):
                            shown = fresh
                    polls.pages.append((page.start, page.end, shown, self.floor or "p-ranking" in html))
                self.stop.wait(interval)
        except Exception as error:  # noqa: BLE001
            polls.errors.append(repr(error))
        finally:
            tab.close()

    def shown_after(self, moment: float, other_than: str | None) -> tuple[float, str | None] | None:
        """The first projector page fetched after ``moment`` showing a ranking (other than ``other_than``)."""
        for start, end, ranking, shown in list(self.out.projector.pages):
            if start >= moment and shown and (self.floor or (ranking and ranking != other_than)):
                return end, ranking
        return None

    def wait_shown(self, moment: float, other_than: str | None) -> tuple[float, str | None] | None:
        limit = min(self.deadline, time.monotonic() + self.args.step_timeout)
        while time.monotonic() < limit:
            found = self.shown_after(moment, other_than)
            if found:
                return found
            time.sleep(0.01)
        return None

    # the run

    def form_token(self, path: str) -> str:
        status, page, _ = self.arbiter.request(path)
        assert status == 200, (path, status)
        return self.arbiter.csrf(page)

    def go(self) -> Outcome:
        out = self.out
        if self.floor:
            grid_ms, projector_ms = self.args.grid_ms, self.args.projector_ms
        else:
            _, room, _ = self.arbiter.request(f"/arbitre/tournois/{self.tournament}/salle")
            grid_ms = poll_ms(room, 500)
            projector_page = Tab(self.base).get(f"/tournois/{self.tournament}/projecteur").body.decode()
            projector_ms = poll_ms(projector_page, 1000)
        out.grid_ms, out.projector_ms = grid_ms, projector_ms  # type: ignore[attr-defined]
        dashboard = f"/arbitre/tournois/{self.tournament}/"
        publish_token = self.form_token(dashboard)  # the dashboard is open on the arbiter's screen
        pollers = [threading.Thread(target=self.grid, args=(grid_ms / 1000,)),
                   threading.Thread(target=self.projector, args=(projector_ms / 1000,))]
        for thread in pollers:
            thread.start()
        try:
            last = self.phones()
            if self.floor:
                self.markers["complete"] = last
            # (a): the arbiter waits for the grid to show position 1 complete, then publishes at once
            if not self.complete.wait(timeout=max(0.0, min(self.deadline - time.monotonic(), self.args.step_timeout))):
                out.errors.append("la grille n'a jamais montré la position 1 complète")
                return out
            answers = list(out.grid.answers)
            if self.floor:  # the first poll sent after the last confirmation
                complete = next((a.end for a in answers if a.start >= last), None)
            else:  # the first answer that showed position 1 complete
                complete = next((a.end for a in answers if a.status == 200 and all(
                    cell_status(c) == "d" for k, c in json.loads(a.body)["cells"].items() if k.startswith("1-"))),
                    None)
            out.a = complete - last if complete is not None else None
            click = time.monotonic()
            if self.floor:
                self.markers["publish"] = click
                Tab(self.base).get(STATIC)
            else:
                status, _, _ = self.arbiter.request(f"/arbitre/tournois/{self.tournament}/publication",
                                                    {"csrf_token": publish_token, "publier": "1"})
                if status != 302:
                    out.errors.append(f"publication : {status}")
                    return out
            # (b): the projector shows the ranking
            found = self.wait_shown(click, None)
            if found is None:
                out.errors.append("le projecteur n'a jamais montré le classement")
                return out
            out.b, published_ranking = found[0] - click, found[1]
            # (c): position 2 launched, table 1 enters and confirms one of its lines
            line = min(self.groups[(1, 2)], key=lambda line: line["board"])
            if not self.floor:
                room = f"/arbitre/tournois/{self.tournament}/salle"
                status, _, _ = self.arbiter.request(f"/arbitre/tournois/{self.tournament}/horloge",
                                                    {"csrf_token": self.form_token(room), "action": "start",
                                                     "position": "2"})
                if status != 302:
                    out.errors.append(f"lancer la position 2 : {status}")
                    return out
                time.sleep(2 * projector_ms / 1000)  # the projector has taken the launch in
            # the extra line at a moment of its own, not in step with the projector's polls
            time.sleep(self.phase.uniform(0, projector_ms / 1000))
            tab = Tab(self.base)
            confirmed = self.enter(tab, line)
            tab.close()
            if self.floor:
                self.markers["extra"] = confirmed
            found = self.wait_shown(confirmed, published_ranking)
            if found is None:
                out.errors.append("le projecteur n'a jamais montré le classement après la ligne de plus")
                return out
            out.c = found[0] - confirmed
            return out
        except Exception as error:  # noqa: BLE001
            out.errors.append(repr(error))
            return out
        finally:
            self.stop.set()
            for thread in pollers:
                thread.join(timeout=TIMEOUT + 10)


# --- CPU per request, in a quiet phase ------------------------------------------------------------------

def cpu_per_request(server: LiveServer, tab: Tab, path: str, count: int, revalidate: bool) -> tuple[float, int, int]:
    """Server CPU ms per request of ``path`` sent ``count`` times back to back (``revalidate``: with the
    ETag of a first answer, as a poller does); (ms, bytes per answer, the status answered)."""
    etag = tab.get(path).headers.get("etag") if revalidate else None
    before = process_cpu(server.process.pid)
    wire, statuses = 0, set()
    for _ in range(count):
        answer = tab.get(path, etag)
        wire += answer.wire
        statuses.add(answer.status)
    spent = process_cpu(server.process.pid) - before
    return spent / count * 1000, wire // count, min(statuses) if len(statuses) == 1 else -1


# --- per database ---------------------------------------------------------------------------------------

def spread(values: list[float]) -> str:
    values = [v for v in values if v is not None]
    if not values:
        return "—"
    return (f"médiane {statistics.median(values) * 1000:6.0f} ms (min {min(values) * 1000:5.0f}, "
            f"max {max(values) * 1000:5.0f})")


def run(database_url: str, label: str, args) -> bool:
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        create_users(database_url, (ARBITER, PASSWORD, "arbiter"))
        token = create_token(database_url, role="arbiter")
        # the public views kept as in production (the projector's rankings are one): the tests' 0 would make
        # the first request after a commit compute them, where make run serves the kept one meanwhile
        env = {"PUBLIC_RESULTS_MAX_STALE": args.max_stale}
        with LiveServer(database_url, Path(tmp) / "server.log", production=True, env=env) as server:
            real: list[Outcome] = []
            floor: list[Outcome] = []
            for index in range(args.runs):
                tournament, lines = ready_tournament(database_url, Path(tmp), tables=args.tables,
                                                     positions=args.positions)
                outcome = Run(server, args, tournament, lines, token, floor=False).go()
                real.append(outcome)
                lost, doubled = check_lines(database_url, outcome)
                outcome.lost, outcome.doubled = lost, doubled  # type: ignore[attr-defined]
                print(f"  [{label}] essai {index + 1} : (a) {fmt(outcome.a)}, (b) {fmt(outcome.b)}, "
                      f"(c) {fmt(outcome.c)} ; 503 : {outcome.busy} ; perdues {lost}, en double {doubled}"
                      + (f" ; erreurs : {outcome.errors[:3] + outcome.grid.errors[:2] + outcome.projector.errors[:2]}"
                         if outcome.errors or outcome.grid.errors or outcome.projector.errors else ""))
                ok &= not (outcome.errors or lost or doubled or outcome.a is None or outcome.c is None)
                if not args.no_floor:
                    floor.append(Run(server, args, tournament, lines, token, floor=True).go())
            cpu = quiet_phase(server, real[-1].tournament, args.cpu_requests)
            print(f"  [{label}] grille toutes les {getattr(real[-1], 'grid_ms', '?')} ms, projecteur toutes les "
                  f"{getattr(real[-1], 'projector_ms', '?')} ms ; {args.runs} essais, {args.tables} tables, "
                  f"{args.positions} positions, "
                  f"fenêtre des téléphones {args.window:g} s")
            for key, title in (("a", "dernière confirmation → grille complète"),
                               ("b", "clic « Publier » → classement au projecteur"),
                               ("c", "publié : une ligne de plus → projecteur à jour")):
                print(f"    ({key}) {title:<44} {spread([getattr(o, key) for o in real])}"
                      f"   plancher {spread([getattr(o, key) for o in floor])}   cible ≤ {TARGETS[key]:g} s")
            updates = [a.wire for o in real for a in o.grid.answers if a.status == 200]
            not_modified = [a.wire for o in real for a in o.grid.answers if a.status == 304]
            floor_not_modified = [a.wire for o in floor for a in o.grid.answers if a.status == 304]
            print(f"    (d) salle.json, octets par mise à jour (200, {ENCODINGS}) : "
                  f"{_bytes(updates)} ; par 304 : {_bytes(not_modified)}   plancher 304 : "
                  f"{_bytes(floor_not_modified)}   cible ≤ {TARGET_BYTES // 1000} Ko à 150 tables")
            grid_304 = statistics.median(_share_304(o.grid) for o in real)
            projector_304 = statistics.median(_share_304(o.projector) for o in real)
            fetches = statistics.median(len(o.projector.pages) for o in real)
            print(f"        réponses 304 (médiane des essais) : grille {grid_304 * 100:.0f} %, "
                  f"projecteur {projector_304 * 100:.0f} % ; le projecteur a demandé sa page ou ses classements "
                  f"{fetches:g} fois par essai (médiane ; 2 sans rien de périmé)")
            print(f"    (e) CPU serveur par requête ({args.cpu_requests} à la suite, au calme) : "
                  + " ; ".join(f"{name} {ms:.2f} ms ({size} o, {status})" for name, (ms, size, status) in cpu.items()))
            busy = sum(o.busy for o in real)
            lost = sum(o.lost for o in real)  # type: ignore[attr-defined]
            doubled = sum(o.doubled for o in real)  # type: ignore[attr-defined]
            print(f"    (f) 503 : {busy} ; lignes perdues {lost}, en double {doubled} (cible : 0)")
            ok &= not (lost or doubled)
    return ok


def quiet_phase(server: LiveServer, tournament: int, count: int) -> dict[str, tuple[float, int, int]]:
    arbiter = Browser(server.url, timeout=TIMEOUT)
    arbiter.sign_in(ARBITER, PASSWORD)
    grid, public = Tab(server.url, cookie_of(arbiter)), Tab(server.url)
    figures = {
        "salle.json 304": cpu_per_request(server, grid, f"/arbitre/tournois/{tournament}/salle.json", count, True),
        "salle.json 200": cpu_per_request(server, grid, f"/arbitre/tournois/{tournament}/salle.json", count, False),
        "projecteur.json 304": cpu_per_request(server, public, f"/tournois/{tournament}/projecteur.json", count,
                                               True),
        "statique 200": cpu_per_request(server, public, STATIC, count, False),
        "statique 304": cpu_per_request(server, public, STATIC, count, True),
    }
    grid.close()
    public.close()
    return figures


def check_lines(database_url: str, outcome: Outcome) -> tuple[int, int]:
    stored = _stored(database_url, outcome.tournament)
    expected = set(outcome.sent)
    lost = expected - set(stored)
    doubled = [key for key, count in stored.items() if count > 1]
    return len(lost), len(doubled)


def fmt(seconds: float | None) -> str:
    return "—" if seconds is None else f"{seconds * 1000:.0f} ms"


def _bytes(values: list[int]) -> str:
    if not values:
        return "—"
    def n(value: float) -> str:
        return f"{value:,.0f}".replace(",", "\u202f")

    return (f"médiane {n(statistics.median(values))} o (min {n(min(values))}, max {n(max(values))}, "
            f"{len(values)} réponses)")


def _share_304(polls: Polls) -> float:
    return sum(a.status == 304 for a in polls.answers) / max(1, len(polls.answers))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=150)
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--positions", type=int, default=7,
                        help="positions du mouvement (7) ; seules les 1 et 2 sont jouées, les autres font la grille")
    parser.add_argument("--window", type=float, default=20.0,
                        help="secondes dans lesquelles chaque table commence sa saisie (20)")
    parser.add_argument("--deadline", type=float, default=300, help="secondes au plus par essai")
    parser.add_argument("--step-timeout", type=float, default=30,
                        help="secondes au plus pour que la grille ou le projecteur montre un changement (30)")
    parser.add_argument("--cpu-requests", type=int, default=200, help="requêtes par mesure de CPU (200)")
    parser.add_argument("--grid-ms", type=int, default=500, help="pas du plancher de la grille (500)")
    parser.add_argument("--projector-ms", type=int, default=1000, help="pas du plancher du projecteur (1000)")
    parser.add_argument("--max-stale", default="10",
                        help="PUBLIC_RESULTS_MAX_STALE du serveur (10, celui de make run ; 0 : celui des tests)")
    parser.add_argument("--no-floor", action="store_true", help="sans le plancher (fichier statique)")
    args = parser.parse_args()
    print(f"{time.strftime('%Y-%m-%d %H:%M')} — {args.tables} tables, waitress, PUBLIC_RESULTS_MAX_STALE "
          f"{args.max_stale}, {os.cpu_count()} cœurs, charge au départ {os.getloadavg()[0]:.1f}")
    ok = True
    for database in args.databases.split(","):
        if database == "sqlite":
            with tempfile.TemporaryDirectory() as tmp:
                ok &= run(f"sqlite:///{tmp}/hall.sqlite3", "SQLite", args)
        elif postgres_reachable():
            with pg_schema("duplicate_bench_hall") as url:
                ok &= run(url, "PostgreSQL", args)
        else:
            print("[PostgreSQL] injoignable sur 127.0.0.1:5432 : ignoré")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
