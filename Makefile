# First commands on a fresh machine: `make run` (the app) and `make test` (the whole suite).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run demo test lint bench setup clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,bench]'
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(BIN)/eixample serve

demo: $(STAMP)
	$(BIN)/eixample demo

test: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy
	$(BIN)/pytest -n 2

bench: $(STAMP)
	$(BIN)/eixample bench

clean:
	rm -rf $(VENV)
