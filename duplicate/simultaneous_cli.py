"""The simultané's commands (issue 33, `duplicate.core.simultaneous`), added to the core ones
(`duplicate.core_cli.CORE_COMMANDS`) — the club's file signed, the national topage from files:

* ``simultane sign --simultane CODE --club CLUB --key-file KEY --deals DEALS.json TOURNAMENT.json`` → the
  club's signed file (JSON ``tarot-simultane/1``) on standard output: the club's export
  (``export TOURNAMENT_ID``) in its envelope, for the organiser. The key is read from a file, never the
  command line (it would stay in the shell's history).
* ``simultane national --simultane CODE --kind KIND --deals DEALS.json --keys KEYS.json FILE…`` → the
  national ranking (`national_ranking`) of the files accepted, as JSON on standard output. Each refused
  file is named on standard error with its reason, and the exit status is then 1; a club's later file
  replaces its earlier one (sending again replaces), and standard error says so. ``KEYS.json``: ``{"A":
  "key of club A", …}``.

``DEALS.json`` is the organiser's deals file (SPEC §9 ``tarot-deals/1``, from ``deal``): its étuis and
takers, and ``seed_sha256``, the hash published before the evening. Like `duplicate.core_cli`, only click
and the core are imported.
"""

from __future__ import annotations

import sys

import click

from duplicate.cli_helpers import _fail, _print_json, _read_text

__all__ = ["with_simultaneous"]


def _json(file) -> object:
    from duplicate.core.filetext import FileTextError, parse_json

    try:
        return parse_json(_read_text(file))
    except FileTextError as error:
        _fail(f"{file.name} : {error}")


def _deals(deals_file) -> tuple[dict[int, str], str]:
    """The organiser's deals file: its étuis' taker seats, and its seed's hash."""
    from duplicate.core.deals import DealError, deals_from_json

    deals = _json(deals_file)
    try:
        boards = deals_from_json(deals)
    except DealError as error:
        _fail(f"{deals_file.name} : {error}")
    seed_sha256 = deals.get("seed_sha256") if isinstance(deals, dict) else None
    if not isinstance(seed_sha256, str):
        _fail(f"{deals_file.name} : l’empreinte des donnes « seed_sha256 » manque (fichier produit par « deal »).")
    return {board.number: board.taker.value for board in boards}, seed_sha256


@click.group("simultane")
def simultaneous_command() -> None:
    """Simultané : le fichier signé d’un club, le topage national."""


@simultaneous_command.command("sign")
@click.option("--simultane", "code", required=True, help="Code du simultané (donné par l’organisateur).")
@click.option("--club", required=True, help="Code du club (donné par l’organisateur).")
@click.option("--key-file", type=click.File("rb"), required=True, help="Fichier contenant la clé du club.")
@click.option("--deals", "deals_file", type=click.File("rb"), required=True, help="Fichier des donnes du simultané.")
@click.argument("tournament", type=click.File("rb"))
def sign_command(code: str, club: str, key_file, deals_file, tournament) -> None:
    """Signe le fichier du tournoi d’un club pour l’envoyer à l’organisateur."""
    from duplicate.core.simultaneous import CLUB_CODE, club_envelope

    if not CLUB_CODE.fullmatch(club):
        _fail(f"code de club « {club} » invalide : 1 à 8 majuscules ou chiffres.")
    key = _read_text(key_file).strip()
    if not key:
        _fail(f"{key_file.name} : la clé du club est vide.")
    _, seed_sha256 = _deals(deals_file)
    data = _json(tournament)
    if not isinstance(data, dict):
        _fail(f"{tournament.name} : un tournoi (objet JSON) est attendu.")
    _print_json(club_envelope(code, club, seed_sha256, data, key))


@simultaneous_command.command("national")
@click.option("--simultane", "code", required=True, help="Code du simultané.")
@click.option("--kind", type=click.Choice(["individual", "triplettes"]), required=True)
@click.option("--deals", "deals_file", type=click.File("rb"), required=True, help="Fichier des donnes du simultané.")
@click.option("--keys", "keys_file", type=click.File("rb"), required=True,
              help="Clés des clubs : {\"A\": \"clé\", …}.")
@click.argument("files", type=click.File("rb"), nargs=-1, required=True)
def national_command(code: str, kind: str, deals_file, keys_file, files) -> None:
    """Topage et classements nationaux des fichiers des clubs."""
    from duplicate.core.simultaneous import Event, SimultaneousError, national_ranking, read_club_file

    event = Event(code, kind, *_deals(deals_file))
    keys = _json(keys_file)
    if not isinstance(keys, dict) or not all(isinstance(value, str) for value in keys.values()):
        _fail(f"{keys_file.name} : un objet {{\"code du club\": \"clé\"}} est attendu.")
    accepted, refused = {}, False
    for file in files:
        try:
            club = read_club_file(_json(file), event, keys)
        except SimultaneousError as error:
            click.echo(f"Refusé — {file.name} : {error}", err=True)
            refused = True
            continue
        if club.club in accepted:
            click.echo(f"Club {club.club} : {file.name} remplace son fichier précédent.", err=True)
        accepted[club.club] = club
    if accepted:
        try:
            _print_json(national_ranking(event, list(accepted.values())))
        except SimultaneousError as error:
            _fail(str(error))
    if refused or not accepted:
        sys.exit(1)


def with_simultaneous(commands: dict) -> dict:
    """The core commands with ``simultane`` added."""
    return {**commands, "simultane": simultaneous_command}
