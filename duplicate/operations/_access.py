"""Who may see and change which tournament (issue 13, « Accounts and ownership »).

* A tournament belongs to the arbiter who made it (``Tournament.owner_id``). Its owner gives it to other
  arbiter accounts (co-arbiters: they see and change everything but who else has access) and to scorer
  accounts (they enter its fiches, nothing else): one `TournamentAccess` row per user given the tournament.
* A tournament without an owner is *shared*: made before accounts had tournaments (migration
  ``0007_accounts``), imported or created from the command line. Every arbiter manages it, as before;
  one of them can take it over (`take_over`), and it is then theirs alone.
* A scorer enters the tournaments given to them. A scorer given none (an account made from the command
  line, or before ``0007_accounts``) enters the shared tournaments, as before; a scorer account made from
  a tournament's screen (`create_scorer`) enters that tournament only.
* Accounts: an arbiter manages (new password, disable, enable) the scorers of the tournaments they manage,
  and the scorers given no tournament; nobody manages another arbiter's account.
"""

from __future__ import annotations

from sqlalchemy import exists, or_
from sqlmodel import Session, select

from duplicate.models import ApiToken, Role, Tournament, TournamentAccess, User

from ._common import NotFound, OperationError
from ._journal import journal


def _role(user: User) -> Role:
    return Role(user.role)


def _given(session: Session, user: User, tournament: Tournament) -> bool:
    return session.exec(select(TournamentAccess.id).where(
        TournamentAccess.tournament_id == tournament.id, TournamentAccess.user_id == user.id)).first() is not None


def _has_any_tournament(session: Session, user: User) -> bool:
    return session.exec(select(TournamentAccess.id).where(TournamentAccess.user_id == user.id)).first() is not None


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
    """Whether `user` may enter the tournament's fiches: whoever manages it, a scorer given it, and a scorer
    given no tournament at all for a shared tournament."""
    if user is None or not user.active:
        return False
    if _role(user) is Role.arbiter:
        return can_manage(session, user, tournament)
    if _given(session, user, tournament):
        return True
    return tournament.owner_id is None and not _has_any_tournament(session, user)


def visible_tournaments(session: Session, user: User, tournaments: list[Tournament]) -> list[Tournament]:
    """The tournaments of a list that `user` manages (an arbiter) or scores (a scorer), in the list's order."""
    given = set(session.exec(select(TournamentAccess.tournament_id).where(TournamentAccess.user_id == user.id)))
    if _role(user) is Role.arbiter:
        return [t for t in tournaments if t.owner_id is None or t.owner_id == user.id or t.id in given]
    if given:
        return [t for t in tournaments if t.id in given]
    return [t for t in tournaments if t.owner_id is None]


def take_over(session: Session, tournament: Tournament, user: User) -> None:
    """« Prendre en charge »: a shared tournament becomes `user`'s (the other arbiters no longer see it)."""
    if _role(user) is not Role.arbiter:
        raise OperationError("Seul un arbitre peut prendre un tournoi en charge.")
    if tournament.owner_id is not None:
        raise OperationError("Ce tournoi a déjà un arbitre responsable.")
    tournament.owner_id = user.id
    session.add(tournament)
    session.flush()
    journal(session, tournament, action="access.take_over", who=user.username,
            summary=f"Tournoi pris en charge par {user.username} : les autres arbitres ne le voient plus, "
                    "sauf s’il les nomme co-arbitres.")


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
    """Take the tournament back from a co-arbiter (owner only) or a scorer."""
    row = session.exec(select(TournamentAccess).where(TournamentAccess.tournament_id == tournament.id,
                                                      TournamentAccess.user_id == user_id)).first()
    if row is None:
        raise NotFound("Ce compte n’a pas accès à ce tournoi.")
    user = session.get(User, user_id)
    if _role(user) is Role.arbiter and not is_owner(by, tournament):
        raise OperationError("Seul l’arbitre responsable du tournoi retire un co-arbitre.")
    session.delete(row)
    session.flush()
    journal(session, tournament, action="access.withdraw", who=by.username, before={"compte": user.username},
            summary=f"{user.username} n’a plus accès au tournoi.")
    return user


def create_scorer(session: Session, tournament: Tournament, username: str, password: str, by: User) -> User:
    """A new scorer account that enters this tournament's fiches, and only them."""
    from ._users import create_user

    user = create_user(session, username, password, Role.scorer)
    session.add(TournamentAccess(tournament_id=tournament.id, user_id=user.id, granted_by=by.username))
    session.flush()
    journal(session, tournament, action="access.scorer", who=by.username, after={"compte": user.username},
            summary=f"Compte de marqueur « {user.username} » créé pour ce tournoi.")
    return user


def managed_scorers(session: Session, arbiter: User) -> list[User]:
    """The scorer accounts `arbiter` manages: those given a tournament the arbiter manages, and those given
    no tournament at all; by name."""
    tournaments = visible_tournaments(session, arbiter, list(session.exec(select(Tournament))))
    ids = [t.id for t in tournaments]
    given = select(TournamentAccess.id).where(TournamentAccess.user_id == User.id)
    query = select(User).where(User.role == Role.scorer, or_(
        ~exists(given), exists(given.where(TournamentAccess.tournament_id.in_(ids)))))
    return sorted(session.exec(query).all(), key=lambda u: u.username.lower())


def managed_scorer(session: Session, arbiter: User, user_id: int) -> User:
    """A scorer account `arbiter` manages (`managed_scorers`), else `NotFound`."""
    user = session.get(User, user_id)
    if user is None or _role(user) is not Role.scorer or user not in managed_scorers(session, arbiter):
        raise NotFound("Compte introuvable, ou géré par un autre arbitre.")
    return user


def token_serves(token: ApiToken, tournament: Tournament) -> bool:
    """Whether an API token may be used for this tournament: made for it, or for every tournament."""
    return token.tournament_id is None or token.tournament_id == tournament.id
