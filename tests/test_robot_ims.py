"""The robot's IMS play (mj.robot.ims): it aims for hands that reach the table's Minimum Fan,
bids only when the bid keeps the fan the hand needs, and each rule system's table is played
by its own strategy (mj.robot.systems).

Views are built by hand, as in tests/test_robot_defence.py: our seat (id 1) holds the tiles.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import pytest

from mj import tiles
from mj.arena.players import PlayerSpec, SpecError, parse_player
from mj.melds import Meld, chow
from mj.protocol import cmsg as C
from mj.robot.ims import IMSStrategy, _Table
from mj.robot.levels import LEVELS, LevelTwo, make_strategy
from mj.robot.strategy import ClaimKind
from mj.robot.systems import ByRules, own_strategy_plays
from mj.rules.classical.rules import CLASSICAL
from mj.rules.ims.rules import IMS
from mj.rules.ruleset import Ruleset
from mj.seatview import Phase, SeatView
from mj.tiles import parse, parse_many

ME = 1


def view_of(
    concealed: str, *, seat: int = 1, melds: Iterable[Meld] = (), minimum_fan: int = 0, rules: Ruleset = IMS
) -> SeatView:
    """Seat ``seat`` (0 = East) holds ``concealed`` in the middle of a hand, 40 tiles drawn."""
    view = SeatView(my_id=ME, rules=rules)
    if rules is IMS:
        view.options.set_value("MinimumFan", minimum_fan)
        view.changed()
    others = iter((2, 3, 4))
    view.seats = [ME if s == seat else next(others) for s in range(4)]
    for pid in view.seats:
        view.player(pid)
    view.phase = Phase.PLAYING
    view.active = True
    view.concealed = parse_many(concealed)
    view.me.melds = list(melds)
    for _ in range(40):
        view.apply(C.PlayerDraws(3, tiles.BLANK))
    view.turn = ME
    return view


def offered(view: SeatView, tile: str) -> SeatView:
    """The player on our left discards ``tile``: a bid may be made on it."""
    left = view.seats[(view.my_seat - 1) % 4]
    view.turn = left
    view.apply(C.PlayerDiscards(left, parse(tile), 50, False))
    return view


def plan_after(strategy: IMSStrategy, view: SeatView, discard: str) -> int:
    """How far from going out the hand is after ``discard`` (0: ready on a wait that may go out)."""
    table = _Table(view, view.unseen_counts())
    options = strategy._options(view, table, view.hand_counts(), list(view.concealed), view.melds)
    return next(distance for tile, distance, _, _ in options if tile == parse(discard))


# -- one strategy per rule system


def test_an_ims_table_is_played_by_the_ims_strategy_and_a_classical_one_by_the_generic_levels() -> None:
    robot = ByRules(3)
    assert isinstance(robot._for(view_of("1B 2B 3B", minimum_fan=2)), IMSStrategy)
    assert isinstance(robot._for(view_of("1B 2B 3B", rules=CLASSICAL)), LevelTwo)
    assert not isinstance(ByRules(3, generic=True)._for(view_of("1B 2B 3B", minimum_fan=2)), IMSStrategy)


@pytest.mark.parametrize("level", LEVELS)
def test_an_ims_table_asking_no_minimum_fan_is_played_by_the_generic_level(level: int) -> None:
    # Any complete hand goes out there, and the generic race scored more than the IMS plans.
    robot = ByRules(level)
    assert robot._for(view_of("1B 2B 3B", minimum_fan=0)) is robot.generic
    assert isinstance(robot._for(view_of("1B 2B 3B", minimum_fan=1)), IMSStrategy)
    hand = "1B 2B 3B 5C 6C 9C 1D 1D 4D 7D EW RD WD 8B"
    assert ByRules(level, seed=4).discard(view_of(hand)) == make_strategy(level, seed=4).discard(view_of(hand))


@pytest.mark.parametrize("minimum_fan", [0, 1, 2])
def test_own_strategy_plays_says_which_strategy_a_robot_plays_a_table_with(minimum_fan: int) -> None:
    # mj arena asks it before any game, to refuse variants the table's strategy would not read.
    for view in (view_of("1B 2B 3B", minimum_fan=minimum_fan), view_of("1B 2B 3B", rules=CLASSICAL)):
        for generic in (False, True):
            plays_ims = isinstance(ByRules(3, generic=generic)._for(view), IMSStrategy)
            assert own_strategy_plays(view, generic) == plays_ims


def test_a_classical_table_gets_the_generic_levels_moves() -> None:
    hand = "1B 2B 3B 5C 6C 9C 1D 1D 4D 7D EW RD WD 8B"
    for level in (1, 2, 3):
        assert ByRules(level).discard(view_of(hand, rules=CLASSICAL)) == make_strategy(level).discard(
            view_of(hand, rules=CLASSICAL)
        )


# -- the levels


def test_level_one_sees_only_how_near_a_discard_leaves_the_hand_and_level_three_also_its_useful_tiles() -> None:
    # Four discards leave the hand as near to going out; throwing EW keeps the most useful tiles.
    hand = "1B 2B 3B 4C 5C 6C 7D 8D 9D 5B 5B 6B 9C EW"
    picks = {
        level: Counter(IMSStrategy(level, seed=s).discard(view_of(hand, minimum_fan=1))[0] for s in range(40))
        for level in LEVELS
    }
    assert set(picks[3]) == {parse("EW")}
    assert len(picks[1]) == 4
    # Level 2 counts them in half of its hands (mj.robot.levels.SLIP): some seeds throw EW, others not.
    assert 0 < picks[2][parse("EW")] < 40


# -- the Minimum Fan


def test_a_concealed_hand_of_connections_is_ready_under_minimum_fan_two() -> None:
    # Front Door Clean and All Connections: 2 fan on either wait.
    view = view_of("1B 2B 3B 4C 5C 6C 7D 8D 9D 5B 5B 6B 7B EW", minimum_fan=2)
    assert plan_after(IMSStrategy(1), view, "EW") == 0


def test_a_wait_the_minimum_fan_forbids_does_not_count_as_ready() -> None:
    # With a connection revealed the same wait brings All Connections alone: 1 fan.
    hand = "4C 5C 6C 7D 8D 9D 5B 5B 6B 7B EW"
    revealed = [chow(parse("1B"), False)]
    assert plan_after(IMSStrategy(1), view_of(hand, melds=revealed, minimum_fan=0), "EW") == 0
    assert plan_after(IMSStrategy(1), view_of(hand, melds=revealed, minimum_fan=2), "EW") >= 1


def test_a_connection_that_costs_the_fan_the_hand_needs_is_passed_up() -> None:
    # Ready after the connection, but with Front Door Clean gone All Connections is its only fan.
    hand = "1B 2B 4C 5C 6C 7D 8D 9D 2C 2C 5B 6B NW"
    connect = IMSStrategy(1).claim(offered(view_of(hand, minimum_fan=0), "3B"), parse("3B"), 50)
    assert connect is not None and connect.kind is ClaimKind.CHOW
    assert IMSStrategy(1).claim(offered(view_of(hand, minimum_fan=2), "3B"), parse("3B"), 50) is None


# -- the arena's players


def test_an_arena_player_may_ask_for_the_generic_levels() -> None:
    spec = parse_player("level=2,generic=1")
    assert spec == PlayerSpec(2, generic=True)
    assert parse_player(str(spec)) == spec
    with pytest.raises(SpecError, match="generic"):
        parse_player("generic=yes")
