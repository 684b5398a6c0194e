"""The screen and the paper show the same numbers (issue 15 point 0): one rounding rule (`duplicate.french`,
SPEC §11, half away from zero) and one reading of the team-match PM (SPEC §6), whether a value reaches the
person through a Jinja page or a printed PDF (read back with pdftotext). Values derived by hand."""

import subprocess

from sqlmodel import Session

from duplicate import db, operations, printing
from duplicate.printing.commands import tournament_data
from scoring_helpers import board_numbers, fill_board, publish, ready


def _pdf_text(data: bytes, tmp_path) -> str:
    path = tmp_path / "out.pdf"
    path.write_bytes(data)
    return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout


def _paper(app, tournament_id: int, kind: str, **options) -> bytes:
    with Session(db.get_engine(app)) as session:
        export, ranking, _tokens = tournament_data(session, tournament_id)
    return printing.render_kind(kind, export, ranking, **options)


def _token(app, tournament_id: int, entrant_id: str) -> str:
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, tournament_id)
        return next(row["token"] for row in operations.private_links(session, tournament) if row["id"] == entrant_id)


def test_a_half_hundredth_rounds_the_same_on_the_page_and_on_the_paper(app, arbiter, tmp_path):
    # 20 players, 5 tables; every table scores +56 on every étui: on each étui all tables tie, so every
    # note is 100 × (½ × 4) / 4 = 50 (SPEC §4) and every global ¼ × 50 + ¾ × 50 = 50 (SPEC §5). A global
    # penalty of 2,125 points on N1 leaves 50 − 2,125 = 47,875, which shows « 47,88 » (half away from
    # zero, never the « 47,87 » of a float rounded half to even), and the penalty itself « 2,13 ».
    tournament_id = ready(app)
    for number in board_numbers(app, tournament_id):
        assert fill_board(arbiter, tournament_id, number, scores=lambda board, table: 56).status_code == 302
    assert arbiter.post(f"/arbitre/tournois/{tournament_id}/penalites", data={
        "entrant_id": "N1", "points": "2,125", "reason": "Retard", "board": ""}).status_code == 302
    publish(app, tournament_id)

    page = arbiter.get(f"/tournois/{tournament_id}/").get_data(as_text=True)
    sheet = arbiter.get(f"/feuille/{_token(app, tournament_id, 'N1')}").get_data(as_text=True)
    ranking = _pdf_text(_paper(app, tournament_id, "ranking"), tmp_path)
    route = _pdf_text(_paper(app, tournament_id, "route-sheets", entrants=["N1"]), tmp_path)
    for text in (page, sheet, ranking, route):
        assert "47,88" in text and "47,87" not in text
        assert "2,13" in text and "2,12" not in text


def test_a_team_match_attack_that_loses_an_etui_scores_zero_on_the_page_and_on_the_paper(app, arbiter, tmp_path):
    # SPEC §6 seed example: on étui 1 team A's attacker makes +82 and B's +66: the difference 16 gives
    # PM √16 = 4 to A; B, whose attacker did worse, scores 0 (not −4). Every other étui: +56 in both
    # rooms, a difference of 0, no PM. A's total: +4,000, B's: 0,000.
    tournament_id = ready(app, "team_match")
    with Session(db.get_engine(app)) as session:
        tournament = operations.get_tournament(session, tournament_id)
        attacker = {(line.board, line.table): line.taker for line in operations.all_lines(session, tournament)}

    def scores(board: int, table: int) -> int:
        if board == 1:
            return 82 if attacker[(board, table)] == "A" else 66
        return 56

    for number in board_numbers(app, tournament_id):
        assert fill_board(arbiter, tournament_id, number, scores=scores).status_code == 302
    publish(app, tournament_id)

    sheet = arbiter.get(f"/feuille/{_token(app, tournament_id, 'B')}").get_data(as_text=True)
    paper = _pdf_text(_paper(app, tournament_id, "route-sheets", entrants=["B"]), tmp_path)
    for text in (sheet, paper):
        assert "−4,000" not in text      # B's attack on étui 1 does not lose 4 PM: it scores nothing
        assert "0,000" in text
    winner = _pdf_text(_paper(app, tournament_id, "route-sheets", entrants=["A"]), tmp_path)
    assert "+4,000" in winner
    assert "+4,000" in arbiter.get(f"/feuille/{_token(app, tournament_id, 'A')}").get_data(as_text=True)
