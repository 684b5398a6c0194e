"""The view-models are the lower layer: the pages and the printouts read them, they read no printing code
(issue 15: one view-model per page and printout, read by the Jinja page and the WeasyPrint template)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_view_models_import_no_printing():
    code = (
        "import sys, pkgutil, importlib, duplicate.view_models as vm\n"
        "for module in pkgutil.walk_packages(vm.__path__, 'duplicate.view_models.'):\n"
        "    importlib.import_module(module.name)\n"
        "print(','.join(m for m in sys.modules if m.startswith('duplicate.printing') or m == 'weasyprint'))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
