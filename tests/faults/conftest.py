"""The fault tests run the real server in a child process, like the end-to-end tests: they share
`tests/e2e/live.py`."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))
