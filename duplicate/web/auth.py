"""Sign-in and sign-out with the Flask session, one's own password, and the guards: `arbiter_required`,
`staff_required`, and `tournament_for_arbiter` / `tournament_for_scorer` (who may see which tournament,
`duplicate.operations._access`).

The signed session cookie holds the user's id and the account's session generation
(``User.session_generation``); the user is read from the database once per request, when first needed
(`current_user`), and the session counts only while the account is active and its generation unchanged.
Signing out increments the generation: every session of the account ends, a copy of the cookie taken
before too. Signing in clears the session first (no session fixation). The ``next`` address a visitor is
sent back to after signing in must be a path on this site.

Sign-in is throttled (`duplicate.operations._sign_in`, docs/sign-in-throttling.md): failures are counted
per address, per account (silently), for everyone, and apart for a known device (a signed cookie set at a
successful sign-in), in the database, in a transaction of their own, committed at once (the sign-in page
answers 422, which rolls the request back); an unknown name takes as long as a wrong password and writes
the same number of counters.
"""

import functools
import secrets
from urllib.parse import urlsplit

from flask import (abort, current_app, flash, g, make_response, redirect, render_template, request, session,
                   url_for)
from sqlmodel import Session

from duplicate import operations
from duplicate.db import get_engine, get_session, reads_only
from duplicate.models import Role, User
from duplicate.web.forms import LoginForm, PasswordChangeForm
from duplicate.web.blueprints import auth as bp
from duplicate.web.submit import submit


ARBITER = Role.arbiter
#: a staff account's role as the « Accès » page names it
ROLE_LABELS = {Role.arbiter: "co-arbitre", Role.scorer: "marqueur"}
TOO_MANY_REQUESTS = 429
_ANONYMOUS = object()


def current_user() -> User | None:
    """The signed-in user of this request, or None (also when the account was disabled, or signed out
    elsewhere since this session began)."""
    user = g.get("current_user", _ANONYMOUS)
    if user is _ANONYMOUS:
        user_id = session.get("user_id")
        user = get_session().get(User, user_id) if user_id is not None else None
        if user is not None and (not user.active or session.get("generation") != user.session_generation):
            session.clear()
            user = None
        g.current_user = user
    return user


@bp.app_context_processor
def inject_current_user():
    return {"current_user": current_user}


def is_arbiter(account) -> bool:
    """Whether ``account`` — a user or an API token, None for nobody — holds the arbiter's role (else a
    scorer's)."""
    return account is not None and Role(account.role) is ARBITER


def _sign_in_page():
    return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))


def arbiter_required(view):
    """Let arbiters through; send anonymous visitors to the sign-in page, answer 403 to anyone else."""

    @functools.wraps(view)
    def wrapped(*args, **kwargs):
        user = current_user()
        if user is None:
            return _sign_in_page()
        if user.role != ARBITER:
            abort(403)
        return view(*args, **kwargs)

    return wrapped


def staff_required(view):
    """Let staff through (arbiters and scorers); send anonymous visitors to the sign-in page."""

    @functools.wraps(view)
    def wrapped(*args, **kwargs):
        user = current_user()
        if user is None:
            return _sign_in_page()
        if user.role not in (Role.arbiter, Role.scorer):
            abort(403)
        return view(*args, **kwargs)

    return wrapped


def _refuse(message: str):
    abort(make_response(render_template("error.html", title="Accès refusé", message=message), 403))


def tournament_for_arbiter(tournament_id: int):
    """The tournament with this id if the signed-in arbiter manages it (its owner, a co-arbiter, or any
    arbiter for a shared tournament); else a 404 (unknown) or 403 page. Every view of the ``arbiter`` and
    ``printing`` blueprints with a ``tournament_id`` is checked by it before it runs (`check_tournament`)."""
    from duplicate.web.lookups import tournament_or_404

    tournament = tournament_or_404(tournament_id)
    if not operations.can_manage(get_session(), current_user(), tournament):
        _refuse("Ce tournoi est confié à un autre arbitre : demandez-lui de vous nommer co-arbitre.")
    return tournament


def tournament_for_scorer(tournament_id: int):
    """The tournament with this id if the signed-in user may enter its fiches (`operations.can_score`);
    else a 404 or 403 page. Every view of the ``scoring`` blueprint with a ``tournament_id`` is checked."""
    from duplicate.web.lookups import tournament_or_404

    tournament = tournament_or_404(tournament_id)
    if not operations.can_score(get_session(), current_user(), tournament):
        _refuse("Vous n’avez pas accès à la saisie de ce tournoi : l’arbitre du tournoi vous la donne.")
    return tournament


def check_tournament(guard):
    """A ``before_request`` check of a blueprint: the URL's ``tournament_id``, if any, passes `guard`."""

    def check():
        tournament_id = (request.view_args or {}).get("tournament_id")
        if tournament_id is not None and current_user() is not None:
            guard(tournament_id)

    return check


def _safe_next(target: str | None) -> str | None:
    """`target` when it is a path on this site (``/…`` but not ``//host``), else None. A control character
    (CR, LF, tab, NUL…) refuses it: a header cannot hold CR or LF, and browsers drop tabs and newlines from
    an address, so that ``/<TAB>/host`` would lead to ``//host``."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target \
            or any(ord(c) < 32 or ord(c) == 127 for c in target):
        return None
    parts = urlsplit(target)
    return target if not parts.scheme and not parts.netloc else None


def _home_for(user: User) -> str:
    return url_for("arbiter.tournaments") if user.role == ARBITER else url_for("scoring.tournaments")


def _in_own_transaction(act):
    """Run `act(session)` in a session of its own, committed at once (the sign-in page rolls back)."""
    with Session(get_engine()) as own:
        value = act(own)
        own.commit()
    return value


def _wait_message(seconds: int) -> str:
    wait = f"{seconds} s" if seconds < 120 else f"{-(-seconds // 60)} min"
    return f"Trop d’essais : réessayez dans {wait}."


# --- known devices -----------------------------------------------------------------------------------------------
# A browser where an account signed in carries the signed cookie KNOWN_DEVICE_COOKIE: {"d": a random device id,
# "u": the ids of the accounts signed in there}. Its sign-ins to those accounts are counted apart (`operations
# ._sign_in`, DEVICE) and never locked by strangers' failures. Only the sign-in page receives it (its path).

KNOWN_DEVICE_COOKIE = "appareil"
KNOWN_DEVICE_DAYS = 180
KNOWN_DEVICE_ACCOUNTS = 8  # accounts remembered on one device (a laptop shared by the arbiter and scorers)


def _device_signer():
    from itsdangerous import URLSafeTimedSerializer

    return URLSafeTimedSerializer(current_app.secret_key, salt="known-device")


def known_device() -> tuple[str, list[int]] | None:
    """(device id, account ids) of this browser's known-device cookie, or None (absent, forged, too old)."""
    from itsdangerous import BadData

    value = request.cookies.get(KNOWN_DEVICE_COOKIE)
    if not value or len(value) > 1000:
        return None
    try:
        data = _device_signer().loads(value, max_age=KNOWN_DEVICE_DAYS * 86400)
        device, accounts = str(data["d"]), [int(account) for account in data["u"]]
    except (BadData, KeyError, TypeError, ValueError):
        return None
    return (device, accounts) if device else None


def _remember_device(response, user: User, device: tuple[str, list[int]] | None) -> None:
    device_id = device[0] if device else secrets.token_urlsafe(12)
    accounts = [user.id] + [account for account in (device[1] if device else []) if account != user.id]
    response.set_cookie(KNOWN_DEVICE_COOKIE, _device_signer().dumps({"d": device_id,
                                                                    "u": accounts[:KNOWN_DEVICE_ACCOUNTS]}),
                        max_age=KNOWN_DEVICE_DAYS * 86400, path=url_for("auth.login"), httponly=True,
                        samesite="Lax", secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")))


@bp.route("/connexion", methods=["GET", "POST"])
@reads_only
def login():
    """The sign-in form; a wrong user name or password gets one message that tells neither apart, and the
    throttling (`operations._sign_in`) answers the same for a known and an unknown name."""
    form = LoginForm()
    status, wait = 200, 0
    if form.validate_on_submit():
        named = operations.user_named(get_session(), form.username.data)
        device = known_device()
        on_known_device = device is not None and named is not None and named.id in device[1]
        if on_known_device:  # counted apart: strangers' failures do not lock it
            keys = [operations.device_key(device[0])]
            wait, account_locked = operations.locked_for(get_session(), keys[0]), False
        else:
            keys = [operations.address_key(request.remote_addr), operations.GLOBAL_KEY,
                    operations.account_key(named.id if named is not None else None)]
            wait = max(operations.locked_for(get_session(), key) for key in keys[:2])
            # the account's own lockout is silent: a known name must answer like an unknown one
            account_locked = operations.locked_for(get_session(), keys[2]) > 0 and named is not None
        if wait:
            form.password.errors.append(_wait_message(wait))
            status = TOO_MANY_REQUESTS
        elif not operations.password_matches(named, form.password.data) or account_locked:
            started = _in_own_transaction(lambda own: operations.record_failures(own, keys))
            wait = max(started[key] for key in keys[:2])  # never the account's: it is silent
            form.password.errors.append("Identifiant ou mot de passe incorrect."
                                        + (" " + _wait_message(wait) if wait else ""))
        elif not named.active:
            form.password.errors.append("Ce compte a été désactivé : adressez-vous à l’arbitre du tournoi.")
        else:
            if on_known_device and operations.failures(get_session(), keys[0]):  # else no write lock taken
                _in_own_transaction(lambda own: operations.clear_failures(own, keys[0]))
            session.clear()
            session["user_id"] = named.id
            session["generation"] = named.session_generation
            flash(f"Bienvenue, {named.username}.", "success")
            response = redirect(_safe_next(request.args.get("next")) or _home_for(named))
            _remember_device(response, named, device)
            return response
    if form.errors and status == 200:
        status = 422
    response = make_response(render_template("auth/login.html", form=form), status)
    if status == TOO_MANY_REQUESTS:
        response.headers["Retry-After"] = str(wait)
    return response


@bp.route("/deconnexion", methods=["POST"])
def logout():
    """Sign out: this session, and every other of the account (`operations.end_sessions`), ends."""
    user = current_user()
    if user is not None:
        operations.end_sessions(get_session(), user)
    session.clear()
    flash("Vous êtes déconnecté.", "success")
    return redirect(url_for("web.home"))


@bp.route("/compte/mot-de-passe", methods=["GET", "POST"])
@staff_required
def change_password():
    """Change one's own password (arbiters and scorers); the account's other sessions end, this one goes on."""
    form = PasswordChangeForm()
    user = current_user()

    def done(_):
        session["generation"] = user.session_generation
        return "Mot de passe changé : vos autres sessions sont terminées.", _home_for(user)

    return submit(
        form,
        lambda: operations.change_password(get_session(), user, form.current.data, form.password.data),
        done,
        lambda status: (render_template("auth/password.html", form=form), status),
    )
