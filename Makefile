# Unix Mah-Jong in Python: developer tasks (GNU make).
VENV     := .venv
BIN      := $(VENV)/bin
STAMP    := $(VENV)/.installed

.PHONY: venv test lint play clean

venv: $(STAMP)

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(BIN)/pip install -e '.[dev]'
	touch $@

lint: venv
	$(BIN)/ruff check src tests scripts
	$(BIN)/ruff format --check src tests scripts
	$(BIN)/mypy
	$(BIN)/mypy scripts/record_original_games.py
	$(BIN)/mypy scripts/compare_servers.py scripts/robot_games.py scripts/tournament.py

test: lint
	$(BIN)/pytest -q

play: venv
	$(BIN)/xmj

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
