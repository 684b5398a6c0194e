"""Relais in the evening (SPEC §7, issue 11 point 2): 26 players, six full tables, N7 and S7 at the
relais at the first position.  Expected values come from the rule: a resting player's position shows
« relais » on the draw, the personal card, the guide card and the route sheet (screen and PDF)."""

import datetime
import re
import sys
import pathlib

import pytest

from duplicate import db, operations as ops
from duplicate.operations._deals import board_takers
from duplicate.interchange import export_tournament
from duplicate.printing import render_kind

sys.path.insert(0, str(pathlib.Path(__file__).parent / "printing"))
from print_helpers import pdf_text  # noqa: E402


@pytest.fixture
def session(app):
    with app.app_context():
        yield db.get_session()


def relais_evening(session, players=26, positions=2):
    tournament = ops.create_tournament(session, name="Relais", kind="individual", date=datetime.date(2026, 5, 2))
    for i in range(players):
        ops.register_player(session, tournament, licence=f"07{i:05d}", surname=f"NOM{i}", first_name="Jean", club="Club")
    ops.draw_places(session, tournament, seed="relais")
    movement = ops.choose_movement(session, tournament, positions=positions)
    ops.generate_boards(session, tournament, count=len(movement.data["boards"]), seed="relais")
    return tournament


def enter_position(session, tournament, position):
    """Every table's first étui of ``position``, the taker at the étui's seat, Garde +56."""
    takers = board_takers(session, tournament)
    for r in ops.get_movement(session, tournament).data["rounds"]:
        if r["position"] == position:
            board = r["boards"][0]
            taker = r["seats"][takers[board]]
            ops.record_result(session, tournament, board=board, table=r["table"], position=position, score=56,
                              taker=taker, defenders=[w for s, w in r["seats"].items() if w != taker])


def squeeze(text):
    return re.sub(r"\s+", " ", text)


def test_resting_players_show_relais_on_cards_and_route_sheets(session):
    tournament = relais_evening(session)
    data = ops.get_movement(session, tournament).data
    assert data["players"] == 26 and data["rests"][0] == {"position": 1, "entrants": ["N7", "S7"]}
    second = data["rests"][1]["entrants"]
    enter_position(session, tournament, 1)
    export, ranking = export_tournament(session, tournament), ops.ranking(session, tournament)

    pdfs = {"cards": render_kind("movement-cards", export, entrants=["N7"]),
            "guide": render_kind("guide-cards", export, tables=[1]),
            "sheets": render_kind("route-sheets", export, ranking, entrants=["N7", "N1"])}
    cards = pdf_text(pdfs["cards"])
    assert re.search(r"1re +relais", cards)                 # N7: relais at the 1st position
    assert re.search(r"2e +\d+ +[A-Z]+ +\d", cards)         # then a table, an orientation, étuis

    guide = squeeze(pdf_text(pdfs["guide"], layout=False))
    assert f"Au relais (sans table) : 1re position : N7, S7 ; 2e position : {', '.join(second).replace('W', 'O')}" in guide

    sheets = squeeze(pdf_text(pdfs["sheets"]))
    assert sheets.count("relais (pas de table à cette position)") == 1   # N7 at position 1; position 2 not played

    screen = _screen_sheet(session, tournament, "N7")
    assert [(row["position"], row["role"]) for row in screen["rows"]] == [(1, "relais")]
    assert all(not row.get("relais") for row in _screen_sheet(session, tournament, "N1")["rows"])


def test_one_asked_feuille_de_route_is_that_of_the_whole_set(session):
    """The private page builds only its entrant's rows and standing (`route_sheets_view(entrants=[…])`, issue
    12: 600 players open their sheet during play): each sheet asked alone — a relais player (N7), one who
    played both positions' étuis (N1), a defender (E3) — must be exactly his sheet among all of them."""
    from duplicate.view_models import route_sheets_view

    tournament = relais_evening(session)
    enter_position(session, tournament, 1)
    whole = {item["id"]: item for item in route_sheets_view(*ops.route_sheet_data(session, tournament))["items"]}
    assert len(whole) == 26
    for who in ("N7", "N1", "E3"):
        alone = _screen_sheet(session, tournament, who)
        assert alone == whole[who] and alone["rows"]


def _screen_sheet(session, tournament, who):
    """The feuille de route the private page shows (`view_models.route_sheets_view`)."""
    from duplicate.view_models import route_sheets_view
    return route_sheets_view(*ops.route_sheet_data(session, tournament), entrants=[who])["items"][0]


def test_a_supplied_movement_without_the_relais_is_refused(session):
    from duplicate.core.movements import generate

    tournament = relais_evening(session)
    kept = ops.get_movement(session, tournament).data
    six_tables = generate("individual", 6, 2).to_dict()          # 24 players: N7 and S7 nowhere
    with pytest.raises(ops.OperationError) as error:
        ops.set_movement(session, tournament, six_tables)
    assert "Mouvement refusé" in error.value.message and "N7" in error.value.message
    assert "ni placé ni au relais" in error.value.message
    assert ops.get_movement(session, tournament).data == kept       # nothing changed
    ops.set_movement(session, tournament, generate("individual", None, 2, players=26).to_dict())


def _late(session, tournament, surname="RETARD"):
    return ops.add_late_player(session, tournament, licence="0799999", surname=surname, first_name="Paul",
                               club="Club", who="arbitre")


def test_a_late_arrival_takes_e7_rests_at_position_1_and_plays_from_position_2(session):
    """26 players, position 1 entered: 26 → 27 keeps the six tables of position 1 (the relais add no
    table), so the newcomer gets the next relais id E7 (N7, S7, E7), rests at position 1 with N7 and S7
    and, like every relais player, plays from position 2."""
    tournament = relais_evening(session)
    enter_position(session, tournament, 1)
    entered = [(l.board, l.table, l.position, l.taker, l.result.score) for l in ops.all_lines(session, tournament)
               if l.result is not None]
    assert len(entered) == 6
    player = _late(session, tournament)
    data = ops.get_movement(session, tournament).data
    assert player.entrant_id == "E7" and player.line == "E"
    assert data["players"] == 27 and data["positions"] == 2
    assert data["rests"][0] == {"position": 1, "entrants": ["N7", "S7", "E7"]}
    assert "E7" not in data["rests"][1]["entrants"]
    assert [(l.board, l.table, l.position, l.taker, l.result.score) for l in ops.all_lines(session, tournament)
            if l.result is not None] == entered                        # the results are kept, on their lines
    at_two = [r for r in data["rounds"] if r["position"] == 2 and "E7" in r["seats"].values()]
    assert len(at_two) == 1
    fiche = [line for line in ops.table_round(session, tournament, 2, at_two[0]["table"]) if line.in_movement]
    assert fiche and all("E7" in (line.taker, *line.defence) for line in fiche)
    assert [(row["position"], row["role"]) for row in _screen_sheet(session, tournament, "E7")["rows"]] == [(1, "relais")]
    entry = ops.journal_entries(session, tournament)[-1]
    assert entry.action == "player.late" and entry.who == "arbitre"
    assert entry.summary == "Arrivée en retard : RETARD Paul placé en E7 (au relais à la 1re position)"
    assert entry.after["place"] == "E7" and entry.after["joueurs"] == 27


def test_a_late_arrival_that_changes_the_tables_is_refused_and_changes_nothing(session):
    """27 → 28 players: 7 full tables, no relais; table 7 (N7, S7, E7 and the newcomer W7) would have to
    play position 1 after the others, with étuis 25 to 28 that were never prepared: refused, no player, no
    journal entry, same movement."""
    tournament = relais_evening(session, players=27)
    enter_position(session, tournament, 1)
    kept, people = ops.get_movement(session, tournament).data, len(ops.players(session, tournament))
    journal = len(ops.journal_entries(session, tournament))
    with pytest.raises(ops.OperationError) as error:
        _late(session, tournament)
    message = error.value.message
    assert message.startswith("27 → 28 joueurs : le mouvement passe de 6 à 7 tables")
    assert "ajoutez plutôt un joueur de complément" in message
    assert ops.get_movement(session, tournament).data == kept
    assert len(ops.players(session, tournament)) == people
    assert len(ops.journal_entries(session, tournament)) == journal


def test_a_late_arrival_after_position_1_is_refused(session):
    tournament = relais_evening(session)
    enter_position(session, tournament, 1)
    enter_position(session, tournament, 2)
    with pytest.raises(ops.OperationError, match="position 2 ou suivante"):
        _late(session, tournament)
    assert len(ops.players(session, tournament)) == 26


def test_a_team_tournament_has_no_late_arrival(session):
    tournament = ops.create_tournament(session, name="Q", kind="quadrettes", date=datetime.date(2026, 5, 2))
    with pytest.raises(ops.OperationError, match="individuel seulement"):
        _late(session, tournament)


def test_a_movement_change_is_allowed_when_it_contradicts_no_entered_result(session):
    """Position 1 entered: the same movement again is accepted; one where the players of table 1 turn by
    one seat at position 1 puts another player at étui 1's taker seat: refused, nothing changed."""
    import copy

    tournament = relais_evening(session)
    enter_position(session, tournament, 1)
    data = ops.get_movement(session, tournament).data
    ops.set_movement(session, tournament, data)
    swapped = copy.deepcopy(data)
    one = next(r for r in swapped["rounds"] if r["position"] == 1 and r["table"] == 1)
    one["seats"] = dict(zip("NSEW", [one["seats"][s] for s in "WNSE"]))
    with pytest.raises(ops.OperationError) as error:
        ops.set_movement(session, tournament, swapped)
    assert "les résultats déjà saisis de la position 1 ne s’y retrouvent pas (étui 1 à la table 1)" \
        in error.value.message
    assert ops.get_movement(session, tournament).data == data


def enter_all(session, tournament, score_at):
    """Every line of the movement, the taker at the étui's seat, ``score_at[position]``."""
    takers = board_takers(session, tournament)
    for r in ops.get_movement(session, tournament).data["rounds"]:
        for board in r["boards"]:
            taker = r["seats"][takers[board]]
            ops.record_result(session, tournament, board=board, table=r["table"], position=r["position"],
                              score=score_at[r["position"]], taker=taker,
                              defenders=[w for w in r["seats"].values() if w != taker])


def test_percentages_are_over_the_etuis_played(session):
    """SPEC §7 relais: a resting player's percentages are over the étuis he played, not over all.

    26 players, 6 tables, 2 positions, 4 étuis per table and position: every étui is played twice,
    once at position 1 (score +56) and once at position 2 (score −56).  Topage with n = 2 (SPEC §4):
    the better taker 100, the other 0; defenders 100 − the taker's note.  So an étui played at
    position 1 gives its taker 100 and its defenders 0, at position 2 its taker 0 and its defenders 100.
    At a table the four étuis have the takers N, S, E, W once each: a player takes 1 étui and defends 3.

    * N7 rests at position 1, plays 4 étuis at position 2: attack = 0 (1 étui), defence = 100 (3
      étuis), global = ¼ × 0 + ¾ × 100 = 75.  Counting the 4 rested étuis as zeros would give
      attack 0 over 2, defence 300 / 6 = 50, global 37,5: not what the rule says.
    * a player resting at position 2 plays only position 1: attack 100, defence 0, global 25.
    * a player who plays both positions: attack (100 + 0) / 2 = 50, defence (0 × 3 + 100 × 3) / 6 =
      50, global 50."""
    tournament = relais_evening(session)
    rests = ops.get_movement(session, tournament).data["rests"]
    assert rests[0]["entrants"] == ["N7", "S7"]
    rests_second = rests[1]["entrants"][0]
    enter_all(session, tournament, {1: 56, 2: -56})
    rows = {row["id"]: row for row in ops.ranking(session, tournament)["ranking"]}
    rested = {e for rest in rests for e in rest["entrants"]}
    both = next(e for e in ("N1", "S1", "E1", "W1") if e not in rested)
    expected = {"N7": (0, 100, 75, 1, 3), rests_second: (100, 0, 25, 1, 3), both: (50, 50, 50, 2, 6)}
    for entrant, values in expected.items():
        row = rows[entrant]
        got = (row["attack"], row["defence"], row["global"], row["attack_boards"], row["defence_boards"])
        assert got == values, entrant
