"""The free-play commands (SPEC §10, §13), added to the core ones (`duplicate.core_cli.CORE_COMMANDS`):

* ``rank FILE`` — `duplicate.rank` itself ranks a file of kind ``free``, ``free_duo`` or ``free_team4``
  with `duplicate.core.freeplay.tournament.rank_free` (so does ``python -m duplicate rank``, without click).
* ``movement free --tables T [--positions P] [--players N]`` — the FFT free-play movement as the §9
  movement format with ``"kind": "free"``; ``movement check FILE`` of a free movement prints its meetings
  and repeats (`duplicate.core.freeplay.movements.check`); other movements go to the duplicate ``check``.
* ``pcn --event free|free_duo|free_team4 --tables T [--entrants N] [--championship …]`` →
  ``[{"place": 1, "pcn": …, "pp": …}, …]`` (`duplicate.core.freeplay.pcn`).

Like `duplicate.core_cli`, only click and the core are imported (``python -m duplicate`` runs them too).
"""

from __future__ import annotations

import io
import re
import sys

import click

from duplicate.cli_helpers import _fail, _print_json, _read_text
from duplicate.core.filetext import MAX_FILE_BYTES

__all__ = ["with_free_play"]

# a free kind named anywhere in the file: only then is the file parsed here before the duplicate reader
_FREE_KIND = re.compile(rb'"kind"\s*:\s*"free')


def _read_raw(file) -> bytes:
    raw = file.read(MAX_FILE_BYTES + 1)
    if len(raw) > MAX_FILE_BYTES:
        _fail(f"fichier trop gros (plus de {MAX_FILE_BYTES // (1024 * 1024)} Mio)")
    return raw


def _free_data(raw: bytes):
    """The file's JSON when its top-level ``kind`` is a free one, else None (the duplicate reader's turn)."""
    if not _FREE_KIND.search(raw):
        return None
    from duplicate.core.filetext import FileTextError, parse_json
    from duplicate.core.freeplay.tournament import FREE_KINDS

    text = _read_text(io.BytesIO(raw))
    try:
        data = parse_json(text)
    except FileTextError as error:
        _fail(str(error))
    return data if isinstance(data, dict) and data.get("kind") in FREE_KINDS else None


@click.command("free")
@click.option("--tables", type=click.IntRange(3, 500), help="Nombre de tables.")
@click.option("--players", type=click.IntRange(11, 2000),
              help="Nombre de joueurs (tables à 3 quand il n’est pas multiple de 4).")
@click.option("--positions", type=click.IntRange(1, 100), help="Nombre de positions (défaut : le maximum sans répétition).")
@click.option("--event", type=click.Choice(["free", "free_duo", "free_team4"]), default="free", show_default=True,
              help="Par équipes : les coéquipiers commencent ensemble et sautent la 1re position.")
def free_movement_command(tables: int | None, players: int | None, positions: int | None, event: str) -> None:
    """Mouvement FFT en donnes libres : Nord fixe, Sud +1, Est +2, Ouest −2 (JSON tarot-movement/1)."""
    from duplicate.core.freeplay.movements import MovementError, free_movement, movement_to_dict, team_movement

    if tables is None and players is None:
        _fail("indiquez --tables (ou --players)")
    teams = None
    try:
        if event == "free":
            rounds, three = free_movement(tables, positions, players)
        else:
            if players is not None and (tables is None or players != 4 * tables):
                _fail("par équipes, des tables complètes : indiquez --tables")
            (rounds, teams), three = team_movement(event, tables, positions), frozenset()
    except MovementError as error:
        _fail(str(error))
    count = max(r.table for r in rounds)
    data = movement_to_dict(count, max(r.position for r in rounds), rounds, three)
    if teams is not None:
        data["kind"] = event
        data["teams"] = [{"id": team, "members": members} for team, members in teams.items()]
    _print_json(data)


def _check_command(duplicate_check: click.Command) -> click.Command:
    @click.command("check", help=duplicate_check.help)
    @click.argument("file", type=click.File("rb"))
    @click.option("--players", type=click.IntRange(12, 2000), help="Individuel : nombre de joueurs inscrits.")
    @click.pass_context
    def check(ctx, file, players) -> None:
        raw = _read_raw(file)
        data = _free_data(raw)
        if data is None:
            ctx.invoke(duplicate_check, file=io.BytesIO(raw), players=players)
            return
        from duplicate.core.freeplay.movements import MovementError, check as check_rounds, rounds_from_dict

        teams = data.get("teams")
        try:
            if teams is not None and not (isinstance(teams, list) and all(
                    isinstance(t, dict) and isinstance(t.get("members"), list) for t in teams)):
                raise MovementError("« teams » : liste d’équipes avec « members » attendue")
            report = check_rounds(rounds_from_dict(data), {str(t.get("id")): t["members"] for t in teams or []})
        except MovementError as error:
            _fail(str(error))
        click.echo(report.text())
        if not report.ok:
            sys.exit(1)

    return check


def _movement_group(duplicate_movement: click.Group) -> click.Group:
    check = _check_command(duplicate_movement.commands["check"])

    class FreeMovementGroup(click.Group):
        """``movement free …`` and ``movement check FILE`` here, every other kind to the duplicate group."""

        def resolve_command(self, ctx, args):
            if args and args[0] in ("free", "check"):
                return super().resolve_command(ctx, args)
            return duplicate_movement.resolve_command(ctx, args)

    return FreeMovementGroup("movement", help=duplicate_movement.help,
                             commands={**duplicate_movement.commands, "check": check, "free": free_movement_command})


@click.command("pcn")
@click.option("--event", type=click.Choice(["free", "free_duo", "free_team4"]))
@click.option("--tables", type=click.IntRange(1, 2000), help="Nombre de tables (plusieurs séances : leur somme).")
@click.option("--entrants", type=click.IntRange(1, 10_000),
              help="Joueurs, duos ou équipes classés (défaut : les tables pleines).")
@click.option("--championship", type=click.Choice(["regional", "regional_semifinal", "regional_final"]),
              help="Championnat régional (plafond 3000, PP, indice 1,5 ou 1,8).")
@click.option("--file", "file", type=click.File("rb"),
              help="Un fichier de donnes libres : le fichier PCN pour la fédération (CSV Licence;Nom;Place;PCN;PP).")
def pcn_command(event: str | None, tables: int | None, entrants: int | None, championship: str | None,
                file) -> None:
    """PCN et PP par place (fascicule, chapitre 5), ou le fichier PCN d'un tournoi (--file)."""
    from duplicate.core.freeplay.pcn import PcnError, attribution

    if file is not None:
        _pcn_file(file, tables, championship)
        return
    if event is None or tables is None:
        _fail("indiquez --event et --tables (ou --file FICHIER)")
    try:
        places = attribution(event, tables, entrants, championship)
    except PcnError as error:
        _fail(str(error))
    _print_json([{"place": p.place, "pcn": p.pcn, "pp": p.pp} for p in places])


def _pcn_file(file, tables: int | None, championship: str | None) -> None:
    from duplicate.core.freeplay.tournament import FreePlayError, federation_csv, rank_free

    data = _free_data(_read_raw(file))
    if data is None:
        _fail("le fichier n’est pas un tournoi en donnes libres (kind free, free_duo, free_team4)")
    asked = data.get("pcn") if isinstance(data.get("pcn"), dict) else {}
    asked = {**asked, **({"tables": tables} if tables else {}),
             **({"championship": championship} if championship else {})}
    data["pcn"] = asked or True
    try:
        answer = rank_free(data)
    except FreePlayError as error:
        _fail(str(error))
    if "pcn_refused" in answer:
        _fail(answer["pcn_refused"])
    click.echo(federation_csv(data, answer), nl=False)


def with_free_play(commands: dict) -> dict:
    """The core commands with free play: ``rank`` and ``movement`` extended, ``pcn`` added."""
    return {**commands, "movement": _movement_group(commands["movement"]), "pcn": pcn_command}
