"""Every user-facing French message uses the typographic apostrophe ’ (issue 29 point 9): the score checks
said « aucun score n'est possible », the operations « L'étui … ». Scanned: every string of the package's
Python (docstrings and comments aside: they are the code's English), the templates' text and expressions
(Jinja comments aside), the scripts' strings (comments aside). A straight apostrophe between two letters
is refused there; one in code (« row['x'] ») has no letter on both sides."""

import ast
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
STRAIGHT = re.compile(r"[A-Za-zÀ-ÿ]'[A-Za-zÀ-ÿ]")


def _docstrings(tree) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def test_python_messages_use_the_typographic_apostrophe():
    found = []
    for path in sorted((ROOT / "duplicate").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = _docstrings(tree)
        found += [f"{path.relative_to(ROOT)}:{node.lineno}: {node.value[:80]}" for node in ast.walk(tree)
                  if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
                  and STRAIGHT.search(node.value)]
    assert found == [], "\n".join(found)


def test_templates_and_scripts_use_the_typographic_apostrophe():
    found = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        text = re.sub(r"\{#.*?#\}", "", path.read_text(encoding="utf-8"), flags=re.S)
        found += [f"{path.relative_to(ROOT)}: …{text[m.start() - 30:m.end() + 30]}…" for m in STRAIGHT.finditer(text)]
    for path in sorted((ROOT / "static" / "js").rglob("*.js")):
        text = re.sub(r"/\*.*?\*/", "", path.read_text(encoding="utf-8"), flags=re.S)
        text = re.sub(r"(?m)^\s*//.*$|\s//\s.*$", "", text)
        found += [f"{path.relative_to(ROOT)}: …{text[m.start() - 30:m.end() + 30]}…" for m in STRAIGHT.finditer(text)]
    assert found == [], "\n".join(found)
