"""The simultané's commands as an organiser and a club run them (issue 33, `duplicate.simultaneous_cli`):
``deal`` gives the étuis and the seed's hash, each club signs its evening's file with ``simultane sign``,
the organiser ranks the field with ``simultane national`` — a forged file refused with its reason (exit
status 1, the ranking of the others printed), a club sending twice replaced. Figures derived by hand as in
`test_simultaneous`: étui 1 scored 56 and −56 at club A, 62 at club B → taker notes 50, 0 and 100."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from factories import club_evening

ROOT = Path(__file__).resolve().parents[2]


def _run(*args, cwd):
    return subprocess.run([sys.executable, "-m", "duplicate", *map(str, args)], cwd=cwd, capture_output=True,
                          text=True, timeout=120, env={"PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"})


def test_clubs_sign_their_files_and_the_organiser_ranks_the_field(tmp_path):
    deal = _run("deal", "--boards", "2", "--seed", "simultané de décembre", cwd=tmp_path)
    assert deal.returncode == 0, deal.stderr
    (tmp_path / "deals.json").write_text(deal.stdout, encoding="utf-8")
    takers = {board["number"]: board["taker"] for board in json.loads(deal.stdout)["boards"]}
    (tmp_path / "keys.json").write_text(json.dumps({"A": "clé-A", "B": "clé-B"}), encoding="utf-8")
    evenings = {"A": {1: {1: 56}, 2: {1: -56}}, "B": {1: {1: 62}}, "B-first": {1: {1: -90}}}
    for name, scores in evenings.items():
        club = name[0]
        (tmp_path / f"{club}.key").write_text(f"clé-{club}\n", encoding="utf-8")
        (tmp_path / f"{name}.json").write_text(json.dumps(club_evening(scores, takers)), encoding="utf-8")
        signed = _run("simultane", "sign", "--simultane", "S1", "--club", club, "--key-file", f"{club}.key",
                      "--deals", "deals.json", f"{name}.json", cwd=tmp_path)
        assert signed.returncode == 0, signed.stderr
        (tmp_path / f"{name}.signed.json").write_text(signed.stdout, encoding="utf-8")
    forged = json.loads((tmp_path / "A.signed.json").read_text(encoding="utf-8"))
    forged["tournament"]["results"][1]["score"] = 62
    (tmp_path / "forged.json").write_text(json.dumps(forged), encoding="utf-8")

    national = _run("simultane", "national", "--simultane", "S1", "--kind", "individual", "--deals", "deals.json",
                    "--keys", "keys.json", "B-first.signed.json", "A.signed.json", "forged.json", "B.signed.json",
                    cwd=tmp_path)
    assert national.returncode == 1  # a file was refused: the organiser is told so
    assert national.stderr.splitlines() == [
        "Refusé — forged.json : Signature refusée pour le club A : le fichier a été modifié après sa signature, "
        "ou signé avec une autre clé.",
        "Club B : B.signed.json remplace son fichier précédent."]
    output = json.loads(national.stdout)
    [board] = [board for board in output["boards"] if board["results"]]
    assert sorted((r["club"], r["club_table"], r["score"], r["taker_note"]) for r in board["results"]) == [
        ("A", 1, 56, 50.0), ("A", 2, -56, 0.0), ("B", 1, 62, 100.0)]
    taker_b = f"{takers[1]}1"  # club B's taker of étui 1: first of the field, first of his club
    assert [(row["id"], row["national_rank"], row["club_rank"]) for row in output["clubs"]["B"]] == [
        (taker_b, 1, 1), *sorted((f"{seat}1", 9, 2) for seat in "NSEW" if f"{seat}1" != taker_b)]

    alone = _run("simultane", "national", "--simultane", "S1", "--kind", "individual", "--deals", "deals.json",
                 "--keys", "keys.json", "A.signed.json", cwd=tmp_path)
    assert alone.returncode == 0 and alone.stderr == ""
    other = _run("simultane", "sign", "--simultane", "S1", "--club", "a b", "--key-file", "A.key", "--deals",
                 "deals.json", "A.json", cwd=tmp_path)
    assert other.returncode == 1
    assert other.stderr.strip() == "Erreur : code de club « a b » invalide : 1 à 8 majuscules ou chiffres."
