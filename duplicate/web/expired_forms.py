"""Forms that outlive a long position: a page left open past the CSRF token's life (Flask-WTF,
``WTF_CSRF_TIME_LIMIT``, one hour) keeps what was typed and asks to save again (issue 13, point 6).

A refused token is told apart: **expired** — signed with this browser's session secret, only too old, so
the form really came from our page — or **refused** (missing, forged, another session's): the French 400
« Formulaire refusé », as before, with nothing echoed back.

An expired token never saves anything; the page comes back with the values typed and a fresh token:

* the views marked `reshown_when_expired` (the fiches: `scoring.traveller`, `scoring.table_round`) are
  shown again by their own code — their guards run first (`_before_request_without_csrf`), then the view,
  whose form check fails on the same old token and which shows the fiche with every typed score in its
  input and « Le formulaire a expiré : enregistrez de nouveau. » (422, the request rolled back);
* any other form gets the page « Formulaire expiré »: the values typed, kept in a form posted again to
  the same address with a fresh token (« Enregistrer de nouveau »); a password is never sent back (to
  type again), a file has to be chosen again.
"""

from __future__ import annotations

from flask import current_app, render_template, request
from flask_wtf.csrf import CSRFError, ValidationError, validate_csrf

GENUINE_FOR = 400 * 24 * 3600  # seconds: an expired token this old is still recognised as ours
SECRET_FIELDS = ("password", "mot_de_passe", "passe")
EXPIRED_MESSAGE = ("La page est restée ouverte trop longtemps et son jeton de sécurité a expiré : rien n’a été "
                   "enregistré. Ce que vous avez saisi est conservé ci-dessous ; enregistrez de nouveau.")


def reshown_when_expired(view):
    """Mark a view that shows its form again, with what was typed, when its form check fails (it never
    writes then): an expired token is handed to it instead of the generic page."""
    view.reshown_when_expired = True
    return view


def _token_sent() -> str | None:
    field = current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    token = request.form.get(field)
    if token:
        return token
    for header in current_app.config.get("WTF_CSRF_HEADERS", ["X-CSRFToken", "X-CSRF-Token"]):
        if request.headers.get(header):
            return request.headers[header]
    return None


def token_expired() -> bool:
    """True when the token sent is this session's, only older than ``WTF_CSRF_TIME_LIMIT``."""
    token = _token_sent()
    if not token:
        return False
    try:
        validate_csrf(token, time_limit=GENUINE_FOR)
    except ValidationError:
        return False
    return True


def _before_request_without_csrf():
    """The request's guards (sign-in, role) as Flask would run them, without the CSRF check that failed."""
    app = current_app
    for name in (None, *reversed(request.blueprints)):
        for func in app.url_value_preprocessors.get(name, ()):
            func(request.endpoint, request.view_args)
    for name in (None, *reversed(request.blueprints)):
        for func in app.before_request_funcs.get(name, ()):
            if getattr(func, "__name__", "") == "csrf_protect":  # Flask-WTF's, the one that refused
                continue
            answer = app.ensure_sync(func)()
            if answer is not None:
                return answer
    return None


def _kept_fields() -> tuple[list[tuple[str, str]], list[str], list[str]]:
    """(the fields to post again, the secret fields to type again, the names of the files sent)."""
    token_field = current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    kept, secret = [], []
    for name, value in request.form.items(multi=True):
        if name == token_field:
            continue
        if any(word in name.lower() for word in SECRET_FIELDS):
            if name not in secret:
                secret.append(name)
        else:
            kept.append((name, value))
    files = [upload.filename or name for name, upload in request.files.items(multi=True)]
    return kept, secret, files


def refused(_error):
    return render_template(
        "error.html", title="Formulaire refusé",
        message="Le jeton de sécurité du formulaire manque ou a expiré : rechargez la page et recommencez.",
    ), 400


def csrf_error(error: CSRFError):
    """A refused CSRF token: the typed values kept when it only expired (see the module's docstring)."""
    if request.method != "POST" or request.path.startswith("/api/") or not token_expired():
        return refused(error)
    view = current_app.view_functions.get(request.endpoint)
    if getattr(view, "reshown_when_expired", False):
        answer = _before_request_without_csrf()
        if answer is not None:
            return answer
        return current_app.ensure_sync(view)(**(request.view_args or {}))
    kept, secret, files = _kept_fields()
    return render_template("form_expired.html", action=request.full_path.rstrip("?"), kept=kept, secret=secret,
                           files=files, message=EXPIRED_MESSAGE,
                           visible=[(name, value) for name, value in kept if value.strip()]), 400


def init_app(app) -> None:
    app.register_error_handler(CSRFError, csrf_error)
