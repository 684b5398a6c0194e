"""Who attacks, on the screens (issue 15, points 1–2): triplette badges on the team list and the fiche
entry, the arbiter's draw of the first colour; the quadrette attacker chosen at entry, stored, exported,
imported, refused when not of the attacking quadrette."""

import html as entities
import json
import re

import pytest
from sqlmodel import Session, select

from duplicate import db, interchange, operations
from duplicate.core.tournament import TournamentError
from duplicate.models import Result


def text(response) -> str:
    page = response.get_data(as_text=True)
    return entities.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def _teams(app, kind: str, count: int, size: int, positions: int | None = None) -> int:
    """``count`` teams of ``size``: team k's members ARNAUD k, BERNARD k, CHEVALIER k (DUVAL k), registered
    in the order CHEVALIER, ARNAUD, BERNARD (DUVAL) so that the badges do not follow registration; drawn,
    movement chosen (its default takers N, S, E, W, N…), no étui prepared."""
    surnames = ["CHEVALIER", "ARNAUD", "BERNARD", "DUVAL"][:size]
    with Session(db.get_engine(app), expire_on_commit=False) as session:
        tournament = operations.create_tournament(session, name=f"Essai {kind}", kind=kind)
        for k in range(1, count + 1):
            members = [operations.register_player(session, tournament, licence=None, surname=surname,
                                                  first_name=f"Équipe{k}", club=None) for surname in surnames]
            operations.form_team(session, tournament, name=f"Équipe {k}", player_ids=[p.id for p in members])
        operations.draw_places(session, tournament, seed="essai")
        operations.choose_movement(session, tournament, positions=positions)
        session.commit()
        return tournament.id


def _members(app, tournament_id: int) -> dict[str, list[str]]:
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, tournament_id)
        return {team.entrant_id: [p.name for p in operations.team_members(session, team)]
                for team in operations.teams(session, tournament)}


def _token(app, tournament_id: int, entrant_id: str) -> str:
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, tournament_id)
        return next(t.token for t in operations.teams(session, tournament) if t.entrant_id == entrant_id)


def operations_lines(app, tournament_id: int, number: int):
    with Session(db.get_engine(app)) as session:
        return operations.traveller(session, operations.get_tournament(session, tournament_id), number)


def test_triplette_badges_on_the_team_list_and_the_fiche(app, arbiter):
    tournament_id = _teams(app, "triplettes", 6, 3)   # 6 triplettes: a Mitchell of 3 tables, 3 positions
    response = arbiter.post(f"/arbitre/tournois/{tournament_id}/equipes/premiere-couleur", data={"colour": "Rouge"})
    assert response.status_code == 302
    page = arbiter.get(f"/arbitre/tournois/{tournament_id}/equipes").get_data(as_text=True)
    # badges by surname in each triplette: ARNAUD Bleu, BERNARD Blanc, CHEVALIER Rouge
    assert re.search(r'badge-bleu">Bleu</span> ARNAUD Équipe1', page)
    assert re.search(r'badge-blanc">Blanc</span> BERNARD Équipe1', page)
    assert re.search(r'badge-rouge">Rouge</span> CHEVALIER Équipe1', page)
    team_of = {ident: names[0].split(" ")[1] for ident, names in _members(app, tournament_id).items()}
    fiche = text(arbiter.get(f"/saisie/tournois/{tournament_id}/etuis/1"))
    # Étui 1 (taker N) is attacked by the NS triplettes. Mitchell, 3 tables: set s at table t at position p
    # when s = t + p (0-based), so étui 1 (set 0) is at table 1 (p1), table 3 (p2), table 2 (p3).
    # Each NS triplette attacks 2 étuis a position (takers N, S): NS1's étui 1 is its turn 0, NS3's
    # (sets 2 then 0) turn 2, NS2's (sets 1, 2, 0) turn 4. From Rouge: turn 0 Rouge, 2 Blanc, 4 Bleu
    # (Rouge → Bleu → Blanc → Rouge → Bleu) — worn by CHEVALIER, BERNARD, ARNAUD.
    found = re.findall(r"attaque : (\w+) (Équipe\d) (Bleu|Blanc|Rouge)", fiche)
    assert found == [("CHEVALIER", team_of["NS1"], "Rouge"), ("BERNARD", team_of["NS3"], "Blanc"),
                     ("ARNAUD", team_of["NS2"], "Bleu")]
    # étui 3 (taker E) is the EW triplettes': EW1 at table 1, position 1, attacks 3 and 4 (turns 0, 1)
    assert re.findall(r"attaque : (\w+) (Équipe\d) (\w+)", text(arbiter.get(
        f"/saisie/tournois/{tournament_id}/etuis/3")))[0] == ("CHEVALIER", team_of["EW1"], "Rouge")
    # the route sheet of NS1 (its private link), once its étui 1 is entered: who attacked, with the badge
    key = re.findall(r'name="score-(1-[0-9]+)"', arbiter.get(f"/saisie/tournois/{tournament_id}/etuis/1")
                     .get_data(as_text=True))[0]
    assert arbiter.post(f"/saisie/tournois/{tournament_id}/etuis/1", data={f"score-{key}": "+56"}).status_code == 302
    sheet = text(arbiter.get(f"/feuille/{_token(app, tournament_id, 'NS1')}"))
    assert f"Attaque contre EO1 · CHEVALIER {team_of['NS1']} (Rouge)" in sheet  # issue 29 point 8's wording
    assert arbiter.post(f"/arbitre/tournois/{tournament_id}/equipes/premiere-couleur",
                        data={"colour": "Vert"}, follow_redirects=True).get_data(as_text=True).count("Couleur inconnue")


def test_quadrette_attacker_chosen_at_entry_stored_exported_imported(app, arbiter):
    tournament_id = _teams(app, "quadrettes", 3, 4)   # 3 quadrettes, 3 tables
    page = arbiter.get(f"/saisie/tournois/{tournament_id}/etuis/1").get_data(as_text=True)
    keys = re.findall(r'name="attacker-([0-9]+-[0-9]+)"', page)
    assert keys and keys == re.findall(r'name="score-([0-9]+-[0-9]+)"', page)
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, tournament_id)
        lines = operations.traveller(session, tournament, 1)
        attackers = operations.quadrette_attackers(session, tournament)
    first = lines[0]
    ident, name = next((i, n) for i, n in attackers[first.taker]["members"] if n.startswith("DUVAL"))
    other_team = next(t for t in attackers if t != first.taker)
    stranger = attackers[other_team]["members"][0][0]
    # a player of another quadrette: refused, in French, nothing stored
    refused = arbiter.post(f"/saisie/tournois/{tournament_id}/etuis/1",
                           data={f"score-{first.key}": "+56", f"attacker-{first.key}": stranger})
    assert refused.status_code == 422
    assert f"n’est pas de la quadrette « {first.taker} »" in text(refused)
    saved = arbiter.post(f"/saisie/tournois/{tournament_id}/etuis/1",
                         data={f"score-{first.key}": "+56", f"attacker-{first.key}": ident})
    assert saved.status_code == 302, re.findall(r"refusée.{0,300}", text(saved))
    with Session(db.get_engine(app)) as session:
        result = session.exec(select(Result).where(Result.tournament_id == tournament_id)).one()
        assert (result.board, result.table, result.score, result.attacker) == (1, first.table, 56, ident)
        exported = interchange.export_tournament(session, operations.get_tournament(session, tournament_id))
    assert exported["results"][0]["attacker"] == ident
    sheet = text(arbiter.get(f"/feuille/{_token(app, tournament_id, first.taker)}"))
    assert f"· {name}" in sheet
    # the quadrette's next line proposes the same attacker (« un joueur qui attaquera durant tout le tournoi »)
    with Session(db.get_engine(app)) as session:
        later = next(line for number in (2, 3, 4, 5, 6) for line in operations.traveller(
            session, operations.get_tournament(session, tournament_id), number) if line.taker == first.taker)
    page = arbiter.get(f"/saisie/tournois/{tournament_id}/etuis/{later.board}").get_data(as_text=True)
    chosen = re.search(rf'name="attacker-{later.key}".*?</select>', page, re.S).group(0)
    assert re.search(rf'<option value="{ident}" selected>{name}</option>', chosen)
    other = next(line for line in operations_lines(app, tournament_id, later.board) if line.taker != first.taker)
    blank = re.search(rf'name="attacker-{other.key}".*?</select>', page, re.S).group(0)
    assert " selected" not in blank  # a quadrette whose attacker nobody entered yet: « — »
    # the file goes back in with its attacker; a file naming a stranger is refused by the core
    with Session(db.get_engine(app)) as session:
        copy = interchange.import_tournament(session, json.dumps(exported))
        session.flush()
        assert interchange.export_tournament(session, copy)["results"][0]["attacker"] == ident
        exported["results"][0]["attacker"] = stranger
        with pytest.raises(TournamentError, match="n’est pas de la quadrette"):
            interchange.import_tournament(session, json.dumps(exported))
        session.rollback()


def test_a_later_seance_runs_the_rotation_on(app):
    # séance 1: 6 triplettes, 2 positions of 4 étuis: each attacks 2 étuis a position, 4 in all, from the
    # drawn Rouge (Rouge, Bleu, Blanc, Rouge). Séance 2, same teams (same names): the rotation goes on from
    # séance 1's first colour — turn 4 is Rouge + 4 = Rouge + 1 = Bleu — whatever séance 2's own draw (Blanc).
    first, second = _teams(app, "triplettes", 6, 3, positions=2), _teams(app, "triplettes", 6, 3)
    with Session(db.get_engine(app)) as session:
        series = operations.create_series(session, "Championnat")
        for ident, colour in ((first, "Rouge"), (second, "Blanc")):
            tournament = operations.get_tournament(session, ident)
            operations.set_series(session, tournament, series)
            operations.draw_colour(session, tournament, colour)
        session.commit()
        later = operations.get_tournament(session, second)
        plan = operations.triplette_plan(session, later)
        starts = operations.rotation_starts(session, later)
        assert set(starts.values()) == {("Rouge", 4)}
        firsts = {attack.team: attack for attack in plan.attacks.values() if attack.turn == 4}
        assert len(firsts) == 6 and {attack.colour for attack in firsts.values()} == {"Bleu"}
        assert all(attack.position == 1 for attack in firsts.values())
        # alone (out of the competition), séance 2 starts at its own draw
        operations.set_series(session, later, None)
        session.flush()
        alone = operations.triplette_plan(session, later)
        assert {a.colour for a in alone.attacks.values() if a.turn == 0} == {"Blanc"}
