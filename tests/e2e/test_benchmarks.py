"""The load benchmarks run with the suite (so `.ci/run` runs them): 20 scorers entering a 30-table
individual on SQLite and PostgreSQL (no lost, doubled or wrong line), and the ranking page of a
150-table individual. Their figures are printed and kept in ``tests/e2e/artifacts/bench-*.txt``."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("script", ["bench_load.py", "bench_ranking_page.py"])
def test_benchmark(script, artifacts):
    done = subprocess.run([sys.executable, str(ROOT / "bench" / script)], cwd=ROOT, capture_output=True, text=True,
                          timeout=900)
    (artifacts / f"bench-{Path(script).stem}.txt").write_text(done.stdout + done.stderr, encoding="utf-8")
    print(done.stdout)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
