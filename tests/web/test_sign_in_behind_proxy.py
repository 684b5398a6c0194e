"""Sign-in throttling behind docs/serving.md's reverse proxy (issue 28 point 5), end to end on loopback: the real
server of ``make run`` (`serving.make_server`: waitress, PROXY_FIX on, TRUSTED_PROXY its default 127.0.0.1)
in a thread, behind a small reverse proxy written here (stdlib; like nginx's ``$proxy_add_x_forwarded_for``
it appends the address it was connected from to X-Forwarded-For and connects to waitress from 127.0.0.1),
and clients connecting from distinct loopback addresses (127.0.0.2, 127.0.0.3…, their source address bound).

Before, waitress removed X-Forwarded-For (no trusted proxy configured) and werkzeug's ProxyFix saw nothing:
every client signed in from 127.0.0.1, and a few wrong passwords from anyone locked everyone out."""

import http.client
import http.cookies
import http.server
import threading
import urllib.parse

import pytest
from sqlmodel import Session, select

from duplicate import create_app, db, operations, serving
from duplicate.models import SignInFailure
from duplicate.operations import _sign_in

PASSWORD = "mot-de-passe-solide"
HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade", "proxy-connection"}


def _reverse_proxy(upstream_port: int) -> http.server.ThreadingHTTPServer:
    class Forward(http.server.BaseHTTPRequestHandler):
        def _forward(self):
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            headers = {name: value for name, value in self.headers.items() if name.lower() not in HOP_BY_HOP
                       and name.lower() not in ("x-forwarded-for", "x-forwarded-proto")}
            earlier = self.headers.get("X-Forwarded-For")
            headers["X-Forwarded-For"] = f"{earlier}, {self.client_address[0]}" if earlier else self.client_address[0]
            headers["X-Forwarded-Proto"] = "http"
            upstream = http.client.HTTPConnection("127.0.0.1", upstream_port, timeout=30,
                                                  source_address=("127.0.0.1", 0))
            try:
                upstream.request(self.command, self.path, body=body, headers=headers)
                answer = upstream.getresponse()
                content = answer.read()
                self.send_response(answer.status)
                for name, value in answer.getheaders():
                    if name.lower() not in HOP_BY_HOP and name.lower() != "content-length":
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(content)))
                self.end_headers()
                self.wfile.write(content)
            finally:
                upstream.close()

        do_GET = do_POST = _forward

        def log_message(self, *args):
            pass

    return http.server.ThreadingHTTPServer(("127.0.0.1", 0), Forward)


class Browser:
    """A client on one loopback address, keeping its cookies (a browser, roughly)."""

    def __init__(self, source: str, port: int):
        self.source, self.port, self.cookies = source, port, {}

    def request(self, method, path, form=None, headers=None) -> tuple[int, str, dict]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30,
                                                source_address=(self.source, 0))
        sent = dict(headers or {})
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        try:
            connection.request(method, path, body=body, headers=sent)
            response = connection.getresponse()
            text = response.read().decode()
            for name, value in response.getheaders():
                if name.lower() == "set-cookie":
                    for cookie in http.cookies.SimpleCookie(value).values():
                        self.cookies[cookie.key] = cookie.value
            return response.status, text, dict(response.getheaders())
        finally:
            connection.close()

    def sign_in(self, username, password, headers=None) -> int:
        return self.request("POST", "/connexion", {"username": username, "password": password}, headers)[0]


@pytest.fixture
def hall(database_url, migrated):
    """(the app, the proxy's port, waitress's port): the server of ``make run`` behind the proxy."""
    app = create_app({"DATABASE_URL": database_url, "PROXY_FIX": True})
    with app.app_context(), Session(db.get_engine(app)) as session:  # the app's PASSWORD_HASH_METHOD
        operations.create_user(session, "arbitre", PASSWORD, "arbiter")
        session.commit()
    server = serving.make_server(app, "127.0.0.1", 0, 4)
    proxy = _reverse_proxy(server.effective_port)
    threads = [threading.Thread(target=server.run, daemon=True),
               threading.Thread(target=proxy.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)]
    for thread in threads:
        thread.start()
    try:
        yield app, proxy.server_address[1], server.effective_port
    finally:
        proxy.shutdown()
        proxy.server_close()
        server.close()
        for thread in threads:
            thread.join(10)
        db.get_engine(app).dispose()


def _rows(app) -> dict[str, int]:
    with Session(db.get_engine(app)) as session:
        return {row.key: row.failures for row in session.exec(select(SignInFailure))}


def test_waitress_is_told_to_believe_the_proxy_and_it_only(hall):
    app, _proxy_port, _port = hall
    settings = serving.proxy_settings(app.config)
    assert settings["trusted_proxy"] == "127.0.0.1" and settings["trusted_proxy_count"] == 1
    assert settings["trusted_proxy_headers"] == {"x-forwarded-for", "x-forwarded-proto", "x-forwarded-host"}
    assert type(app.wsgi_app).__name__ != "ProxyFix"  # one layer believes the headers: waitress


def test_each_client_of_the_proxy_is_counted_at_its_own_address(hall):
    """11 wrong passwords from 127.0.0.2 lock 127.0.0.2 (the 11th: 30 s); 127.0.0.3 signs in meanwhile;
    the proxy's own address, 127.0.0.1, is never counted; an X-Forwarded-For sent through the proxy is not
    believed (the proxy's last entry is)."""
    app, proxy_port, _port = hall
    locked = Browser("127.0.0.2", proxy_port)
    for attempt in range(10):
        assert locked.sign_in("arbitre", f"essai-{attempt}") == 422
    status, text, _headers = locked.request("POST", "/connexion", {"username": "arbitre", "password": "x"})
    assert status == 422 and "Trop d’essais : réessayez dans 30 s." in text
    status, text, headers = locked.request("POST", "/connexion", {"username": "arbitre", "password": PASSWORD})
    assert status == 429 and "Trop d’essais : réessayez dans" in text and int(headers["Retry-After"]) > 0
    other = Browser("127.0.0.3", proxy_port)
    assert other.sign_in("arbitre", PASSWORD) == 302
    liar = Browser("127.0.0.4", proxy_port)
    assert liar.sign_in("arbitre", "x", headers={"X-Forwarded-For": "10.9.9.9"}) == 422
    rows = _rows(app)
    assert rows["~addr|127.0.0.2"] == 11 and rows["~addr|127.0.0.4"] == 1
    assert "~addr|127.0.0.1" not in rows and "~addr|10.9.9.9" not in rows


def test_the_owner_signs_in_through_the_proxy_during_an_attack(hall, monkeypatch):
    """The owner signed in once from 127.0.0.10 (the known-device cookie); 6 attackers × 5 guesses; a
    newcomer with the right password is refused, the owner is not. The account's rule (20 free) and the
    global bucket (50 at once) are made smaller here, 10 and 25, to keep the test short."""
    monkeypatch.setattr(_sign_in, "ACCOUNT", _sign_in.Rule(10, _sign_in.MINUTE, _sign_in.HOUR, 24 * _sign_in.HOUR))
    monkeypatch.setattr(_sign_in, "GLOBAL_BURST", 25)
    app, proxy_port, _port = hall
    owner = Browser("127.0.0.10", proxy_port)
    assert owner.sign_in("arbitre", PASSWORD) == 302 and "appareil" in owner.cookies
    assert owner.request("POST", "/deconnexion")[0] == 302
    statuses = [Browser(f"127.0.0.{20 + attacker}", proxy_port).sign_in("arbitre", f"essai-{guess}")
                for attacker in range(6) for guess in range(5)]
    assert set(statuses) <= {422, 429} and 429 in statuses  # the global bucket full: everyone without it waits
    assert Browser("127.0.0.40", proxy_port).sign_in("arbitre", PASSWORD) in (422, 429)
    assert owner.sign_in("arbitre", PASSWORD) == 302
    status, text, _headers = owner.request("GET", "/arbitre/")
    assert status == 200 and "Déconnexion" in text
    rows = _rows(app)
    assert all(rows.get(f"~addr|127.0.0.{20 + attacker}", 0) <= 5 for attacker in range(6))
    assert "~addr|127.0.0.1" not in rows


def test_a_client_talking_to_waitress_directly_cannot_spoof_its_address(hall):
    """Around the proxy, straight to waitress from 127.0.0.5 with a forged X-Forwarded-For: the header is
    removed (127.0.0.5 is not the trusted proxy), the failures are 127.0.0.5's."""
    app, _proxy_port, port = hall
    direct = Browser("127.0.0.5", port)
    for attempt in range(3):
        assert direct.sign_in("arbitre", "x", headers={"X-Forwarded-For": f"10.8.8.{attempt}",
                                                        "X-Forwarded-Proto": "https"}) == 422
    rows = _rows(app)
    assert rows["~addr|127.0.0.5"] == 3
    assert not any(key.startswith("~addr|10.8.8.") for key in rows)
