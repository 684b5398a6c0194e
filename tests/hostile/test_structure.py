"""Issue 14, point 5: structure checks on a tournament file (``rank``, ``import``) and on entry. Each file
below was accepted before (or, for the team match by room, refused); each refusal names its line and
the entry (« résultat n° 2 », « pénalité n° 1 »)."""

from __future__ import annotations

import json

import pytest
from sqlmodel import Session

from hostile_files import assert_clean_refusal, individual, line_of, one_per_line, rank, team_match, triplettes

from duplicate import db, operations
from duplicate.core.tournament import TournamentError, load_tournament


def _result(data, index, **changes):
    data["results"][index].update(changes)
    return data


def _cases():
    note = lambda value: _result(individual(), 1, score=None, notes={"taker": value, "defence": 50})  # noqa: E731
    moved = individual(boards=[{"number": 1, "taker": "N"}, {"number": 2, "taker": "S"}, {"number": 3, "taker": "N"}])
    moved["results"].append({"board": 3, "table": 2, "position": 1, "taker": "N1", "defenders": ["S2", "E2", "W2"],
                             "score": 56})  # N1 at table 1 too in position 1
    same_line = _result(individual(), 0, defenders=["N2", "E1", "W1"])
    against = _result(individual(), 0, taker="E1", defenders=["N1", "S1", "W1"])
    three = team_match(teams=team_match()["teams"] + [{"id": "C", "members": []}])
    twice = triplettes()
    twice["teams"][1]["members"] = ["p0", "p4", "p5"]
    ns_ns = _result(triplettes(), 0, defence_team="NS2")
    ns_ns["results"] = ns_ns["results"][:1]
    return [  # (id, file, fragment of the message, snippet of the faulty line)
        ("note 150", note(150), "hors de 0 à 100", '"taker": 150'),
        ("note -50", note(-50), "hors de 0 à 100", '"taker": -50'),
        ("penalty unknown étui", individual(penalties=[{"player": "N1", "points": 2, "board": 9}]),
         "pénalité n° 1 : « N1 » n’a pas joué l’étui « 9 » (absent de « boards »)", '"board": 9'),
        ("penalty étui not played", individual(boards=[{"number": n} for n in (1, 2, 3)],
                                               penalties=[{"player": "N1", "points": 2, "board": 3}]),
         "n’a pas joué l’étui « 3 »", '"board": 3'),
        ("quarter 9", _result(team_match(), 0, quarter=9), "« quarter » doit être un nombre entier de 1 à 4",
         '"quarter": 9'),
        ("three teams", three, "un match par équipes oppose deux équipes, pas 3", '"id": "C"'),
        ("player in two teams", twice, "« p0 » est déjà membre de l’équipe « NS1 »", '"id": "EW1"'),
        ("taker against his line", against, "le preneur « E1 » est en ligne E, l’étui 1 se prend en N",
         '"taker": "E1"'),
        ("two of one line", same_line, "deux joueurs de la même ligne", '"N2", "E1"'),
        ("line X", individual(players=[dict(p, line="X") if p["id"] == "N1" else p
                                       for p in individual()["players"]]), "ligne « X » inconnue", '"line": "X"'),
        ("two tables in one position", moved, "« N1 » est aussi à la table 1 en position 1", '"board": 3'),
        ("NS1 against NS2", ns_ns, "deux triplettes de la ligne NS", '"defence_team": "NS2"'),
        ("board true", _result(individual(), 1, board=True), "« board » et « table »", '"board": true'),
        ("empty", {"format": "tarot-tournament/1", "kind": "individual", "players": []}, "tournoi vide",
         '"players"'),
        ("unknown format", individual(format="tarot-tournament/9"), "format « tarot-tournament/9 » inconnu",
         '"format"'),
        ("id with a newline", individual(players=[{"id": "N1\"\r\nX-Evil: 1", "line": "N"}]),
         "identifiant « N1\"\\r\\nX-Evil: 1 » invalide", '"id"'),
    ]


CASES = _cases()


@pytest.mark.parametrize("data, message, snippet", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_rank_refuses_a_wrong_structure_naming_its_line(tmp_path, data, message, snippet):
    text = one_per_line(data)
    line = assert_clean_refusal(rank(tmp_path, text), message)
    with pytest.raises(TournamentError) as error:
        load_tournament(text)
    assert error.value.line == line_of(text, snippet), (line, snippet)


def test_the_same_files_are_refused_by_import(app, tmp_path, runner):
    for name, data, message, _snippet in CASES:
        path = tmp_path / "t.json"
        path.write_text(one_per_line(data), encoding="utf-8")
        result = runner.invoke(args=["import", str(path)])
        assert result.exit_code == 1 and message in result.output, (name, result.output)


def test_the_valid_files_are_accepted(tmp_path):
    for data in (individual(), triplettes(), team_match()):
        result = rank(tmp_path, json.dumps(data))
        assert result.exit_code == 0, result.stderr


def test_a_penalty_on_an_etui_not_played_is_refused_at_entry(app):
    """On entry too: the arbiter's per-étui penalty names an étui the entrant played (it was kept, then
    silently dropped from the ranking)."""
    from factories import demo_tournament

    with Session(db.get_engine(app)) as session:
        tournament = demo_tournament(session)
        with pytest.raises(operations.OperationError, match="n’a pas de résultat sur l’étui 999"):
            operations.add_penalty(session, tournament, entrant_id="N1", points=1, reason="bruit", board=999)
        played = next(r for r in operations.results(session, tournament) if r.taker == "N1").board
        operations.add_penalty(session, tournament, entrant_id="N1", points=1, reason="bruit", board=played)
