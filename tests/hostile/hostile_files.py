"""Small tournament files and the two readers of a file the user hands over (``rank``: the core only;
``import``: into the database), for the hostile tests (issue 14). Plain module, no fixtures."""

from __future__ import annotations

import contextlib
import io
import json

from click.testing import CliRunner

from duplicate.cli import rank_command
from duplicate.rank import fast_rank


def individual(**extra) -> dict:
    """Two tables of four, two étuis; N takes étui 1, S étui 2 (a hand-made valid file)."""
    players = [{"id": f"{line}{table}", "name": f"JOUEUR{table} {line}", "line": line}
               for table in (1, 2) for line in "NSEW"]
    results = []
    for board, seat in ((1, "N"), (2, "S")):
        for table, score in ((1, 56), (2, -52)):
            others = [f"{s}{table}" for s in "NSEW" if s != seat]
            results.append({"board": board, "table": table, "position": board, "taker": f"{seat}{table}",
                            "defenders": others, "score": score})
    data = {"format": "tarot-tournament/1", "name": "Essai", "kind": "individual", "players": players,
            "boards": [{"number": 1, "taker": "N"}, {"number": 2, "taker": "S"}], "results": results}
    data.update(extra)
    return data


def triplettes(**extra) -> dict:
    players = [{"id": f"p{i}", "name": f"P{i}"} for i in range(12)]
    teams = [{"id": "NS1", "line": "NS", "members": ["p0", "p1", "p2"]},
             {"id": "EW1", "line": "EW", "members": ["p3", "p4", "p5"]},
             {"id": "NS2", "line": "NS", "members": ["p6", "p7", "p8"]},
             {"id": "EW2", "line": "EW", "members": ["p9", "p10", "p11"]}]
    results = [{"board": 1, "table": 1, "taker_team": "NS1", "defence_team": "EW1", "score": 56},
               {"board": 1, "table": 2, "taker_team": "NS2", "defence_team": "EW2", "score": 80}]
    data = {"kind": "triplettes", "players": players, "teams": teams, "results": results}
    data.update(extra)
    return data


def team_match(**extra) -> dict:
    players = [{"id": f"p{i}", "name": f"P{i}"} for i in range(8)]
    teams = [{"id": "A", "members": ["p0", "p1", "p2", "p3"]}, {"id": "B", "members": ["p4", "p5", "p6", "p7"]}]
    results = [{"board": 1, "quarter": 1, "room": "open", "contract": "garde_sans", "taker_team": "A",
                "defence_team": "B", "score": 136},
               {"board": 1, "quarter": 1, "room": "closed", "contract": "garde", "taker_team": "B",
                "defence_team": "A", "score": 56}]
    data = {"kind": "team_match", "players": players, "teams": teams, "results": results}
    data.update(extra)
    return data


def one_per_line(data: dict) -> str:
    """One entry of each list per line, so that an error's line number names the entry."""
    items = []
    for key, value in data.items():
        if isinstance(value, list):
            items.append(f'"{key}": [\n' + ",\n".join(json.dumps(v, ensure_ascii=False) for v in value) + "\n]")
        else:
            items.append(f'"{key}": {json.dumps(value, ensure_ascii=False)}')
    return "{\n" + ",\n".join(items) + "\n}\n"


def line_of(text: str, snippet: str) -> int:
    return text[:text.index(snippet)].count("\n") + 1


def rank(tmp_path, content: str | bytes, name: str = "tournoi.json"):
    """``flask rank FILE`` through Click (the core only): (exit code, stdout, stderr, exception) — after
    checking that ``python -m duplicate rank FILE`` (`fast_rank`, without click) writes the same texts and
    exits with the same status."""
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8", "surrogatepass"))
    result = CliRunner().invoke(rank_command, [str(path)])
    assert _fast_rank(str(path)) == (result.exit_code, result.stdout, result.stderr)
    return result


def _fast_rank(path: str) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of `fast_rank` on ``path``, with UTF-8 standard streams."""
    out, err = (io.TextIOWrapper(io.BytesIO(), encoding="utf-8") for _ in range(2))
    status = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            assert fast_rank(["rank", path])
        except SystemExit as stop:
            status = stop.code
    texts = []
    for stream in (out, err):
        stream.flush()
        texts.append(stream.buffer.getvalue().decode("utf-8"))
    return status, *texts


def assert_clean_refusal(result, *fragments: str) -> str:
    """Exit 1, no traceback, one French line « Erreur : … » holding the fragments; that line."""
    assert result.exit_code == 1, (result.exit_code, result.stdout, result.stderr, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Erreur : "), result.stderr
    assert "Traceback" not in result.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    return lines[0]
