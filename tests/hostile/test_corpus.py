"""Issue 14: the generated hostile corpus. Hypothesis strategies over the JSON structure of a tournament
file (read by the core as ``rank`` reads it), over its text (bytes cut, inserted, nested, a BOM, huge
numbers: through the ``rank`` command itself), over the players CSV, and over the forms (posted to the
real screens). Each input is either refused cleanly — a `TournamentError` / exit 1 with one French line
naming its place, a French page below 500 — or accepted, and then ranked to valid JSON (no NaN, no
Infinity). No traceback, no 500. The numbers tried, refused and accepted are printed at the end of the
run (`corpus`).

Derandomised so that CI is reproducible; ``HYPOTHESIS_EXPLORE=1`` searches afresh with random examples."""

from __future__ import annotations

import json
import os
import re

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings, strategies as st
from sqlmodel import Session

from corpus import record
from hostile_files import individual, one_per_line, team_match, triplettes

from duplicate import db
from duplicate.cli import rank_command
from duplicate.core.tournament import KINDS, TournamentError, load_tournament, ranking_output, score_warnings
from duplicate.players_csv import parse_players_csv

EXPLORE = bool(os.environ.get("HYPOTHESIS_EXPLORE"))


def corpus(examples: int):
    return settings(max_examples=examples * (4 if EXPLORE else 1), deadline=None, derandomize=not EXPLORE,
                    database=None, suppress_health_check=list(HealthCheck))


# --- values a careless or hostile file holds ---------------------------------------------------------------

ids = st.sampled_from(["N1", "S1", "E1", "W1", "N2", "S2", "E2", "W2", "NS1", "EW1", "NS2", "EW2", "A", "B", "Q1",
                       "Q2", "joueur-3", "p0", "p1", "p2", "p3", "", " ", "N1\r\n", "x" * 40, "\u202e", "é1",
                       "\ud800", "N1\"", "<b>"])
numbers = st.one_of(st.integers(-3, 120), st.sampled_from([0, -1, 2**31, 2**63, 10**19, -(10**20), 10**25, 1e308,
                                                           -1e308, 5e-324, 0.5, 2.5, 100.0, 100.01, float("nan"),
                                                           float("inf"), -float("inf"), True, "2,5", None]))
scalars = st.one_of(numbers, ids, st.sampled_from([None, False, True, "garde", "open", "N", "NS", "X", [], {}]))
values = st.one_of(scalars, st.lists(scalars, max_size=3), st.dictionaries(st.sampled_from(["taker", "x", "position"]),
                                                                           scalars, max_size=2))


def fields(spec: dict):
    """A dict with each key present or not, its value plausible (mostly) or hostile."""
    return st.fixed_dictionaries({}, optional={key: st.one_of(plausible, plausible, values)
                                               for key, plausible in spec.items()})


scores = st.one_of(st.integers(-350, 350).map(lambda n: n * 2), st.integers(-1000, 1000), numbers)
player = fields({"id": ids, "name": st.sampled_from(["DUPONT Jean", "", "x" * 300]),
                 "line": st.sampled_from(["N", "S", "E", "W", "NS", "X"]), "out_of_ranking": st.booleans(),
                 "withdrawn": st.fixed_dictionaries({"position": numbers})})
team = fields({"id": ids, "line": st.sampled_from(["NS", "EW", "N"]), "members": st.lists(ids, max_size=4),
               "bonus": numbers})
board = fields({"number": st.integers(0, 4), "taker": st.sampled_from(["N", "S", "E", "W", "Z"])})
result = fields({"board": st.integers(0, 4), "table": st.integers(0, 3), "position": st.integers(0, 3),
                 "taker": ids, "defenders": st.lists(ids, max_size=4), "taker_team": ids, "defence_team": ids,
                 "score": scores, "annulled": st.booleans(), "chelem": st.booleans(),
                 "notes": st.fixed_dictionaries({"taker": numbers, "defence": numbers}),
                 "contract": st.sampled_from(["garde", "garde_sans", "garde_contre", "prise", "x"]),
                 "quarter": st.integers(0, 9), "room": st.sampled_from(["open", "closed", "hall"])})
penalty = fields({"player": ids, "team": ids, "points": numbers, "board": st.integers(0, 4)})
movement = st.one_of(values, st.fixed_dictionaries({"rounds": st.lists(fields({
    "table": st.integers(0, 3), "position": st.integers(0, 3), "boards": st.lists(st.integers(0, 4), max_size=3)}),
    max_size=3)}))
tournaments = st.fixed_dictionaries({"kind": st.one_of(st.sampled_from(KINDS), values)}, optional={
    "format": st.sampled_from(["tarot-tournament/1", "tarot-tournament/2", 1]),
    "players": st.one_of(st.lists(player, max_size=8), values), "teams": st.lists(team, max_size=3),
    "boards": st.lists(board, max_size=3), "results": st.one_of(st.lists(result, max_size=6), values),
    "penalties": st.lists(penalty, max_size=2), "movement": movement,
    "substitutions": st.lists(fields({"seat": ids, "player": ids, "from_position": numbers,
                                      "results_to": st.sampled_from(["player", "substitute", "x"])}), max_size=2),
})


def read_like_rank(text: str) -> bool:
    """The core as ``rank`` uses it: True when accepted (and ranked to valid JSON), False when refused."""
    try:
        tournament = load_tournament(text)
    except TournamentError as error:
        message = str(error)
        assert message and "\n" not in message and len(message) < 420, message
        return False
    json.dumps(ranking_output(tournament), allow_nan=False)  # no NaN, no Infinity, no overflow
    score_warnings(tournament)
    return True


def variants(data: dict):
    """Four documents from one structure: compact, with a byte-order mark, one entry per line (errors name
    other lines), and ASCII-escaped (lone surrogates as ``\\ud800``). NaN and Infinity are written as JSON
    cannot: ``NaN``, ``Infinity``."""
    yield json.dumps(data, ensure_ascii=False)
    yield "\ufeff" + json.dumps(data, ensure_ascii=False)
    yield one_per_line(data).encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    yield json.dumps(data)


@corpus(800)
@given(tournaments)
def test_generated_tournament_structures(data):
    for text in variants(data):
        record("JSON structure (core)", read_like_rank(text))
    # the generated penalties, substitutions and étuis on a valid tournament: some of them are accepted
    grafted = dict(individual(), **{k: v for k, v in data.items() if k in ("penalties", "substitutions", "name")})
    record("JSON structure (core)", read_like_rank(json.dumps(grafted)))


@corpus(400)
@given(st.sampled_from(["individual", "triplettes", "team_match"]), st.lists(
    st.tuples(st.sampled_from(["players", "teams", "results", "penalties", "boards"]), st.integers(0, 9),
              st.sampled_from(["delete", "set", "add"]), st.sampled_from(["board", "x", "line", "room", "score",
                                                                          "points", "quarter", "notes"]), values),
    min_size=1, max_size=3))
def test_mutations_of_valid_tournaments(kind, mutations):
    """Valid files (the three kinds) with one to three fields changed, removed or added: the near misses."""
    data = {"individual": individual, "triplettes": triplettes, "team_match": team_match}[kind]()
    for section, index, action, key, value in mutations:
        items = data.get(section) or []
        if not items:
            continue
        item = items[index % len(items)]
        if action == "delete" and item:
            item.pop(sorted(item)[index % len(item)])
        elif action == "set" and item:
            item[sorted(item)[index % len(item)]] = value
        else:
            item[key] = value
    for text in variants(data):
        record("JSON near misses (core)", read_like_rank(text))


BASE_TEXT = one_per_line(individual(penalties=[{"player": "N1", "points": 2, "reason": "retard"}]))
SNIPPETS = st.sampled_from(["[" * 40, "]", "{", "}", ",", ":", '"', "\\", "\\ud800", "\\u0000", "NaN", "Infinity",
                            "-Infinity", "1e999", "1e308", "9" * 30, "9" * 5000, "\ufeff", "\x00", "\n", "true",
                            "null", '"\\ud800"', "[" * 5000, "é", "\u2028", "0x1F", "-0", "1.", ".5", "01"])


@corpus(350)
@given(st.lists(st.tuples(st.integers(0, len(BASE_TEXT)), st.integers(0, 12), st.one_of(SNIPPETS,
                                                                                         st.text(max_size=6))),
                min_size=1, max_size=3))
def test_mutated_file_text_through_the_rank_command(tmp_path_factory, edits):
    """The text of a valid file with slices cut and hostile snippets put in, in four encodings, read by the
    ``rank`` command itself: exit 0 with JSON, or exit 1 with one French line « Erreur : ligne N : … »."""
    text = BASE_TEXT
    for at, cut, snippet in edits:
        text = text[:at] + snippet + text[at + cut:]
    for encoding in ("utf-8", "utf-8-sig", "utf-16", "latin-1"):
        _rank_bytes(tmp_path_factory, text.encode(encoding, "surrogatepass" if encoding.startswith("utf") else
                                                  "replace"))


def _rank_bytes(tmp_path_factory, raw: bytes) -> None:
    path = tmp_path_factory.getbasetemp() / "mutated.json"
    path.write_bytes(raw)
    result = CliRunner().invoke(rank_command, [str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    if result.exit_code == 0:
        json.loads(result.stdout, parse_constant=lambda token: pytest.fail(f"{token} in the output"))
    else:
        assert result.exit_code == 1
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and re.match(r"Erreur : (ligne \d+ : )?\S", lines[0]), result.stderr
    record("file text (rank command)", result.exit_code == 0)


csv_cells = st.one_of(st.text(max_size=12), st.sampled_from(["", "Licence", "Nom", "Prénom", "Club", "0123456",
                                                            "DUPONT", "\x00", "\"", "\"a;b\"", "=cmd|' /C calc'!A0",
                                                            "x" * 3000, "\ufeff", "\r", "é" * 20]))


@corpus(500)
@given(st.lists(st.lists(csv_cells, max_size=6), max_size=10), st.sampled_from([";", ",", "\t", "|"]),
       st.booleans(), st.binary(max_size=30))
def test_generated_players_csv(rows, separator, header, noise):
    """The players CSV as a club's spreadsheet may save it (five encodings), and with some bytes of noise:
    read into rows and French line errors, never an exception."""
    lines = (["Licence;Nom;Prénom;Club".replace(";", separator)] if header else []) + \
        [separator.join(row) for row in rows]
    for encoding in ("utf-8", "utf-8-sig", "cp1252", "utf-16", "latin-1"):
        for raw in ("\n".join(lines).encode(encoding, "replace"), "\r\n".join(lines).encode(encoding, "replace") + noise):
            accepted, errors, _empty = parse_players_csv(raw)
            assert all(isinstance(number, int) and message for number, message in errors)
            record("players CSV", bool(accepted) and not errors)


@pytest.fixture
def sqlite_arbiter(sqlite_copy):
    """An arbiter signed in on a fresh SQLite database (the route walk covers PostgreSQL)."""
    from duplicate import create_app, operations
    from factories import demo_tournament

    app = create_app({"DATABASE_URL": sqlite_copy("forms.sqlite3")})
    with Session(db.get_engine(app)) as session:
        operations.create_user(session, "arbitre", "mot-de-passe-solide", "arbiter")
        tid = demo_tournament(session).id
        session.commit()
    client = app.test_client()
    client.post("/connexion", data={"username": "arbitre", "password": "mot-de-passe-solide"})
    yield app, client, tid
    db.get_engine(app).dispose()


FORM_TEXT = st.one_of(st.text(max_size=20), st.sampled_from(["", "9" * 30, "1e308", "NaN", "-Infinity", "−2,5",
                                                            "2,5", "1", "N1", "garde", "x" * 3000, "<b>", "\x00",
                                                            "[" * 3000, "' OR 1=1 --"]))


def test_generated_form_posts(sqlite_arbiter):
    app, client, tid = sqlite_arbiter
    forms = [
        ("/arbitre/tournois/nouveau", ["name", "kind", "date", "place", "colour", "sessions"]),
        (f"/arbitre/tournois/{tid}/penalites", ["entrant_id", "points", "reason", "board"]),
        (f"/arbitre/tournois/{tid}/resultats/2/adjust", ["score", "reason", "version"]),
        (f"/arbitre/tournois/{tid}/resultats/3/note", ["taker", "defence", "reason", "version"]),
        (f"/saisie/tournois/{tid}/etuis/1", ["score-1-1", "score-2-1", "chelem-1-1", "version-1-1"]),
        ("/arbitre/import", ["text"]),
        (f"/arbitre/tournois/{tid}/mouvement/importer", ["movement-text"]),
        (f"/arbitre/tournois/{tid}/etuis/importer", ["deals-text"]),
        (f"/arbitre/tournois/{tid}/changements/retard", ["entrant_id", "minutes", "points_per_step"]),
        (f"/arbitre/tournois/{tid}/joueurs", ["licence", "surname", "first_name", "club"]),
    ]

    @corpus(150)
    @given(st.sampled_from(range(len(forms))), st.data())
    def post(index, data):
        path, names = forms[index]
        values = data.draw(st.dictionaries(st.sampled_from(names), FORM_TEXT, max_size=len(names)))
        response = client.post(path, data=values)
        assert response.status_code < 500, (path, values, response.status_code)
        record("forms (screens)", response.status_code < 400)

    post()
