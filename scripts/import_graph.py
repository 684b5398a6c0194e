"""The import graph of the package ``duplicate``, read from the source (``ast``, standard library only):
its circles, its upward imports and its long files (issue 32).

- A **circle** is a strongly connected component of more than one module in the graph of the imports,
  counted twice: with the module-level imports only (those that run when the module is imported) and with
  every import (those inside a function too: a lazy import hides a circle, it does not break it). ``from . import x``
  is an edge to the submodule ``x`` when there is one, else to the package; ``from .x import y`` an edge to
  ``.x.y`` when it is a module, else to ``.x``. A package's ``__init__`` is the module named like the package.
- An **upward import** is a module importing (at module level or inside a function) the ``__init__`` of a
  package above it (``duplicate/web/x.py`` → ``duplicate.web``, anything → ``duplicate``), or a module of a
  higher layer (`LAYERS`: core < the shared modules < view_models < operations < printing < web < the command
  line and the app).
- A **long file** has more than `LONG` lines.

    python scripts/import_graph.py            # the report
    python scripts/import_graph.py --summary  # the three counts only
    python scripts/import_graph.py --submit-shaped  # the views' own `try … except OperationError` (issue 32)

A **submit-shaped block** is a ``try`` with an ``except`` naming ``OperationError`` in ``duplicate/web``, outside
`duplicate.web.submit` (whose `submit` is the one shape they fold into); « show_error » counts those whose handler
shows the refusal on a form.

`tests/test_import_layers.py` holds the package to 0 circles and 0 upward imports with the same functions.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "duplicate"
LONG = 400

#: The layer of each top-level part of ``duplicate`` (by its second dotted name); an import from a lower
#: layer to a higher one is upward. Parts not listed are the shared floor (layer 1).
LAYERS = {
    "core": 0,
    "view_models": 2,  # plain data from core values, formatted by french.py: below the operations that use it
    "operations": 3,
    "printing": 4,
    "web": 5,
    "serving": 4.5,  # the hall's addresses (web's absolute links) and the server, which migrates (db) and draws QR codes
    "cli": 6, "core_cli": 6, "freeplay_cli": 6, "demo": 6, "__main__": 6, "backup": 6,
    PACKAGE: 7,  # the package's __init__: create_app
}


def module_files(root: Path = ROOT, package: str = PACKAGE) -> dict[str, Path]:
    """Dotted module name → its file, for every module of ``package`` (a package under its own name)."""
    modules = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _is_package(name: str, modules: dict[str, Path]) -> bool:
    return name in modules and modules[name].name == "__init__.py"


def _imports(tree: ast.Module):
    """(import node, at module level?) for every import of a module."""
    def walk(node, top):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                yield child, top
            inner_top = top and not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            yield from walk(child, inner_top)
    yield from walk(tree, True)


def edges(modules: dict[str, Path]) -> list[tuple[str, str, int, bool]]:
    """(importer, imported, line, at module level) for every import of one of ``modules`` by another."""
    found = []
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        here = name if _is_package(name, modules) else name.rpartition(".")[0]
        for node, top in _imports(tree):
            targets = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                if node.level:
                    base = here
                    for _ in range(node.level - 1):
                        base = base.rpartition(".")[0]
                    base = f"{base}.{node.module}" if node.module else base
                else:
                    base = node.module or ""
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    targets.append(sub if sub in modules else base)
            for target in targets:
                while target and target not in modules:  # `import a.b.c` of a non-module: its nearest module
                    target = target.rpartition(".")[0]
                if target and target != name and (name, target, node.lineno, top) not in found:
                    found.append((name, target, node.lineno, top))
    return found


def circles(modules: dict[str, Path], found=None, lazy: bool = True) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), in every import or (``lazy``
    false) in the module-level ones only."""
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for importer, imported, _line, top in found if found is not None else edges(modules):
        if top or lazy:
            graph[importer].add(imported)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components = []
    sys.setrecursionlimit(max(10_000, sys.getrecursionlimit()))

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(components)


def layer(name: str) -> int:
    parts = name.split(".")
    return LAYERS.get(parts[1] if len(parts) > 1 else parts[0], 1)


def upward(modules: dict[str, Path], found=None) -> list[tuple[str, str, int, bool]]:
    """The imports of a package's ``__init__`` from below it, and of a higher layer from a lower one."""
    ups = []
    for importer, imported, line, top in found if found is not None else edges(modules):
        into_parent = _is_package(imported, modules) and importer.startswith(imported + ".")
        if into_parent or layer(imported) > layer(importer):
            ups.append((importer, imported, line, top))
    return ups


def long_files(modules: dict[str, Path], limit: int = LONG) -> list[tuple[str, int]]:
    """(module, lines) for the files of more than ``limit`` lines, longest first."""
    sizes = ((name, len(path.read_text(encoding="utf-8").splitlines())) for name, path in modules.items())
    return sorted(((name, n) for name, n in sizes if n > limit), key=lambda item: (-item[1], item[0]))


def submit_shaped(modules: dict[str, Path]) -> list[tuple[str, int, bool]]:
    """(module, line, shows it on a form) for each ``try`` of ``duplicate.web`` catching ``OperationError``
    outside `duplicate.web.submit`."""
    found = []
    for name, path in modules.items():
        if not name.startswith(f"{PACKAGE}.web") or name == f"{PACKAGE}.web.submit":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Try):
                continue
            handler = next((h for h in node.handlers if h.type is not None and "OperationError" in ast.unparse(h.type)),
                           None)
            if handler is not None:
                found.append((name, node.lineno, "show_error" in ast.unparse(handler)))
    return sorted(found)


def main(argv: list[str]) -> int:
    modules = module_files()
    if "--submit-shaped" in argv:
        blocks = submit_shaped(modules)
        for name, line, shown in blocks:
            print(f"  {name}:{line}{'  (show_error)' if shown else ''}")
        print(f"submit-shaped blocks {len(blocks)} (show_error {sum(shown for *_, shown in blocks)})")
        return 0
    found = edges(modules)
    found_circles = circles(modules, found)
    top_circles = circles(modules, found, lazy=False)
    ups = upward(modules, found)
    longs = long_files(modules)
    if "--summary" not in argv:
        print(f"{len(found_circles)} circles ({len(top_circles)} with the module-level imports only):")
        for component in found_circles:
            print("  " + " ↔ ".join(component))
        print(f"{len(ups)} upward imports:")
        for importer, imported, line, top in ups:
            print(f"  {importer}:{line} → {imported}{'' if top else '  (inside a function)'}")
        print(f"{len(longs)} files over {LONG} lines:")
        for name, n in longs:
            print(f"  {n:5d} {name}")
    web_ups = sum(1 for importer, *_ in ups if importer.startswith(f"{PACKAGE}.web"))
    print(f"circles {len(found_circles)} (module-level {len(top_circles)}), upward imports {len(ups)} (in web/: {web_ups}), "
          f"files over {LONG} lines {len(longs)}, modules {len(modules)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
