"""The ``rank FILE`` command's work (SPEC §10), without click: read a tournament file, check it, print its
ranking output (JSON) on standard output, the warnings and the refusal (exit status 1, one French line
naming the faulty line) on standard error.

Both entry points run it: ``flask --app app rank FILE`` through click (`duplicate.core_cli.rank_command`,
``echo`` = ``click.echo``) and ``python -m duplicate rank FILE`` without click (`fast_rank`, the plain
`echo` below): click costs about 30 ms to import, more than reading a 150-table file. The texts written are
the same: click's ``echo`` writes a text and a newline to the stream and flushes it, as `echo` does (it
would strip terminal escapes, but none reaches it: `one_line` shows control characters escaped, and the JSON
text escapes them too).
"""

from __future__ import annotations

import codecs
import gc
import re
import sys
from collections.abc import Callable

from duplicate.core.filetext import MAX_FILE_BYTES, one_line
from duplicate.json_text import dumps

# typing is imported by none of ``rank``'s modules (issue 12: 2–3 ms a process); its names, used in
# annotations only (``from __future__ import annotations``), are imported for the type checkers alone
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import BinaryIO, NoReturn

Echo = Callable[..., None]  # echo(text, err=False)


def echo(text: str, err: bool = False) -> None:
    """``click.echo(text, err=err)`` for a text on a standard stream that encodes UTF-8."""
    stream = sys.stderr if err else sys.stdout
    if stream is not None:
        stream.write(text + "\n")
        stream.flush()


def fail(message: str, echo: Echo = echo) -> NoReturn:
    """The refusal: « Erreur : … » on one line of standard error, exit status 1."""
    echo(f"Erreur : {one_line(message)}", err=True)
    sys.exit(1)


def read_text(file: BinaryIO, echo: Echo = echo) -> str:
    """A file's text, refused before it is read whole when over `MAX_FILE_BYTES`, or not UTF-8 (a
    byte-order mark is dropped later, by every reader alike: `core.filetext`)."""
    raw = file.read(MAX_FILE_BYTES + 1)
    if len(raw) > MAX_FILE_BYTES:
        fail(f"fichier trop gros (plus de {MAX_FILE_BYTES // (1024 * 1024)} Mio)", echo)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        fail(f"ligne {line} : le fichier n’est pas en UTF-8", echo)


# a free kind named anywhere in the file: only then is the file parsed as free play first (SPEC §13)
_FREE_KIND = re.compile(r'"kind"\s*:\s*"free')


def _free_play_output(text: str, echo: Echo) -> str | None:
    """The output of a free-play file (SPEC §13: each deal's ``scores``, the ranking by ``total``,
    `duplicate.core.freeplay.tournament.rank_free`) as JSON text, or None when the file's top-level
    ``kind`` is not a free one (the duplicate reader's turn)."""
    if not _FREE_KIND.search(text):
        return None
    from duplicate.core.filetext import FileTextError, parse_json
    from duplicate.core.freeplay.tournament import FREE_KINDS, FreePlayError, rank_free

    try:
        data = parse_json(text)
    except FileTextError as error:
        fail(str(error), echo)
    if not (isinstance(data, dict) and data.get("kind") in FREE_KINDS):
        return None
    try:
        return dumps(rank_free(data))
    except FreePlayError as error:
        fail(str(error), echo)


def rank_file(file: BinaryIO, echo: Echo = echo) -> None:
    """Topage and rankings of a tournament file (a free-play one: `_free_play_output`); the scores possible
    in theory only are reported on standard error (status 0)."""
    from duplicate.core.tournament import TournamentError, load_tournament, ranking_output, score_warnings

    # what a tournament file becomes holds no reference cycle: the cyclic collector would only walk those
    # hundreds of thousands of objects again and again (8 % of the time at 300 tables)
    collecting = gc.isenabled()
    gc.disable()
    try:
        text = read_text(file, echo)
        free_play = _free_play_output(text, echo)
        if free_play is not None:
            echo(free_play)
            return
        try:
            tournament = load_tournament(text)
        except TournamentError as error:
            fail(str(error), echo)
        for warning in score_warnings(tournament):
            echo(f"Attention : {one_line(warning)}", err=True)
        try:
            output = dumps(ranking_output(tournament))
        except (ValueError, OverflowError):  # never with the bounds of the reader: a last guard, not a traceback
            fail("un résultat du calcul n’est pas un nombre fini : fichier refusé", echo)
        echo(output)
    finally:
        if collecting:
            gc.enable()


def _utf8(stream) -> bool:
    encoding = getattr(stream, "encoding", None)
    return encoding is not None and codecs.lookup(encoding).name == "utf-8"


def fast_rank(args: list[str]) -> bool:
    """``python -m duplicate rank FILE`` without click, when the command line is exactly that, the file opens
    and the standard streams encode UTF-8; False for anything else (options, ``-`` for standard input, a
    file that does not open, another command…): then click runs it and writes its own usage messages."""
    if len(args) != 2 or args[0] != "rank" or args[1].startswith("-") or not (_utf8(sys.stdout) and _utf8(sys.stderr)):
        return False
    try:
        file = open(args[1], "rb")
    except OSError:
        return False
    with file:
        try:
            rank_file(file)
        except BrokenPipeError:  # the reader went away: exit 1, as click does (and with its means: rare)
            from click.utils import PacifyFlushWrapper

            sys.stdout, sys.stderr = PacifyFlushWrapper(sys.stdout), PacifyFlushWrapper(sys.stderr)
            sys.exit(1)
    return True
