"""Who may see and change which tournament and competition, and whose account (issues 13 and 28; the rules
and the choices in docs/accounts.md).

* A tournament belongs to the arbiter who made it (``Tournament.owner_id``). Its owner gives it to other
  arbiter accounts (co-arbiters: they see and change everything but who else has access) and to scorer
  accounts (they enter its fiches, nothing else): one `TournamentAccess` row per user given the tournament.
* A tournament without an owner is *shared*: made before accounts had tournaments (migration
  ``0007_accounts``), imported or created from the command line. Every arbiter manages it, as before;
  one of them can take it over (`take_over`), and it is then theirs alone.
* A scorer enters the tournaments given to them, and nothing else: a scorer given no tournament (an account
  made from the command line, before ``0007_accounts``, or whose tournaments were all withdrawn) enters none,
  until an arbiter gives him one.
* Accounts: an arbiter manages (new password, disable, enable) the scorer accounts he created
  (``User.created_by_id``) and those whose every tournament — at least one — he manages (`managed_scorers`);
  nobody manages another arbiter's account. Granting a tournament never hands an account over: the
  scorer of another arbiter's tournament keeps it, and stays out of reach. An arbiter who loses a tournament
  (a co-arbiter withdrawn, a shared tournament taken over) loses it through the scorer accounts he created
  too: they are withdrawn from it.
* Competitions (`Series`) are owned as tournaments are (``Series.owner_id``, co-arbiters in `SeriesAccess`,
  none: shared by every arbiter). Only whoever manages a competition adds a séance to it (and must manage that
  séance's tournament too), sets a séance's coefficient or takes a séance out (`set_series`,
  `remove_from_series`); its owner always takes any séance out.
* API tokens made on a tournament's screen are tied to the account that made them (``ApiToken.user_id``):
  they serve only while that account is active and still has the tournament (`token_serves`); withdrawing
  someone's access revokes the tokens he made for it. Tokens made on the command line (no tournament, no
  account) are listed and revoked on the command line only.
"""

from __future__ import annotations

from sqlalchemy.orm import object_session
from sqlmodel import Session, select

from duplicate.models import ApiToken, Role, Series, SeriesAccess, Tournament, TournamentAccess, User

from ._common import NotFound, OperationError, Refused
from ._journal import journal
from ._users import CLI_ONLY, create_user


def _role(user: User) -> Role:
    return Role(user.role)


def _given(session: Session, user: User, tournament: Tournament) -> bool:
    return session.exec(select(TournamentAccess.id).where(
        TournamentAccess.tournament_id == tournament.id, TournamentAccess.user_id == user.id)).first() is not None


def is_owner(user: User | None, tournament: Tournament) -> bool:
    """Whether `user` owns the tournament (or, for a shared one, is an arbiter: anyone may act as owner)."""
    if user is None or not user.active or _role(user) is not Role.arbiter:
        return False
    return tournament.owner_id is None or tournament.owner_id == user.id


def can_manage(session: Session, user: User | None, tournament: Tournament) -> bool:
    """Whether `user` may see and change the tournament on the arbiter's screens: its owner, a co-arbiter,
    any arbiter for a shared tournament."""
    if is_owner(user, tournament):
        return True
    return (user is not None and user.active and _role(user) is Role.arbiter
            and _given(session, user, tournament))


def can_score(session: Session, user: User | None, tournament: Tournament) -> bool:
    """Whether `user` may enter the tournament's fiches: whoever manages it, and a scorer given it (a scorer
    given no tournament enters none)."""
    if user is None or not user.active:
        return False
    if _role(user) is Role.arbiter:
        return can_manage(session, user, tournament)
    return _given(session, user, tournament)


def visible_tournaments(session: Session, user: User, tournaments: list[Tournament]) -> list[Tournament]:
    """The tournaments of a list that `user` manages (an arbiter) or scores (a scorer), in the list's order."""
    given = set(session.exec(select(TournamentAccess.tournament_id).where(TournamentAccess.user_id == user.id)))
    if _role(user) is Role.arbiter:
        return [t for t in tournaments if t.owner_id is None or t.owner_id == user.id or t.id in given]
    return [t for t in tournaments if t.id in given]


def take_over(session: Session, tournament: Tournament, user: User) -> None:
    """« Prendre en charge »: a shared tournament becomes `user`'s (the other arbiters no longer see it, nor
    the scorer accounts they created, and their tokens for it are revoked)."""
    if _role(user) is not Role.arbiter:
        raise OperationError("Seul un arbitre peut prendre un tournoi en charge.")
    if tournament.owner_id is not None:
        raise OperationError("Ce tournoi a déjà un arbitre responsable.")
    tournament.owner_id = user.id
    session.add(tournament)
    scorers = _withdraw_scorers_made_by(session, tournament, lambda maker: maker != user.id)
    tokens = session.exec(select(ApiToken).where(ApiToken.tournament_id == tournament.id, ApiToken.user_id != user.id,
                                                 ApiToken.revoked == False)).all()  # noqa: E712
    for row in tokens:
        row.revoked = True
        session.add(row)
    session.flush()
    journal(session, tournament, action="access.take_over", who=user.username,
            summary=f"Tournoi pris en charge par {user.username} : les autres arbitres ne le voient plus, "
                    "sauf s’il les nomme co-arbitres." + _consequences(scorers, len(tokens)))


def _withdraw_scorers_made_by(session: Session, tournament: Tournament, made_by) -> list[str]:
    """Withdraw the tournament from the scorer accounts made by an arbiter who loses it (`made_by(maker id)`
    true): he still manages those accounts (their passwords), so through them he would keep the tournament.
    Their names."""
    rows = session.exec(select(TournamentAccess, User).join(User, User.id == TournamentAccess.user_id).where(
        TournamentAccess.tournament_id == tournament.id, User.role == Role.scorer,
        User.created_by_id.is_not(None))).all()
    names = []
    for row, scorer in rows:
        if made_by(scorer.created_by_id):
            session.delete(row)
            names.append(scorer.username)
    return sorted(names, key=str.lower)


def _consequences(scorers: list[str], tokens: int) -> str:
    text = ""
    if scorers:
        text += (" Les comptes de marqueur qu’il avait créés n’y ont plus accès non plus : "
                 + ", ".join(scorers) + ".")
    if tokens:
        text += f" Jetons d’API des autres arbitres pour ce tournoi révoqués : {tokens}."
    return text


def owner(session: Session, tournament: Tournament) -> User | None:
    return session.get(User, tournament.owner_id) if tournament.owner_id is not None else None


def access_list(session: Session, tournament: Tournament) -> list[User]:
    """The users given the tournament (co-arbiters and scorers), arbiters first, by name."""
    users = session.exec(select(User).join(TournamentAccess, TournamentAccess.user_id == User.id)
                         .where(TournamentAccess.tournament_id == tournament.id)).all()
    return sorted(users, key=lambda u: (_role(u) is not Role.arbiter, u.username.lower()))


def _user_named(session: Session, username: str) -> User:
    user = session.exec(select(User).where(User.username == (username or "").strip())).first()
    if user is None:
        raise NotFound(f"Aucun compte « {(username or '').strip()} ».", "username")
    return user


def grant(session: Session, tournament: Tournament, username: str, by: User) -> User:
    """Give the tournament to an existing account: an arbiter becomes co-arbiter (only the owner names
    co-arbiters), a scorer may enter its fiches."""
    user = _user_named(session, username)
    if _role(user) is Role.arbiter and tournament.owner_id is None:
        raise OperationError("Ce tournoi est partagé : tous les arbitres y ont déjà accès. Prenez-le en charge "
                             "pour nommer des co-arbitres.", "username")
    if _role(user) is Role.arbiter and not is_owner(by, tournament):
        raise OperationError("Seul l’arbitre responsable du tournoi nomme des co-arbitres.", "username")
    if tournament.owner_id == user.id:
        raise OperationError(f"{user.username} est l’arbitre responsable de ce tournoi.", "username")
    if _given(session, user, tournament):
        raise OperationError(f"{user.username} a déjà accès à ce tournoi.", "username")
    session.add(TournamentAccess(tournament_id=tournament.id, user_id=user.id, granted_by=by.username))
    session.flush()
    what = "co-arbitre" if _role(user) is Role.arbiter else "marqueur"
    journal(session, tournament, action="access.grant", who=by.username, after={"compte": user.username},
            summary=f"{user.username} a désormais accès au tournoi ({what}).")
    return user


def withdraw(session: Session, tournament: Tournament, user_id: int, by: User) -> User:
    """Take the tournament back from a co-arbiter (owner only) or a scorer; the tokens he made for it are
    revoked, and a co-arbiter's scorer accounts (those he created, which he still manages) lose it too."""
    row = session.exec(select(TournamentAccess).where(TournamentAccess.tournament_id == tournament.id,
                                                      TournamentAccess.user_id == user_id)).first()
    if row is None:
        raise NotFound("Ce compte n’a pas accès à ce tournoi.")
    user = session.get(User, user_id)
    if _role(user) is Role.arbiter and not is_owner(by, tournament):
        raise OperationError("Seul l’arbitre responsable du tournoi retire un co-arbitre.")
    session.delete(row)
    revoked = _revoke_tokens_of(session, user, tournament)
    scorers = (_withdraw_scorers_made_by(session, tournament, lambda maker: maker == user.id)
               if _role(user) is Role.arbiter else [])
    session.flush()
    journal(session, tournament, action="access.withdraw", who=by.username, before={"compte": user.username},
            summary=f"{user.username} n’a plus accès au tournoi."
                    + (f" Ses jetons d’API pour ce tournoi sont révoqués ({revoked})." if revoked else "")
                    + (" Les comptes de marqueur qu’il a créés n’y ont plus accès non plus : " + ", ".join(scorers)
                       + "." if scorers else ""))
    return user


def _revoke_tokens_of(session: Session, user: User, tournament: Tournament) -> int:
    """Revoke the tokens `user` made for `tournament`; how many were still valid."""
    rows = session.exec(select(ApiToken).where(ApiToken.user_id == user.id, ApiToken.tournament_id == tournament.id,
                                               ApiToken.revoked == False)).all()  # noqa: E712
    for row in rows:
        row.revoked = True
        session.add(row)
    return len(rows)


def create_scorer(session: Session, tournament: Tournament, username: str, password: str, by: User) -> User:
    """A new scorer account that enters this tournament's fiches, and only them."""
    user = create_user(session, username, password, Role.scorer)
    user.created_by_id = by.id
    session.add(user)
    session.add(TournamentAccess(tournament_id=tournament.id, user_id=user.id, granted_by=by.username))
    session.flush()
    journal(session, tournament, action="access.scorer", who=by.username, after={"compte": user.username},
            summary=f"Compte de marqueur « {user.username} » créé pour ce tournoi.")
    return user


def _managed_ids(session: Session, arbiter: User) -> set[int]:
    return {t.id for t in visible_tournaments(session, arbiter, list(session.exec(select(Tournament))))}


def manages_account(session: Session, arbiter: User | None, user: User, managed_ids: set[int] | None = None) -> bool:
    """Whether `arbiter` manages `user`'s account (new password, disable, enable): a scorer account he
    created, or whose every tournament — at least one — he manages. Never another arbiter's account."""
    if arbiter is None or not arbiter.active or _role(arbiter) is not Role.arbiter or _role(user) is not Role.scorer:
        return False
    if user.created_by_id is not None and user.created_by_id == arbiter.id:
        return True
    given = set(session.exec(select(TournamentAccess.tournament_id).where(TournamentAccess.user_id == user.id)))
    if managed_ids is None:
        managed_ids = _managed_ids(session, arbiter)
    return bool(given) and given <= managed_ids


def managed_scorers(session: Session, arbiter: User) -> list[User]:
    """The scorer accounts `arbiter` manages (`manages_account`), by name."""
    managed_ids = _managed_ids(session, arbiter)
    scorers = session.exec(select(User).where(User.role == Role.scorer)).all()
    return sorted((u for u in scorers if manages_account(session, arbiter, u, managed_ids)),
                  key=lambda u: u.username.lower())


def managed_scorer(session: Session, arbiter: User, user_id: int) -> User:
    """A scorer account `arbiter` manages (`manages_account`), else `NotFound`."""
    user = session.get(User, user_id)
    if user is None or not manages_account(session, arbiter, user):
        raise NotFound("Compte introuvable, ou géré par un autre arbitre : vous gérez les comptes de marqueur "
                       "que vous avez créés, et ceux dont vous gérez tous les tournois.")
    return user


# --- API tokens ---------------------------------------------------------------------------------------------

def token_serves(token: ApiToken, tournament: Tournament) -> bool:
    """Whether an API token may be used for this tournament: a command-line token (no tournament) serves
    every tournament; a token made for one tournament serves it only, and only while the account that made
    it (if known) is active and still has the tournament (`can_score`: manages it, or scores it)."""
    if token.revoked:
        return False
    if token.tournament_id is None:
        return True
    if token.tournament_id != tournament.id:
        return False
    if token.user_id is None:  # made before i1_accounts_ownership by an account unknown since
        return True
    session = object_session(token)
    maker = session.get(User, token.user_id) if session is not None else None
    return maker is not None and can_score(session, maker, tournament)


def token_refusal(token: ApiToken, tournament: Tournament) -> str | None:
    """Why the token does not serve this tournament (French), or None when it does (`token_serves`)."""
    if token_serves(token, tournament):
        return None
    if token.tournament_id is not None and token.tournament_id != tournament.id:
        return "Ce jeton a été créé pour un autre tournoi."
    return ("Ce jeton ne sert plus : le compte qui l’a créé n’a plus accès à ce tournoi, ou il a été désactivé. "
            "Demandez un nouveau jeton à l’arbitre du tournoi.")


def can_revoke_token(user: User | None, token: ApiToken, tournament: Tournament) -> bool:
    """Whether `user` (who manages `tournament`) may revoke one of its tokens: the tournament's owner any of
    them, a co-arbiter those he made. A command-line token is revoked on the command line only."""
    if token.tournament_id is None or token.tournament_id != tournament.id or user is None:
        return False
    return is_owner(user, tournament) or (token.user_id is not None and token.user_id == user.id)


# --- competitions (`Series`) --------------------------------------------------------------------------------

def _series_given(session: Session, user: User, series: Series) -> bool:
    return session.exec(select(SeriesAccess.id).where(SeriesAccess.series_id == series.id,
                                                      SeriesAccess.user_id == user.id)).first() is not None


def is_series_owner(user: User | None, series: Series) -> bool:
    """Whether `user` owns the competition (any arbiter, for a shared one)."""
    if user is None or not user.active or _role(user) is not Role.arbiter:
        return False
    return series.owner_id is None or series.owner_id == user.id


def can_manage_series(session: Session, user: User | None, series: Series) -> bool:
    """Whether `user` manages the competition: its owner, a co-arbiter of it, any arbiter for a shared one."""
    if is_series_owner(user, series):
        return True
    return (user is not None and user.active and _role(user) is Role.arbiter
            and _series_given(session, user, series))


def visible_series(session: Session, user: User, series: list[Series]) -> list[Series]:
    """The competitions of a list that `user` manages, in the list's order."""
    if user is None or _role(user) is not Role.arbiter:
        return []
    given = set(session.exec(select(SeriesAccess.series_id).where(SeriesAccess.user_id == user.id)))
    return [s for s in series if s.owner_id is None or s.owner_id == user.id or s.id in given]


def series_owner(session: Session, series: Series) -> User | None:
    return session.get(User, series.owner_id) if series.owner_id is not None else None


def series_access_list(session: Session, series: Series) -> list[User]:
    """The co-arbiters of a competition, by name."""
    users = session.exec(select(User).join(SeriesAccess, SeriesAccess.user_id == User.id)
                         .where(SeriesAccess.series_id == series.id)).all()
    return sorted(users, key=lambda u: u.username.lower())


def take_over_series(session: Session, series: Series, user: User) -> None:
    """A shared competition becomes `user`'s."""
    if _role(user) is not Role.arbiter:
        raise OperationError("Seul un arbitre peut prendre une compétition en charge.")
    if series.owner_id is not None:
        raise OperationError("Cette compétition a déjà un arbitre responsable.")
    series.owner_id = user.id
    session.add(series)
    session.flush()


def grant_series(session: Session, series: Series, username: str, by: User) -> User:
    """Name an arbiter co-arbiter of the competition (its owner only)."""
    user = _user_named(session, username)
    if series.owner_id is None:
        raise OperationError("Cette compétition est partagée : tous les arbitres y ont déjà accès. Prenez-la en "
                             "charge pour nommer des co-arbitres.", "username")
    if not is_series_owner(by, series):
        raise Refused("Seul l’arbitre responsable de la compétition nomme des co-arbitres.", "username")
    if _role(user) is not Role.arbiter:
        raise OperationError(f"{user.username} est un compte de marqueur : seuls des arbitres sont co-arbitres "
                             "d’une compétition.", "username")
    if series.owner_id == user.id:
        raise OperationError(f"{user.username} est l’arbitre responsable de cette compétition.", "username")
    if _series_given(session, user, series):
        raise OperationError(f"{user.username} est déjà co-arbitre de cette compétition.", "username")
    session.add(SeriesAccess(series_id=series.id, user_id=user.id, granted_by=by.username))
    session.flush()
    return user


def withdraw_series(session: Session, series: Series, user_id: int, by: User) -> User:
    """Take the competition back from a co-arbiter (its owner only). His séances stay in it: the owner takes
    out those he does not want."""
    if not is_series_owner(by, series):
        raise Refused("Seul l’arbitre responsable de la compétition retire un co-arbitre.")
    row = session.exec(select(SeriesAccess).where(SeriesAccess.series_id == series.id,
                                                  SeriesAccess.user_id == user_id)).first()
    if row is None:
        raise NotFound("Ce compte n’est pas co-arbitre de cette compétition.")
    user = session.get(User, user_id)
    session.delete(row)
    session.flush()
    return user


def revoke_token(session: Session, tournament: Tournament | None, token_id: int, by: User | None = None) -> ApiToken:
    """Revoke one of the tokens of `tournament` from its « Accès » page: `by`, who manages it, revokes any
    of them if he owns it, else those he made (`can_revoke_token`). A command-line token is
    refused (`Refused`): it is revoked on the command line only (`revoke_any_token`)."""
    row = session.get(ApiToken, token_id)
    if row is not None and row.tournament_id is None:
        raise Refused(CLI_ONLY.format(id=row.id))
    if row is None or tournament is None or row.tournament_id != tournament.id:
        raise NotFound("Jeton introuvable.")
    if by is not None and not can_revoke_token(by, row, tournament):
        raise Refused("Ce jeton a été créé par un autre arbitre : seul l’arbitre responsable du tournoi ou "
                      "son auteur le révoque.")
    row.revoked = True
    session.add(row)
    session.flush()
    return row
