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


def init_app(app) -> None:
    """Register the commands on the Flask app's CLI."""
    for command in (deal_command, score_command, rank_command):
        app.cli.add_command(command)
