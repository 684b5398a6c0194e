"""Scoring at the table (SPEC §12, the ``table`` blueprint): the table API and the table's phone page, by
the table's secret link (`pages`). The package imports none of its views: `duplicate.web.init_app` does."""
