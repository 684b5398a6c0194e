"""The scorers' entry of the fiches ambulantes, under ``/saisie`` (the ``scoring`` blueprint): `fiches`.
The package imports none of its views: `duplicate.web.init_app` does."""
