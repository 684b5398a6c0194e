"""The rules engine stays pure: importing it pulls in no web, database or PDF library."""

from layers import modules_imported_by


def test_core_imports_no_framework():
    loaded = modules_imported_by("duplicate.core")
    assert "duplicate.core.tournament" in loaded  # the walk did import them
    assert sorted(loaded & {"flask", "sqlalchemy", "sqlmodel", "weasyprint", "jinja2", "click"}) == []
