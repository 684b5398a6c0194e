"""Accounts and access, on the ``arbiter`` blueprint (issues 13 and 28): a tournament's « Accès » page — who
has it (co-arbiters, scorers), new scorer accounts for it, its API tokens (shown once; its owner revokes any,
a co-arbiter those he made), « Prendre en charge » for a shared tournament — and the « Comptes » page: the
scorer accounts the arbiter manages (new password, disable, enable: those he created, and those whose every
tournament he manages). The API tokens made from the command line are neither listed nor revoked here: the
command line does it (``flask --app app tokens``, ``revoke-token ID``); the old revoke address answers 403.
Rules in `duplicate.operations._access` and docs/accounts.md.
"""

from flask import flash, redirect, render_template, url_for

from duplicate import operations
from duplicate.db import get_session
from duplicate.web import forms
from duplicate.web.lookups import api_token, tournament_or_404
from duplicate.web.blueprints import arbiter as bp
from duplicate.web.submit import UNPROCESSABLE, act, submit
from duplicate.web.auth import ROLE_LABELS, current_user
from duplicate.web.freeplay.guard import serves_free_play

FORBIDDEN = 403


# --- a tournament's access page ------------------------------------------------------------------------------

def _render_access(tournament, status: int = 200, new_token: str | None = None, **submitted):
    session = get_session()
    user = current_user()
    tokens = operations.tokens(session, tournament)
    page_forms = {
        "grant_form": forms.GrantForm(formdata=None, prefix="grant"),
        "scorer_form": forms.ScorerForm(formdata=None, prefix="scorer"),
        "token_form": forms.TokenForm(formdata=None, prefix="token"),
        **submitted,
    }
    return render_template(
        "arbiter/access.html", tournament=tournament, owner=operations.owner(session, tournament),
        is_owner=operations.is_owner(user, tournament), users=operations.access_list(session, tournament),
        tokens=tokens, new_token=new_token, action_form=forms.ActionForm(),
        revocable={t.id for t in tokens if operations.can_revoke_token(user, t, tournament)},
        serving={t.id for t in tokens if operations.token_serves(t, tournament)},
        role_labels=ROLE_LABELS, token_roles=forms.TOKEN_ROLES,
        **page_forms,
    ), status


def _back(tournament):
    return redirect(url_for("arbiter.access", tournament_id=tournament.id))


@bp.route("/tournois/<int:tournament_id>/acces")
@serves_free_play
def access(tournament_id: int):
    """Who has this tournament, and the forms to give it, create a scorer, make or revoke a token."""
    return _render_access(tournament_or_404(tournament_id))


@bp.route("/tournois/<int:tournament_id>/acces/prendre-en-charge", methods=["POST"])
@serves_free_play
def access_take_over(tournament_id: int):
    """A shared tournament becomes the signed-in arbiter's."""
    tournament = tournament_or_404(tournament_id)
    return act(
        lambda: operations.take_over(get_session(), tournament, current_user()),
        lambda _: ("Tournoi pris en charge : les autres arbitres ne le voient plus, sauf si vous les nommez "
                   "co-arbitres.", _back(tournament)),
        lambda status: _render_access(tournament, status),
    )


@bp.route("/tournois/<int:tournament_id>/acces/donner", methods=["POST"])
@serves_free_play
def access_grant(tournament_id: int):
    """Give the tournament to an existing account (arbiter: co-arbiter; scorer: entry)."""
    tournament = tournament_or_404(tournament_id)
    form = forms.GrantForm(prefix="grant")
    return submit(
        form,
        lambda: operations.grant(get_session(), tournament, form.username.data, current_user()),
        lambda user: (f"{user.username} a désormais accès au tournoi.", _back(tournament)),
        lambda status: _render_access(tournament, status, grant_form=form),
    )


@bp.route("/tournois/<int:tournament_id>/acces/marqueur", methods=["POST"])
@serves_free_play
def access_scorer(tournament_id: int):
    """A new scorer account, for this tournament's entry only."""
    tournament = tournament_or_404(tournament_id)
    form = forms.ScorerForm(prefix="scorer")
    return submit(
        form,
        lambda: operations.create_scorer(get_session(), tournament, form.username.data, form.password.data,
                                         current_user()),
        lambda user: (f"Compte de marqueur « {user.username} » créé : il saisit les fiches de ce tournoi, et rien "
                      "d’autre.", _back(tournament)),
        lambda status: _render_access(tournament, status, scorer_form=form),
    )


@bp.route("/tournois/<int:tournament_id>/acces/<int:user_id>/retirer", methods=["POST"])
@serves_free_play
def access_withdraw(tournament_id: int, user_id: int):
    """Take the tournament back from a co-arbiter (its owner only) or a scorer."""
    tournament = tournament_or_404(tournament_id)
    return act(
        lambda: operations.withdraw(get_session(), tournament, user_id, current_user()),
        lambda user: (f"{user.username} n’a plus accès au tournoi.", _back(tournament)),
        lambda status: _render_access(tournament, status),
    )


@bp.route("/tournois/<int:tournament_id>/jetons", methods=["POST"])
def token_create(tournament_id: int):
    """A new API token for this tournament, shown once on the page that answers."""
    tournament = tournament_or_404(tournament_id)
    form = forms.TokenForm(prefix="token")
    return submit(
        form,
        lambda: operations.create_token(get_session(), form.role.data, form.label.data, tournament=tournament,
                                        user=current_user()),
        lambda token: (None, _render_access(tournament, new_token=token)),  # the page shows it: no message
        lambda status: _render_access(tournament, status, token_form=form),
    )


@bp.route("/tournois/<int:tournament_id>/jetons/<int:token_id>/revoquer", methods=["POST"])
def token_revoke(tournament_id: int, token_id: int):
    tournament = tournament_or_404(tournament_id)
    return act(
        lambda: operations.revoke_token(get_session(), tournament, token_id, current_user()),
        lambda row: (f"Jeton « {row.label or row.id} » révoqué : il ne sert plus.", _back(tournament)),
        lambda status: _render_access(tournament, status),
        forbidden=True,
    )


# --- the accounts the arbiter manages --------------------------------------------------------------------------

def _render_accounts(status: int = 200, failed: tuple[int, object] | None = None):
    session = get_session()
    scorers = operations.managed_scorers(session, current_user())
    reset_forms = {user.id: forms.PasswordResetForm(formdata=None, prefix=f"reset-{user.id}") for user in scorers}
    if failed is not None:
        reset_forms[failed[0]] = failed[1]
    return render_template("arbiter/accounts.html", scorers=scorers, reset_forms=reset_forms,
                           action_form=forms.ActionForm()), status


@bp.route("/comptes")
def accounts():
    """The scorer accounts this arbiter manages."""
    return _render_accounts()


@bp.route("/comptes/<int:user_id>/mot-de-passe", methods=["POST"])
def reset_password(user_id: int):
    """A scorer's new password, chosen by the arbiter; the scorer's sessions end."""
    session = get_session()
    try:
        user = operations.managed_scorer(session, current_user(), user_id)
    except operations.OperationError as error:
        flash(error.message, "error")
        return _render_accounts(UNPROCESSABLE)
    form = forms.PasswordResetForm(prefix=f"reset-{user.id}")
    return submit(
        form,
        lambda: operations.set_password(session, user, form.password.data),
        lambda _: (f"Nouveau mot de passe de {user.username} enregistré.", url_for("arbiter.accounts")),
        lambda status: _render_accounts(status, (user.id, form)),
    )


@bp.route("/comptes/<int:user_id>/<any(desactiver, activer):act>", methods=["POST"])
def set_active(user_id: int, act: str):
    """Disable a scorer account (it can no longer sign in, its sessions end) or enable it again."""
    return _set_active(user_id, act == "activer")  # ``act``, the address's word, hides `submit.act` here


def _set_active(user_id: int, active: bool):
    session = get_session()

    def change():
        user = operations.managed_scorer(session, current_user(), user_id)
        operations.set_active(session, user, active)
        return user

    return act(
        change,
        lambda user: (f"Compte {user.username} " + ("réactivé." if user.active else
                                                    "désactivé : il ne peut plus se connecter."),
                      url_for("arbiter.accounts")),
        _render_accounts,  # refused: flashed on the accounts page
    )


@bp.route("/jetons/<int:token_id>/revoquer", methods=["POST"])
def revoke_shared_token(token_id: int):
    """No token is revoked here, nothing changes: a command-line token is revoked on the command line only
    (403), a tournament's on its « Accès » page (403), an unknown one is not found (404)."""
    row = api_token(get_session(), token_id)
    if row is None:
        flash("Jeton introuvable.", "error")
        return _render_accounts(404)
    flash(operations.CLI_ONLY.format(id=row.id) if row.tournament_id is None
          else "Ce jeton se révoque sur la page « Accès » de son tournoi.", "error")
    return _render_accounts(FORBIDDEN)
