# Jink: the commands a person needs.
#
#   make demo    build .venv, migrate, load the demo club, run the site on http://127.0.0.1:8000/
#                (SQLite, tasks in process: needs nothing installed)
#   make test    ruff (check and format), import-linter contracts, missing-migration check, pytest
#                (database tests on PostgreSQL at 127.0.0.1:5432, worker tests on Redis at
#                127.0.0.1:6379 when they answer; skipped otherwise, failing when CI=true)
#   make test-fast  the same without the tests marked slow (browser, real workers, many
#                examples): pytest -m "not slow"; PYTEST_OPTIONS='...' passes options to pytest
#   make bench   every bench/bench_*.py, printing figures
#   make lint    ruff (check and format --check) and import-linter only
#   make messages  refresh locale/fr/LC_MESSAGES/django.po from the code and compile its .mo
#                (needs Debian's gettext; the compiled .mo is committed, so running needs none)
#   make serve   the real stack: gunicorn + two Celery workers (default queue, standings) + beat
#                (needs DATABASE_URL, REDIS_URL and DJANGO_SECRET_KEY, e.g. in .env)
#   make backup  pg_dump -Fc of DATABASE_URL into backups/ (BACKUP_DIR=...), then keep 7 daily,
#                5 weekly, 12 monthly (scripts/backup.sh; docs/operations.md, "Backups")
#   make restore DUMP=backups/jink-....dump DB=new_name  restore into a new database (refuses a
#                non-empty one unless FORCE=1; scripts/restore.py)
#
# .venv is built from pyproject.toml and rebuilt only when pyproject.toml changes.

SHELL := /bin/bash
.DEFAULT_GOAL := help
.PHONY: help demo test test-fast bench lint serve venv messages backup restore

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.jink-installed

DEMO_HOST := 127.0.0.1:8000
DEMO_ADMIN_USER := admin
DEMO_ADMIN_PASSWORD := jink-demo-admin
# The demo is development only: debug on, a fixed secret, SQLite and tasks in process whatever
# the shell or .env say (an empty variable in the environment wins over .env).
DEMO_ENV := DJANGO_DEBUG=true DJANGO_SECRET_KEY=jink-demo-secret-not-for-production \
	DATABASE_URL= REDIS_URL= DJANGO_HTTPS=false

SERVE_BIND ?= 127.0.0.1:8000
SERVE_WORKERS ?= 3

help:
	@sed -n '2,21p' Makefile | sed 's/^# \{0,1\}//'

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $@

venv: $(STAMP)

demo: $(STAMP)
	$(DEMO_ENV) $(BIN)/python manage.py migrate --noinput
	$(DEMO_ENV) $(BIN)/python manage.py ensure_superuser \
		--username $(DEMO_ADMIN_USER) --password $(DEMO_ADMIN_PASSWORD) --recovery-codes
	@# The admin is also an organiser of the demo federation.
	$(DEMO_ENV) $(BIN)/python manage.py load_demo --admin $(DEMO_ADMIN_USER)
	@# Static files are served from the source folders in debug: no collectstatic needed.
	@echo
	@echo "Jink demo (SQLite db.sqlite3, tasks in process):"
	@echo "  site      http://$(DEMO_HOST)/"
	@echo "  API docs  http://$(DEMO_HOST)/api/docs/"
	@echo "  admin     http://$(DEMO_HOST)/admin/   login: $(DEMO_ADMIN_USER) / $(DEMO_ADMIN_PASSWORD), then a recovery code printed above"
	@echo "  demo club logins are printed above by load_demo (organiser, scorekeeper, player)"
	@echo "  federation http://$(DEMO_HOST)/federations/kilkenny/   (its organisers: organiser, $(DEMO_ADMIN_USER))"
	@echo "  ranking   http://$(DEMO_HOST)/f/kilkenny/rankings/   (public)"
	@echo "  league    http://$(DEMO_HOST)/f/kilkenny/leagues/winter-league/   (public; captains: organiser, scorekeeper, player, noreen)"
	@echo
	$(DEMO_ENV) $(BIN)/python manage.py runserver $(DEMO_HOST)

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	DJANGO_DEBUG=true DJANGO_SECRET_KEY=makemigrations-check DATABASE_URL= REDIS_URL= \
		$(BIN)/python manage.py makemigrations --check --dry-run
	@# The browser tests drive Debian's Chromium, the pooler test its PgBouncer: installed here
	@# when missing (root and apt-get).
	bash scripts/ensure_test_packages.sh
	@# pytest exits 5 when it collects no test: not a failure of the suite.
	env -u DJANGO_SETTINGS_MODULE $(BIN)/pytest $(PYTEST_OPTIONS); status=$$?; \
		if [ $$status -eq 5 ]; then echo "pytest collected no tests"; status=0; fi; \
		exit $$status

# A developer's quicker run: every check, and pytest without the tests marked slow.
test-fast:
	@$(MAKE) --no-print-directory test PYTEST_OPTIONS='-m "not slow" $(PYTEST_OPTIONS)'

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

bench: $(STAMP)
	@set -e; found=0; \
	for script in bench/bench_*.py; do \
		[ -e "$$script" ] || continue; found=1; \
		echo "== $$script"; \
		PYTHONPATH=$(CURDIR) DJANGO_SECRET_KEY=$${DJANGO_SECRET_KEY:-jink-bench-secret-not-for-production} \
			DJANGO_HTTPS=false $(BIN)/python "$$script"; \
	done; \
	[ $$found -eq 1 ] || echo "no bench/bench_*.py yet"

serve: $(STAMP)
	@$(BIN)/python manage.py shell -c 'from django.conf import settings as s; import sys; \
		real = s.REDIS_URL and s.DATABASES["default"]["ENGINE"].endswith("postgresql"); \
		sys.exit(0 if real else "make serve runs the real stack: set DATABASE_URL (PostgreSQL) and REDIS_URL")' \
		|| exit 2
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput
	@# Two workers: one on the default queue, one on the standings lane (<default>.standings:
	@# a hand's match progress and standings refresh never wait behind the other jobs).
	@trap 'kill $$(jobs -p) 2>/dev/null' EXIT INT TERM; \
	queue=$$($(BIN)/python manage.py shell -c \
		'from django.conf import settings as s; print(s.CELERY_TASK_DEFAULT_QUEUE)'); \
	$(BIN)/celery -A config worker --loglevel=INFO -Q "$$queue" -n "default@%h" & \
	$(BIN)/celery -A config worker --loglevel=INFO -Q "$$queue.standings" -n "standings@%h" \
		--concurrency=2 & \
	$(BIN)/celery -A config beat --loglevel=INFO --schedule=$(VENV)/celerybeat-schedule & \
	$(BIN)/gunicorn config.wsgi --bind $(SERVE_BIND) --workers $(SERVE_WORKERS) --access-logfile -

backup:
	PYTHON=$(BIN)/python bash scripts/backup.sh

restore: $(STAMP)
	@test -n "$(DUMP)" -a -n "$(DB)" || { echo "usage: make restore DUMP=file DB=new_database [FORCE=1]"; exit 2; }
	$(BIN)/python scripts/restore.py "$(DUMP)" "$(DB)" $(if $(FORCE),--force,)

messages: $(STAMP)
	DJANGO_DEBUG=true DJANGO_SECRET_KEY=messages DATABASE_URL= REDIS_URL= $(BIN)/python manage.py \
		makemessages -l fr --keyword=N_ --no-location --ignore=.venv --ignore=tests --ignore=bench --ignore=staticfiles
	DJANGO_DEBUG=true DJANGO_SECRET_KEY=messages DATABASE_URL= REDIS_URL= $(BIN)/python manage.py \
		compilemessages -l fr --ignore=.venv
