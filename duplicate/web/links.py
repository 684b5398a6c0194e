"""Absolute links for what leaves the screen — QR codes, printed cards, the tables' links (SPEC §12).

Built on `duplicate.serving.public_base_url`: ``PUBLIC_URL`` when configured (a club serving online, behind
TLS), else the detected LAN address and port — never the request's Host header (issue 13).
"""

from duplicate.serving import public_base_url


def public_url(path: str) -> str:
    """The absolute URL of ``path`` (``/table/…``) as a phone in the hall must open it."""
    return public_base_url() + "/" + path.lstrip("/")
