"""Big batches: chunks rendered by child processes, merged in order, with progress; the background
job of the web; the ``print`` command on a real database (the demonstration tournament)."""

import re
import time

from duplicate.printing import job_status, render_to_file, start_job
from print_helpers import page_count, page_texts


def test_chunked_render_in_child_processes_keeps_the_order(demo, tmp_path):
    seen = []
    out = tmp_path / "feuilles.pdf"
    pages = render_to_file("route-sheets", demo["export"], demo["ranking"], str(out), chunk_size=6, processes=2,
                           progress=lambda done, total: seen.append((done, total)))
    pdf = out.read_bytes()
    assert pages == page_count(pdf) == 20
    assert seen == [(6, 20), (12, 20), (18, 20), (20, 20)]
    names = [re.search(r"N° (\w+)", page).group(1) for page in page_texts(pdf)]
    assert names == ["N1", "S1", "E1", "O1", "N2", "S2", "E2", "O2", "N3", "S3", "E3", "O3", "N4", "S4", "E4", "O4",
                     "N5", "S5", "E5", "O5"]  # Ouest prints « O »
    assert all("page " not in page for page in page_texts(pdf))  # no per-chunk page numbers


def test_background_job_reports_progress_then_done(demo, tmp_path):
    out = tmp_path / "fiches.pdf"
    start_job("travellers", demo["export"], demo["ranking"], str(out), scored=True, chunk_size=8, processes=1)
    deadline = time.time() + 90
    while job_status(str(out))["state"] == "running" and time.time() < deadline:
        time.sleep(0.3)
    status = job_status(str(out))
    assert status["state"] == "done", status
    assert status["pages"] == page_count(out.read_bytes()) == 10
    assert job_status(str(tmp_path / "nothing.pdf"))["state"] == "unknown"


def test_print_command_on_the_demo_tournament(runner, tmp_path):
    result = runner.invoke(args=["demo"])
    assert result.exit_code == 0, result.output
    tournament = result.output.strip().splitlines()[-1]
    out = tmp_path / "etiquettes.pdf"
    result = runner.invoke(args=["print", "labels", "--tournament", tournament, "--out", str(out), "--board", "1"])
    assert result.exit_code == 0, result.output
    assert "1 page" in result.output and page_count(out.read_bytes()) == 1
    out = tmp_path / "classement.pdf"
    result = runner.invoke(args=["print", "ranking", "--tournament", tournament, "--out", str(out)])
    assert result.exit_code == 0, result.output
    text = "\n".join(page_texts(out.read_bytes()))
    assert "Classement général" in text and "ROBERT Sylvie" in text
    result = runner.invoke(args=["print", "ranking", "--tournament", "999", "--out", str(out)])
    assert result.exit_code == 1 and "Erreur" in result.output


def test_print_pack_command_prints_a_table_envelope(runner, tmp_path):
    result = runner.invoke(args=["demo"])
    tournament = result.output.strip().splitlines()[-1]
    out = tmp_path / "enveloppe.pdf"
    result = runner.invoke(args=["print", "pack", "--tournament", tournament, "--out", str(out), "--table", "3"])
    assert result.exit_code == 0, result.output
    texts = page_texts(out.read_bytes())
    assert f"{len(texts)} page{'s' if len(texts) > 1 else ''}" in result.output
    assert "PRENEUR" in texts[0] and "Étui 9" in texts[0] and "Étui 5" not in texts[0]  # table 3: étuis 9–12
    result = runner.invoke(args=["print", "pack", "--tournament", tournament, "--out", str(out), "--table", "8"])
    assert result.exit_code == 1 and "la table 8 ne joue pas" in result.output
