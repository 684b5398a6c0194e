"""Issue 31, point 1: no imported file poisons its tournament. A file accepted by « Importer » used to leave
every page of its tournament answering 500 — a movement round whose ``seats`` is ``3.5``, ``"x"`` or ``[]``;
a known field outside its rule kept in ``extra`` and written back by the export (``"date": true``,
``"colour": {"a": {}}``). Now the import reads the movement with the core's movement reader and checks each
known field by its rule (`interchange.FIELD_RULES`): such a file is refused, in French, with its line, and
nothing is stored.

The property: valid tournament files (the demonstration's export, with its movement, deals and journal; a
triplettes and a team-match file) mutated one to three times, imported through the « Importer » page; every
tournament ACCEPTED has each of its pages browsed (every GET route of the url_map that names a tournament or
one of its tokens, the other URL parts filled from the tournament: étuis, positions, tables, players, route
sheet tokens, table links) as an anonymous visitor, a scorer and the arbiter: no 500, no traceback. The
numbers are printed with the hostile corpus's (`corpus`). Derandomised like the corpus (`test_corpus.corpus`).
"""

from __future__ import annotations

import copy
import json
import re

import pytest
from hypothesis import given, strategies as st
from sqlmodel import Session, select

from corpus import record
from factories import demo_tournament
from hostile_data import PASSWORD, census
from hostile_files import team_match, triplettes
from test_corpus import corpus

from duplicate import db, interchange, models, operations
from duplicate.core.tournament import TournamentError


def _demo_file(app) -> dict:
    """The demonstration tournament's export (individual, its movement, deals, results, journal), as JSON."""
    with Session(db.get_engine(app)) as session:
        data = interchange.export_tournament(session, demo_tournament(session))
        session.rollback()
    return json.loads(json.dumps(data))


def _text(data: dict) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1)


def _line(text: str, snippet: str) -> int:
    return text[:text.index(snippet)].count("\n") + 1


def _seats(value):
    def poison(data):
        data["movement"]["rounds"][0]["seats"] = value
    return poison


#: (name, mutation of the demonstration's file, the key whose line is named, the French message)
POISONS = [
    ("seats-3.5", _seats(3.5), '"movement"', "mouvement « movement » : tour n° 1 de la liste « rounds » (position 1, "
                                             "table 1) : « seats » doit associer des places à des participants"),
    ("seats-x", _seats("x"), '"movement"', "tour n° 1 de la liste « rounds » (position 1, table 1) : « seats » doit "
                                           "associer des places à des participants"),
    ("seats-empty-list", _seats([]), '"movement"', "(position 1, table 1) : « seats » doit associer des places"),
    ("date-true", lambda data: data.update(date=True), '"date"', "« date » doit être une date AAAA-MM-JJ"),
    ("colour-object", lambda data: data.update(colour={"a": {}}), '"colour"', "« colour » doit être un texte"),
]


@pytest.mark.parametrize("name, poison, key, message", POISONS, ids=[p[0] for p in POISONS])
def test_a_poisoned_file_is_refused_with_its_line_and_nothing_is_stored(app, arbiter, name, poison, key, message):
    data = _demo_file(app)
    poison(data)
    text = _text(data)
    before = census(app)
    with Session(db.get_engine(app)) as session, pytest.raises(TournamentError) as refused:
        interchange.import_tournament(session, text)
    assert str(refused.value) == f"ligne {_line(text, key)} : " + str(refused.value).split(" : ", 1)[1]
    assert message in str(refused.value), str(refused.value)
    response = arbiter.post("/arbitre/import", data={"text": text})
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert f"Fichier refusé : ligne {_line(text, key)} : " in page and message in page
    assert "Rien n’a été importé" in page
    assert census(app) == before


@pytest.mark.parametrize("section, index, key, value, message", [
    ("players", 2, "club", 12, "joueur n° 3 : « club » doit être un texte"),
    ("players", 0, "table", 0, "joueur n° 1 : « table » doit être un numéro de table de 1 à 500"),
    ("boards", 1, "dealer", "O", "étui n° 2 : « dealer » doit être N, S, E ou W"),
    ("results", 4, "annulled", "non", "résultat n° 5 : « annulled » vaut true ou false"),
    ("results", 3, "contract", "petite", "résultat n° 4 : « contract » doit être garde, garde_sans"),
    ("results", 0, "contract", [], "résultat n° 1 : « contract » doit être garde"),  # was a 500 of the new rule
    ("penalties", 0, "reason", ["x"], "pénalité n° 1 : « reason » doit être un texte"),
])
def test_a_field_of_an_entry_outside_its_rule_names_the_entry_and_its_line(app, section, index, key, value, message):
    data = _demo_file(app)
    data[section][index][key] = value
    text = "{\n" + ",\n".join(
        f'"{k}": [\n' + ",\n".join(json.dumps(v, ensure_ascii=False) for v in val) + "\n]" if isinstance(val, list)
        else f'"{k}": {json.dumps(val, ensure_ascii=False)}' for k, val in data.items()) + "\n}\n"
    line = _line(text, json.dumps(data[section][index], ensure_ascii=False))
    with Session(db.get_engine(app)) as session, pytest.raises(TournamentError) as refused:
        interchange.import_tournament(session, text)
    assert str(refused.value).startswith(f"ligne {line} : "), str(refused.value)
    assert message in str(refused.value), str(refused.value)


def test_a_movement_s_notes_that_are_no_list_are_no_notes_and_its_page_shows(app, arbiter):
    """Found by the property below: ``"notes": 3.5`` in the movement (ignored by the core's reader) made
    the arbiter's movement page answer 500; the page now reads the notes as the reader does."""
    data = _demo_file(app)
    data["movement"]["notes"] = 3.5
    response = arbiter.post("/arbitre/import", data={"text": _text(data)})
    assert response.status_code == 302
    assert arbiter.get(response.headers["Location"] + "mouvement").status_code == 200


def test_a_team_match_whose_results_name_their_room_only_is_imported(app):
    """SPEC §9: a team match's result may name its room and not its table; `rank` reads it at the room's
    table (salle ouverte: table 1, fermée: table 2), and so does the import (it was refused with the
    database's English NOT NULL message)."""
    with Session(db.get_engine(app)) as session:
        tournament = interchange.import_tournament(session, json.dumps(team_match(name="Match")))
        session.commit()
        stored = session.exec(select(models.Result.room, models.Result.table)
                              .where(models.Result.tournament_id == tournament.id)
                              .order_by(models.Result.room)).all()
    assert stored == [("closed", 2), ("open", 1)]


def test_settings_the_application_reads_are_checked(app):
    data = _demo_file(app)
    data["settings"] = {"published": True, "team_attackers": "x", "other_program": [1, 2]}
    text = _text(data)
    with Session(db.get_engine(app)) as session, pytest.raises(TournamentError) as refused:
        interchange.import_tournament(session, text)
    line = _line(text, '"settings"')
    assert str(refused.value).startswith(f"ligne {line} : « settings » : « team_attackers » doit être "), refused.value


# --- the property: what is accepted can be browsed ---------------------------------------------------------

@pytest.fixture
def sqlite_visitors(sqlite_copy):
    """A fresh SQLite application (the route walk covers PostgreSQL), the demonstration's file, and three
    visitors: anonymous, a scorer, an arbiter (who imports, and so owns, the tournaments)."""
    from duplicate import create_app

    app = create_app({"DATABASE_URL": sqlite_copy("imports.sqlite3")})
    base = _demo_file(app)
    visitors = {"anonymous": app.test_client()}
    with Session(db.get_engine(app)) as session:
        for role in ("scorer", "arbiter"):
            operations.create_user(session, role, PASSWORD, role)
        session.commit()
    for role in ("scorer", "arbiter"):
        visitors[role] = app.test_client()
        assert visitors[role].post("/connexion", data={"username": role, "password": PASSWORD}).status_code == 302
    yield app, base, visitors
    db.get_engine(app).dispose()


VALUES = st.sampled_from([3.5, "x", "", [], {}, {"a": {}}, True, False, None, 0, -1, 1, 2, 10**9, 2**63, "N", "N1",
                          "2026-13-45", "2026-03-14", [1], ["x"], {"N": "N1"}, {"N": 3}, "garde", "open", "é" * 300])
KEYS = {
    "top": ["name", "date", "place", "colour", "sessions", "deal_seed", "draw_seed", "settings", "movement", "teams",
            "journal", "x"],
    "settings": ["published", "timezone", "table_results", "table_position", "minutes_per_board", "team_attackers",
                 "x"],
    "players": ["name", "line", "licence", "club", "table", "out_of_ranking", "withdrawn", "x"],
    "teams": ["name", "line", "table", "first_colour", "bonus", "members", "x"],
    "boards": ["number", "dealer", "taker", "hands", "dog", "x"],
    "results": ["position", "annulled", "adjusted", "chelem", "notes", "contract", "reason", "attacker", "room", "x"],
    "penalties": ["points", "reason", "board", "x"],
    "journal": ["at", "who", "action", "summary", "before", "x"],
    "movement": ["tables", "positions", "boards", "rests", "players", "notes", "kind", "x"],
    "rounds": ["position", "table", "seats", "boards", "room", "chosen_by", "x"],
}
MUTATIONS = st.lists(st.tuples(st.sampled_from(sorted(KEYS)), st.integers(0, 30), st.sampled_from(["set", "delete"]),
                               st.integers(0, 20), VALUES), min_size=1, max_size=3)


def _mutate(data: dict, mutations) -> dict:
    data = copy.deepcopy(data)
    for target, index, action, key_index, value in mutations:
        if target == "top":
            item = data
        elif target == "settings":
            item = data.setdefault("settings", {}) if isinstance(data.get("settings"), dict) else None
        elif target in ("movement", "rounds"):
            movement = data.get("movement")
            item = movement if isinstance(movement, dict) else None
            if target == "rounds" and item is not None:
                rounds = item.get("rounds")
                item = rounds[index % len(rounds)] if isinstance(rounds, list) and rounds else None
        else:
            items = data.get(target)
            item = items[index % len(items)] if isinstance(items, list) and items else None
        if not isinstance(item, dict):
            continue
        key = KEYS[target][key_index % len(KEYS[target])]
        if action == "delete":
            item.pop(key, None)
        else:
            item[key] = value
    return data


def _tournament_urls(app, tournament_id: int) -> list[str]:
    """Every GET page of the tournament: the routes naming ``tournament_id``, a route sheet's token or a
    table's link, their other parts filled from the tournament."""
    with Session(db.get_engine(app)) as session:
        tournament = session.get(models.Tournament, tournament_id)
        boards = [b.number for b in session.exec(select(models.Board).where(models.Board.tournament_id == tournament_id)
                                                  .order_by(models.Board.number))]
        player = session.exec(select(models.Player).where(models.Player.tournament_id == tournament_id)).first()
        team = session.exec(select(models.Team).where(models.Team.tournament_id == tournament_id)).first()
        movement = session.exec(select(models.Movement).where(models.Movement.tournament_id == tournament_id)).first()
        rounds = movement.data.get("rounds", []) if movement is not None else []
        first = rounds[0] if rounds else {"position": 1, "table": 1}
        position, table = first.get("position", 1), first.get("table", 1)
        tokens = [entrant.token for entrant in (player, team) if entrant is not None]
        secrets = [operations.table_secret(tournament, table)]
    values = {"tournament_id": [tournament_id], "number": sorted({boards[0], boards[-1]}) if boards else [1],
              "position": [position], "table": [table], "player_id": [player.id if player else 1], "job": ["x"],
              "token": tokens, "secret": secrets}
    urls = []
    for rule in app.url_map.iter_rules():
        names = set(rule.arguments)
        if "GET" not in rule.methods or not names & {"tournament_id", "token", "secret"} or names - set(values):
            continue
        paths = [rule.rule]
        for name in names:
            paths = [re.sub(r"<(?:\w+:)?%s>" % name, str(value), path) for path in paths for value in values[name]]
        urls += paths
    return sorted(set(urls))


def test_what_an_import_accepts_can_be_browsed_by_everyone(sqlite_visitors):
    app, demo, visitors = sqlite_visitors
    match = team_match(name="Match")  # its results name their room only (SPEC §9)
    bases = {"demo": demo, "triplettes": triplettes(name="Triplettes"), "team_match": match}
    arbiter = visitors["arbiter"]

    @corpus(100)
    @given(st.sampled_from(sorted(bases)), MUTATIONS)
    def browse(base, mutations):
        text = json.dumps(_mutate(bases[base], mutations), ensure_ascii=False)
        response = arbiter.post("/arbitre/import", data={"text": text})
        assert response.status_code in (302, 422), (response.status_code, mutations)
        accepted = response.status_code == 302
        record("imports (mutated files)", accepted)
        if not accepted:
            assert "Fichier refusé : " in response.get_data(as_text=True)
            return
        tournament_id = int(re.search(r"/tournois/(\d+)/", response.headers["Location"]).group(1))
        for url in _tournament_urls(app, tournament_id):
            for who, visitor in visitors.items():
                page = visitor.get(url)
                assert page.status_code < 500, (who, url, page.status_code, mutations)
                assert b"Traceback" not in page.data, (who, url, mutations)
                record("pages (imported tournaments)", page.status_code < 400)

    browse()
