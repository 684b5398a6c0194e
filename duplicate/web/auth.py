"""Sign-in and sign-out with the Flask session, one's own password, and the guards: `arbiter_required`,
`staff_required`, and `tournament_for_arbiter` / `tournament_for_scorer` (who may see which tournament,
`duplicate.operations._access`).

The signed session cookie holds the user's id and the account's session generation
(``User.session_generation``); the user is read from the database once per request, when first needed
(`current_user`), and the session counts only while the account is active and its generation unchanged.
Signing out increments the generation: every session of the account ends, a copy of the cookie taken
before too. Signing in clears the session first (no session fixation). The ``next`` address a visitor is
sent back to after signing in must be a path on this site.

Sign-in is throttled (`duplicate.operations._sign_in`): failures are counted per user name and address
in the database, in a transaction of their own, committed at once (the sign-in page answers 422, which
rolls the request back); an unknown name takes as long as a wrong password.
"""

import functools
from urllib.parse import urlsplit

from flask import (Blueprint, abort, flash, g, make_response, redirect, render_template, request, session,
                   url_for)
from sqlmodel import Session

from duplicate import operations
from duplicate.db import get_engine, get_session, reads_only
from duplicate.models import Role, User
from duplicate.web.forms import LoginForm, PasswordChangeForm

bp = Blueprint("auth", __name__)

ARBITER = Role.arbiter
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
    from duplicate.web import tournament_or_404

    tournament = tournament_or_404(tournament_id)
    if not operations.can_manage(get_session(), current_user(), tournament):
        _refuse("Ce tournoi est confié à un autre arbitre : demandez-lui de vous nommer co-arbitre.")
    return tournament


def tournament_for_scorer(tournament_id: int):
    """The tournament with this id if the signed-in user may enter its fiches (`operations.can_score`);
    else a 404 or 403 page. Every view of the ``scoring`` blueprint with a ``tournament_id`` is checked."""
    from duplicate.web import tournament_or_404

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
    """`target` when it is a path on this site (``/…`` but not ``//host``), else None."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return None
    parts = urlsplit(target)
    return target if not parts.scheme and not parts.netloc else None


def _home_for(user: User) -> str:
    return url_for("arbiter.tournaments") if user.role == ARBITER else url_for("scoring.tournaments")


def _in_own_transaction(act) -> int:
    """Run `act(session)` in a session of its own, committed at once (the sign-in page rolls back)."""
    with Session(get_engine()) as own:
        value = act(own)
        own.commit()
    return value


def _wait_message(seconds: int) -> str:
    wait = f"{seconds} seconde{'s' if seconds > 1 else ''}" if seconds < 120 else f"{-(-seconds // 60)} minutes"
    return f"Trop d’essais manqués pour cet identifiant : réessayez dans {wait}."


@bp.route("/connexion", methods=["GET", "POST"])
@reads_only
def login():
    """The sign-in form; a wrong user name or password gets one message that tells neither apart."""
    form = LoginForm()
    status = 200
    if form.validate_on_submit():
        key = operations.throttle_key(form.username.data, request.remote_addr)
        wait = operations.locked_for(get_session(), key)
        user = None if wait else operations.authenticate(get_session(), form.username.data, form.password.data)
        if wait:
            form.password.errors.append(_wait_message(wait))
            status = TOO_MANY_REQUESTS
        elif user is None:
            wait = _in_own_transaction(lambda own: operations.record_failure(own, key))
            form.password.errors.append("Identifiant ou mot de passe incorrect."
                                        + (" " + _wait_message(wait) if wait else ""))
        elif not user.active:
            form.password.errors.append("Ce compte a été désactivé : adressez-vous à l’arbitre du tournoi.")
        else:
            if operations.failures(get_session(), key):  # else nothing to write: sign-in takes no write lock
                _in_own_transaction(lambda own: operations.clear_failures(own, key))
            session.clear()
            session["user_id"] = user.id
            session["generation"] = user.session_generation
            flash(f"Bienvenue, {user.username}.", "success")
            return redirect(_safe_next(request.args.get("next")) or _home_for(user))
    if form.errors and status == 200:
        status = 422
    return render_template("auth/login.html", form=form), status


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
    if form.validate_on_submit():
        try:
            operations.change_password(get_session(), user, form.current.data, form.password.data)
        except operations.OperationError as error:
            field = form._fields.get(error.field) if error.field else None
            (field.errors if field is not None else form.form_errors).append(error.message)
        else:
            session["generation"] = user.session_generation
            flash("Mot de passe changé : vos autres sessions sont terminées.", "success")
            return redirect(_home_for(user))
    return render_template("auth/password.html", form=form), 422 if form.is_submitted() else 200
