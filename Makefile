# Unix Mah-Jong in Python: developer tasks (GNU make).
VENV     := .venv
BIN      := $(VENV)/bin
STAMP    := $(VENV)/.installed

.PHONY: system venv compiled test lint play clean

# The system packages the goals need (scripts/setup-system.sh holds the list): installed when missing,
# as root or with sudo, or make stops at once saying the command to run. `make test` needs them all.
goal_is = $(filter $(1),$(MAKECMDGOALS))
SYSTEM := $(if $(call goal_is,test),test,$(if $(call goal_is,play),play,$(if $(call goal_is,compiled),build,venv)))
system:
	@scripts/setup-system.sh $(SYSTEM)

venv: $(STAMP)

# Installed as pure Python; `compiled` then builds the C extensions in place.
$(STAMP): pyproject.toml setup.py | system
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
	MYPYPATH=scripts $(BIN)/mypy scripts/deal_in_records.py

# Everything is installed by now, so no test may skip for a missing program: the variables make them fail.
# The suite runs on one process per CPU, at most four (pytest-xdist); an idle worker takes tests from a busy one.
test: lint compiled
	MJ_REQUIRE_ORIGINAL=1 MJ_REQUIRE_BROWSER=1 MJ_REQUIRE_COMPILED=1 MJ_REQUIRE_POSTGRES=1 \
		$(BIN)/pytest -q -n auto --maxprocesses 4 --dist worksteal

play: compiled
	$(BIN)/xmj

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build
	find src -name '*.so' -delete
