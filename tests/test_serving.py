"""Serving the hall (SPEC §12, issue 13 point 1): the addresses a phone opens, absolute links on
``PUBLIC_URL`` or the LAN address and never on the request's Host header, the database pool sized with
the server's threads, the TLS settings, and ``make run`` (waitress on 0.0.0.0) answering a client of
another network namespace, as a phone on the hall's network would be."""

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import click
import pytest
from sqlmodel import Session

from duplicate import create_app, db, operations, serving

REPO = Path(__file__).resolve().parents[1]
PASSWORD = "mot-de-passe-solide"


# --- the addresses -----------------------------------------------------------------------------------------

def test_lan_addresses_leave_out_loopback_link_local_and_doubles(monkeypatch):
    monkeypatch.setattr(serving, "_route_address", lambda: "192.168.1.20")
    monkeypatch.setattr(serving, "_interface_addresses",
                        lambda: ["127.0.0.1", "169.254.3.4", "192.168.1.20", "10.0.0.7", "0.0.0.0", "::1"])
    assert serving.lan_addresses() == ["192.168.1.20", "10.0.0.7"]
    assert serving.lan_addresses("10.0.0.7") == ["10.0.0.7"]  # bound to one address: that one only
    assert serving.lan_addresses("127.0.0.1") == []


def test_public_base_url_is_public_url_else_the_first_lan_address_and_the_port(monkeypatch):
    monkeypatch.setattr(serving, "lan_addresses", lambda host="0.0.0.0": ["192.168.1.20", "10.0.0.7"])
    monkeypatch.delenv("PORT", raising=False)
    assert serving.public_base_url({"PUBLIC_URL": "https://tarot.club.fr/"}) == "https://tarot.club.fr"
    assert serving.public_base_url({}) == "http://192.168.1.20:5000"
    assert serving.public_base_url({"PORT": 8080}) == "http://192.168.1.20:8080"
    monkeypatch.setattr(serving, "lan_addresses", lambda host="0.0.0.0": [])
    assert serving.public_base_url({"PORT": "5000"}) == "http://127.0.0.1:5000"  # on no network at all


# --- links never follow the Host header ---------------------------------------------------------------------

@pytest.fixture
def placed(database_url):
    """(configure, tournament id, a route-sheet token): the demonstration tournament, an arbiter."""
    from factories import demo_tournament

    def configure(**config):
        app = create_app({"DATABASE_URL": database_url, **config})
        apps.append(app)
        return app

    apps = []
    first = configure()
    with Session(db.get_engine(first), expire_on_commit=False) as session:
        tournament = demo_tournament(session)
        operations.create_user(session, "arbitre", PASSWORD, "arbiter")
        session.commit()
        token = operations.private_links(session, tournament)[0]["token"]
    yield configure, tournament.id, token
    for app in apps:
        db.get_engine(app).dispose()


def test_route_sheet_links_use_public_url_never_the_host_header(placed):
    configure, tid, token = placed
    app = configure(PUBLIC_URL="https://tarot.club.fr")
    client = app.test_client()
    page = client.get(f"/feuille/{token}", headers={"Host": "pirate.example"}).get_data(as_text=True)
    assert f"https://tarot.club.fr/feuille-de-route/{token}" in page
    assert "pirate.example" not in page
    client.post("/connexion", data={"username": "arbitre", "password": PASSWORD}, headers={"Host": "pirate.example"})
    links = client.get(f"/arbitre/tournois/{tid}/feuilles", headers={"Host": "pirate.example"})
    text = links.get_data(as_text=True)
    assert links.status_code == 200 and f"https://tarot.club.fr/feuille-de-route/{token}" in text
    assert "pirate.example" not in text


def test_without_public_url_links_use_the_lan_address_and_port(placed, monkeypatch):
    configure, _tid, token = placed
    monkeypatch.setattr(serving, "lan_addresses", lambda host="0.0.0.0": ["192.168.1.20"])
    app = configure(PORT=5000)
    page = app.test_client().get(f"/feuille/{token}", headers={"Host": "pirate.example:666"}).get_data(as_text=True)
    assert f"http://192.168.1.20:5000/feuille-de-route/{token}" in page
    assert "pirate.example" not in page


def test_the_arbiters_pages_show_the_hall_addresses_with_their_qr_codes(placed, monkeypatch):
    configure, tid, _token = placed
    monkeypatch.setattr(serving, "lan_addresses", lambda host="0.0.0.0": ["192.168.1.20", "10.0.0.7"])
    client = configure(PORT=5000).test_client()
    client.post("/connexion", data={"username": "arbitre", "password": PASSWORD})
    for path in ("/arbitre/", f"/arbitre/tournois/{tid}/"):
        page = client.get(path).get_data(as_text=True)
        section = page[page.index('class="hall-addresses"'):]
        assert re.findall(r'<figcaption><a href="([^"]+)"', section) == [
            "http://192.168.1.20:5000/", "http://10.0.0.7:5000/"]
        assert section.count("<svg") == 2


def test_the_pool_holds_a_connection_for_every_server_thread(tmp_path):
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'pool.sqlite3'}", "THREADS": 24})
    try:
        assert db.get_engine(app).pool.size() >= 24
    finally:
        db.get_engine(app).dispose()


def _through_waitress(app, settings, remote, headers):
    """A request to `app` through waitress's proxy-header layer with `settings`, from peer `remote`."""
    from waitress.proxy_headers import proxy_headers_middleware
    from werkzeug.test import Client

    layer = proxy_headers_middleware(
        app, trusted_proxy=settings.get("trusted_proxy"), trusted_proxy_count=settings.get("trusted_proxy_count", 1),
        trusted_proxy_headers=settings.get("trusted_proxy_headers"),
        clear_untrusted=settings["clear_untrusted_proxy_headers"])
    return Client(layer).get("/_scheme", headers=headers, environ_base={"REMOTE_ADDR": remote})


def test_behind_a_tls_proxy_secure_cookies_and_forwarded_scheme(tmp_path, monkeypatch):
    """Behind the proxy (PROXY_FIX): its X-Forwarded-Proto/-For are believed from TRUSTED_PROXY only (waitress,
    `serving.proxy_settings`); a client reaching the server directly cannot claim HTTPS or another address."""
    monkeypatch.setenv("PUBLIC_URL", "https://tarot.club.fr")
    monkeypatch.setenv("PROXY_FIX", "1")
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'tls.sqlite3'}"})
    assert app.config["SESSION_COOKIE_SECURE"] is True
    seen = {}

    @app.get("/_scheme")
    def scheme():
        from flask import request
        seen["scheme"], seen["remote"] = request.scheme, request.remote_addr
        return ""

    settings = serving.proxy_settings(app.config)
    forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "10.6.6.6, 192.168.1.50"}
    _through_waitress(app, settings, "127.0.0.1", forwarded)
    assert seen == {"scheme": "https", "remote": "192.168.1.50"}  # the proxy's last entry, not the client's own
    _through_waitress(app, settings, "192.168.1.9", forwarded)
    assert seen == {"scheme": "http", "remote": "192.168.1.9"}  # not the proxy: nothing believed
    app.test_client().get("/_scheme", headers=forwarded)
    assert seen["scheme"] == "http"  # and no second layer in the application (werkzeug's ProxyFix) believes it
    db.get_engine(app).dispose()
    monkeypatch.delenv("PROXY_FIX")
    monkeypatch.delenv("PUBLIC_URL")
    plain = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'plain.sqlite3'}"})
    assert not plain.config.get("SESSION_COOKIE_SECURE")
    plain.get("/_scheme")(scheme)
    _through_waitress(plain, serving.proxy_settings(plain.config), "127.0.0.1", forwarded)
    assert seen == {"scheme": "http", "remote": "127.0.0.1"}  # without PROXY_FIX, nobody is believed
    db.get_engine(plain).dispose()


def test_the_trusted_proxy_setting(monkeypatch, tmp_path):
    monkeypatch.delenv("TRUSTED_PROXY", raising=False)
    assert serving.trusted_proxy({"PROXY_FIX": False, "TRUSTED_PROXY": "10.0.0.2"}) is None
    assert serving.proxy_settings({}) == {"clear_untrusted_proxy_headers": True}
    assert serving.trusted_proxy({"PROXY_FIX": True}) == "127.0.0.1"
    assert serving.trusted_proxy({"PROXY_FIX": True, "TRUSTED_PROXY": " ::1 "}) == "::1"
    for wrong in ("*", "proxy.local", "10.0.0.0/8"):
        with pytest.raises(click.UsageError, match="TRUSTED_PROXY"):
            serving.trusted_proxy({"PROXY_FIX": True, "TRUSTED_PROXY": wrong})
    monkeypatch.setenv("TRUSTED_PROXY", "10.0.0.2")
    monkeypatch.setenv("PROXY_FIX", "oui")
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'proxy.sqlite3'}"})
    assert serving.proxy_settings(app.config)["trusted_proxy"] == "10.0.0.2"
    db.get_engine(app).dispose()


# --- `make run` from another network namespace ---------------------------------------------------------------

NAMESPACE = f"tarot{os.getpid() % 100000}"
SERVER_SIDE, PHONE_SIDE = f"tv{os.getpid() % 100000}a", f"tv{os.getpid() % 100000}b"
SUBNET = 10 + os.getpid() % 200  # 10.<SUBNET>.77.0/30: a private subnet of its own


def _ip(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["ip", *args], capture_output=True, text=True, timeout=20)


@pytest.fixture
def phone_namespace():
    """A network namespace joined to this one by a veth pair: (server's address, namespace name)."""
    if shutil.which("ip") is None:
        pytest.skip("la commande « ip » (iproute2) manque : pas d’espace de noms réseau")
    created = _ip("netns", "add", NAMESPACE)
    if created.returncode != 0:
        pytest.skip(f"espace de noms réseau refusé (il faut être root, ou CAP_SYS_ADMIN) : {created.stderr.strip()}")
    server_address, phone_address = f"10.{SUBNET}.77.1", f"10.{SUBNET}.77.2"
    try:
        for args in (("link", "add", SERVER_SIDE, "type", "veth", "peer", "name", PHONE_SIDE),
                     ("link", "set", PHONE_SIDE, "netns", NAMESPACE),
                     ("addr", "add", f"{server_address}/30", "dev", SERVER_SIDE),
                     ("link", "set", SERVER_SIDE, "up"),
                     ("netns", "exec", NAMESPACE, "ip", "addr", "add", f"{phone_address}/30", "dev", PHONE_SIDE),
                     ("netns", "exec", NAMESPACE, "ip", "link", "set", PHONE_SIDE, "up"),
                     ("netns", "exec", NAMESPACE, "ip", "link", "set", "lo", "up")):
            done = _ip(*args)
            if done.returncode != 0:
                pytest.skip(f"réseau de test impossible (ip {' '.join(args)}) : {done.stderr.strip()}")
        yield server_address, NAMESPACE
    finally:
        _ip("link", "del", SERVER_SIDE)
        _ip("netns", "del", NAMESPACE)


def _from_phone(namespace: str, url: str) -> tuple[int, str]:
    """GET `url` from inside `namespace` (a bounded child process): (status, body), status 0 if unreachable."""
    script = ("import sys, urllib.request\n"
              "try:\n"
              "    r = urllib.request.urlopen(sys.argv[1], timeout=5)\n"
              "    print(r.status); print(r.read().decode())\n"
              "except Exception as e:\n"
              "    print(0); print(repr(e))\n")
    done = subprocess.run(["ip", "netns", "exec", namespace, sys.executable, "-c", script, url],
                          capture_output=True, text=True, timeout=30)
    status, _, body = done.stdout.partition("\n")
    return int(status or 0), body + done.stderr


def test_make_run_answers_a_phone_of_another_network_namespace(phone_namespace, tmp_path):
    server_address, namespace = phone_namespace
    if shutil.which("make") is None:
        pytest.skip("make manque")
    import socket

    with socket.socket() as sock:
        sock.bind(("0.0.0.0", 0))
        port = sock.getsockname()[1]
    env = {key: value for key, value in os.environ.items() if not key.startswith("FLASK_")}
    env.update(DATABASE_URL=f"sqlite:///{tmp_path / 'salle.sqlite3'}", SECRET_KEY="test", PYTHONUNBUFFERED="1",
               HOST="0.0.0.0", PORT=str(port))
    env.pop("PUBLIC_URL", None)
    log = tmp_path / "make-run.log"
    # `-o`: the requirements are installed already (the test runs in that environment); run the recipe only
    with open(log, "wb") as out:
        server = subprocess.Popen(["make", "-s", "-o", ".venv/.requirements.stamp", "run"], cwd=REPO, env=env,
                                  stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline, status, body = time.monotonic() + 60, 0, ""
        while time.monotonic() < deadline and server.poll() is None:
            status, body = _from_phone(namespace, f"http://{server_address}:{port}/")
            if status == 200:
                break
            time.sleep(0.5)
        printed = log.read_text(errors="replace")
        assert status == 200, (status, body[:300], printed[-2000:])
        assert "Tarot duplicate" in body
        assert "waitress" in printed
        assert f"http://{server_address}:{port}/" in printed  # the address the phone opened was printed
        assert os.stat(tmp_path / "salle.sqlite3").st_mode & 0o777 == 0o600
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait(timeout=10)
