"""Writes ``tests/printing/data/demo-tournament.json``, the printing tests' data: the demonstration
tournament (`duplicate.demo.build_demo`) as its SPEC §9 export and ranking output, built afresh in a
throw-away SQLite database — never copied by hand from an earlier output.

Run ``.venv/bin/python scripts/make_printing_fixture.py`` after a change that alters the demonstration
tournament, its export or its ranking; ``--check`` only says whether the stored file is current (exit 1
when it drifted).  ``tests/printing/test_fixture_is_current.py`` runs the same comparison in the suite.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

FIXTURE = ROOT / "tests" / "printing" / "data" / "demo-tournament.json"


def fixture_text() -> str:
    """The fixture's text, as this code base makes it today."""
    from duplicate import create_app, db, interchange, operations
    from duplicate.demo import build_demo

    with tempfile.TemporaryDirectory() as directory:
        app = create_app({"DATABASE_URL": f"sqlite:///{directory}/demo.sqlite3"})
        try:
            with app.app_context():
                session = db.get_session()
                tournament = build_demo(session)
                export = interchange.export_tournament(session, tournament)
                export.pop("journal", None)  # when the demo was built (this run's clock); nothing prints it
                data = {"export": export, "ranking": operations.ranking(session, tournament)}
                session.rollback()
        finally:
            db.get_engine(app).dispose()
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def main(argv: list[str]) -> int:
    text = fixture_text()
    if "--check" in argv:
        current = FIXTURE.read_text(encoding="utf-8") == text
        print(f"{FIXTURE.relative_to(ROOT)} : " + ("à jour" if current else "périmé, relancez ce script"))
        return 0 if current else 1
    FIXTURE.write_text(text, encoding="utf-8")
    print(f"{FIXTURE.relative_to(ROOT)} écrit")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
