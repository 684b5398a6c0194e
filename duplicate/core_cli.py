"""The core commands of the command line (SPEC §10): ``deal``, ``score``, ``rank``, ``movement``.

Each reads its input, calls the core, and prints JSON (UTF-8) on standard output.  Bad input ends with exit
status 1 and a French message on standard error that names the faulty line.

This module imports only click and `duplicate.core` (each command its own core module, when it runs), never
Flask: ``flask --app app rank FILE`` registers these commands on a light application (`duplicate.cli`,
`duplicate.create_core_app`), and ``python -m duplicate ...`` (`main`) runs them without Flask at all (``rank
FILE`` even without click: `duplicate.rank`, whose work ``rank`` here runs too).
"""

from __future__ import annotations

import sys

import click

from duplicate.cli_helpers import _choice, _fail, _print_json, _read_text  # noqa: F401 (duplicate.cli's too)
from duplicate.core.formats import KINDS
from duplicate.core.scoring import (
    Chelem, Contract, PetitAuBout, Poignee, ScoreError, check_score, hand_fault, needed_points, score_deal, signed,
)
from duplicate.rank import rank_file


@click.command("deal")
@click.option("--boards", "count", type=click.IntRange(1, 10_000), required=True, help="Nombre d’étuis.")
@click.option("--seed", help="Graine (texte) ; tirée au hasard si absente.")
@click.option("--first", type=click.IntRange(1), default=1, show_default=True, help="Numéro du premier étui.")
def deal_command(count: int, seed: str | None, first: int) -> None:
    """Génère des donnes reproductibles (JSON tarot-deals/1)."""
    import secrets

    from duplicate.core.deals import DealError, deals_to_json, generate_boards

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
@click.option("--check", "to_check", type=int, help="Vérifie qu’un score saisi est possible.")
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
    fault = hand_fault(contract, points, bouts, poignees, petit_au_bout, chelem)
    if fault is not None:
        _fail(f"donne impossible : {fault}")
    try:
        score = score_deal(contract, points, bouts, poignees, petit_au_bout, chelem)
    except ScoreError as error:
        _fail(str(error))
    needed = needed_points(bouts)
    verdict = "faite" if points >= needed else "chutée"
    click.echo(signed(score).replace("−", "-"))
    click.echo(f"{contract.french} {verdict} de {abs(points - needed)} ({points} points, {bouts} bout{'s' if bouts > 1 else ''}, "
               f"il en fallait {needed})")
    click.echo(f"Le preneur marque {signed(3 * score)}, chaque défenseur {signed(-score)}")


@click.command("rank")
@click.argument("file", type=click.File("rb"))
def rank_command(file) -> None:
    """Calcule topage et classements d'un fichier tournoi (JSON tarot-tournament/1).

    Les scores possibles en théorie seulement sont signalés sur la sortie d'erreur (statut 0)."""
    rank_file(file, click.echo)


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
@click.argument("kind", type=click.Choice(KINDS))
@click.option("--tables", type=click.IntRange(1, 500), help="Nombre de tables.")
@click.option("--players", type=click.IntRange(1, 2000),
              help="Individuel : nombre de joueurs (relais quand il n’est pas multiple de 4).")
@click.option("--positions", type=click.IntRange(1, 100), help="Nombre de positions (défaut : le maximum sans répétition).")
@click.option("--boards-per-position", type=click.IntRange(1, 100),
              help="Étuis par table et par position (défaut : 4) ; match par équipes : par quart temps, "
                   "4, 5 ou 6 pour 16, 20 ou 24 étuis (défaut : 5).")
def movement_generate(kind: str, tables: int | None, players: int | None, positions: int | None,
                      boards_per_position: int | None) -> None:
    """Génère un mouvement (JSON tarot-movement/1)."""
    from duplicate.core.movements import MovementError, generate

    if tables is None and players is None:
        _fail("indiquez --tables (ou --players pour l’individuel)")
    try:
        movement = generate(kind, tables, positions, boards_per_position, players=players)
    except MovementError as error:
        _fail(str(error))
    _print_json(movement.to_dict())


@movement_command.command("check")
@click.argument("file", type=click.File("rb"))
@click.option("--players", type=click.IntRange(12, 2000),
              help="Individuel : nombre de joueurs inscrits (vérifie les relais et les places sans joueur).")
def movement_check(file, players: int | None) -> None:
    """Vérifie un mouvement (JSON) : répétitions, équilibre, passages par étui, relais."""
    from duplicate.core.filetext import FileTextError, parse_json
    from duplicate.core.movements import Movement, MovementError, check, individual_entrant_ids

    try:
        movement = Movement.from_dict(parse_json(_read_text(file)))
    except FileTextError as error:
        _fail(str(error))
    except MovementError as error:
        _fail(str(error))
    report = check(movement, individual_entrant_ids(players) if players else None)
    click.echo(report.text())
    if not report.ok:
        sys.exit(1)


#: The commands that read their input and call the core only (`duplicate.create_core_app` serves them).
CORE_COMMANDS = {"deal": deal_command, "score": score_command, "rank": rank_command, "movement": movement_command}

from duplicate.freeplay_cli import with_free_play  # noqa: E402 (free play: rank, movement free, pcn; SPEC §13)

CORE_COMMANDS = with_free_play(CORE_COMMANDS)

from duplicate.simultaneous_cli import with_simultaneous  # noqa: E402 (the simultané's files: issue 33)

CORE_COMMANDS = with_simultaneous(CORE_COMMANDS)


@click.group(commands=CORE_COMMANDS)
def main() -> None:
    """Commandes du moteur (sans base de données) : deal, score, rank, movement, pcn, simultane."""
