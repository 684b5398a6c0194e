"""Hypothesis against the real screens, on SQLite and PostgreSQL: mutated tournament files (the arbiter's
import page and the ``import`` command), players CSVs (uploaded) and arbitrary form posts to every form
never give a 500 (in TESTING, an unhandled exception would fail the test) and never corrupt the
database: a refused input leaves every table as it was; whatever was accepted still exports and ranks,
and SQLite's integrity and foreign-key checks pass.

The examples are derandomised, so that CI is reproducible; run with ``HYPOTHESIS_EXPLORE=1`` to search
afresh (more examples, random)."""

from __future__ import annotations

import copy
import html
import io
import json
import os
import re

from hypothesis import HealthCheck, given, settings, strategies as st
from sqlmodel import Session

from factories import demo_tournament
from hostile_data import census, integrity

from duplicate import db, interchange, operations

EXPLORE = bool(os.environ.get("HYPOTHESIS_EXPLORE"))
FUZZ = settings(max_examples=300 if EXPLORE else 25, deadline=None, derandomize=not EXPLORE,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                       HealthCheck.data_too_large])

nasty_text = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["", " ", "\x00", "a\x00b", "<script>alert(1)</script>", "' OR 1=1 --", "\ufeff", "é" * 300,
                     "x" * 5000, "N1", "S1", "E1", "W1", "garde", "+31", "-0", "−42", "1e9", "NaN", "9" * 40,
                     "../../etc/passwd", "%s%s%n", "\u202e", "😀", "\r\n", "null", "[]", "{}"]),
)
nasty_int = st.one_of(st.integers(-10, 200), st.sampled_from([0, -1, 2**31, 2**63, -(2**63) - 1, 10**30]))
json_scalar = st.one_of(st.none(), st.booleans(), nasty_int, st.floats(allow_nan=False, allow_infinity=False),
                        nasty_text)
json_value = st.recursive(json_scalar, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                               st.dictionaries(nasty_text, inner, max_size=3)),
                          max_leaves=6)


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value[:3]):
            yield from _paths(item, prefix + (index,))


def _base_file(app) -> dict:
    with Session(db.get_engine(app)) as session:
        tournament = demo_tournament(session)
        data = interchange.export_tournament(session, tournament)
        session.rollback()
    return json.loads(json.dumps(data))


def _mutate(data: dict, mutations) -> dict:
    data = copy.deepcopy(data)
    for path, action, value in mutations:
        parent = data
        try:
            for key in path[:-1]:
                parent = parent[key]
            if not path:
                continue
            if action == "delete":
                del parent[path[-1]]
            else:
                parent[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue
    return data


def _status_ok(response, *allowed):
    assert response.status_code in allowed, (response.status_code, response.get_data(as_text=True)[:500])


def test_mutated_tournament_files_are_imported_or_refused_cleanly(app, arbiter, tmp_path):
    base = _base_file(app)
    paths = sorted(set(_paths(base)) - {()}, key=repr)
    runner = app.test_cli_runner()
    mutation = st.tuples(st.sampled_from(paths), st.sampled_from(["set", "set", "delete"]), json_value)

    @FUZZ
    @given(st.lists(mutation, min_size=1, max_size=4), st.booleans())
    def check(mutations, as_upload):
        document = json.dumps(_mutate(base, mutations), ensure_ascii=False)
        before = census(app)
        data = ({"file": (io.BytesIO(document.encode()), "tournoi.json")} if as_upload else {"text": document})
        response = arbiter.post("/arbitre/import", data=data, content_type="multipart/form-data")
        _status_ok(response, 302, 422)
        if response.status_code == 422:
            assert census(app) == before
            assert "Rien n’a été importé" in response.get_data(as_text=True) or "errors" in response.get_data(as_text=True)
        path = tmp_path / "tournoi.json"
        path.write_text(document, encoding="utf-8")
        before = census(app)
        result = runner.invoke(args=["import", str(path)])
        assert result.exit_code in (0, 1), (result.output, result.exception)
        assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
        if result.exit_code == 1:
            assert census(app) == before and "Erreur" in result.output

    check()
    integrity(app)


csv_cell = st.one_of(nasty_text, st.from_regex(r"[0-9]{1,8}", fullmatch=True), st.just("Dupont"))
csv_rows = st.lists(st.lists(csv_cell, min_size=0, max_size=6), max_size=8)


def test_hostile_players_csv_previews_then_imports_only_what_was_previewed(app, arbiter):
    with Session(db.get_engine(app)) as session:
        tid = operations.create_tournament(session, name="Import", kind="individual").id
        session.commit()

    @FUZZ
    @given(csv_rows, st.sampled_from([";", ",", "\t"]), st.sampled_from(["utf-8", "utf-8-sig", "latin-1", "utf-16"]),
           st.booleans())
    def check(rows, separator, encoding, header):
        lines = (["Licence;Nom;Prénom;Club".replace(";", separator)] if header else []) + \
                [separator.join(row) for row in rows]
        raw = "\n".join(lines).encode(encoding, errors="replace")
        before = census(app)
        response = arbiter.post(f"/arbitre/tournois/{tid}/joueurs/import",
                                data={"file": (io.BytesIO(raw), "joueurs.csv")}, content_type="multipart/form-data")
        _status_ok(response, 200, 422)
        assert census(app) == before  # a preview stores nothing
        if response.status_code == 200:
            page = response.get_data(as_text=True)
            expected = re.search(r'name="expected" value="([0-9]+)"', page).group(1)
            text = html.unescape(re.search(r'<textarea name="text" hidden>\n(.*?)</textarea>', page, re.S).group(1))
            confirmed = arbiter.post(f"/arbitre/tournois/{tid}/joueurs/import",
                                     data={"text": text, "confirm": "1", "expected": expected})
            _status_ok(confirmed, 302, 200)
            after = census(app)
            if confirmed.status_code == 302:
                assert after["player"] == before["player"] + int(expected)
            else:
                assert after == before

    check()
    integrity(app)


def _forms(tid: int) -> list[tuple[str, list[str]]]:
    return [
        ("/arbitre/tournois/nouveau", ["name", "kind", "date", "place", "colour", "sessions"]),
        (f"/arbitre/tournois/{tid}/joueurs", ["licence", "surname", "first_name", "club"]),
        (f"/arbitre/tournois/{tid}/placement", ["seed"]),
        (f"/arbitre/tournois/{tid}/placement/manuel", ["place-1", "place-2", "place-3", "place-999"]),
        (f"/arbitre/tournois/{tid}/etuis/generer", ["generate-count", "generate-seed", "hash"]),
        (f"/arbitre/tournois/{tid}/etuis/importer", ["deals-text"]),
        (f"/arbitre/tournois/{tid}/etuis/3", ["N", "S", "E", "W", "dog", "dealer", "taker"]),
        (f"/arbitre/tournois/{tid}/mouvement", ["positions", "preview", "accept"]),
        (f"/arbitre/tournois/{tid}/mouvement/importer", ["movement-text"]),
        (f"/arbitre/tournois/{tid}/penalites", ["entrant_id", "points", "reason", "board"]),
        (f"/arbitre/tournois/{tid}/penalites/1/supprimer", ["delete-submit"]),
        (f"/arbitre/tournois/{tid}/resultats/1/annul", ["reason", "version", "restore"]),
        (f"/arbitre/tournois/{tid}/resultats/2/adjust", ["score", "reason", "version"]),
        (f"/arbitre/tournois/{tid}/resultats/3/note", ["taker", "defence", "reason", "version"]),
        (f"/arbitre/tournois/{tid}/competition", ["series_id", "coefficient"]),
        ("/arbitre/competitions", ["name"]),
        (f"/saisie/tournois/{tid}/etuis/1", ["score-1-1", "score-1-5", "chelem-1-1", "version-1-1", "score-x"]),
        (f"/saisie/tournois/{tid}/tables/1/1", ["score-1-1", "score-2-1", "version-2-1", "contract-2-1"]),
        (f"/arbitre/tournois/{tid}/impression/labels", ["columns", "rows", "single"]),
        ("/connexion", ["username", "password"]),
    ]


def test_arbitrary_form_posts_never_fail_nor_corrupt(app, arbiter):
    with Session(db.get_engine(app)) as session:
        tid = demo_tournament(session).id
        session.commit()
    forms = _forms(tid)

    @FUZZ
    @given(st.sampled_from(range(len(forms))), st.data())
    def check(index, data):
        path, names = forms[index]
        values = data.draw(st.dictionaries(st.sampled_from(names), nasty_text, max_size=len(names)))
        response = arbiter.post(path, data=values)
        assert response.status_code < 500, (path, values, response.status_code)

    check()
    # the scored demo is still whole and rankable; one more pass over what the arbiter sees
    integrity(app)
    for path in (f"/tournois/{tid}/", f"/arbitre/tournois/{tid}/resultats", f"/saisie/tournois/{tid}/"):
        assert arbiter.get(path).status_code == 200


def test_hostile_api_bodies_never_fail_nor_corrupt(app, client):
    with Session(db.get_engine(app)) as session:
        tid = operations.create_tournament(session, name="API", kind="individual").id
        token = operations.create_token(session, "arbiter", "fuzz")
        session.commit()
    item = st.dictionaries(st.sampled_from(["board", "table", "position", "taker", "defenders", "score", "annulled",
                                            "adjusted", "notes", "chelem", "room", "quarter", "contract"]),
                           json_value, max_size=8)

    @FUZZ
    @given(st.one_of(st.lists(item, max_size=3), json_value))
    def check(body):
        before = census(app)
        response = client.post(f"/api/tournaments/{tid}/results", data=json.dumps(body),
                               content_type="application/json", headers={"Authorization": f"Bearer {token}"})
        assert response.status_code in (201, 409, 422), (response.status_code, response.get_data(as_text=True))
        if response.status_code != 201:
            assert census(app) == before

    check()
    integrity(app)
