"""The rules of duplicate French tarot, in pure Python (standard library only).

Nothing here imports Flask, SQLAlchemy, SQLModel or WeasyPrint: the web
application, the printing and the command line adapt these functions, never
the reverse.  Each module opens with the rule it implements, the seed text it
comes from (``shared/seeds/``) and what was chosen where the seeds are silent.

* :mod:`.cards` — the 78 cards, seats, the interchange notation;
* :mod:`.deals` — deal validation and reproducible generation;
* :mod:`.scoring` — one deal's score and the score validator;
* :mod:`.topage` — per-étui notes, with the arbiter's adjustments;
* :mod:`.ranking` — attack/defence/global %, general and alternated rankings;
* :mod:`.pm` — points de match for quadrettes and team matches;
* :mod:`.tournament` — the tournament file and the ranking output;
* :mod:`.movements` — who plays which étuis where.
"""
