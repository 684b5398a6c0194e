"""The real application in a child process, on a free loopback port, for the end-to-end, fault and load tests.

`LiveServer` runs ``python -m flask --app app run`` (Werkzeug's threaded server, no reloader, no
debugger) from the repository root with its own ``DATABASE_URL`` and ``SECRET_KEY``: CSRF is on, as in
production; ``production=True`` runs ``flask --app app serve`` instead, the waitress server of ``make
run`` (`duplicate.serving`). ``PUBLIC_URL`` is the server's own loopback address, so that the absolute
links and QR codes it shows lead back to it. Traffic goes to 127.0.0.1 only; every wait is bounded in time.

Also: `flask(...)`, one ``flask --app app`` command against a database (the CLI a user types), and
`pg_schema(...)`, a fresh PostgreSQL schema for a test (created and dropped like tests/conftest.py does).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PYTHON = sys.executable
SECRET_KEY = "e2e-secret-key-not-for-production"
POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def app_env(database_url: str, **extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("FLASK_")}
    env.setdefault("PUBLIC_RESULTS_MAX_STALE", "0")  # a write, then a read, shows the write (bench: its own)
    env.update(DATABASE_URL=database_url, SECRET_KEY=SECRET_KEY, PYTHONUNBUFFERED="1", **extra)
    return env


def flask(database_url: str, *args: str, input: str | None = None, timeout: float = 120,
          check: bool = True) -> subprocess.CompletedProcess:
    """Run ``flask --app app ARGS`` from the repository root against `database_url`."""
    done = subprocess.run([PYTHON, "-m", "flask", "--app", "app", *args], cwd=REPO, env=app_env(database_url),
                          input=input, capture_output=True, text=True, timeout=timeout)
    if check and done.returncode != 0:
        raise AssertionError(f"flask {' '.join(args)} → {done.returncode}\n{done.stdout}\n{done.stderr}")
    return done


class LiveServer:
    """``flask run`` in a child process; `url` is its address once `start` has returned."""

    def __init__(self, database_url: str, log_path: Path | None, port: int | None = None,
                 production: bool = False, host: str = "127.0.0.1", threads: int | None = None,
                 env: dict[str, str] | None = None):
        self.database_url = database_url
        self.production = production
        self.host = host
        self.threads = threads
        self.extra_env = env or {}
        self.log_path = Path(log_path) if log_path is not None else None  # None: no log file (disk-full test)
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 60) -> "LiveServer":
        log = open(self.log_path, "ab") if self.log_path is not None else open(os.devnull, "wb")
        if self.production:
            command = ["serve", "--host", self.host, "--port", str(self.port)]
            command += ["--threads", str(self.threads)] if self.threads else []
        else:
            command = ["run", "--host", self.host, "--port", str(self.port), "--no-reload", "--no-debugger",
                       "--with-threads"]
        self.process = subprocess.Popen(
            [PYTHON, "-m", "flask", "--app", "app", *command],
            cwd=REPO, env=app_env(self.database_url, **{"PUBLIC_URL": self.url, **self.extra_env}), stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped at start-up:\n{self.log()}")
            try:
                with urllib.request.urlopen(self.url + "/", timeout=2) as response:
                    if response.status == 200:
                        return self
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the server did not answer within {timeout} s:\n{self.log()}")

    def log(self) -> str:
        if self.log_path is None:
            return ""
        try:
            return self.log_path.read_text(errors="replace")[-5000:]
        except FileNotFoundError:
            return ""

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, as when the machine's power goes."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.kill()

    def __enter__(self) -> "LiveServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def postgres_reachable() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 5432), timeout=1):
            pass
    except OSError:
        return False
    try:
        with _admin_engine().connect():
            return True
    except Exception:
        return False


def _admin_engine():
    from sqlalchemy import create_engine
    from sqlalchemy.pool import NullPool

    return create_engine(POSTGRES_URL, poolclass=NullPool, connect_args={"connect_timeout": 2})


@contextlib.contextmanager
def pg_schema(name: str):
    """A fresh PostgreSQL schema, dropped afterwards; yields the URL whose search_path is that schema."""
    schema = f"{name}_{os.getpid()}"
    engine = _admin_engine()
    with engine.begin() as conn:
        conn.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{POSTGRES_URL}?options=-csearch_path%3D{schema}"
    finally:
        with engine.begin() as conn:
            conn.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        engine.dispose()


_CREATE_USER = """
import sys
from sqlmodel import Session
from duplicate import create_app, db, operations
app = create_app()
with Session(db.get_engine(app)) as session:
    for spec in sys.argv[1:]:
        username, password, role = spec.split(":", 2)
        operations.create_user(session, username, password, role)
    session.commit()
db.get_engine(app).dispose()
"""


def create_users(database_url: str, *specs: tuple[str, str, str]) -> None:
    """Staff accounts through `operations.create_user`: ``(username, password, role)`` each."""
    subprocess.run([PYTHON, "-c", _CREATE_USER, *(":".join(spec) for spec in specs)], cwd=REPO,
                   env=app_env(database_url), check=True, timeout=120, capture_output=True)


_GIVE = """
import sys
from sqlmodel import Session, select
from duplicate import create_app, db
from duplicate.models import TournamentAccess, User
app = create_app()
with Session(db.get_engine(app)) as session:
    for username in sys.argv[2:]:
        user = session.exec(select(User).where(User.username == username)).one()
        session.add(TournamentAccess(tournament_id=int(sys.argv[1]), user_id=user.id, granted_by="tests"))
    session.commit()
db.get_engine(app).dispose()
"""


def give_tournament(database_url: str, tournament_id: int, *usernames: str) -> None:
    """Give the tournament to these accounts, as its arbiter does on the « Accès » page (a scorer given no
    tournament enters none: docs/accounts.md)."""
    subprocess.run([PYTHON, "-c", _GIVE, str(tournament_id), *usernames], cwd=REPO,
                   env=app_env(database_url), check=True, timeout=120, capture_output=True)


# --- a tournament ready to score, and the lines to score it ---------------------------------------------------

def ready_tournament(database_url: str, tmp_dir: Path, tables: int | None = None,
                     positions: int | None = None) -> tuple[int, list[dict]]:
    """A scored tournament's file imported without its results: (its id, the result lines to send to the
    scoring API, in SPEC §9 form). Default: the demonstration (5 tables); `tables`: a simulated individual
    of that many tables (`bench`-style build, see `simulated_file`)."""
    if tables is None:
        demo_id = flask(database_url, "demo").stdout.split()[-1]
        data = json.loads(flask(database_url, "export", demo_id).stdout)
    else:
        data = simulated_file(tables, positions)
    lines = [{key: r[key] for key in ("board", "table", "position", "taker", "defenders", "score")}
             for r in data["results"] if isinstance(r.get("score"), int) and not r.get("annulled")]
    data = dict(data, results=[], penalties=[], name=f"{data.get('name', 'Tournoi')} (à saisir)")
    path = Path(tmp_dir) / "a-saisir.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    tournament_id = int(flask(database_url, "import", str(path)).stdout.split()[-1])
    return tournament_id, lines


def simulated_file(tables: int, positions: int | None = None, seed: str = "bench") -> dict:
    """A ``tarot-tournament/1`` individual of `tables` tables, every line scored with a plausible Garde."""
    import random

    from duplicate.core.deals import generate_boards
    from duplicate.core.movements import generate
    from duplicate.core.scoring import Contract, reachable_scores

    movement = generate("individual", tables=tables, positions=positions).to_dict()
    count = max(int(b) for r in movement["rounds"] for b in r["boards"])
    takers = {b["number"]: b["taker"] for b in movement["boards"]}
    deals = generate_boards(count, seed)
    allowed = sorted(s for s, t in reachable_scores(Contract.GARDE).items() if not t and -150 <= s <= 200)
    rng = random.Random(seed)
    players = [{"id": f"{seat}{t}", "name": f"JOUEUR {seat}{t}", "line": seat}
               for t in range(1, tables + 1) for seat in "NSEW"]
    results = []
    for r in movement["rounds"]:
        for number in r["boards"]:
            seat = takers.get(number) or "NSEW"[(number - 1) % 4]
            results.append({"board": number, "table": r["table"], "position": r["position"],
                            "taker": r["seats"][seat],
                            "defenders": [r["seats"][s] for s in "NSEW" if s != seat], "score": rng.choice(allowed)})
    return {"format": "tarot-tournament/1", "name": f"Individuel de {tables} tables", "kind": "individual",
            "players": players, "boards": [{"number": d.number, "taker": takers.get(d.number) or d.taker.value,
                                            "dealer": d.dealer.value} for d in deals],
            "movement": movement, "results": results, "penalties": []}


def launch(database_url: str, tournament_id: int, position: int) -> dict[str, str]:
    """The arbiter's « Lancer la position »: straight in the database the server runs on; returns every
    entrant's confirmation code."""
    from sqlmodel import Session

    from duplicate import operations
    from duplicate.db import make_engine

    engine = make_engine(database_url)  # the app's engine settings (SQLite's busy timeout under load)
    with Session(engine) as session:
        tournament = operations.get_tournament(session, tournament_id)
        operations.start_position(session, tournament, position)
        session.commit()
        codes = {item["id"]: item["code"] for item in operations.table_codes(session, tournament)}
    engine.dispose()
    return codes


def create_token(database_url: str, role: str = "scorer") -> str:
    return flask(database_url, "create-token", "--role", role, "--label", "tests").stdout.split()[-1]
