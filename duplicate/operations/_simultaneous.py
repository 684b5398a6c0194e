"""The hosted side of a simultané (issue 33): the organiser's event and clubs, the clubs' files received, the
national ranking and its embargo. The rules — a club's file checked, the national topage — are
`core.simultaneous`'s; this module stores and serves them.

* **The event** (`create_simultaneous`): étuis dealt once from a random seed (`core.deals`), whose SHA-256
  is shown from the start and the seed itself after the embargo; the kind and the embargo's time.
* **A club** (`add_club`): a code and a random key, given to the club once; its files are signed with it.
* **A club's file** (`receive_club_file`): checked by `core.simultaneous.read_club_file` against the event
  and the clubs' keys, then stored as the club's file — replacing its previous one (sending again
  replaces; the same file again changes nothing but the count). A refused file changes nothing.
* **The club's side** (`club_file`): on the club's own laptop, its tournament — played on the deals it
  imported from the organiser, whose ``seed_sha256`` the tournament keeps — exported (SPEC §9) and signed
  with the club's key, to be pushed to the organiser or carried there by hand.
* **Who sees what** (`national_for`): the organiser (a signed-in arbiter) and the clubs (their key) at
  once; the public after ``embargo_at`` only. The deals' hands follow the same rule (`deals_for`).
"""

from __future__ import annotations

import datetime
import secrets
import threading
from typing import Any

from sqlalchemy import orm
from sqlmodel import Session, select

from duplicate import french, interchange
from duplicate.core.deals import deals_to_json, generate_boards, seed_hash
from duplicate.core.simultaneous import (
    CLUB_CODE, SIMULTANEOUS_CODE, SIMULTANEOUS_KINDS, ClubFile, Event, SimultaneousError, club_envelope,
    national_file, rank_national_file, read_club_file,
)
from duplicate.models import Simultaneous, SimultaneousClub, Tournament, stored_utc, utcnow
from duplicate.view_models import frequencies_view

from ._common import NotFound, OperationError

MAX_BOARDS = 100


def create_simultaneous(session: Session, code: str, name: str, kind: str, boards: int,
                        embargo_at: datetime.datetime) -> Simultaneous:
    """A new simultané: its étuis dealt from a random seed, kept secret until the embargo."""
    if not SIMULTANEOUS_CODE.fullmatch(code):
        raise OperationError("Code du simultané : lettres majuscules, chiffres et « - » (20 au plus).", "code")
    if kind not in SIMULTANEOUS_KINDS:
        raise OperationError("Un simultané se joue en individuel ou en triplettes.", "kind")
    if not 1 <= boards <= MAX_BOARDS:
        raise OperationError(f"Nombre d’étuis : de 1 à {MAX_BOARDS}.", "boards")
    if embargo_at.tzinfo is None:
        raise OperationError("L’heure de fin d’embargo doit porter son fuseau.", "embargo_at")
    if session.exec(select(Simultaneous.id).where(Simultaneous.code == code)).first() is not None:
        raise OperationError(f"Le simultané « {code} » existe déjà.", "code")
    seed = secrets.token_hex(16)
    deals = deals_to_json(generate_boards(boards, seed))
    event = Simultaneous(code=code, name=name.strip() or code, kind=kind, deals=deals, seed=seed,
                         seed_sha256=seed_hash(seed), embargo_at=embargo_at)
    session.add(event)
    session.flush()
    return event


def list_simultaneous(session: Session) -> list[Simultaneous]:
    """Every simultané, the newest first."""
    return list(session.exec(select(Simultaneous).order_by(Simultaneous.created_at.desc(), Simultaneous.id.desc())))


def get_simultaneous(session: Session, code: str) -> Simultaneous:
    event = session.exec(select(Simultaneous).where(Simultaneous.code == code)).first()
    if event is None:
        raise NotFound(f"Simultané « {code} » inconnu.")
    return event


def add_club(session: Session, event: Simultaneous, code: str, name: str) -> SimultaneousClub:
    """A club joins: its code, its name, a new random key (shown to the organiser, who gives it to the club)."""
    if not CLUB_CODE.fullmatch(code):
        raise OperationError("Code du club : 1 à 8 majuscules ou chiffres.", "code")
    if _club(session, event, code) is not None:
        raise OperationError(f"Le club « {code} » est déjà inscrit à ce simultané.", "code")
    club = SimultaneousClub(simultaneous_id=event.id, code=code, name=name.strip() or code,
                            key=secrets.token_urlsafe(32))
    session.add(club)
    session.flush()
    return club


def _club(session: Session, event: Simultaneous, code: str) -> SimultaneousClub | None:
    return session.exec(select(SimultaneousClub).where(SimultaneousClub.simultaneous_id == event.id,
                                                       SimultaneousClub.code == code)).first()


def clubs(session: Session, event: Simultaneous) -> list[SimultaneousClub]:
    """The simultané's clubs in code order, their files left unread (``uploads`` says whether one is stored)."""
    return list(session.exec(select(SimultaneousClub).options(orm.defer(SimultaneousClub.envelope))
                             .where(SimultaneousClub.simultaneous_id == event.id).order_by(SimultaneousClub.code)))


def core_event(event: Simultaneous) -> Event:
    """The event as the core checks files against it."""
    return Event(event.code, event.kind, {board["number"]: board["taker"] for board in event.deals["boards"]},
                 event.seed_sha256)


def receive_club_file(session: Session, event: Simultaneous, envelope: Any) -> tuple[SimultaneousClub, bool]:
    """A club's signed file, checked and stored as its file: ``(club, replaced)``; `OperationError` with the
    French reason when refused (nothing stored)."""
    members = clubs(session, event)
    try:
        accepted = read_club_file(envelope, core_event(event), {club.code: club.key for club in members})
    except SimultaneousError as error:
        raise OperationError(str(error)) from None
    club = next(club for club in members if club.code == accepted.club)
    replaced = club.uploads > 0
    club.envelope, club.uploaded_at, club.uploads = dict(envelope), utcnow(), club.uploads + 1
    session.add(club)
    session.flush()
    return club, replaced


def embargoed(event: Simultaneous, now: datetime.datetime | None = None) -> bool:
    """True until the embargo's time: the national results and the hands are the organiser's and clubs'."""
    return (now or utcnow()) < stored_utc(event.embargo_at)


def club_by_key(session: Session, event: Simultaneous, key: str) -> SimultaneousClub | None:
    """The club whose key this is (compared in constant time), or None."""
    typed = key.encode("utf-8")  # bytes: compare_digest refuses a text with non-ASCII characters
    return next((club for club in clubs(session, event)
                 if typed and secrets.compare_digest(club.key.encode("utf-8"), typed)), None)


#: The last national ranking and frequencies computed per simultané, with the uploads they were computed
#: from: a process recomputes them once per new upload (any process's: the uploads are read from the
#: database), not per reader.
_NATIONAL: dict[int, tuple[tuple, dict, list[dict]]] = {}
_NATIONAL_LOCK = threading.Lock()


def _national(session: Session, event: Simultaneous) -> tuple[dict, list[dict], list[SimultaneousClub]]:
    """The national ranking of the clubs' stored files and each étui's frequencies over the field
    (`view_models.frequencies_view` of the national file: shared, read them, do not change them), and the
    clubs that sent a file; the files are read and ranked again only when an upload came since (a few
    hundred milliseconds at 100 clubs of 10 tables, docs/simultaneous.md)."""
    sent = (SimultaneousClub.simultaneous_id == event.id, SimultaneousClub.uploads > 0)  # a file is stored
    members = list(session.exec(select(SimultaneousClub).options(orm.defer(SimultaneousClub.envelope))
                                .where(*sent).order_by(SimultaneousClub.code)))
    uploads = tuple((club.code, club.uploads, club.uploaded_at) for club in members)
    with _NATIONAL_LOCK:
        kept = _NATIONAL.get(event.id)
    if kept is not None and kept[0] == uploads:
        return kept[1], kept[2], members
    files = [ClubFile(code, envelope["tournament"]) for code, envelope in session.exec(
        select(SimultaneousClub.code, SimultaneousClub.envelope).where(*sent).order_by(SimultaneousClub.code))]
    if files:
        merged, tables = national_file(core_event(event), files)
        output = rank_national_file(merged, tables, [file.club for file in files])
        frequencies = [item for item in frequencies_view(merged, output)["items"] if item["lines"]]
    else:
        output, frequencies = {"kind": event.kind, "boards": [], "ranking": [], "clubs": {}}, []
    with _NATIONAL_LOCK:
        _NATIONAL[event.id] = (uploads, output, frequencies)
    return output, frequencies, members


def national_for(session: Session, event: Simultaneous, insider: bool) -> dict:
    """The national ranking (`core.simultaneous.national_ranking`) of the clubs' stored files, with the
    clubs' names and upload times; ``PermissionError`` (French) for the public during the embargo."""
    if embargoed(event) and not insider:
        raise PermissionError(_embargo_message(event))
    shared, _, members = _national(session, event)
    output = {**shared}
    output["simultane"] = {"code": event.code, "name": event.name, "seed_sha256": event.seed_sha256,
                           "embargo_at": stored_utc(event.embargo_at).isoformat(), "embargoed": embargoed(event)}
    output["club_files"] = [{"club": club.code, "name": club.name, "uploads": club.uploads,
                             "uploaded_at": stored_utc(club.uploaded_at).isoformat()} for club in members]
    return output


def national_frequencies(session: Session, event: Simultaneous, insider: bool) -> list[dict]:
    """Each étui's frequencies over the field (`view_models.frequencies_view`'s items: every score made,
    best first, how many tables, the taker's note), with the national ranking's rule of who sees them."""
    if embargoed(event) and not insider:
        raise PermissionError(_embargo_message(event))
    return _national(session, event)[1]


def deals_for(event: Simultaneous, insider: bool) -> dict:
    """The deals file: the hands to the organiser and the clubs (who print their étuis) at once, to the
    public after the embargo, with the seed then (anyone can check it against ``seed_sha256``)."""
    if embargoed(event) and not insider:
        raise PermissionError(_embargo_message(event))
    deals = {**event.deals, "seed_sha256": event.seed_sha256}
    if not embargoed(event):
        deals["seed"] = event.seed
    return deals


def _embargo_message(event: Simultaneous) -> str:
    return (f"Résultats du simultané « {event.name} » sous embargo jusqu’au "
            f"{french.local_time(event.embargo_at)} : d’autres clubs jouent peut-être encore ces étuis.")


def club_file(session: Session, tournament: Tournament, code: str, club: str, key: str) -> dict:
    """The club's signed file of ``tournament`` for simultané ``code`` (`core.simultaneous.club_envelope`);
    `OperationError` when the tournament was not played on a simultané's deals or a field is wrong."""
    if not tournament.seed_sha256:
        raise OperationError("Ce tournoi n’a pas les donnes d’un simultané : importez d’abord le fichier de donnes "
                             "de l’organisateur (page « Étuis », « Importer les donnes »).")
    if not code.strip():
        raise OperationError("Code du simultané : donné par l’organisateur.", "code")
    if not CLUB_CODE.fullmatch(club):
        raise OperationError("Code du club : 1 à 8 majuscules ou chiffres, donné par l’organisateur.", "club")
    if not key.strip():
        raise OperationError("Clé du club : donnée par l’organisateur.", "key")
    return club_envelope(code.strip(), club, tournament.seed_sha256, interchange.export_tournament(session, tournament),
                         key.strip())
