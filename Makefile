# make run | make test | make bench — each creates .venv (Python 3.11) and installs the project first.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV ?= .venv
BIN := $(VENV)/bin
# make run PORT=8080 HOST=0.0.0.0
PORT ?= 8000
HOST ?= 127.0.0.1

.PHONY: install run test bench openapi

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Reinstalled when pyproject.toml changes; the stamp keeps `make test` fast otherwise.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

install: $(VENV)/.installed

run: install
	$(BIN)/delve serve --host $(HOST) --port $(PORT)

test: install
	$(BIN)/python -m pytest

bench: install
	$(BIN)/delve bench --out benchmarks/result.json

# openapi.yaml: the whole served contract (server/openapi.yaml with every game's schemas in place)
openapi: install
	$(BIN)/python -m server.spec > openapi.yaml
