# Plyground: `make run` serves it on http://127.0.0.1:8000 (PORT overrides), `make test` tests it.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
export PORT

.PHONY: run test setup install lint format browser-deps clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml setup.py games/connect4/_solver.c games/othello/_endgame.c games/chess/_engine.c games/_kernel.h | $(BIN)/python
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

install: $(VENV)/.installed

setup: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py seed_bots

run: setup
	exec $(BIN)/python -m server.run --port $(PORT)

# Every test the project has, the same way CI runs it (CI adds a PostgreSQL pass when it can).
# Installs redis-server and chromium with apt-get when missing and it can, or stops saying so.
test: install
	bash tests/run.sh

lint: install
	$(BIN)/ruff check . && $(BIN)/ruff format --check .

format: install
	$(BIN)/ruff format . && $(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache
