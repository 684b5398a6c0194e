"""Command line (SPEC §10): ``flask --app app deal|score|rank ...``.

Each command reads its input, calls the core, and prints JSON (UTF-8) on
standard output.  Bad input ends with exit status 1 and a French message on
standard error that names the faulty line.
"""

from __future__ import annotations

import json
import secrets
import sys

import click
from flask.cli import with_appcontext

from duplicate.core.deals import DealError, deals_to_json, generate_boards
from duplicate.core.scoring import Chelem, Contract, PetitAuBout, Poignee, ScoreError, check_score, needed_points, score_deal, signed
from duplicate.core.tournament import TournamentError, load_tournament, ranking_output


def _print_json(data) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def _fail(message: str) -> None:
    click.echo(f"Erreur : {message}", err=True)
    sys.exit(1)


def _choice(enum) -> click.Choice:
    return click.Choice([member.value for member in enum])


@click.command("deal")
@click.option("--boards", "count", type=click.IntRange(1, 10_000), required=True, help="Nombre d'étuis.")
@click.option("--seed", help="Graine (texte) ; tirée au hasard si absente.")
@click.option("--first", type=click.IntRange(1), default=1, show_default=True, help="Numéro du premier étui.")
def deal_command(count: int, seed: str | None, first: int) -> None:
    """Génère des donnes reproductibles (JSON tarot-deals/1)."""
    seed = seed if seed is not None else secrets.token_hex(16)
    try:
        boards = generate_boards(count, seed, first)
    except DealError as error:
        _fail(str(error))
    _print_json(deals_to_json(boards, seed))


@click.command("score")
@click.option("--contract", type=_choice(Contract), default="garde", show_default=True)
@click.option("--points", type=click.IntRange(0, 91), help="Points réalisés par le preneur.")
@click.option("--bouts", type=click.IntRange(0, 3), help="Bouts du preneur en fin de donne.")
@click.option("--poignee", "poignees", type=_choice(Poignee), multiple=True, help="Poignée montrée (répétable).")
@click.option("--petit-au-bout", type=_choice(PetitAuBout), help="Camp qui mène le petit au bout.")
@click.option("--chelem", type=_choice(Chelem))
@click.option("--check", "to_check", type=int, help="Vérifie qu'un score saisi est possible.")
def score_command(contract, points, bouts, poignees, petit_au_bout, chelem, to_check) -> None:
    """Calcule le score d'une donne, ou vérifie un score (--check)."""
    contract = Contract(contract)
    if to_check is not None:
        result = check_score(to_check, contract, chelem=chelem is not None)
        if not result.ok:
            _fail(result.message)
        click.echo(signed(to_check).replace("−", "-"))
        click.echo(result.message)
        if result.warning:
            click.echo(f"Attention : {result.warning}")
        return
    if points is None or bouts is None:
        _fail("indiquez --points et --bouts (ou --check SCORE)")
    try:
        score = score_deal(contract, points, bouts, poignees, petit_au_bout, chelem)
    except ScoreError as error:
        _fail(str(error))
    needed = needed_points(bouts)
    verdict = "faite" if points >= needed else "chutée"
    click.echo(signed(score).replace("−", "-"))
    click.echo(f"{contract.french} {verdict} de {abs(points - needed)} ({points} points, {bouts} bout(s), "
               f"il en fallait {needed})")
    click.echo(f"Le preneur marque {signed(3 * score)}, chaque défenseur {signed(-score)}")


@click.command("rank")
@click.argument("file", type=click.File("r", encoding="utf-8"))
def rank_command(file) -> None:
    """Calcule topage et classements d'un fichier tournoi (JSON tarot-tournament/1)."""
    try:
        tournament = load_tournament(file.read())
    except UnicodeDecodeError:
        _fail("le fichier n'est pas en UTF-8")
    except TournamentError as error:
        _fail(str(error))
    _print_json(ranking_output(tournament))


class _MovementGroup(click.Group):
    """``movement KIND --tables T`` generates; ``movement check FILE`` validates."""

    def resolve_command(self, ctx, args):
        if args and args[0] != "check" and not args[0].startswith("-"):
            return "generate", movement_generate, args
        return super().resolve_command(ctx, args)


@click.group("movement", cls=_MovementGroup, invoke_without_command=False)
def movement_command() -> None:
    """Mouvements : génère (KIND --tables T) ou vérifie (check FICHIER)."""


@movement_command.command("generate")
@click.argument("kind", type=click.Choice(["individual", "triplettes", "quadrettes", "team_match"]))
@click.option("--tables", type=click.IntRange(1, 500), help="Nombre de tables.")
@click.option("--players", type=click.IntRange(1, 2000),
              help="Individuel : nombre de joueurs (relais quand il n'est pas multiple de 4).")
@click.option("--positions", type=click.IntRange(1, 100), help="Nombre de positions (défaut : le maximum sans répétition).")
def movement_generate(kind: str, tables: int | None, players: int | None, positions: int | None) -> None:
    """Génère un mouvement (JSON tarot-movement/1)."""
    from duplicate.core.movements import MovementError, generate

    if tables is None and players is None:
        _fail("indiquez --tables (ou --players pour l'individuel)")
    try:
        movement = generate(kind, tables, positions, players=players)
    except MovementError as error:
        _fail(str(error))
    _print_json(movement.to_dict())


@movement_command.command("check")
@click.argument("file", type=click.File("r", encoding="utf-8"))
@click.option("--players", type=click.IntRange(12, 2000),
              help="Individuel : nombre de joueurs inscrits (vérifie les relais et les places sans joueur).")
def movement_check(file, players: int | None) -> None:
    """Vérifie un mouvement (JSON) : répétitions, équilibre, passages par étui, relais."""
    from duplicate.core.movements import Movement, MovementError, check, individual_entrant_ids

    try:
        movement = Movement.from_dict(json.load(file))
    except json.JSONDecodeError as error:
        _fail(f"ligne {error.lineno} : JSON mal formé ({error.msg}, colonne {error.colno})")
    except UnicodeDecodeError:
        _fail("le fichier n'est pas en UTF-8")
    except MovementError as error:
        _fail(str(error))
    report = check(movement, individual_entrant_ids(players) if players else None)
    click.echo(report.text())
    if not report.ok:
        sys.exit(1)


# --- the database: import, export, demo, accounts (duplicate.operations, duplicate.interchange) ----------

@click.command("import")
@click.argument("file", type=click.File("r", encoding="utf-8-sig"))
@with_appcontext
def import_command(file) -> None:
    """Importe un fichier tournoi (JSON tarot-tournament/1) ; affiche le numéro du tournoi créé."""
    from duplicate.db import get_session
    from duplicate.interchange import import_tournament

    session = get_session()
    try:
        tournament = import_tournament(session, file.read())
    except UnicodeDecodeError:
        session.rollback()
        _fail("le fichier n'est pas en UTF-8")
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
@click.option("--username", prompt="Identifiant", help="Identifiant de l'arbitre.")
@click.option("--password", prompt="Mot de passe", hide_input=True, confirmation_prompt="Confirmation",
              help="Mot de passe (8 caractères au moins) ; demandé s'il est absent.")
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


PRINT_KINDS = ("labels", "diagrams", "travellers", "guide-cards", "movement-cards", "route-sheets", "ranking",
               "frequencies", "hand-records", "pack")


@click.command("print")
@click.argument("kind", type=click.Choice(PRINT_KINDS))
@click.option("--tournament", "tournament_id", type=int, required=True, help="Numéro du tournoi.")
@click.option("--out", "out_path", type=click.Path(dir_okay=False, writable=True), required=True, help="Fichier PDF.")
@click.option("--scored/--blank", default=False, help="Fiches ambulantes : avec les résultats (--scored) ou vierges.")
@click.option("--columns", type=click.IntRange(1, 10), default=3, show_default=True, help="Étiquettes par ligne.")
@click.option("--rows", type=click.IntRange(1, 20), default=8, show_default=True, help="Lignes d'étiquettes par page.")
@click.option("--single", is_flag=True, help="Étiquettes : une par page (imprimante d'étiquettes).")
@click.option("--entrant", "entrants", multiple=True, help="Feuilles de route, fiches individuelles : ce participant (répétable).")
@click.option("--board", "boards", type=int, multiple=True, help="Ce seul étui (répétable).")
@click.option("--base-url", help="Adresse publique du site, pour les QR codes des feuilles de route.")
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
        pages = print_tournament(get_session(), tournament_id, kind, out_path, base_url=base_url,
                                 progress=progress, processes=processes, **options)
    except operations.OperationError as error:
        _fail(error.message)
    except ValueError as error:
        _fail(str(error))
    click.echo("", err=True)
    click.echo(f"{out_path} : {pages} page(s).")


CORE_COMMANDS = ("deal", "score", "rank", "movement")  # read their input and call the core only


def init_core(app) -> None:
    """Register only the commands that need neither the database nor the web (`CORE_COMMANDS`)."""
    for command in (deal_command, score_command, rank_command, movement_command):
        app.cli.add_command(command)


def init_app(app) -> None:
    """Register the commands on the Flask app's CLI."""
    for command in (deal_command, score_command, rank_command, movement_command, import_command, export_command,
                    demo_command, create_arbiter_command, create_token_command, print_command):
        app.cli.add_command(command)
