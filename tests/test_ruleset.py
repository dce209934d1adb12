"""The engine plays by whatever Ruleset it is given: scoring and completion are the rules', not the engine's."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

from mj import tiles
from mj.melds import Meld
from mj.protocol import cmsg as C
from mj.replay import read_entries, table_for
from mj.rules import registry
from mj.rules.base import DeadWallPolicy, HandScore, SeatHand, Win
from mj.rules.classical import danger
from mj.rules.classical.rules import CLASSICAL, ClassicalRules
from mj.rules.options import GameOptions
from mj.rules.ruleset import DrawsLeft, Ruleset, tiles_to_draw
from mj.tiles import Tile

SEED7 = read_entries(Path(__file__).parent / "data" / "reference" / "game-seed7-default-flowers.log.gz")


class FlatScores(ClassicalRules):
    """Classical play, but every hand scores 10 (a stand-in for another scoring system)."""

    name = "flat"

    def score(self, hand: SeatHand, win: Win | None, options: GameOptions, special_scores: bool) -> HandScore:
        return HandScore(10, "flat\nSCORE: 10")


class NobodyWins(ClassicalRules):
    name = "nobody"

    def is_mahjong(self, melds: Sequence[Meld], concealed: Sequence[Tile], options: GameOptions) -> bool:
        return False


def first_hand_scores(rules: Ruleset) -> list[C.HandScore]:
    table = table_for(SEED7, rules=rules)
    scores: list[C.HandScore] = []
    for entry in SEED7:
        if entry.direction == "<" and entry.text is not None:
            out = table.receive(entry.connection, entry.text)
            scores += [d.message for d in out if isinstance(d.message, C.HandScore) and d.logged]
            if any(isinstance(d.message, C.Settlement) for d in out):
                return scores
    raise AssertionError("no hand was settled")


def test_classical_is_the_default_and_scores_as_the_original() -> None:
    scores = first_hand_scores(CLASSICAL)
    assert len(scores) == 4 and {s.score for s in scores} != {10}


def test_the_engine_scores_with_the_rules_it_is_given() -> None:
    assert [s.score for s in first_hand_scores(FlatScores())] == [10, 10, 10, 10]


def test_the_rules_decide_what_goes_out() -> None:
    table = table_for(SEED7, rules=NobodyWins())
    claim = next(e for e in SEED7 if e.direction == "<" and (e.text or "").startswith("MahJong"))
    for entry in SEED7:
        if entry.direction == "<" and entry.text is not None:
            out = table.receive(entry.connection, entry.text)
            if entry is claim:
                break
    assert [d.message.encode() for d in out] == [
        f"Error {table.connections[claim.connection].seqno} Can't mah-jong with that tile"
    ]


def test_a_flower_left_in_hand_is_no_danger_to_anybody() -> None:
    """A player may keep a flower undeclared; judging whether it had a safe discard must not trip over it."""
    everything = frozenset(danger.Signal) - {danger.Signal.END_OF_WALL}
    assert CLASSICAL.danger(tiles.parse("1F"), everything, 100, 1) == frozenset()


def test_classical_has_a_dead_wall_only_when_dead_wall_is_on() -> None:
    options = GameOptions()
    options.set_value("DeadWall", 0)
    options.set_value("DeadWall16", 1)
    assert CLASSICAL.dead_wall(options) is DeadWallPolicy.NONE
    options.set_value("DeadWall", 1)
    assert CLASSICAL.dead_wall(options) is DeadWallPolicy.SIXTEEN
    options.set_value("DeadWall16", 0)
    assert CLASSICAL.dead_wall(options) is DeadWallPolicy.REPLENISHED


def draws_one_by_one(rules: Ruleset, live_left: int, tiles_left: int, kongs: int, options: GameOptions) -> int:
    """The engine's reading: before each draw it asks whether the wall ends, and stops at the first yes."""
    given = 0
    while given < live_left and not rules.wall_ends(tiles_left - given, kongs, options, loose=False):
        given += 1
    return given


def systems_and_options() -> list[tuple[Ruleset, GameOptions]]:
    """The three rule systems, and Beijing's arrangements whose end of the wall moves with the kongs."""
    systems: list[tuple[Ruleset, GameOptions]] = [(CLASSICAL, CLASSICAL.new_options())]
    for name in ("ims", "beijing"):
        rules = registry.get(name)
        systems.append((rules, rules.new_options()))
    for wall_end in (1, 2):
        beijing = registry.get("beijing")
        options = beijing.new_options()
        options.set_value("WallEnd", wall_end)
        systems.append((beijing, options))
    return systems


def test_the_draws_to_come_are_those_the_engine_gives_before_the_wall_ends_whatever_the_guess() -> None:
    for rules, options in systems_and_options():
        for dead in (0, 1, 14, 16):
            for live_left in range(0, 145):
                for kongs in range(5):
                    expected = draws_one_by_one(rules, live_left, live_left + dead, kongs, options)
                    refused = live_left - expected
                    for guess in sorted({0, 1, 5, refused - 1, refused, refused + 1, live_left}):
                        found = tiles_to_draw(rules, live_left, live_left + dead, kongs, options, guess)
                        assert found == expected, (rules.name, options.entries(), dead, live_left, kongs, guess)


def test_a_tables_count_of_the_draws_to_come_follows_its_wall_down_through_kongs_and_new_hands() -> None:
    """:class:`DrawsLeft` keeps the draws refused between counts: each count is still the engine's reading."""
    rng = random.Random(19)
    for rules, options in systems_and_options():
        draws_left = DrawsLeft()
        for dead in (0, 14):  # first counted near the end (a late kong), then a hand of the same counts
            for live in [*range(5, -1, -1), *range(100, -1, -1)]:
                expected = draws_one_by_one(rules, live, live + dead, 0, options)
                assert draws_left.count(rules, live, live + dead, 0, options) == expected, (live, dead)
        live, dead, kongs = 0, 0, 0
        for _ in range(3000):
            step = rng.random()
            if step < 0.02 or live == 0:  # a new hand: a full wall again
                live, dead, kongs = rng.randrange(90, 140), rng.choice((0, 1, 14, 16)), 0
            elif step < 0.06:  # a kong: a loose tile, from the dead wall or the live one
                kongs += 1
                if dead and rng.random() < 0.5:
                    dead -= 1
                else:
                    live -= 1
            else:
                live -= 1
            expected = draws_one_by_one(rules, live, live + dead, kongs, options)
            assert draws_left.count(rules, live, live + dead, kongs, options) == expected, (live, dead, kongs)
