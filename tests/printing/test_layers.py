"""The view-models are the lower layer: the pages and the printouts read them, they read no printing code
(issue 15: one view-model per page and printout, read by the Jinja page and the WeasyPrint template)."""

from layers import modules_imported_by


def test_view_models_import_no_printing():
    loaded = modules_imported_by("duplicate.view_models")
    assert "duplicate.view_models.export" in loaded  # the walk did import them
    assert sorted(m for m in loaded if m.startswith("duplicate.printing") or m == "weasyprint") == []
