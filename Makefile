# Unix Mah-Jong in Python: developer tasks (GNU make).
VENV     := .venv
BIN      := $(VENV)/bin
STAMP    := $(VENV)/.installed

.PHONY: venv compiled test lint play clean

venv: $(STAMP)

# Installed as pure Python; `compiled` then builds the C extensions in place.
$(STAMP): pyproject.toml setup.py
	python3 -m venv $(VENV)
	MJ_NO_EXTENSIONS=1 $(BIN)/pip install -e '.[dev]'
	touch $@

# The hot modules (mj/compiled.py) compiled with mypyc; only those whose C changed are rebuilt.
compiled: venv
	$(BIN)/python setup.py -q build_ext --inplace

lint: venv
	$(BIN)/ruff check src tests scripts setup.py
	$(BIN)/ruff format --check src tests scripts setup.py
	$(BIN)/mypy
	$(BIN)/mypy scripts/record_original_games.py
	$(BIN)/mypy scripts/compare_servers.py scripts/robot_games.py scripts/tournament.py

test: lint compiled
	$(BIN)/pytest -q

play: compiled
	$(BIN)/xmj

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build
	find src -name '*.so' -delete
