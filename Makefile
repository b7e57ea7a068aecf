# First commands on a fresh machine: `make run` (the web app) and `make test` (the whole suite).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CHROMIUM := /usr/bin/chromium
POSTGRES := /usr/lib/postgresql
NGINX := /usr/sbin/nginx
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run demo test lint bench setup browser postgres nginx clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,bench]'
	touch $(STAMP)

setup: $(STAMP)

# The browser tests drive Debian's chromium through Playwright (Playwright's own download is not used).
$(CHROMIUM):
	$(SUDO) apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium >/dev/null

browser: $(CHROMIUM)

# The tests of several servers on one database start throwaway clusters of Debian's PostgreSQL.
$(POSTGRES):
	$(SUDO) apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq postgresql >/dev/null

postgres: $(POSTGRES)

# The rolling-restart test puts Debian's nginx (run as the test user, all its files in a temporary
# folder) in front of two server processes.
$(NGINX):
	$(SUDO) apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq nginx-light >/dev/null

nginx: $(NGINX)

# make run PORT=8080 (HOST=... and DATA=... too) passes them on to `eixample serve`
run: $(STAMP)
	$(BIN)/eixample serve$(if $(PORT), --port $(PORT))$(if $(HOST), --host $(HOST))$(if $(DATA), --data-dir $(DATA))

demo: $(STAMP)
	$(BIN)/eixample demo

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy

test: $(STAMP) $(CHROMIUM) $(POSTGRES) $(NGINX) lint
	$(BIN)/pytest -n 2

bench: $(STAMP)
	$(BIN)/eixample bench

clean:
	rm -rf $(VENV)
