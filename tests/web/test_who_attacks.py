"""Who attacks is where a player looks (issue 29 point 8): the table's phone, the public étui page and the
route sheet (its page and its PDF) name the attacker — in triplettes the member and his badge (SPEC §5;
seed « Règles spécifiques aux tournois triplettes »), in a team match the attacker his team chose for the
quarter and the room he plays in (seed « DUPLICATE PAR ÉQUIPES ») — in the one wording of
`view_models.export.attacker_text`, and the route sheet writes a team match's PM as the feuille de marque
does. Every expected text is written by hand."""

import re
import subprocess

from sqlmodel import Session

from duplicate import db, operations, printing
from duplicate.printing.commands import tournament_data
from scoring_helpers import publish, ready
from test_attackers_web import _teams, text
from test_team_match_screens import _cells, _enter, _members, _quarter


def _token(app, tid: int, entrant: str) -> str:
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, tid)
        return next(row["token"] for row in operations.private_links(session, tournament) if row["id"] == entrant)


def _secret(app, tid: int, table: int) -> str:
    with Session(db.get_engine(app)) as session:
        return operations.table_secret(operations.get_tournament(session, tid), table)


def _pdf(app, tid: int, entrant: str, tmp_path) -> str:
    """The printed route sheet of ``entrant``, read back with pdftotext, spaces collapsed."""
    with Session(db.get_engine(app)) as session:
        export, ranking, _tokens = tournament_data(session, tid)
    path = tmp_path / f"{entrant}.pdf"
    path.write_bytes(printing.render_kind("route-sheets", export, ranking, entrants=[entrant]))
    out = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True).stdout
    return " ".join(out.split())


def test_a_triplettes_attacker_and_his_badge_on_the_phone_the_etui_page_and_the_route_sheet(app, arbiter, tmp_path):
    # 6 triplettes, 3 tables (test_table_attackers): at table 1, position 1, étuis 1 to 4 are taken N, S, E, W,
    # so NS1 attacks 1 and 2. From the drawn Rouge, a triplette's first attack is its Rouge member,
    # CHEVALIER (third by surname), its second its Bleu member, ARNAUD (Rouge → Bleu → Blanc).
    tid = _teams(app, "triplettes", 6, 3)
    assert arbiter.post(f"/arbitre/tournois/{tid}/equipes/premiere-couleur",
                        data={"colour": "Rouge"}).status_code == 302
    visitor = app.test_client()
    team = re.escape("Équipe") + r"\d"

    # the étui page before publication (anyone may read it): the attacker, no score. Étui 1 is played at
    # position 1 (table 1: the triplette's 1st attack, Rouge), 2 (table 3: its 3rd, Blanc — BERNARD) and 3
    # (table 2: its 5th, Rouge + 4 = Bleu — ARNAUD); two étuis attacked a position
    page = text(visitor.get(f"/tournois/{tid}/etuis/1"))
    assert re.search(rf"1 1 NS1 Équipe \d Attaque : CHEVALIER {team} \(Rouge\) EO1 Équipe \d à saisir "
                     rf"2 3 NS3 Équipe \d Attaque : BERNARD {team} \(Blanc\) EO2 Équipe \d à saisir "
                     rf"3 2 NS2 Équipe \d Attaque : ARNAUD {team} \(Bleu\) EO3", page), page
    assert 'class="badge badge-rouge">CHEVALIER' in visitor.get(f"/tournois/{tid}/etuis/1").get_data(as_text=True)
    view = visitor.get(f"/api/table/{_secret(app, tid, 1)}").get_json()
    labels = {board["number"]: board["attack"]["label"] for board in view["boards"]}
    assert re.fullmatch(rf"CHEVALIER {team} \(Rouge\)", labels[1])
    assert re.fullmatch(rf"ARNAUD {team} \(Bleu\)", labels[2])

    # étui 1 scored +100 at table 1, +56 and +30 elsewhere: table 1's attack is the best of 3 → 100,00 (SPEC §4)
    lines = operations_lines(app, tid, 1)
    scores = {line.table: score for line, score in zip(sorted(lines, key=lambda l: l.table), ("+100", "+56", "+30"))}
    data = {f"score-1-{table}": score for table, score in scores.items()}
    assert arbiter.post(f"/saisie/tournois/{tid}/etuis/1", data=data).status_code == 302
    publish(app, tid)
    ns1 = next(line for line in lines if line.table == 1).taker
    assert ns1 == "NS1"
    sheet = text(visitor.get(f"/feuille/{_token(app, tid, 'NS1')}"))
    assert re.search(rf"Attaque contre EO\d · CHEVALIER {team} \(Rouge\) +\+100 100,00", sheet), sheet
    paper = _pdf(app, tid, "NS1", tmp_path)
    assert re.search(rf"1 1 1 Attaque contre EO\d · CHEVALIER {team} \(Rouge\) +\+100 100,00", paper), paper
    board = text(visitor.get(f"/tournois/{tid}/etuis/1"))
    assert re.search(rf"NS1 Équipe \d+ Attaque : CHEVALIER {team} \(Rouge\) EO\d Équipe \d+ \+100 100,00", board), board


def operations_lines(app, tid: int, number: int):
    with Session(db.get_engine(app)) as session:
        return operations.traveller(session, operations.get_tournament(session, tid), number)


def test_a_team_matchs_attacker_and_room_on_the_phone_the_etui_page_and_the_route_sheet(app, arbiter, tmp_path):
    # Team A (NOM0 … NOM3 Prénom) chooses NOM2 Prénom (third in its order), team B (NOM4 … NOM7) NOM5 Prénom
    # (second) for the 1st quarter; A's attacker plays in the open room, so B's in the closed room. Étui 1:
    # A +82, B +66 → gap +16 → A 4,000, B 0 (SPEC §6; test_team_match_screens), written « 4,000 » on the
    # feuille de marque — never « +4,000 ».
    tid = ready(app, "team_match")
    members = _members(app, tid)
    assert _quarter(arbiter, tid, 1, "1 à 5", "A", members["A"][2], members["B"][1]).status_code == 302
    visitor = app.test_client()

    phone = {table: visitor.get(f"/api/table/{_secret(app, tid, table)}").get_json()["boards"][0]
             for table in (1, 2)}
    assert (phone[1]["number"], phone[1]["attack"]["label"]) == (1, "NOM2 Prénom, salle ouverte")
    assert (phone[2]["number"], phone[2]["attack"]["label"]) == (1, "NOM5 Prénom, salle fermée")
    # a match's positions are its quarters: the phone names them so (« Quart temps 1 », not « Position 1 »)
    assert visitor.get(f"/api/table/{_secret(app, tid, 1)}").get_json()["position_noun"] == "Quart temps"
    before = text(visitor.get(f"/tournois/{tid}/etuis/1"))   # before publication: the attackers, no score
    assert "A Équipe 1 Attaque : NOM2 Prénom, salle ouverte" in before, before
    assert "B Équipe 2 Attaque : NOM5 Prénom, salle fermée" in before

    assert _enter(arbiter, tid, 1, 1, {1: ("+82", "garde")}).status_code == 302
    assert _enter(arbiter, tid, 1, 2, {1: ("+66", "garde")}).status_code == 302
    assert _cells(arbiter.get(f"/arbitre/tournois/{tid}/match/feuille").get_data(as_text=True), "quarter-pm")[0] \
        == ("4,000", "0,000")
    publish(app, tid)
    a_sheet = text(visitor.get(f"/feuille/{_token(app, tid, 'A')}"))
    assert "1 ouverte 1 Attaque contre B · NOM2 Prénom +82 4,000" in a_sheet, a_sheet
    # the total as the feuille de marque writes it: a side scores 0 or |PM|, never signed (SPEC §6)
    assert "Points de match 4,000 Place 1 sur 2" in a_sheet, a_sheet
    b_sheet = text(visitor.get(f"/feuille/{_token(app, tid, 'B')}"))
    assert "1 fermée 1 Attaque contre A · NOM5 Prénom +66 0,000" in b_sheet, b_sheet
    assert "1 ouverte 1 Attaque contre B · NOM2 Prénom +82 4,000" \
        in _pdf(app, tid, "A", tmp_path)
    board = text(visitor.get(f"/tournois/{tid}/etuis/1"))
    assert "ouverte A Équipe 1 Attaque : NOM2 Prénom, salle ouverte B Équipe 2 Garde +82 4,000" in board, board
    assert "fermée B Équipe 2 Attaque : NOM5 Prénom, salle fermée A Équipe 1 Garde +66 0,000" in board, board
