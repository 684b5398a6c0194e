"""The package's imports run one way (ARCHITECTURE « Imports run one way », issue 32): no circle, even
through an import inside a function, and no upward import — no module imports the ``__init__`` of a
package above it, no lower layer a higher one (core < the shared modules < view_models < operations <
printing < serving < web < the command line). Read from the source (`scripts/import_graph.py`)."""

from layers import import_graph

graph = import_graph()
MODULES = graph.module_files()
EDGES = graph.edges(MODULES)


def test_no_import_circle():
    assert graph.circles(MODULES, EDGES) == []


def test_no_upward_import():
    assert [f"{importer}:{line} → {imported}" for importer, imported, line, _top in graph.upward(MODULES, EDGES)] == []


def test_the_web_blueprints_module_imports_no_view():
    imported = {imported for importer, imported, _line, _top in EDGES if importer == "duplicate.web.blueprints"}
    assert imported == set()


def test_the_graph_sees_a_circle_and_an_upward_import(tmp_path):
    """The reader itself: a lazy import back is a circle, a package's ``__init__`` imported from below and
    core importing operations are upward."""
    package = tmp_path / "duplicate"
    (package / "core").mkdir(parents=True)
    (package / "operations").mkdir()
    (package / "__init__.py").write_text("")
    (package / "core" / "__init__.py").write_text("X = 1\n")
    (package / "core" / "a.py").write_text("from duplicate.core import X\nfrom . import b\n")
    (package / "core" / "b.py").write_text("def f():\n    from .a import X\n")
    (package / "operations" / "__init__.py").write_text("")
    (package / "operations" / "c.py").write_text("")
    (package / "core" / "d.py").write_text("from duplicate.operations import c\n")
    modules = graph.module_files(tmp_path)
    edges = graph.edges(modules)
    assert graph.circles(modules, edges) == [["duplicate.core.a", "duplicate.core.b"]]
    assert graph.circles(modules, edges, lazy=False) == []
    assert sorted((importer, imported) for importer, imported, _line, _top in graph.upward(modules, edges)) == [
        ("duplicate.core.a", "duplicate.core"), ("duplicate.core.d", "duplicate.operations.c")]
