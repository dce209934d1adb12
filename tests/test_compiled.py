"""The hot modules run compiled by mypyc, and compiled they play exactly the games the Python source plays.

``make compiled`` (run by ``make test`` and ``make play``) builds them. Without a
build the first test skips, except under ``MJ_REQUIRE_COMPILED=1`` (``.ci/run``),
where it fails: the benchmarks' figures are those of the compiled build.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mj import compiled
from mj.arena.game import GameSetup, play
from mj.arena.players import parse_player
from mj.rules import registry
from mj.simulate import simulate

SOURCE = compiled.PACKAGE
#: A table of every level and some strategy options, so that all the compiled robot code plays.
PLAYERS = ("level=1", "level=2,chowness=-1", "default", "level=3,majorness=0.8,suitness=0.6")
SEEDS = (1001, 1002)

#: Plays the games of ``SEEDS`` with ``PLAYERS`` and prints each record; run from a copy of the sources only.
PLAY_PURE = f"""
import sys
from pathlib import Path
from mj import compiled
from mj.arena.game import GameSetup, play
from mj.arena.players import parse_player
assert not compiled.compiled(), compiled.describe()
players = tuple(parse_player(p) for p in {PLAYERS!r})
for seed in {SEEDS!r}:
    print(repr(play(GameSetup(seed, seed % 4, players, log=Path(sys.argv[1]) / f"{{seed}}.log"))))
"""


def require_compiled() -> list[str]:
    """The compiled modules; the calling test skips on a pure build, except under ``MJ_REQUIRE_COMPILED=1``."""
    built = compiled.compiled()
    if not built and os.environ.get("MJ_REQUIRE_COMPILED", "") in ("", "0"):
        pytest.skip("pure Python build (run `make compiled`)")
    return built


def test_every_hot_module_runs_compiled() -> None:
    assert require_compiled() == list(compiled.MODULES), compiled.describe()
    assert not compiled.stale()


def test_a_module_edited_after_its_build_is_reported_stale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    require_compiled()
    edited = tmp_path / "tiles.py"
    edited.touch()
    later = time.time() + 60
    os.utime(edited, (later, later))
    source = compiled.source
    monkeypatch.setattr(compiled, "source", lambda module: edited if module == "mj.tiles" else source(module))
    assert compiled.stale() == ["mj.tiles"]
    assert compiled.describe().endswith("; STALE, edited since built: mj.tiles (run `make compiled`)")


def test_compiled_and_pure_python_play_the_same_games(tmp_path: Path) -> None:
    pure = tmp_path / "pure"
    shutil.copytree(SOURCE, pure / "mj", ignore=shutil.ignore_patterns("*.so", "__pycache__", "static"))
    pure_logs, our_logs = tmp_path / "pure-logs", tmp_path / "logs"
    pure_logs.mkdir()
    our_logs.mkdir()
    env = {**os.environ, "PYTHONPATH": str(pure)}
    ran = subprocess.run([sys.executable, "-c", PLAY_PURE, str(pure_logs)], env=env, capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr
    players = tuple(parse_player(p) for p in PLAYERS)
    records = [repr(play(GameSetup(seed, seed % 4, players, log=our_logs / f"{seed}.log"))) for seed in SEEDS]
    assert ran.stdout.splitlines() == records
    for seed in SEEDS:
        log = f"{seed}.log"
        assert (pure_logs / log).read_bytes() == (our_logs / log).read_bytes()


#: Plays an arena game and a random-move simulation under the rules named in argv[1], printing what each did;
#: run from a copy of the sources.
PLAY_RULES = f"""
import sys
from mj import compiled
from mj.arena.game import GameSetup, play
from mj.arena.players import parse_player
from mj.rules import registry
from mj.simulate import simulate
assert not compiled.compiled(), compiled.describe()
players = tuple(parse_player(p) for p in {PLAYERS!r})
print(repr(play(GameSetup({SEEDS[0]}, 0, players, rules=sys.argv[1]))))
print(repr(simulate(registry.get(sys.argv[1]), hands=30, seed=3).moves))
"""


@pytest.mark.parametrize("rules", ["ims", "beijing"])
def test_compiled_and_pure_python_play_the_same_games_under_other_rules(rules: str, tmp_path: Path) -> None:
    """The IMS and Beijing legal moves, scorers and hand analysis, and the simulation, compiled decide
    exactly as their source does."""
    require_compiled()
    pure = tmp_path / "pure"
    shutil.copytree(SOURCE, pure / "mj", ignore=shutil.ignore_patterns("*.so", "__pycache__", "static"))
    env = {**os.environ, "PYTHONPATH": str(pure)}
    ran = subprocess.run([sys.executable, "-c", PLAY_RULES, rules], env=env, capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr
    players = tuple(parse_player(p) for p in PLAYERS)
    ours = [
        repr(play(GameSetup(SEEDS[0], 0, players, rules=rules))),
        repr(simulate(registry.get(rules), hands=30, seed=3).moves),
    ]
    assert ran.stdout.splitlines() == ours
