"""Use cases (duplicate.operations) on SQLite and PostgreSQL: each operation, its French refusals,
optimistic locking, and rankings equal to what the core computes from the exported file."""

import datetime
import json

import pytest
from sqlmodel import Session, func, select

from duplicate import db, operations as ops
from duplicate.core.deals import deals_to_json, generate_boards
from duplicate.core.tournament import load_tournament, ranking_output
from duplicate.interchange import export_tournament
from duplicate.models import Board, Player, Result, ResultHistory, Team, TeamMember, Tournament, TournamentKind, User


@pytest.fixture
def session(app):
    with app.app_context():
        yield db.get_session()


def count(session, model):
    return session.exec(select(func.count()).select_from(model)).one()


def individual(session, players=8, name="Essai", seed="tirage"):
    tournament = ops.create_tournament(session, name=name, kind="individual", date=datetime.date(2026, 5, 2))
    for i in range(players):
        ops.register_player(session, tournament, licence=f"07{i:05d}", surname=f"NOM{i}", first_name="Jean",
                            club="Club")
    if seed:
        ops.draw_places(session, tournament, seed=seed)
    return tournament


def team_tournament(session, kind, teams, size):
    tournament = ops.create_tournament(session, name=f"Essai {kind}", kind=kind)
    for t in range(teams):
        ids = [ops.register_player(session, tournament, licence=f"{t}{i}", surname=f"NOM{t}{i}", first_name="A",
                                   club="").id for i in range(size)]
        ops.form_team(session, tournament, name=f"Équipe {t}", player_ids=ids)
    return tournament


def seated(table):
    return {"taker": f"N{table}", "defenders": [f"S{table}", f"E{table}", f"W{table}"]}


# --- tournaments ----------------------------------------------------------------------------------------

def test_create_list_get_tournament(session):
    first = ops.create_tournament(session, name=" Open de Lyon ", kind="triplettes", date=datetime.date(2026, 3, 1),
                                  place="Salle des fêtes", colour="vert", sessions=2)
    undated = ops.create_tournament(session, name="Sans date", kind="individual")
    later = ops.create_tournament(session, name="Plus tard", kind="quadrettes", date=datetime.date(2026, 4, 1))
    assert first.name == "Open de Lyon" and first.colour == "vert" and first.sessions == 2
    assert first.version_id == 1 and first.settings == {}
    assert ops.list_tournaments(session) == [later, first, undated]
    assert ops.get_tournament(session, first.id) is first
    with pytest.raises(ops.NotFound, match="introuvable"):
        ops.get_tournament(session, 999)


@pytest.mark.parametrize("kwargs, field, message", [
    ({"name": "  ", "kind": "individual"}, "name", "Le nom du tournoi est obligatoire"),
    ({"name": "X", "kind": "libre"}, "kind", "Formule inconnue « libre »"),
    ({"name": "X", "kind": "individual", "sessions": 0}, "sessions", "séances"),
])
def test_create_tournament_refusals(session, kwargs, field, message):
    with pytest.raises(ops.OperationError, match=message) as error:
        ops.create_tournament(session, **kwargs)
    assert error.value.field == field
    assert count(session, Tournament) == 0


def test_tournament_version_increments_on_update(session):
    tournament = ops.create_tournament(session, name="X", kind="individual")
    ops.generate_boards(session, tournament, count=4, seed="s")
    assert tournament.version_id == 2


# --- players --------------------------------------------------------------------------------------------

def test_register_player(session):
    tournament = ops.create_tournament(session, name="X", kind="individual")
    player = ops.register_player(session, tournament, licence=" 0123456 ", surname="DUPONT", first_name="Jean",
                                 club="Tarot Club")
    assert (player.licence, player.name, player.entrant_id, player.club) == ("0123456", "DUPONT Jean", None,
                                                                            "Tarot Club")
    assert len(player.token) >= 32
    guest = ops.register_player(session, tournament, licence="", surname="INVITÉ", first_name="Paul", club="")
    assert guest.licence is None and guest.club is None and guest.token != player.token
    with pytest.raises(ops.OperationError, match="déjà inscrite") as error:
        ops.register_player(session, tournament, licence="0123456", surname="X", first_name="Y", club="")
    assert error.value.field == "licence"
    with pytest.raises(ops.OperationError, match="Le prénom est obligatoire") as error:
        ops.register_player(session, tournament, licence="", surname="X", first_name="", club="")
    assert error.value.field == "first_name"


@pytest.mark.parametrize("text", [
    "\ufeffLicence;Nom;Prénom;Club\n0123;DUPONT;Jean;Lyon\n0124;MARTIN;Claire;\n\n",
    "licence,surname,first_name,club\r\n0123,DUPONT,Jean,Lyon\r\n0124,MARTIN,Claire,\r\n",
    "0123;DUPONT;Jean;Lyon\n0124;MARTIN;Claire;\n",
    "Nom;Prénom;Licence;Club\nDUPONT;Jean;0123;Lyon\nMARTIN;Claire;0124;\n",
    "\ufeffLicence;Nom;Prénom;Club\n0123;DUPONT;Jean;Lyon\n0124;MARTIN;Claire;\n".encode("utf-8"),
])
def test_import_players_csv(session, text):
    tournament = ops.create_tournament(session, name="X", kind="individual")
    added = ops.import_players_csv(session, tournament, text)
    assert [(p.licence, p.surname, p.first_name, p.club) for p in added] == [
        ("0123", "DUPONT", "Jean", "Lyon"), ("0124", "MARTIN", "Claire", None)]
    assert count(session, Player) == 2


def test_import_players_csv_lists_every_error_and_adds_nothing(session):
    tournament = ops.create_tournament(session, name="X", kind="individual")
    ops.register_player(session, tournament, licence="0999", surname="DÉJÀ", first_name="Là", club="")
    text = ("Licence;Nom;Prénom;Club\n"
            "0123;DUPONT;Jean;Lyon\n"       # fine
            "0124;MARTIN;Lyon\n"            # 3 columns
            "0125;;Paul;Lyon\n"             # no surname
            "0999;BIS;Jean;Lyon\n"          # licence already registered
            "0123;TER;Jean;Lyon\n"          # licence twice in the file
            "01 26;ROUX;Anne;Lyon\n")       # bad licence
    with pytest.raises(ops.CsvImportError) as error:
        ops.import_players_csv(session, tournament, text)
    errors = error.value.errors
    assert [line for line, _ in errors] == [3, 4, 5, 6, 7]
    assert "3 colonnes au lieu de 4" in errors[0][1]
    assert "Le nom est obligatoire" in errors[1][1]
    assert "0999 est déjà inscrite" in errors[2][1] and "0123 est déjà inscrite" in errors[3][1]
    assert "invalide" in errors[4][1]
    assert "aucun joueur ajouté" in error.value.message and "ligne 3 :" in error.value.message
    assert count(session, Player) == 1


@pytest.mark.parametrize("text, message", [
    ("", "vide"), ("Nom;Prénom;Âge\nX;Y;3\n", "en-tête non reconnu"), (b"\xff\xfe", "vide"),
    ("Licence;Nom;Prénom;Club\n", "aucun joueur"), (b"\x81\x8d\x90", "UTF-8"),
])
def test_import_players_csv_bad_files(session, text, message):
    tournament = ops.create_tournament(session, name="X", kind="individual")
    with pytest.raises(ops.CsvImportError, match=message):
        ops.import_players_csv(session, tournament, text)
    assert count(session, Player) == 0


# --- teams and the draw ----------------------------------------------------------------------------------

def test_form_team_triplette_badges_and_refusals(session):
    tournament = ops.create_tournament(session, name="X", kind="triplettes")
    ids = [ops.register_player(session, tournament, licence="", surname=surname, first_name="A", club="").id
           for surname in ("ROUX", "ÉTIENNE", "BLANC", "ZOLA")]
    team = ops.form_team(session, tournament, name="", player_ids=ids[:3], line="ns")
    members = session.exec(select(TeamMember).where(TeamMember.team_id == team.id).order_by(TeamMember.order)).all()
    assert [m.badge for m in members] == ["Rouge", "Blanc", "Bleu"]  # BLANC, ÉTIENNE, ROUX
    assert team.name == "ROUX – ÉTIENNE – BLANC" and team.line == "NS"
    assert [p.surname for p in ops.team_members(session, team)] == ["ROUX", "ÉTIENNE", "BLANC"]
    with pytest.raises(ops.OperationError, match="Il faut 3 joueurs"):
        ops.form_team(session, tournament, name="Y", player_ids=[ids[3]])
    with pytest.raises(ops.OperationError, match="fait déjà partie d’une équipe"):
        ops.form_team(session, tournament, name="Y", player_ids=[ids[3], ids[0], ids[1]])
    solo = ops.create_tournament(session, name="Solo", kind="individual")
    with pytest.raises(ops.OperationError, match="individuel"):
        ops.form_team(session, solo, name="Y", player_ids=ids[:3])
    assert count(session, Team) == 1


def test_draw_places_individual_is_seeded_and_reproducible(session):
    first = individual(session, players=10, seed=None)
    assignments = ops.draw_places(session, first, seed="Open 2026")
    assert [a["entrant_id"] for a in assignments] == ["E1", "N1", "S1", "W1", "E2", "N2", "S2", "W2", "N3", "S3"]
    assert first.draw_seed == "Open 2026"
    assert all(a["table"] == int(a["entrant_id"][1:]) and a["line"] == a["entrant_id"][0] for a in assignments)
    again = individual(session, players=10, name="Bis", seed=None)
    same = ops.draw_places(session, again, seed="Open 2026")
    assert [(a["name"], a["entrant_id"]) for a in same] == [(a["name"], a["entrant_id"]) for a in assignments]
    other = ops.draw_places(session, again, seed="autre graine")
    assert [a["name"] for a in other] != [a["name"] for a in same]
    assert ops.table_count(session, first) == 2   # 10 players: 2 full tables, 2 at the relais (SPEC §7)


@pytest.mark.parametrize("kind, teams, size, ids", [
    ("triplettes", 4, 3, ["NS1", "EW1", "NS2", "EW2"]),
    ("quadrettes", 3, 4, ["Q1", "Q2", "Q3"]),
    ("team_match", 2, 4, ["A", "B"]),
])
def test_draw_places_teams(session, kind, teams, size, ids):
    tournament = team_tournament(session, kind, teams, size)
    assignments = ops.draw_places(session, tournament, seed="s")
    assert sorted(a["entrant_id"] for a in assignments) == sorted(ids)
    if kind == "triplettes":
        assert {t.first_colour for t in ops.teams(session, tournament)} <= {"Bleu", "Blanc", "Rouge"}
        assert {t.line for t in ops.teams(session, tournament)} == {"NS", "EW"}


def test_draw_needs_entrants_and_is_frozen_by_results(session):
    tournament = individual(session, players=3, seed=None)
    with pytest.raises(ops.OperationError, match="au moins 4 joueurs"):
        ops.draw_places(session, tournament)
    ops.register_player(session, tournament, licence="", surname="QUATRE", first_name="A", club="")
    ops.draw_places(session, tournament, seed="x")
    ops.record_result(session, tournament, board=1, table=1, score=56, **seated(1))
    with pytest.raises(ops.OperationError, match="résultats sont déjà saisis"):
        ops.draw_places(session, tournament, seed="y")


def test_place_by_hand(session):
    tournament = individual(session, players=4, seed=None)
    players = ops.players(session, tournament)
    ops.place_by_hand(session, tournament, [{"player_id": p.id, "entrant_id": e}
                                            for p, e in zip(players, ["n2", "S2", "E2", "W2"])])
    assert [(p.entrant_id, p.line, p.start_table) for p in players] == [
        ("N2", "N", 2), ("S2", "S", 2), ("E2", "E", 2), ("W2", "W", 2)]
    ops.place_by_hand(session, tournament, [{"player_id": players[0].id, "entrant_id": "S2"},
                                            {"player_id": players[1].id, "entrant_id": "N2"}])  # a swap
    assert (players[0].entrant_id, players[1].entrant_id) == ("S2", "N2")
    with pytest.raises(ops.OperationError, match="E2 donnée deux fois"):
        ops.place_by_hand(session, tournament, [{"player_id": players[0].id, "entrant_id": "E2"}])
    with pytest.raises(ops.OperationError, match="Place « NS1 » invalide"):
        ops.place_by_hand(session, tournament, [{"player_id": players[0].id, "entrant_id": "NS1"}])
    with pytest.raises(ops.OperationError, match="inconnu"):
        ops.place_by_hand(session, tournament, [{"player_id": 9999, "entrant_id": "N1"}])
    assert players[0].entrant_id == "S2"


# --- étuis --------------------------------------------------------------------------------------------------

def test_generate_boards_stores_deals_and_seed_hash(session):
    tournament = individual(session, seed=None)
    rows = ops.generate_boards(session, tournament, count=8, seed="club-2026")
    expected = [b.to_dict() for b in generate_boards(8, "club-2026")]
    assert [{"number": r.number, "dealer": r.dealer, "taker": r.taker, "hands": r.hands, "dog": r.dog}
            for r in rows] == [{k: e[k] for k in ("number", "dealer", "taker", "hands", "dog")} for e in expected]
    assert tournament.deal_seed == "club-2026" and len(tournament.seed_sha256) == 64
    again = ops.generate_boards(session, tournament, count=4, seed="autre")
    assert count(session, Board) == 4 and [b.number for b in again] == [1, 2, 3, 4]
    with pytest.raises(ops.OperationError, match="graine est obligatoire") as error:
        ops.generate_boards(session, tournament, count=4, seed=" ")
    assert error.value.field == "seed"


def test_import_deals(session):
    tournament = individual(session, seed=None)
    document = deals_to_json(generate_boards(4, "importées"), "importées")
    rows = ops.import_deals(session, tournament, json.dumps(document))
    assert [r.number for r in rows] == [1, 2, 3, 4] and rows[0].hands == document["boards"][0]["hands"]
    assert tournament.deal_seed == "importées"
    document["boards"][1]["dog"] = document["boards"][1]["dog"][:5]
    with pytest.raises(ops.OperationError, match="étui n° 2 : .*chien a 5 cartes"):
        ops.import_deals(session, tournament, document)
    with pytest.raises(ops.OperationError, match="JSON illisible"):
        ops.import_deals(session, tournament, "{")
    assert count(session, Board) == 4


def test_set_board_hands(session):
    tournament = individual(session, seed=None)
    deal = generate_boards(1, "diagrammes")[0].to_dict()
    hands = {seat: " ".join(cards) for seat, cards in deal["hands"].items()}
    board = ops.set_board_hands(session, tournament, 7, hands=hands, dog=deal["dog"], dealer="E", taker="s")
    assert (board.number, board.dealer, board.taker) == (7, "E", "S")
    assert board.hands == deal["hands"] and board.dog == deal["dog"]
    hands["N"] = hands["N"].replace(deal["hands"]["N"][0], deal["hands"]["S"][0])
    with pytest.raises(ops.OperationError, match="donne invalide") as error:
        ops.set_board_hands(session, tournament, 7, hands=hands, dog=deal["dog"])
    assert error.value.field == "hands"
    assert board.hands == deal["hands"]


# --- movement -----------------------------------------------------------------------------------------------

def test_choose_and_set_movement(session):
    from duplicate.core import movements  # written long ago: a missing module or function fails, never skips

    tournament = individual(session, players=20)
    movement = ops.choose_movement(session, tournament)
    assert movement.data["tables"] == 5 and movement.data == movements.generate("individual", 5).to_dict()
    ops.generate_boards(session, tournament, count=40, seed="s")
    takers = {board.number: board.taker for board in ops.boards(session, tournament)}
    movement = ops.choose_movement(session, tournament)
    assert all(item["taker"] == takers[item["number"]] for item in movement.data["boards"])
    from duplicate.demo import rainbow_movement
    data = rainbow_movement()
    # an arbiter's movement is kept, but who takes stays the seat on each étui's label
    data_on_etuis = {**data, "boards": [{**b, "taker": takers[b["number"]]} for b in data["boards"]]}
    assert ops.set_movement(session, tournament, json.dumps(data)).data == data_on_etuis
    with pytest.raises(ops.OperationError, match="pas pour ce tournoi"):
        ops.set_movement(session, tournament, {**data, "kind": "quadrettes"})
    broken = {**data, "rounds": [{**r, "boards": [1, 2, 3, 4]} for r in data["rounds"]]}
    with pytest.raises(ops.OperationError):
        ops.set_movement(session, tournament, broken)
    assert ops.get_movement(session, tournament).data == data_on_etuis


def test_readiness(session):
    tournament = ops.create_tournament(session, name="X", kind="individual")
    steps = ops.readiness(session, tournament)
    assert [step for step, _, _ in steps] == ["players", "draw", "boards", "deals", "movement"]
    assert not any(done for _, done, _ in steps)
    assert set(ops.STEP_LABELS) >= {step for step, _, _ in steps}
    for i in range(4):
        ops.register_player(session, tournament, licence="", surname=f"N{i}", first_name="A", club="")
    ops.draw_places(session, tournament, seed="x")
    ops.generate_boards(session, tournament, count=4, seed="x")
    done = {step: (ok, detail) for step, ok, detail in ops.readiness(session, tournament)}
    assert done["players"] == (True, "4 joueurs inscrits")
    assert done["draw"][0] and done["boards"][0] and done["deals"][0] and not done["movement"][0]
    teams = ops.create_tournament(session, name="T", kind="triplettes")
    assert [step for step, _, _ in ops.readiness(session, teams)][:2] == ["players", "teams"]


# --- results ------------------------------------------------------------------------------------------------

def test_record_result_checks_with_the_core_and_keeps_history(session):
    tournament = individual(session, players=8)
    result = ops.record_result(session, tournament, board=1, table=1, position=1, score=56, entered_by="marqueur",
                               **seated(1))
    assert (result.version_id, result.slot, result.entered_by) == (1, "table:1", "marqueur")
    with pytest.raises(ops.OperationError, match="Score \\+57 impossible pour une Garde") as error:
        ops.record_result(session, tournament, board=1, table=2, score=57, **seated(2))
    assert error.value.field == "score"
    with pytest.raises(ops.OperationError, match="Joueur inconnu « N9 »"):
        ops.record_result(session, tournament, board=1, table=2, score=56, taker="N9",
                          defenders=["S2", "E2", "W2"])
    with pytest.raises(ops.OperationError, match="« S1 » joue l’étui 1 une deuxième fois \\(déjà à la table 1\\)"):
        ops.record_result(session, tournament, board=1, table=2, score=56, taker="N2", defenders=["S1", "E2", "W2"])
    with pytest.raises(ops.OperationError, match="L’étui 1 a déjà un score à cette table \\(la table 1\\)"):
        ops.record_result(session, tournament, board=1, table=1, score=60, **seated(2))
    with pytest.raises(ops.OperationError, match="numéro d’étui est obligatoire"):
        ops.record_result(session, tournament, table=1, score=60, **seated(2))
    assert count(session, Result) == 1
    other = ops.record_result(session, tournament, board=1, table=2, score=-52, **seated(2))
    ops.annul_result(session, other, version_id=1, who="arbitre")
    ops.adjust_score(session, result, score=60, version_id=1, who="arbitre")
    history = ops.result_history(session, result)
    assert [(h.action, h.who) for h in history] == [("create", "marqueur"), ("adjust", "arbitre")]
    assert history[1].before["score"] == 56 and history[1].after == {**history[1].before, "score": 60,
                                                                       "adjusted": True}
    assert count(session, ResultHistory) == 4
    ops.set_arbitral_note(session, other, taker=60, defence=40, version_id=2)
    assert other.notes == {"taker": 60, "defence": 40} and other.version_id == 3
    with pytest.raises(ops.OperationError, match="entre 0 et 100"):
        ops.set_arbitral_note(session, other, taker=160, defence=40, version_id=3)


def test_stale_version_from_a_form_is_refused(session):
    tournament = individual(session, players=4)
    result = ops.record_result(session, tournament, board=1, table=1, score=56, **seated(1))
    ops.update_result(session, result, version_id=1, who="a", score=58)
    with pytest.raises(ops.ConflictError, match="modifié entre-temps"):
        ops.update_result(session, result, version_id=1, who="b", score=60)
    assert result.score == 58


def test_optimistic_locking_between_two_sessions(app):
    engine = db.get_engine(app)
    with app.app_context():
        session = db.get_session()
        tournament = individual(session, players=4)
        result_id = ops.record_result(session, tournament, board=1, table=1, score=56, **seated(1)).id
    first = Session(engine, expire_on_commit=False)
    second = Session(engine, expire_on_commit=False)
    try:
        stale = first.get(Result, result_id)
        first.commit()  # the form is shown; the read transaction ends
        fresh = second.get(Result, result_id)
        ops.update_result(second, fresh, version_id=1, who="b", score=60)
        second.commit()
        assert stale.version_id == 1  # what the first scorer's form was built from
        with pytest.raises(ops.ConflictError, match="vient d’être modifié"):
            ops.update_result(first, stale, version_id=1, who="a", score=62)
        first.rollback()
    finally:
        first.close()
        second.close()
    with Session(engine) as check:
        assert check.get(Result, result_id).score == 60


def test_team_match_results_are_one_per_room(session):
    tournament = team_tournament(session, "team_match", 2, 4)
    ops.draw_places(session, tournament, seed="s")
    ops.record_result(session, tournament, board=1, table=1, quarter=1, room="open", contract="garde_sans",
                      taker_team="A", defence_team="B", score=136)
    ops.record_result(session, tournament, board=1, table=2, quarter=1, room="closed", contract="garde",
                      taker_team="B", defence_team="A", score=56)
    with pytest.raises(ops.OperationError, match="déjà un score"):
        ops.record_result(session, tournament, board=1, table=3, quarter=1, room="open", contract="garde",
                          taker_team="A", defence_team="B", score=56)
    with pytest.raises(ops.OperationError, match="contrat est Garde, Garde Sans ou Garde Contre"):
        ops.record_result(session, tournament, board=2, table=1, quarter=1, room="open", contract="prise",
                          taker_team="A", defence_team="B", score=56)
    assert [row["id"] for row in ops.ranking(session, tournament)["ranking"]] == ["A", "B"]


def test_penalties(session):
    tournament = individual(session, players=4)
    penalty = ops.add_penalty(session, tournament, entrant_id="N1", points=2.5, reason="Retard", created_by="arb")
    assert penalty.points == 2.5
    with pytest.raises(ops.OperationError, match="« N7 » inconnu"):
        ops.add_penalty(session, tournament, entrant_id="N7", points=1, reason="x")
    with pytest.raises(ops.OperationError, match="positif"):
        ops.add_penalty(session, tournament, entrant_id="N1", points=-1, reason="x")
    with pytest.raises(ops.OperationError, match="motif"):
        ops.add_penalty(session, tournament, entrant_id="N1", points=1, reason=" ")
    ops.record_result(session, tournament, board=1, table=1, score=56, **seated(1))
    n1 = next(row for row in ops.ranking(session, tournament)["ranking"] if row["id"] == "N1")
    assert n1["penalty"] == 2.5 and n1["global"] == 47.5
    ops.remove_penalty(session, tournament, penalty.id)
    with pytest.raises(ops.NotFound):
        ops.remove_penalty(session, tournament, penalty.id)


def test_ranking_is_the_core_ranking_of_the_export(session):
    tournament = individual(session, players=12)
    for table, score in ((1, 56), (2, 62), (3, -56)):
        ops.record_result(session, tournament, board=1, table=table, position=1, score=score, **seated(table))
    core = ops.to_core(session, tournament)
    assert core.kind == "individual" and len(core.results) == 3
    output = ops.ranking(session, tournament)
    assert output == ranking_output(load_tournament(json.dumps(export_tournament(session, tournament))))
    assert [row["taker_note"] for row in output["boards"][0]["results"]] == [50.0, 100.0, 0.0]


# --- users --------------------------------------------------------------------------------------------------

def test_passwords_are_hashed_with_scrypt_in_production_pbkdf2_one_round_in_the_tests(app, session):
    """`config.Config` (production) hashes with scrypt; `config.TestConfig` with one PBKDF2 round (issue 32:
    0.27 s of scrypt per account was a large part of the suite); outside an application context, scrypt.
    Either hash is checked by the method written in it."""
    import threading

    from duplicate import config
    from duplicate.operations import _users

    assert config.Config.PASSWORD_HASH_METHOD == "scrypt"
    outside = []  # a thread has no application context
    thread = threading.Thread(target=lambda: outside.append(_users.hash_method()))
    thread.start()
    thread.join()
    assert outside == ["scrypt"]
    cheap = ops.create_user(session, "essai", "motdepasse", "arbiter")  # `session` is in the app's context
    assert cheap.password_hash.startswith("pbkdf2:sha256:1$")
    app.config["PASSWORD_HASH_METHOD"] = config.Config.PASSWORD_HASH_METHOD
    production = ops.create_user(session, "production", "motdepasse", "arbiter")
    assert production.password_hash.startswith("scrypt:")
    assert ops.authenticate(session, "personne", "motdepasse") is None  # checked against scrypt's dummy hash
    assert _users._dummy_hash().startswith("scrypt:")
    for name in ("essai", "production"):
        assert ops.authenticate(session, name, "motdepasse").username == name
        assert ops.authenticate(session, name, "mauvais") is None
    ops.set_password(session, cheap, "autremotdepasse")
    assert cheap.password_hash.startswith("scrypt:") and ops.authenticate(session, "essai", "autremotdepasse")


def test_create_user_and_authenticate(session):
    user = ops.create_user(session, "arbitre", "motdepasse", "arbiter")
    assert user.role == "arbiter" and "motdepasse" not in user.password_hash
    assert ops.authenticate(session, "arbitre", "motdepasse") is user
    assert ops.authenticate(session, "arbitre", "mauvais") is None
    assert ops.authenticate(session, "personne", "motdepasse") is None
    for args, field in ((("arbitre", "autremotdepasse", "scorer"), "username"),
                        (("marqueur", "court", "scorer"), "password"),
                        (("marqueur", "motdepasse", "roi"), "role"), (("x", "motdepasse", "scorer"), "username")):
        with pytest.raises(ops.OperationError) as error:
            ops.create_user(session, *args)
        assert error.value.field == field
    assert count(session, User) == 1


@pytest.mark.parametrize("players, tables, resting", [(26, 6, ["N7", "S7"]), (29, 7, ["N8"])])
def test_relais_headcount_fiches_expect_only_playing_tables(session, players, tables, resting):
    """26 players: 6 full tables and 2 at the relais per position (not 7 tables with phantom seats);
    every fiche line names registered players, and once every line is in no fiche is incomplete."""
    tournament = individual(session, players=players)
    assert ops.table_count(session, tournament) == tables
    ops.generate_boards(session, tournament, count=4 * tables, seed="relais")
    movement = ops.choose_movement(session, tournament)
    data = movement.data
    assert data["players"] == players and data["rests"][0] == {"position": 1, "entrants": resting}
    lines = ops.all_lines(session, tournament)
    assert len(lines) == tables * 4 * data["positions"]
    ids = {p.entrant_id for p in ops.players(session, tournament)}
    assert all(line.taker in ids and set(line.defence) <= ids for line in lines)
    for line in lines:
        ops.record_result(session, tournament, score=56, **line.fields(TournamentKind.individual))
    assert ops.progress(session, tournament)["missing"] == []
    ops.ranking(session, tournament)


def test_odd_triplettes_expect_no_line_against_the_phantom(session):
    """5 triplettes on 3 tables: at each position the triplette facing the phantom sits out (« relâche »);
    the fiches expect only the lines of the two tables that play, so scoring can be complete."""
    tournament = team_tournament(session, "triplettes", 5, 3)
    ops.draw_places(session, tournament, seed="tirage")
    movement = ops.choose_movement(session, tournament)
    count = max(b for r in movement.data["rounds"] for b in r["boards"])
    ops.generate_boards(session, tournament, count=count, seed="s")
    placed = {team.entrant_id for team in ops.teams(session, tournament)}
    lines = ops.all_lines(session, tournament)
    positions = {r["position"] for r in movement.data["rounds"]}
    assert len(placed) == 5 and len(lines) == 2 * 4 * len(positions)   # 2 tables × 4 étuis per position
    assert all({line.taker, *line.defence} <= placed for line in lines)
    for line in lines:
        ops.record_result(session, tournament, **line.fields(TournamentKind.triplettes), score=56)
    assert ops.completeness(session, tournament) == {"complete": True, "missing": 0}


def test_progress_from_light_rows_counts_as_the_lines_do(session):
    """`progress` without lines (light rows, no result objects) counts what it counts from `all_lines`:
    every line of the movement expected, the 3 lines entered on étui 1, étui 1 still incomplete."""
    tournament = individual(session, players=24)
    ops.generate_boards(session, tournament, count=24, seed="progres")
    ops.choose_movement(session, tournament)
    lines = ops.all_lines(session, tournament)
    for line in [line for line in lines if line.board == 1][:3]:
        ops.record_result(session, tournament, score=56, **line.fields(TournamentKind.individual))
    light = ops.progress(session, tournament)
    assert light == ops.progress(session, tournament, ops.all_lines(session, tournament))
    assert (light["lines"], light["entered"]) == (len(lines), 3) and 1 in light["missing"]
