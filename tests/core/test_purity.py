"""The rules engine stays pure: importing it pulls in no web, database or PDF library."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_core_imports_no_framework():
    code = (
        "import sys, pkgutil, importlib, duplicate.core as core\n"
        "for module in pkgutil.walk_packages(core.__path__, 'duplicate.core.'):\n"
        "    importlib.import_module(module.name)\n"
        "bad = [m for m in ('flask', 'sqlalchemy', 'sqlmodel', 'weasyprint', 'jinja2', 'click') if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
