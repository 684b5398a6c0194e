"""Tournament files in and out of the database (SPEC §9), on SQLite and PostgreSQL: lossless round trip,
a refused file changes nothing, and the ``import`` / ``export`` / ``create-arbiter`` commands."""

import json
import re

import pytest
from sqlmodel import Session, func, select

from duplicate import db, models, operations as ops
from duplicate.core.deals import generate_boards
from duplicate.core.tournament import TournamentError
from duplicate.interchange import export_tournament, import_tournament, split_name

TABLES = [models.Tournament, models.Player, models.Team, models.TeamMember, models.Board, models.Movement,
          models.Result, models.ResultHistory, models.Penalty, models.User]


@pytest.fixture
def session(app):
    with app.app_context():
        yield db.get_session()


def row_counts(app):
    with Session(db.get_engine(app)) as session:
        return {model.__name__: session.exec(select(func.count()).select_from(model)).one() for model in TABLES}


def one_per_line(data: dict) -> str:
    """A file with one entry per line, so that errors name a line."""
    text = "{\n"
    items = []
    for key, value in data.items():
        if isinstance(value, list):
            items.append(f'"{key}": [\n' + ",\n".join(json.dumps(v, ensure_ascii=False) for v in value) + "\n]")
        else:
            items.append(f'"{key}": {json.dumps(value, ensure_ascii=False)}')
    return text + ",\n".join(items) + "\n}\n"


def seated(board, table, score, **extra):
    """A result at ``table``, in the position where `MOVEMENT` gives it ``board``."""
    taker = TAKERS[board]
    return {"board": board, "table": table, "position": (board - table) % 4 + 1, "taker": f"{taker}{table}",
            "defenders": [f"{line}{table}" for line in "NSEW" if line != taker], "score": score, **extra}


#: The taker's seat of each étui of `individual_file`'s movement (as its ``boards`` say).
TAKERS = {1: "N", 2: "S", 3: "S", 4: "N"}


def individual_file():
    deal = generate_boards(1, "fichier")[0].to_dict()  # with its "strength", an extra field
    players = [{"id": f"{line}{table}", "name": f"JOUEUR{table} Anne-{line}", "line": line} for table in (1, 2, 3, 4)
               for line in "NSEW"]
    players[0].update(licence="0123456", club="Tarot Club Lyonnais", table=1, handicap="aucun")
    players[1]["name"] = "de la Tour  Jean"  # kept verbatim
    players[2]["name"] = "DE LA TOUR Jean-Marc"
    players[3].pop("name")
    players[4]["licence"] = ""  # an explicit empty value
    return {
        "format": "tarot-tournament/1", "name": "Open de Lyon", "kind": "individual", "date": "2026-03-01",
        "place": "Salle des fêtes", "colour": "vert", "sessions": 1, "organiser": {"club": "TCL"},
        "deal_seed": "fichier", "settings": {"rounding": 2},
        "players": players, "teams": [],
        "boards": [{**deal, "number": 1}, {"number": 2, "taker": "S", "dealer": "W"}, {"number": 3}],
        "movement": {"format": "tarot-movement/1", "kind": "individual", "tables": 4, "positions": 4,
                     "boards": [{"number": n, "taker": seat} for n, seat in TAKERS.items()],
                     "rounds": [{"position": p, "table": t, "seats": {line: f"{line}{t}" for line in "NSEW"},
                                 "boards": [(t + p - 2) % 4 + 1]} for p in (1, 2, 3, 4) for t in (1, 2, 3, 4)]},
        "results": [
            seated(1, 1, 56), seated(1, 2, 62, annulled=True), seated(1, 3, -52, adjusted=True, annulled=False),
            {**seated(1, 4, None), "notes": {"taker": 60, "defence": 40}},
            seated(2, 1, 582, chelem=True), {**seated(2, 2, 56), "contract": "garde", "scorer": "Paul"},
            {"board": 3, "table": 1, "taker": "S1", "defenders": ["N1", "E1", "W1"], "score": 30},
        ],
        "penalties": [{"player": "N1", "points": 2.5, "reason": "retard"},
                      {"player": "S2", "points": 1, "board": 1},
                      {"team": "E3", "points": 0.5, "reason": ""}],
    }


def triplettes_file():
    players = [{"id": f"p{i}", "name": f"NOM{i} Prénom"} for i in range(12)]
    teams = [{"id": "NS1", "name": "Les As", "line": "NS", "members": ["p0", "p1", "p2"], "first_colour": "Bleu"},
             {"id": "EW1", "line": "EW", "members": ["p3", "p4", "p5"], "table": 1},
             {"id": "NS2", "line": "NS", "members": ["p6", "p7", "p8"]},
             {"id": "EW2", "members": ["p9", "p10", "p11"], "bonus": 0}]
    results = [{"board": 1, "table": 1, "taker_team": "NS1", "defence_team": "EW1", "score": 56},
               {"board": 1, "table": 2, "taker_team": "NS2", "defence_team": "EW2", "score": 80},
               {"board": 2, "table": 1, "taker_team": "EW1", "defence_team": "NS1", "score": 60},
               {"board": 2, "table": 2, "taker_team": "EW2", "defence_team": "NS2", "score": -52}]
    return {"kind": "triplettes", "players": players, "teams": teams, "results": results,
            "penalties": [{"team": "NS2", "points": 3, "reason": "bruit"}]}


def quadrettes_file():
    players = [{"id": f"p{i}", "name": f"P{i}"} for i in range(8)]
    teams = [{"id": "Q1", "members": ["p0", "p1", "p2", "p3"]}, {"id": "Q2", "members": ["p4", "p5", "p6", "p7"]}]
    results = [{"board": 1, "table": 1, "taker_team": "Q1", "defence_team": "Q2", "score": 82},
               {"board": 1, "table": 2, "taker_team": "Q2", "defence_team": "Q1", "score": 66}]
    return {"format": "tarot-tournament/1", "name": "Quadrettes", "kind": "quadrettes", "players": players,
            "teams": teams, "results": results}


def team_match_file():
    players = [{"id": f"p{i}", "name": f"P{i}"} for i in range(10)]
    teams = [{"id": "A", "name": "Lyon", "members": ["p0", "p1", "p2", "p3", "p8"], "bonus": 2},
             {"id": "B", "name": "Vienne", "members": ["p4", "p5", "p6", "p7", "p9"], "bonus": 0.5}]
    results = [{"board": 1, "table": 1, "quarter": 1, "room": "open", "contract": "garde_sans",
                "taker_team": "A", "defence_team": "B", "score": 136},
               {"board": 1, "table": 2, "quarter": 1, "room": "closed", "contract": "garde",
                "taker_team": "B", "defence_team": "A", "score": 56}]
    return {"format": "tarot-tournament/1", "name": "Match", "kind": "team_match", "players": players,
            "teams": teams, "results": results}


def evening_file():
    """SPEC §11 marks: a fill-in player, a withdrawal, a substitute (with the results, from position 2)."""
    data = individual_file()
    data["players"][5]["out_of_ranking"] = True
    data["players"][6]["withdrawn"] = {"position": 1}
    data["players"].append({"id": "X1", "name": "REMPLAÇANT Paul", "line": "N", "out_of_ranking": True})
    data["substitutions"] = [{"seat": "N2", "player": "X1", "from_position": 2, "results_to": "substitute"},
                             {"seat": "N3", "player": "S4", "from_position": 1, "results_to": "player", "note": "x"}]
    return data


FILES = {"individual": individual_file, "evening": evening_file, "triplettes": triplettes_file, "quadrettes": quadrettes_file,
         "team_match": team_match_file}


@pytest.mark.parametrize("kind", FILES)
def test_import_export_round_trip_is_lossless(session, kind):
    original = FILES[kind]()
    tournament = import_tournament(session, one_per_line(original))
    exported = export_tournament(session, tournament)
    assert json.loads(json.dumps(exported)) == json.loads(json.dumps(original))
    again = import_tournament(session, json.dumps(exported))
    assert export_tournament(session, again) == exported
    assert ops.ranking(session, tournament) == ops.ranking(session, again)


def test_imported_rows(session):
    tournament = import_tournament(session, "\ufeff" + json.dumps(individual_file()))
    assert (tournament.name, tournament.kind, tournament.colour, tournament.date.isoformat()) == (
        "Open de Lyon", "individual", "vert", "2026-03-01")
    assert tournament.extra == {"format": "tarot-tournament/1", "sessions": 1, "organiser": {"club": "TCL"},
                                "teams": []}
    n1 = session.exec(select(models.Player).where(models.Player.entrant_id == "N1")).one()
    assert (n1.surname, n1.first_name, n1.licence, n1.club, n1.start_table) == (
        "JOUEUR1", "Anne-N", "0123456", "Tarot Club Lyonnais", 1)
    assert n1.extra == {"handicap": "aucun"}
    e1 = session.exec(select(models.Player).where(models.Player.entrant_id == "E1")).one()
    assert (e1.surname, e1.first_name) == ("DE LA TOUR", "Jean-Marc")
    results = ops.results(session, tournament)
    assert [r.slot for r in results][:2] == ["table:1", "table:4"]  # in the order of the positions (`seated`)
    assert all(h.action == "import" for h in session.exec(select(models.ResultHistory)))


def test_later_changes_show_in_the_export(session):
    tournament = import_tournament(session, json.dumps(individual_file()))
    result = next(r for r in ops.results(session, tournament, board=1) if r.table == 3)
    ops.annul_result(session, result, version_id=result.version_id)  # the file said "annulled": false
    tournament.sessions = 2
    exported = export_tournament(session, tournament)
    assert exported["sessions"] == 2
    assert next(r for r in exported["results"] if r["board"] == 1 and r["table"] == 3)["annulled"] is True


def test_split_name():
    assert split_name("DUPONT Jean") == ("DUPONT", "Jean")
    assert split_name("LE GALL Marie Anne") == ("LE GALL", "Marie Anne")
    assert split_name("Jean Dupont") == ("Jean Dupont", "")
    assert split_name("DUPONT") == ("DUPONT", "")


def bad_files():
    base = individual_file()
    impossible = dict(base, results=base["results"] + [seated(3, 2, 31)])
    unknown = dict(base, results=base["results"] + [{**seated(3, 2, 56), "taker": "Z9"}])
    bad_deal = dict(base, boards=[base["boards"][1], {**base["boards"][0], "dog": base["boards"][0]["dog"][:5]},
                                  base["boards"][2]])
    twice = dict(triplettes_file())
    twice["teams"] = [dict(twice["teams"][0], members=["p0", "p0", "p1"])] + twice["teams"][1:]
    return [  # (text, message, a snippet of the faulty line or None)
        (one_per_line(impossible), "score +31 impossible", '"score": 31'),
        (one_per_line(unknown), "joueur inconnu « Z9 »", '"Z9"'),
        (one_per_line(bad_deal), "étui 1 : donne invalide : le chien a 5 cartes", '"strength"'),
        (one_per_line(twice), "équipe « NS1 » : un joueur figure deux fois", '"p0", "p0"'),
        ('{"kind": "individual",\n "players": [}', "JSON mal formé", '"players"'),
        ('{"kind": "libre"}', "type de tournoi inconnu", '"kind"'),  # every message names its line (issue 14)
    ]


def line_of(text, snippet):
    return None if snippet is None else text[:text.index(snippet)].count("\n") + 1


@pytest.mark.parametrize("text, message, line", bad_files())
def test_a_refused_file_changes_nothing(app, text, message, line):
    with app.app_context():
        import_tournament(db.get_session(), json.dumps(quadrettes_file()))
    before = row_counts(app)
    with app.app_context():
        with pytest.raises(TournamentError, match=re.escape(message)) as error:
            import_tournament(db.get_session(), text)
    assert error.value.line == line_of(text, line)
    assert row_counts(app) == before


def test_a_database_refusal_rolls_back_the_savepoint(session, monkeypatch):
    from sqlalchemy.exc import IntegrityError

    from duplicate import interchange

    ops.create_tournament(session, name="Déjà là", kind="individual")
    real = interchange._create

    def failing(session, data):
        real(session, data)
        raise IntegrityError("INSERT", {}, Exception("contrainte"))
    monkeypatch.setattr(interchange, "_create", failing)
    with pytest.raises(TournamentError, match="ne peut pas être enregistré"):
        import_tournament(session, json.dumps(quadrettes_file()))
    assert [t.name for t in ops.list_tournaments(session)] == ["Déjà là"]
    assert session.exec(select(func.count()).select_from(models.Player)).one() == 0


def test_export_of_a_tournament_built_in_the_database(session):
    tournament = ops.create_tournament(session, name="Club", kind="triplettes", colour="bleu")
    for t in range(2):
        ids = [ops.register_player(session, tournament, licence=f"{t}{i}", surname=f"NOM{t}{i}", first_name="A",
                                   club="C").id for i in range(3)]
        ops.form_team(session, tournament, name=f"T{t}", player_ids=ids)
    ops.draw_places(session, tournament, seed="s")
    exported = export_tournament(session, tournament)
    assert exported["format"] == "tarot-tournament/1" and exported["colour"] == "bleu"
    assert "date" not in exported and "results" not in exported
    first_player = ops.players(session, tournament)[0]
    assert exported["players"][0] == {"id": f"joueur-{first_player.id}", "name": "NOM00 A", "licence": "00",
                                      "club": "C"}
    assert sorted(team["id"] for team in exported["teams"]) == ["EW1", "NS1"]
    assert all(len(team["members"]) == 3 and team["first_colour"] for team in exported["teams"])
    copy = import_tournament(session, json.dumps(exported))
    assert export_tournament(session, copy) == exported


# --- command line ------------------------------------------------------------------------------------------

def test_cli_import_export(app, runner, tmp_path):
    path = tmp_path / "tournoi.json"
    original = individual_file()
    path.write_text(one_per_line(original), encoding="utf-8")
    result = runner.invoke(args=["import", str(path)])
    assert result.exit_code == 0, result.output
    tournament_id = int(result.stdout.strip().splitlines()[-1])
    exported = runner.invoke(args=["export", str(tournament_id)])
    assert exported.exit_code == 0
    assert json.loads(exported.stdout) == original
    missing = runner.invoke(args=["export", "999"])
    assert missing.exit_code == 1 and "Tournoi n° 999 introuvable" in missing.stderr


def test_cli_import_refuses_a_bad_file_and_changes_nothing(app, runner, tmp_path):
    path = tmp_path / "mauvais.json"
    text, message, snippet = bad_files()[0]
    path.write_text(text, encoding="utf-8")
    before = row_counts(app)
    result = runner.invoke(args=["import", str(path)])
    assert result.exit_code == 1
    assert f"Erreur : ligne {line_of(text, snippet)} : " in result.stderr and message in result.stderr
    assert row_counts(app) == before
    path.write_bytes(b"\xff\xfe{}")
    result = runner.invoke(args=["import", str(path)])
    assert result.exit_code == 1 and "UTF-8" in result.stderr


def test_cli_create_arbiter(app, runner):
    result = runner.invoke(args=["create-arbiter", "--username", "arbitre", "--password", "secret-123"])
    assert result.exit_code == 0, result.output
    assert "Arbitre « arbitre » créé." in result.stdout
    prompted = runner.invoke(args=["create-arbiter"], input="marie\nmotdepasse\nmotdepasse\n")
    assert prompted.exit_code == 0, prompted.output
    again = runner.invoke(args=["create-arbiter", "--username", "arbitre", "--password", "secret-456"])
    assert again.exit_code == 1 and "déjà pris" in again.stderr
    with app.app_context():
        session = db.get_session()
        users = session.exec(select(models.User).order_by(models.User.id)).all()
        assert [(u.username, u.role) for u in users] == [("arbitre", "arbiter"), ("marie", "arbiter")]
        assert ops.authenticate(session, "marie", "motdepasse") is users[1]
        assert "motdepasse" not in users[1].password_hash


def test_evening_marks_reach_the_rows_and_the_ranking(session):
    tournament = import_tournament(session, json.dumps(evening_file()))
    players = {p.entrant_id: p for p in ops.players(session, tournament)}
    assert (players["S2"].out_of_ranking, players["E2"].withdrawn_from, players["N1"].out_of_ranking) == (True, 1, False)
    rows = {row["id"]: row for row in ops.ranking(session, tournament)["ranking"]}
    assert rows["S2"]["rank"] is None and rows["X1"]["out_of_ranking"] and rows["S4"]["rank"] is None
    assert rows["E2"]["withdrawn"] == {"position": 1}
    assert max(r["rank"] for r in rows.values() if r["rank"]) == rows["E2"]["rank"]
