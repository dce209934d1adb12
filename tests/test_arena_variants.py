"""``mj arena`` players that are variants of a level: fields of its Defence set in the specification."""

from __future__ import annotations

import pickle
import re
from dataclasses import replace
from pathlib import Path

import pytest

from mj import arena
from mj.arena.game import GameSetup, play
from mj.arena.players import PlayerSpec, SpecError, check_rules, parse_player
from mj.cli import main
from mj.robot.levels import DEFENCE_FIELDS, LEVEL_THREE, LEVEL_TWO, LevelTwo
from mj.robot.personality import Personality
from mj.robot.systems import ByRules
from mj.rules import registry

SHORT = arena.game_options(settings=["NumRounds=1"])


def test_defence_fields_are_read_as_their_types() -> None:
    spec = parse_player("level=3,cost=1,major_pungs=0,hurry=0.25")
    assert spec.defence == replace(LEVEL_THREE, cost=1.0, major_pungs=False, hurry=0.25)
    assert parse_player("valued=TRUE,level=2").defence == replace(LEVEL_TWO, valued=True)


def test_fields_equal_to_the_level_s_own_are_the_plain_level() -> None:
    assert parse_player("level=3,cost=0.5,major_pungs=1") == PlayerSpec(3)


@pytest.mark.parametrize(
    "text",
    [
        "level=3,cost=1,hurry=0",
        "level=2,chowness=0.5,valued=1,east_stake=2,name=Stakes",
        "level=3,quiet=0.01,major_pungs=0,generic=1",
    ],
)
def test_a_variant_prints_as_it_reads(text: str) -> None:
    assert str(parse_player(text)) == text
    assert parse_player(str(parse_player(text))) == parse_player(text)


def test_a_variant_prints_only_the_fields_that_differ_from_its_level() -> None:
    assert str(parse_player("hurry=0,cost=0.5,level=3,chowness=1")) == "level=3,chowness=1,hurry=0"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("level=1,cost=1", "level 1 does not defend"),
        ("level=3,cost=high", "cost: 'high' is not a finite number"),
        ("level=3,prospect=nan", "prospect: 'nan' is not a finite number"),
        ("level=2,valued=maybe", "valued: 'maybe' is not 0, 1, true or false"),
        ("level=3,cost=1,cost=2", "cost given twice"),
        ("level=3,cost=1,2", "expected KEY=VALUE, got '2'"),
        ("level=3,nerve=1", "unknown key 'nerve' (known: level, chowness"),
    ],
)
def test_a_bad_variant_says_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(SpecError, match=re.escape(message)):
        parse_player(text)


def test_unknown_keys_list_the_defence_fields() -> None:
    with pytest.raises(SpecError, match=re.escape(", ".join(DEFENCE_FIELDS)) + r"\)$"):
        parse_player("nerve=1")


def test_the_strategy_plays_the_replaced_defence() -> None:
    spec = parse_player("level=3,cost=2,chowness=-1")
    strategy = spec.strategy(5)
    assert isinstance(strategy, ByRules)
    assert isinstance(strategy.generic, LevelTwo)
    assert strategy.generic.rules == replace(LEVEL_THREE, cost=2.0)
    assert strategy.generic.personality == Personality(chowness=(-1.0,))


def test_a_variant_travels_to_the_worker_processes_and_plays_the_same_games_there() -> None:
    # A specification reaches each worker process by pickle, its Defence with it (the compiled build too).
    spec = parse_player("level=3,cost=1,major_pungs=0")
    assert pickle.loads(pickle.dumps(spec)) == spec
    players = ["level=3", str(spec), "level=2", "level=1"]
    alone = arena.run(players, games=4, seed=7, jobs=1, options=SHORT)
    assert arena.run(players, games=4, seed=7, jobs=2, options=SHORT).games == alone.games


def test_a_variant_plays_a_different_game_from_its_level(tmp_path: Path) -> None:
    # The same seed and seats, the fourth player once level 3 and once a level 3 that folds at
    # any risk: only the Defence differs, so the moves logged differ only if it is played.
    logs = []
    for fourth in ("level=3", "level=3,cost=1000,quiet=0"):
        log = tmp_path / f"{len(logs)}.log"
        players = (PlayerSpec(3), PlayerSpec(3), PlayerSpec(3), parse_player(fourth))
        play(GameSetup(11, 0, players, SHORT, log))
        logs.append(log.read_bytes())
    assert logs[0] != logs[1]


#: Short games that each rule system's own strategy plays (IMS gives tables without a minimum fan to the
#: generic level; Beijing has no NumRounds, its games are played whole).
OWN_STRATEGY_OPTIONS = {"ims": ["NumRounds=1", "MinimumFan=2"], "beijing": []}


@pytest.mark.parametrize("rules", ["ims", "beijing"])
def test_a_variant_is_refused_where_the_rules_own_strategy_plays(
    rules: str, capsys: pytest.CaptureFixture[str]
) -> None:
    options = [word for setting in OWN_STRATEGY_OPTIONS[rules] for word in ("--option", setting)]
    assert main(["arena", "--rules", rules, *options, "default", "level=3,hurry=0,cost=1", "default", "default"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"mj arena: error: player 2 ('level=3,hurry=0,cost=1'): hurry: the {rules} rules' own strategy plays these"
        " options and reads only cost, quiet, drop of the Defence (generic=1 plays the generic level, which reads"
        " them all)\n"
    )


@pytest.mark.parametrize("rules", ["ims", "beijing"])
def test_a_variant_of_the_fields_a_rule_system_s_strategy_reads_plays_a_different_game(
    rules: str, tmp_path: Path
) -> None:
    # As above, at a table of the rule system's own strategy: the cost reaches it, so a level 3
    # that folds at any risk plays other moves.
    options = arena.game_options(settings=OWN_STRATEGY_OPTIONS[rules], rules=registry.get(rules))
    logs = []
    for fourth in ("level=3", "level=3,cost=1000,quiet=0"):
        spec = parse_player(fourth)
        check_rules(spec, rules, options)
        log = tmp_path / f"{len(logs)}.log"
        play(GameSetup(11, 0, (PlayerSpec(3), PlayerSpec(3), PlayerSpec(3), spec), options, log, rules))
        logs.append(log.read_bytes())
    assert logs[0] != logs[1]


def test_any_field_s_variant_plays_ims_where_the_generic_level_plays_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Without a minimum fan (MinimumFan=0, IMS's default) the generic level plays IMS, and reads
    # every field of the Defence: a level 3 weighing the threat six times as much plays other moves.
    logs = []
    for fourth in ("level=3", "level=3,hurry=3"):
        log_dir = tmp_path / str(len(logs))
        argv = ["--rules", "ims", "--games", "4", "--seed", "11", "--jobs", "1", "--option", "NumRounds=1"]
        assert main(["arena", *argv, "--log", str(log_dir), "level=3", "level=3", "level=3", fourth]) == 0
        assert capsys.readouterr().err == ""
        logs.append(b"".join((log_dir / f"seed11-rotation{r}.log").read_bytes() for r in range(4)))
    assert logs[0] != logs[1]


@pytest.mark.parametrize(("text", "rules"), [("level=3,cost=1,generic=1", "ims"), ("level=2,cost=1", "classical")])
def test_a_variant_is_accepted_where_the_generic_level_plays(text: str, rules: str) -> None:
    check_rules(parse_player(text), rules)
