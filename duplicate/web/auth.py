"""Sign-in and sign-out with the Flask session, and the `arbiter_required` and `staff_required` guards.

The signed session cookie holds only the user's id; the user is read from the database once per request,
when first needed (`current_user`). Signing in clears the session first (no session fixation). The
``next`` address a visitor is sent back to after signing in must be a path on this site.
"""

import functools
from urllib.parse import urlsplit

from flask import Blueprint, abort, flash, g, redirect, render_template, request, session, url_for

from duplicate import operations
from duplicate.db import get_session, reads_only
from duplicate.models import Role, User
from duplicate.web.forms import LoginForm

bp = Blueprint("auth", __name__)

ARBITER = Role.arbiter
_ANONYMOUS = object()


def current_user() -> User | None:
    """The signed-in user of this request, or None."""
    user = g.get("current_user", _ANONYMOUS)
    if user is _ANONYMOUS:
        user_id = session.get("user_id")
        user = get_session().get(User, user_id) if user_id is not None else None
        g.current_user = user
    return user


@bp.app_context_processor
def inject_current_user():
    return {"current_user": current_user}


def arbiter_required(view):
    """Let arbiters through; send anonymous visitors to the sign-in page, answer 403 to anyone else."""

    @functools.wraps(view)
    def wrapped(*args, **kwargs):
        user = current_user()
        if user is None:
            return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))
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
            return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))
        if user.role not in (Role.arbiter, Role.scorer):
            abort(403)
        return view(*args, **kwargs)

    return wrapped


def _safe_next(target: str | None) -> str | None:
    """`target` when it is a path on this site (``/…`` but not ``//host``), else None."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return None
    parts = urlsplit(target)
    return target if not parts.scheme and not parts.netloc else None


def _home_for(user: User) -> str:
    return url_for("arbiter.tournaments") if user.role == ARBITER else url_for("scoring.tournaments")


@bp.route("/connexion", methods=["GET", "POST"])
@reads_only
def login():
    """The sign-in form; a wrong user name or password gets one message that tells neither apart."""
    form = LoginForm()
    if form.validate_on_submit():
        user = operations.authenticate(get_session(), form.username.data, form.password.data)
        if user is not None:
            session.clear()
            session["user_id"] = user.id
            flash(f"Bienvenue, {user.username}.", "success")
            return redirect(_safe_next(request.args.get("next")) or _home_for(user))
        form.password.errors.append("Identifiant ou mot de passe incorrect.")
    status = 422 if form.errors else 200
    return render_template("auth/login.html", form=form), status


@bp.route("/deconnexion", methods=["POST"])
@reads_only
def logout():
    session.clear()
    flash("Vous êtes déconnecté.", "success")
    return redirect(url_for("web.home"))
