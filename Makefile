# Two commands for a newcomer: `make run` and `make test`. Every install step lives here.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
FLASK  := $(VENV)/bin/flask --app app
STAMP  := $(VENV)/.installed

.PHONY: run serve test lint fmt typecheck pytest system-deps bench clean i18n engine-compiled \
	test-engine-compiled bench-engine-compiled

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	touch $(STAMP)

## Set up everything and serve the app on http://127.0.0.1:5000 with a demo club (SQLite).
run: $(STAMP)
	$(FLASK) db upgrade
	$(FLASK) demo --if-empty
	$(FLASK) run --host 127.0.0.1 --port 5000

## Serve with gunicorn (gunicorn.conf.py: gevent workers, live streams) on DATABASE_URL (default SQLite).
serve: $(STAMP)
	$(FLASK) db upgrade
	$(VENV)/bin/gunicorn -c gunicorn.conf.py "app:create_app()"

## Install what the tests need (Python packages; Debian's chromium, CJK font, poppler, PostgreSQL
## server, HAProxy, C compiler and Python headers) and run them all. The app tests run on every database
## of DB; the engine tests run twice, on the pure engine and on its mypyc build (compiled first,
## so a machine that cannot compile fails at once: a C compiler and Python.h are required).
DB ?= sqlite,postgresql
test: $(STAMP) system-deps lint typecheck engine-compiled pytest test-engine-compiled

# Debian packages, each installed only when missing: chromium and a CJK font (browser tests),
# poppler-utils (PDF rendering), postgresql (the app tests start a throwaway server of it),
# haproxy (the two-server test puts it in front of two app servers), gcc
# and python3-dev (the compiled engine: a C compiler and the headers of Debian's python3; another
# Python, such as pyenv's, brings its own headers).
system-deps:
	@missing=""; \
	command -v cc >/dev/null 2>&1 || command -v gcc >/dev/null 2>&1 || missing="$$missing gcc"; \
	inc=$$($(PYTHON) -c 'import sysconfig; print(sysconfig.get_paths()["include"])'); \
	test -f "$$inc/Python.h" || missing="$$missing python3-dev"; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	test -f /usr/share/fonts/truetype/wqy/wqy-microhei.ttc || missing="$$missing fonts-wqy-microhei"; \
	command -v pdftoppm >/dev/null 2>&1 || missing="$$missing poppler-utils"; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql"; \
	test -x /usr/sbin/haproxy || command -v haproxy >/dev/null 2>&1 || missing="$$missing haproxy"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  echo "installing:$$missing"; \
	  $$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q $$missing; \
	fi

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: $(STAMP)
	$(VENV)/bin/mypy engine app

# The suite runs on TEST_WORKERS processes (pytest-xdist; default: the machine's cores, at most
# 4): each worker starts its own PostgreSQL server and app servers. TEST_WORKERS=0 runs it in one.
TEST_WORKERS ?= $(shell n=$$(nproc 2>/dev/null || echo 2); [ $$n -gt 4 ] && n=4; echo $$n)
pytest: $(STAMP)
	$(PY) -m pytest -q -n $(TEST_WORKERS) --db $(DB)

fmt: $(STAMP)
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

## Translations: extract every _() string, merge into app/translations/*/messages.po, compile .mo.
## Translate the new empty msgstr entries in the .po files, then run it again and commit .po and .mo.
i18n: $(STAMP)
	$(VENV)/bin/pybabel extract -F babel.cfg -k _l -k lazy_gettext -k ngettext:1,2 \
	  --no-location --sort-output --project shengji-club -o app/translations/messages.pot .
	$(VENV)/bin/pybabel update -i app/translations/messages.pot -d app/translations \
	  --width 100 --ignore-obsolete
	$(VENV)/bin/pybabel compile -d app/translations --statistics

bench: $(STAMP)
	@for b in bench/*.py; do echo "== $$b"; $(PY) $$b; done

## The engine compiled with mypyc into build/mypyc (an optional accelerator for self-play and
## arenas; the pure engine stays the reference and is what the app imports), its tests (part of
## `make test`: ENGINE_BUILD makes the run fail unless the compiled modules are the ones
## imported), its speed.
engine-compiled: $(STAMP)
	$(PY) tools/compile_engine.py

test-engine-compiled: engine-compiled
	ENGINE_BUILD=compiled $(PY) -m pytest -q -n $(TEST_WORKERS) -o pythonpath="build/mypyc ." tests/engine

bench-engine-compiled: engine-compiled
	$(PY) bench/engine_selfplay.py --compiled --against 6645ff0

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
