"""Application settings.

`Config` holds the defaults; the two settings that depend on the machine are resolved by `finalize`
once the instance folder is known:

- ``DATABASE_URL``: any SQLAlchemy URL. Default: the SQLite file ``duplicate.sqlite3`` in the instance
  folder; the ``DATABASE_URL`` environment variable overrides it, e.g.
  ``postgresql+psycopg://user@127.0.0.1:5432/tarot``.
- ``SECRET_KEY``: the ``SECRET_KEY`` environment variable, else a random key generated once and kept
  in ``instance/secret_key``, so that sessions survive a restart.
- ``ROUTE_SHEET_CACHE_DIR``: where the route-sheet PDFs of the private links are kept
  (`duplicate.web.public.route_sheet_pdfs`). Default: ``instance/feuilles-de-route``, shared by the processes of
  one instance; under TESTING, a fresh temporary folder per application; the environment variable of the
  same name overrides the default otherwise (the live-server tests give each server its own).
- ``PUBLIC_RESULTS_MAX_STALE``: the public results pages and JSON ranking are served the latest kept view
  while the process's worker recomputes the new one (`duplicate.operations._changes`); this bounds how long
  after the worker was asked for a view's newer data it may still be served (a request past it waits for the
  worker, or computes). The worker is asked at a commit for the views read lately, else by the first public
  request that finds the view older. Default 10 (the worker normally keeps up within one or two
  recomputations, 0.3–2 s each at 150 tables under load; staff always get fresh views); 0 in the tests; the
  environment variable overrides it.

Serving (`duplicate.serving`, docs/serving.md), each from the environment variable of the same
name unless configured:

- ``PUBLIC_URL``: the address every absolute link and QR code uses (e.g. ``https://tarot.club.fr``); unset,
  the detected LAN address and ``PORT``.
- ``HOST``, ``PORT``, ``THREADS``: what ``make run`` listens on, and its worker threads (the database pool
  is sized from ``THREADS``).
- ``SERVER_CPU``: the core ``make run`` keeps its threads on (Linux), ``all`` to leave them free; default
  the fastest core the process may use, the last of alike ones (`duplicate.affinity`).
- ``PROXY_FIX``: ``1`` behind a reverse proxy that terminates TLS: waitress (``make run``) believes the
  ``X-Forwarded-For`` and ``X-Forwarded-Proto`` headers of that one proxy, and only when the connection
  comes from ``TRUSTED_PROXY`` (`duplicate.serving.proxy_settings`); the client's address is then the one
  the sign-in throttling counts. Headers from any other peer are removed.
- ``TRUSTED_PROXY``: the proxy's IP address, one only (default ``127.0.0.1``; ``::1`` if it connects over
  IPv6 loopback); meaningful with ``PROXY_FIX`` only.
- ``SESSION_COOKIE_SECURE``: ``1`` sends the session cookie over HTTPS only; on by default when
  ``PUBLIC_URL`` starts with ``https://``.

- ``SQLITE_SYNCHRONOUS``: ``NORMAL`` (opt-in) lets SQLite commit without waiting for the disk (`duplicate.db`;
  docs/serving.md: a power cut may lose the last acknowledged lines); unset, SQLite's own
  default, ``FULL``.

- ``PASSWORD_HASH_METHOD``: werkzeug's method for new password hashes (`operations._users`): ``scrypt`` (its
  default); the test configuration uses one PBKDF2 round, 0.1 ms instead of 0.2–0.27 s a hash (issue 32).

Precedence: explicit configuration (``test_config``) > environment > default.
"""

import atexit
import os
import secrets
import shutil
import tempfile

SQLITE_FILENAME = "duplicate.sqlite3"
SECRET_KEY_FILENAME = "secret_key"


#: The largest request body (an uploaded or pasted tournament file, with the form around it): refused with
#: a French 413 before it is read. A little above the files' own limit, `core.filetext.MAX_FILE_BYTES`.
MAX_REQUEST_BYTES = 10 * 1024 * 1024


class Config:
    """Settings for `make run` and production."""

    DATABASE_URL: str | None = None
    MAX_CONTENT_LENGTH = MAX_REQUEST_BYTES
    MAX_FORM_MEMORY_SIZE = MAX_REQUEST_BYTES  # a tournament file pasted in a text field (Werkzeug: 500 kB)
    SECRET_KEY: str | None = None
    MIGRATE_ON_START = True  # run `alembic upgrade head` in create_app
    SQLALCHEMY_ECHO = False
    # the session cookie: never read by scripts, not sent by cross-site requests (issue 13)
    SESSION_COOKIE_HTTPONLY = True
    SESSION_COOKIE_SAMESITE = "Lax"
    PUBLIC_URL: str | None = None
    PROXY_FIX = False
    TRUSTED_PROXY: str | None = None  # the proxy's address when PROXY_FIX; None: 127.0.0.1
    ROUTE_SHEET_CACHE_DIR: str | None = None
    ROUTE_SHEET_PDF_WAIT = 0  # seconds a PDF request waits for its render before answering « en préparation »
    PUBLIC_RESULTS_MAX_STALE = 10.0
    PASSWORD_HASH_METHOD = "scrypt"  # werkzeug's method for new password hashes (`operations._users`)
    # Flask-Compress (issue 30): the pages and the JSON the hall's screens ask for, compressed when the
    # browser accepts it (salle.json: 171 KB → a few KB at 150 tables); static files are not (a browser keeps
    # them), nor PDFs (compressed already)
    COMPRESS_MIMETYPES = ["text/html", "application/json"]
    COMPRESS_ALGORITHM = ["br", "gzip"]
    COMPRESS_STREAMS = False


class TestConfig(Config):
    """Settings for the test suite; a test passes DATABASE_URL explicitly."""

    TESTING = True
    SECRET_KEY = "test-secret-key"
    WTF_CSRF_ENABLED = False
    ROUTE_SHEET_PDF_WAIT = 60  # the tests read the PDF in one request, unless they test the waiting page
    PUBLIC_RESULTS_MAX_STALE = 0  # a write, then a read, shows the write (tests of staleness set it)
    # one PBKDF2 round instead of scrypt's 0.27 s per hash: the tests of what a hash costs set "scrypt"
    PASSWORD_HASH_METHOD = "pbkdf2:sha256:1"


def default_database_url(instance_path: str) -> str:
    """The SQLite database used when nothing else is configured."""
    return "sqlite:///" + os.path.join(instance_path, SQLITE_FILENAME)


def database_url(configured: str | None, instance_path: str) -> str:
    """Resolve the database URL: explicit setting, then $DATABASE_URL, then SQLite in the instance folder."""
    return configured or os.environ.get("DATABASE_URL") or default_database_url(instance_path)


def _instance_secret_key(instance_path: str) -> str:
    """Read the secret key kept in the instance folder, creating it (mode 0600) on first use."""
    path = os.path.join(instance_path, SECRET_KEY_FILENAME)
    try:
        with open(path, encoding="ascii") as f:
            key = f.read().strip()
        if key:
            return key
    except FileNotFoundError:
        pass
    key = secrets.token_hex(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(key + "\n")
    return key


DEFAULT_THREADS = 16
SPARE_CONNECTIONS = 4  # besides one per server thread: the CLI in the same process, a background job


def pool_size(threads: int) -> int:
    """Connections kept open by the pool for `threads` server threads: one each, and a few spare."""
    return threads + SPARE_CONNECTIONS


def threads_from(config) -> int:
    value = config.get("THREADS") or os.environ.get("THREADS") or DEFAULT_THREADS
    try:
        return max(1, int(value))
    except (TypeError, ValueError):
        return DEFAULT_THREADS


SERVING_KEYS = ("PUBLIC_URL", "HOST", "PORT", "THREADS", "SERVER_CPU", "SQLITE_SYNCHRONOUS", "TRUSTED_PROXY")
TRUE_WORDS = frozenset({"1", "true", "yes", "on", "oui"})


def _flag(value) -> bool:
    return value is True or str(value).strip().lower() in TRUE_WORDS


def finalize(config: dict, instance_path: str) -> None:
    """Fill DATABASE_URL and SECRET_KEY in a Flask config from the environment or the instance folder,
    and the serving keys from the environment."""
    config["DATABASE_URL"] = database_url(config.get("DATABASE_URL"), instance_path)
    if not config.get("SECRET_KEY"):
        config["SECRET_KEY"] = os.environ.get("SECRET_KEY") or _instance_secret_key(instance_path)
    for key in SERVING_KEYS:
        if not config.get(key) and os.environ.get(key):
            config[key] = os.environ[key]
    if "PROXY_FIX" in os.environ:
        config["PROXY_FIX"] = _flag(os.environ["PROXY_FIX"])
    if "SESSION_COOKIE_SECURE" in os.environ:
        config["SESSION_COOKIE_SECURE"] = _flag(os.environ["SESSION_COOKIE_SECURE"])
    elif (config.get("PUBLIC_URL") or "").lower().startswith("https://"):
        config["SESSION_COOKIE_SECURE"] = True
    if "PUBLIC_RESULTS_MAX_STALE" in os.environ and not config.get("TESTING"):
        config["PUBLIC_RESULTS_MAX_STALE"] = float(os.environ["PUBLIC_RESULTS_MAX_STALE"])
    if not config.get("ROUTE_SHEET_CACHE_DIR"):
        config["ROUTE_SHEET_CACHE_DIR"] = (_temporary_folder("feuilles-de-route-") if config.get("TESTING")
                                           else os.environ.get("ROUTE_SHEET_CACHE_DIR")
                                           or os.path.join(instance_path, "feuilles-de-route"))


def _temporary_folder(prefix: str) -> str:
    """A fresh temporary folder, removed when the process ends (a test run builds hundreds of apps)."""
    folder = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder
