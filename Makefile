# Two user-facing targets: `make run` and `make test` (ruff, then pytest). Everything else is bootstrap plumbing.
# `make run` is the production server for the hall (waitress, duplicate/serving.py) on HOST:PORT, every
# interface by default; `make dev` is Werkzeug's development server (reloader, debugger), loopback only.
PYTHON ?= python3
VENV := .venv
PG_PORT := 5432
ARGS ?=
HOST ?= 0.0.0.0
PORT ?= 5000

DEB_PACKAGES := poppler-utils libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 chromium nginx-light

.PHONY: run dev test mutation system-packages

run: $(VENV)/.requirements.stamp
	$(VENV)/bin/flask --app app serve --host $(HOST) --port $(PORT)

dev: $(VENV)/.requirements.stamp
	$(VENV)/bin/flask --app app run --debug --host 127.0.0.1 --port $(PORT)

test: $(VENV)/.requirements-dev.stamp system-packages
	@$(VENV)/bin/python -c "import socket; socket.create_connection(('127.0.0.1', $(PG_PORT)), 1).close()" 2>/dev/null \
	  || pg_ctlcluster --skip-systemctl-redirect $$(ls /etc/postgresql 2>/dev/null) main start \
	  || echo "PostgreSQL is not reachable on 127.0.0.1:$(PG_PORT): the PostgreSQL tests will be skipped."
	$(VENV)/bin/ruff check .
	$(VENV)/bin/python -m pytest -n auto --dist worksteal $(ARGS)

# Mutation testing of the rules core (not part of CI: long — the newest whole run, 27 November 2026, was
# 10 100 mutants, all of duplicate/core but the generated reachable_table.py, in 54 min 42 s with 2 workers on
# the shared 2-core machine; see docs/mutation-survivors.md for it and for per-group runs, e.g.
# `mutmut run --max-children 2 "duplicate.core.movements*"`). mutmut (configured in pyproject.toml, installed
# from requirements-mutation.txt: CI never needs it) mutates duplicate/core/*.py, duplicate/core/freeplay/*.py
# and duplicate/core/movements/*.py and runs the fast tests/core suite (freeplay/ and movements/ included,
# without the slow CLI test and the 150-table and 601-player relais) on each mutant;
# scripts/mutation_report.py then prints the kill rate per module and fails on any survivor not listed as
# equivalent in docs/mutation-survivors.md (target: 97 %).
mutation: $(VENV)/.requirements-mutation.stamp
	rm -rf mutants
	nice -n 10 $(VENV)/bin/mutmut run --max-children 2 > mutation.log 2>&1 || (tail -c 3000 mutation.log; false)
	$(VENV)/bin/python scripts/mutation_report.py

# The printing tests read PDFs back with poppler (pdftotext, pdftoppm); WeasyPrint needs pango; the
# end-to-end tests (tests/e2e) drive Debian's chromium with Playwright (never `playwright install`).
system-packages:
	@dpkg -s $(DEB_PACKAGES) >/dev/null 2>&1 \
	  || (apt-get update && apt-get install -y --no-install-recommends $(DEB_PACKAGES))

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

# Reinstall only when the requirements change (the stamp is newer than the files otherwise).
$(VENV)/.requirements.stamp: requirements.txt | $(VENV)/bin/python
	$(VENV)/bin/pip install -r requirements.txt
	touch $@

$(VENV)/.requirements-dev.stamp: requirements-dev.txt requirements.txt | $(VENV)/bin/python
	$(VENV)/bin/pip install -r requirements-dev.txt
	touch $@

$(VENV)/.requirements-mutation.stamp: requirements-mutation.txt requirements-dev.txt requirements.txt | $(VENV)/bin/python
	$(VENV)/bin/pip install -r requirements-mutation.txt
	touch $@
