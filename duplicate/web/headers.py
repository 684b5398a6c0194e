"""Security headers on every response (issue 13): no page of this site may be framed by another
(``X-Frame-Options: DENY`` and ``frame-ancestors 'none'``: no clickjacking of the arbiter's buttons), and
a content-security policy: scripts only from this site's ``static/`` files — no inline script, no
``onclick`` (the templates have none; `tests/web/test_accounts.py` checks it) — nothing loaded from another
site, forms posted to this site only. Inline ``style`` attributes stay allowed (tournament colours).

A view that sets one of these headers itself keeps its own (the private route sheets send
``Referrer-Policy: no-referrer``). PDF files get no content-security policy (Chromium's PDF viewer is a
plugin that ``object-src 'none'`` would block), only the other headers.
"""

CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])


def add_security_headers(response):
    headers = response.headers
    headers.setdefault("X-Frame-Options", "DENY")
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("Referrer-Policy", "same-origin")
    if response.mimetype != "application/pdf":
        headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    return response


def init_app(app) -> None:
    app.after_request(add_security_headers)
