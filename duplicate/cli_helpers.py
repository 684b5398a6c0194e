"""What every command of the command line shares (`duplicate.core_cli`, `duplicate.freeplay_cli`,
`duplicate.cli`): JSON on standard output, a French message and exit status 1 on bad input, a file read as
text within the core's bounds. Below the commands, so that they import it and not one another."""

from __future__ import annotations

from typing import NoReturn

import click

from duplicate.json_text import dumps
from duplicate.rank import fail, read_text


def _print_json(data) -> None:
    click.echo(dumps(data))


def _fail(message: str) -> NoReturn:
    fail(message, click.echo)


def _read_text(file) -> str:
    return read_text(file, click.echo)


def _choice(enum) -> click.Choice:
    return click.Choice([member.value for member in enum])
