"""Command line (SPEC §10): ``flask --app app deal|score|rank ...``; the API tokens for every tournament
are made, listed and revoked here only (``create-token``, ``tokens``, ``revoke-token ID``; docs/accounts.md).

Each command reads its input, calls the core, and prints JSON (UTF-8) on
standard output.  Bad input ends with exit status 1 and a French message on
standard error that names the faulty line.  The core commands (no database)
live in `duplicate.core_cli`; the database ones here.
"""

from __future__ import annotations

import click
from flask.cli import with_appcontext

from duplicate.core_cli import (
    CORE_COMMANDS, _fail, _print_json, _read_text, deal_command, movement_command, rank_command, score_command,  # noqa: F401
)


# --- the database: import, export, demo, accounts (duplicate.operations, duplicate.interchange) ----------

@click.command("import")
@click.argument("file", type=click.File("rb"))
@with_appcontext
def import_command(file) -> None:
    """Importe un fichier tournoi (JSON tarot-tournament/1) ; affiche le numéro du tournoi créé."""
    from duplicate.core.tournament import TournamentError
    from duplicate.db import get_session
    from duplicate.interchange import import_tournament

    text = _read_text(file)
    session = get_session()
    try:
        tournament = import_tournament(session, text)
    except TournamentError as error:
        session.rollback()
        _fail(str(error))
    click.echo(f"Tournoi « {tournament.name} » importé.")
    click.echo(tournament.id)


@click.command("export")
@click.argument("tournament_id", type=int)
@with_appcontext
def export_command(tournament_id: int) -> None:
    """Exporte un tournoi de la base (JSON tarot-tournament/1)."""
    from duplicate import operations
    from duplicate.db import get_session
    from duplicate.interchange import export_tournament

    session = get_session()
    try:
        tournament = operations.get_tournament(session, tournament_id)
    except operations.OperationError as error:
        _fail(error.message)
    _print_json(export_tournament(session, tournament))


@click.command("demo")
@with_appcontext
def demo_command() -> None:
    """Crée un tournoi de démonstration complet (individuel, 5 tables, jeu simulé)."""
    from duplicate.db import get_session
    from duplicate.demo import build_demo

    tournament = build_demo(get_session())
    click.echo(f"Tournoi de démonstration « {tournament.name} » créé.")
    click.echo(tournament.id)


@click.command("create-arbiter")
@click.option("--username", prompt="Identifiant", help="Identifiant de l’arbitre.")
@click.option("--password", prompt="Mot de passe", hide_input=True, confirmation_prompt="Confirmation",
              help="Mot de passe (8 caractères au moins) ; demandé s’il est absent.")
@with_appcontext
def create_arbiter_command(username: str, password: str) -> None:
    """Crée un compte d'arbitre (mot de passe conservé haché)."""
    from duplicate import operations
    from duplicate.db import get_session

    session = get_session()
    try:
        user = operations.create_user(session, username, password, "arbiter")
    except operations.OperationError as error:
        session.rollback()
        _fail(error.message)
    click.echo(f"Arbitre « {user.username} » créé.")


@click.command("create-token")
@click.option("--role", type=click.Choice(["scorer", "arbiter"]), default="scorer", show_default=True)
@click.option("--label", help="Pour qui ou pour quel appareil (ex. « tablette salle 2 »).")
@with_appcontext
def create_token_command(role: str, label: str | None) -> None:
    """Crée un jeton pour l'API de saisie électronique ; le jeton est la dernière ligne affichée."""
    from duplicate import operations
    from duplicate.db import get_session

    token = operations.create_token(get_session(), role, label)
    click.echo(f"Jeton « {role} » créé ; conservez-le, il ne sera plus affiché :")
    click.echo(token)


@click.command("tokens")
@with_appcontext
def tokens_command() -> None:
    """Liste les jetons de l'API : numéro, droits, tournoi (« tous » : créé en ligne de commande), auteur, état."""
    from duplicate import operations
    from duplicate.db import get_session

    rows = operations.all_tokens(get_session())
    if not rows:
        click.echo("Aucun jeton.")
    for row in rows:
        tournament = f"tournoi {row.tournament_id}" if row.tournament_id is not None else "tous les tournois"
        maker = row.created_by or "ligne de commande"
        state = "révoqué" if row.revoked else "valide"
        click.echo(f"{row.id}\t{row.role.value}\t{tournament}\t{row.label or '-'}\t{maker}\t"
                   f"{row.created_at:%Y-%m-%d %H:%M}\t{state}")


@click.command("revoke-token")
@click.argument("token_id", type=int)
@with_appcontext
def revoke_token_command(token_id: int) -> None:
    """Révoque un jeton de l'API (numéro donné par « tokens ») : il ne sert plus."""
    from duplicate import operations
    from duplicate.db import get_session

    session = get_session()
    try:
        row = operations.revoke_any_token(session, token_id)
    except operations.OperationError as error:
        session.rollback()
        _fail(error.message)
    click.echo(f"Jeton n° {row.id} « {row.label or row.id} » révoqué.")


PRINT_KINDS = ("labels", "diagrams", "travellers", "guide-cards", "movement-cards", "route-sheets", "ranking",
               "frequencies", "hand-records", "pack",
               # free play (SPEC §13, `printing.FREE_KINDS`)
               "free-cards", "free-orientation", "free-table-cards", "free-sheets", "free-ranking", "free-pcn")


@click.command("print")
@click.argument("kind", type=click.Choice(PRINT_KINDS))
@click.option("--tournament", "tournament_id", type=int, required=True, help="Numéro du tournoi.")
@click.option("--out", "out_path", type=click.Path(dir_okay=False, writable=True), required=True, help="Fichier PDF.")
@click.option("--scored/--blank", default=False, help="Fiches ambulantes : avec les résultats (--scored) ou vierges.")
@click.option("--columns", type=click.IntRange(1, 10), default=3, show_default=True, help="Étiquettes par ligne.")
@click.option("--rows", type=click.IntRange(1, 20), default=8, show_default=True, help="Lignes d’étiquettes par page.")
@click.option("--single", is_flag=True, help="Étiquettes : une par page (imprimante d’étiquettes).")
@click.option("--entrant", "entrants", multiple=True, help="Feuilles de route, fiches individuelles : ce participant (répétable).")
@click.option("--board", "boards", type=int, multiple=True, help="Ce seul étui (répétable).")
@click.option("--base-url", help="Adresse publique du site, pour les QR codes des feuilles de route (défaut : PUBLIC_URL, sinon l’adresse du réseau local).")
@click.option("--processes", type=click.IntRange(1, 16), help="Processus de rendu (défaut : 2).")
@click.option("--table", type=click.IntRange(1, None), help="pack : seulement l’enveloppe de cette table.")
@with_appcontext
def print_command(kind, tournament_id, out_path, scored, columns, rows, single, entrants, boards, base_url,
                  processes, table) -> None:
    """Imprime (PDF) : étiquettes, diagrammes, fiches, cartes, feuilles de route, classements…, ou « pack » :
    toute la soirée dans l’ordre d’emploi (avec --table : l’enveloppe d’une table)."""
    from duplicate import operations
    from duplicate.db import get_session
    from duplicate.printing.commands import print_tournament

    options = {"table": table} if kind == "pack" else {}
    if kind == "labels":
        options.update(columns=columns, rows=rows, single=single)
    if kind == "travellers":
        options["scored"] = scored
    if boards and kind in ("labels", "diagrams", "travellers", "frequencies", "hand-records"):
        options["boards"] = list(boards)
    if entrants and kind in ("route-sheets", "movement-cards"):
        options["entrants"] = list(entrants)

    def progress(done: int, total: int) -> None:
        click.echo(f"\r{done}/{total} éléments", nl=False, err=True)

    try:
        from duplicate.serving import public_base_url

        pages = print_tournament(get_session(), tournament_id, kind, out_path,
                                 base_url=base_url or public_base_url(),
                                 progress=progress, processes=processes, **options)
    except operations.OperationError as error:
        _fail(error.message)
    except ValueError as error:
        _fail(str(error))
    click.echo("", err=True)
    click.echo(f"{out_path} : {pages} page{'s' if pages > 1 else ''}.")


# --- a simultané on the hosted instance (issue 33; duplicate.operations._simultaneous) -------------------------

@click.command("simultane-create")
@click.argument("code")
@click.option("--name", default="", help="Nom du simultané (ex. « Simultané de décembre »).")
@click.option("--kind", type=click.Choice(["individual", "triplettes"]), default="individual",
              show_default=True)
@click.option("--boards", type=click.IntRange(1, 100), required=True, help="Nombre d’étuis.")
@click.option("--embargo", required=True, help="Fin de l’embargo, avec son fuseau (ex. 2026-12-12T23:30+01:00).")
@with_appcontext
def simultaneous_create_command(code: str, name: str, kind: str, boards: int, embargo: str) -> None:
    """Crée un simultané : ses étuis sont donnés une fois ; affiche l’empreinte SHA-256 à publier."""
    import datetime

    from duplicate import operations
    from duplicate.db import get_session

    try:
        embargo_at = datetime.datetime.fromisoformat(embargo)
    except ValueError:
        _fail(f"heure de fin d’embargo « {embargo} » illisible : 2026-12-12T23:30+01:00 par exemple.")
    session = get_session()
    try:
        event = operations.create_simultaneous(session, code, name, kind, boards, embargo_at)
    except operations.OperationError as error:
        _fail(error.message)
    session.commit()
    click.echo(f"Simultané « {event.code} » créé : {boards} étuis. Empreinte des donnes à publier (SHA-256) :")
    click.echo(event.seed_sha256)


@click.command("simultane-club")
@click.argument("code")
@click.argument("club")
@click.option("--name", default="", help="Nom du club.")
@with_appcontext
def simultaneous_club_command(code: str, club: str, name: str) -> None:
    """Inscrit un club au simultané ; sa clé est la dernière ligne affichée (à lui transmettre)."""
    from duplicate import operations
    from duplicate.db import get_session

    session = get_session()
    try:
        member = operations.add_club(session, operations.get_simultaneous(session, code), club, name)
    except operations.OperationError as error:  # NotFound too
        _fail(error.message)
    session.commit()
    click.echo(f"Club « {member.code} » inscrit ; sa clé, à lui transmettre (elle ne sera plus affichée) :")
    click.echo(member.key)


def init_core(app) -> None:
    """Register only the commands that need neither the database nor the web (`CORE_COMMANDS`)."""
    for command in CORE_COMMANDS.values():
        app.cli.add_command(command)


def init_app(app) -> None:
    """Register the commands on the Flask app's CLI."""
    from duplicate.backup import backup_command, restore_command
    from duplicate.serving import serve_command

    for command in (*CORE_COMMANDS.values(), import_command, export_command,
                    demo_command, create_arbiter_command, create_token_command, tokens_command, revoke_token_command,
                    print_command, simultaneous_create_command, simultaneous_club_command):
        app.cli.add_command(command)
    for command in (serve_command, backup_command, restore_command):  # the hall: serving, backups
        app.cli.add_command(command)
