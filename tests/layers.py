"""What importing a package of the application loads, for the tests that keep its layers apart."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def modules_imported_by(package: str) -> set[str]:
    """Every module in ``sys.modules`` once each module of ``package`` (``duplicate.core``…) is imported,
    in a fresh interpreter (this one has loaded everything already)."""
    code = (
        "import sys, pkgutil, importlib\n"
        f"package = importlib.import_module({package!r})\n"
        f"for module in pkgutil.walk_packages(package.__path__, {package + '.'!r}):\n"
        "    importlib.import_module(module.name)\n"
        "print('\\n'.join(sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return set(out.stdout.split())


def import_graph():
    """``scripts/import_graph.py`` as a module: the circles, upward imports and long files of ``duplicate``,
    read from the source with ``ast`` (nothing imported)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("import_graph", ROOT / "scripts" / "import_graph.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
