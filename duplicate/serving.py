"""Serving the hall (SPEC §12): the production server, the addresses a phone can open, the public address
of every absolute link.

* ``make run`` → ``flask --app app serve``: waitress (a production WSGI server in pure Python, so it runs
  on the Windows laptops clubs own) on ``HOST`` (default ``0.0.0.0``: every interface) and ``PORT``
  (default ``5000``), with ``THREADS`` worker threads (default `DEFAULT_THREADS`). The database is
  migrated before the first request is accepted, and the SQLAlchemy pool is sized from the thread count
  (`duplicate.db`: one connection per thread and a few spare), so that no request waits for a connection.
  Werkzeug's server (``flask run``, ``make dev``) is for development only.
* `lan_addresses` — the IPv4 addresses of this machine that another device of the same network can reach
  (loopback and link-local left out); printed at start and shown, with a QR code, on the arbiter's pages.
* `public_base_url` — the address every absolute link and QR code uses (route sheets, private links,
  printed matter): ``PUBLIC_URL`` when configured (a club that serves online, behind TLS), else the first
  LAN address and the port served. Never the request's ``Host`` header, which any client can forge.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import socket
import sys
import time

import click

from duplicate import affinity
from duplicate.config import DEFAULT_THREADS, SPARE_CONNECTIONS, pool_size, threads_from  # noqa: F401

DEFAULT_HOST = "0.0.0.0"
DEFAULT_PORT = 5000
CONNECTION_LIMIT = 500  # open connections: 150 tables' phones and the laptops (waitress's select() on Windows: 512)
ADDRESSES_KEPT_FOR = 30.0  # seconds
_PROBE_ADDRESS = ("192.0.2.1", 9)  # TEST-NET-1 (RFC 5737): connecting a UDP socket sends nothing
_scanned: dict = {"at": None, "addresses": []}


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.IPv4Address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def _route_address() -> str | None:
    """The address the system would send from towards another network (the default route's interface)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.connect(_PROBE_ADDRESS)
            return sock.getsockname()[0]
    except OSError:
        return None


def _interface_addresses() -> list[str]:
    """`_scan_interfaces`, kept `ADDRESSES_KEPT_FOR` seconds: pages and links ask often, and resolving
    the host name may be slow on a badly configured network; a laptop changing networks is seen soon."""
    now = time.monotonic()
    if _scanned["at"] is None or now - _scanned["at"] > ADDRESSES_KEPT_FOR:
        _scanned.update(at=now, addresses=_scan_interfaces())
    return list(_scanned["addresses"])


def _scan_interfaces() -> list[str]:
    """Every interface's IPv4 address: by ioctl on Linux, by the host name's addresses elsewhere (Windows
    and macOS list every interface's address there)."""
    found: list[str] = []
    try:
        import fcntl
        import struct

        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            for _index, name in socket.if_nameindex():
                try:
                    packed = fcntl.ioctl(sock.fileno(), 0x8915,  # SIOCGIFADDR
                                         struct.pack("256s", name.encode()[:15]))
                except OSError:
                    continue  # an interface without an IPv4 address
                found.append(socket.inet_ntoa(packed[20:24]))
    except (ImportError, OSError, AttributeError):
        pass
    try:
        for *_rest, sockaddr in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(sockaddr[0])
    except OSError:
        pass
    return found


def lan_addresses(host: str = DEFAULT_HOST) -> list[str]:
    """The IPv4 addresses a device of the same network can open, default route's first. A server bound
    to one address (``HOST=192.168.1.20``) is reachable there only."""
    if host not in ("", DEFAULT_HOST, "::"):
        return [host] if _usable(host) else []
    addresses: list[str] = []
    for address in [_route_address(), *_interface_addresses()]:
        if address and _usable(address) and address not in addresses:
            addresses.append(address)
    return addresses


def served_port(config) -> int:
    """The port served: ``PORT`` of the configuration (set by `serve`), else the environment, else 5000."""
    value = config.get("PORT") or os.environ.get("PORT") or DEFAULT_PORT
    try:
        return int(value)
    except (TypeError, ValueError):
        return DEFAULT_PORT


def lan_urls(config) -> list[str]:
    """``http://ADDRESS:PORT`` for each LAN address of the host served."""
    port = served_port(config)
    return [f"http://{address}:{port}" for address in lan_addresses(config.get("HOST") or DEFAULT_HOST)]


def public_base_url(config=None) -> str:
    """The base of every absolute link: ``PUBLIC_URL`` (without its trailing slash), else the first LAN
    address and the port, else the loopback address (a machine on no network)."""
    if config is None:
        from flask import current_app

        config = current_app.config
    configured = (config.get("PUBLIC_URL") or "").strip()
    if configured:
        return configured.rstrip("/")
    urls = lan_urls(config)
    return urls[0] if urls else f"http://127.0.0.1:{served_port(config)}"


def public_url_for(endpoint: str, **values) -> str:
    """An absolute link to `endpoint` on `public_base_url` (never the request's Host header)."""
    from flask import url_for

    return public_base_url() + url_for(endpoint, **values)


DEFAULT_TRUSTED_PROXY = "127.0.0.1"
PROXY_HEADERS = ("x-forwarded-for", "x-forwarded-proto", "x-forwarded-host")  # Caddy sends all three


def trusted_proxy(config) -> str | None:
    """The address of the one reverse proxy whose headers are believed: ``TRUSTED_PROXY`` (default
    127.0.0.1) when ``PROXY_FIX`` is on, else None (no proxy: nobody's headers are believed)."""
    if not config.get("PROXY_FIX"):
        return None
    value = str(config.get("TRUSTED_PROXY") or DEFAULT_TRUSTED_PROXY).strip()
    try:
        return str(ipaddress.ip_address(value))
    except ValueError:
        raise click.UsageError(f"TRUSTED_PROXY « {value} » : il faut l’adresse IP du proxy, une seule "
                               "(« * » ou un nom ne sont pas acceptés).") from None


def proxy_settings(config) -> dict:
    """Waitress's settings for the proxy headers: behind one proxy (``PROXY_FIX``), its ``X-Forwarded-For``
    (the last address only: the one the proxy itself saw), ``X-Forwarded-Proto`` and ``X-Forwarded-Host``
    (links never use the host: `public_base_url`) are believed from `trusted_proxy` and from it only;
    waitress then sets ``REMOTE_ADDR`` (the address the sign-in throttling counts) and the scheme, and
    removes those headers from any other peer, with a warning in the log. Without a proxy, waitress
    removes them from everyone."""
    proxy = trusted_proxy(config)
    if proxy is None:
        return {"clear_untrusted_proxy_headers": True}
    return {"trusted_proxy": proxy, "trusted_proxy_count": 1, "trusted_proxy_headers": set(PROXY_HEADERS),
            "clear_untrusted_proxy_headers": True, "log_untrusted_proxy_headers": True}


def make_server(app, host: str, port: int, threads: int):
    """The waitress server of `make run` (not started): its threads, connection limit, proxy settings."""
    from waitress.server import create_server

    return create_server(app, host=host, port=port, threads=threads, connection_limit=CONNECTION_LIMIT,
                         channel_timeout=120, ident="tarot-duplicate", **proxy_settings(app.config))


def serve(app, host: str, port: int, threads: int) -> None:
    """Migrate, then serve `app` with waitress until interrupted."""
    from duplicate import db

    app.config.update(HOST=host, PORT=port, THREADS=threads)
    try:
        cpu, refused = affinity.pin_server(app.config.get("SERVER_CPU"))  # before waitress starts its threads
    except ValueError as error:
        raise click.ClickException(str(error)) from None
    db.get_database(app)  # migrations and engines before the first request, not during it
    click.echo(f"Tarot duplicate : serveur de production (waitress, {threads} fils) sur {host}:{port}.")
    if cpu is not None:
        click.echo(f"Ses fils sur le cœur {cpu} (SERVER_CPU=all pour les laisser libres ; docs/serving.md).")
    elif refused is not None:
        click.echo(f"Ses fils restent libres : le système refuse de les garder sur un cœur ({refused.strerror or refused}).")
    urls = lan_urls(app.config)
    if urls:
        click.echo("Adresses à ouvrir depuis un téléphone ou un ordinateur du même réseau :")
        for url in urls:
            click.echo(f"  {url}/")
    else:
        click.echo(f"Aucune adresse réseau trouvée : seul ce poste peut ouvrir http://127.0.0.1:{port}/")
    if app.config.get("PUBLIC_URL"):
        click.echo(f"Liens et QR codes : {public_base_url(app.config)}/ (PUBLIC_URL)")
    proxy = trusted_proxy(app.config)
    if proxy:
        click.echo(f"Derrière un proxy (PROXY_FIX) : seuls ses en-têtes X-Forwarded-For/-Proto/-Host sont crus, "
                   f"depuis {proxy} (TRUSTED_PROXY).")
    logging.basicConfig()  # as waitress.serve: its warnings (untrusted proxy headers) reach the console
    server = make_server(app, host, port, threads)
    click.echo("Arrêt : Ctrl+C.")
    sys.stdout.flush()
    server.run()


@click.command("serve")
@click.option("--host", default=lambda: os.environ.get("HOST") or DEFAULT_HOST, show_default=DEFAULT_HOST,
              help="Adresse d’écoute (0.0.0.0 : toutes les interfaces).")
@click.option("--port", type=click.IntRange(1, 65535), default=lambda: int(os.environ.get("PORT") or DEFAULT_PORT),
              show_default=str(DEFAULT_PORT), help="Port d’écoute.")
@click.option("--threads", type=click.IntRange(1, 256), default=None,
              help=f"Fils de traitement (défaut : THREADS, sinon {DEFAULT_THREADS}).")
def serve_command(host: str, port: int, threads: int | None) -> None:
    """Sert l'application pour la salle (waitress) et affiche les adresses à ouvrir."""
    from flask import current_app

    app = current_app._get_current_object()
    serve(app, host, port, threads or threads_from(app.config))


def hall_addresses() -> list[dict]:
    """What the arbiter's pages show: each address to open in the hall with its QR code (inline SVG)."""
    from flask import current_app

    urls = [public_base_url()] if current_app.config.get("PUBLIC_URL") else lan_urls(current_app.config)
    from duplicate.printing.common import qr_svg

    return [{"url": url + "/", "qr": qr_svg(url + "/", scale=None)} for url in urls]


def loopback_only() -> bool:
    """True when the server listens on this machine only (``HOST=127.0.0.1``): no phone can reach it."""
    from flask import current_app

    host = current_app.config.get("HOST") or DEFAULT_HOST
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def init_app(app) -> None:
    """Templates get `public_url_for` (absolute links), `hall_addresses` and `loopback_only` (the
    arbiter's pages)."""
    app.add_template_global(public_url_for)
    app.add_template_global(hall_addresses)
    app.add_template_global(loopback_only)
