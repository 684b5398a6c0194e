# Two user-facing targets: `make run` and `make test`. Everything else is bootstrap plumbing.
PYTHON ?= python3
VENV := .venv
PG_PORT := 5432
ARGS ?=

.PHONY: run test

run: $(VENV)/.requirements.stamp
	$(VENV)/bin/flask --app app run

test: $(VENV)/.requirements-dev.stamp
	@$(VENV)/bin/python -c "import socket; socket.create_connection(('127.0.0.1', $(PG_PORT)), 1).close()" 2>/dev/null \
	  || pg_ctlcluster --skip-systemctl-redirect $$(ls /etc/postgresql 2>/dev/null) main start \
	  || echo "PostgreSQL is not reachable on 127.0.0.1:$(PG_PORT): the PostgreSQL tests will be skipped."
	$(VENV)/bin/python -m pytest $(ARGS)

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

# Reinstall only when the requirements change (the stamp is newer than the files otherwise).
$(VENV)/.requirements.stamp: requirements.txt | $(VENV)/bin/python
	$(VENV)/bin/pip install -r requirements.txt
	touch $@

$(VENV)/.requirements-dev.stamp: requirements-dev.txt requirements.txt | $(VENV)/bin/python
	$(VENV)/bin/pip install -r requirements-dev.txt
	touch $@
