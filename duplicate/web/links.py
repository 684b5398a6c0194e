"""Absolute links for what leaves the screen — QR codes, printed cards, the tables' links (SPEC §12).

`public_url` builds them on ``PUBLIC_URL`` when configured (a club serving online, behind TLS), else, for
now, on the address the request came to. Issue 13 asks for the detected LAN address there, never the
request's Host header: the serving work (``duplicate.serving``) replaces that fallback — this is the one
place to change.
"""

from flask import current_app, request


def public_url(path: str) -> str:
    """The absolute URL of ``path`` (``/table/…``) as a phone in the hall must open it."""
    base = (current_app.config.get("PUBLIC_URL") or "").strip() or request.host_url
    return base.rstrip("/") + "/" + path.lstrip("/")
