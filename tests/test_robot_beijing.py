"""The robot's Beijing play (mj.robot.beijing): it never throws a wild tile, keeps its hand
closed unless a set makes it ready, and a Beijing table is played by this strategy."""

from __future__ import annotations

from collections import Counter

from mj import tiles
from mj.protocol import cmsg as C
from mj.robot.beijing import BeijingStrategy
from mj.robot.levels import LEVELS, LevelOne
from mj.robot.strategy import ClaimKind
from mj.robot.systems import ByRules
from mj.rules.beijing.rules import BEIJING
from mj.seatview import Phase, SeatView
from mj.tiles import parse, parse_many

ME = 1


def view_of(concealed: str, indicator: str, *, seat: int = 1) -> SeatView:
    """Seat ``seat`` holds ``concealed`` at a Beijing table whose indicator is ``indicator``, 20 tiles drawn."""
    view = SeatView(my_id=ME, rules=BEIJING)
    others = iter((2, 3, 4))
    view.seats = [ME if s == seat else next(others) for s in range(4)]
    for pid in view.seats:
        view.player(pid)
    view.phase = Phase.PLAYING
    view.active = True
    view.indicator = parse(indicator)
    view.concealed = parse_many(concealed)
    for _ in range(20):
        view.apply(C.PlayerDraws(3, tiles.BLANK))
    view.turn = ME
    return view


def offered(view: SeatView, tile: str) -> SeatView:
    left = view.seats[(view.my_seat - 1) % 4]
    view.turn = left
    view.apply(C.PlayerDiscards(left, parse(tile), 30, False))
    return view


#: 9C is wild (the indicator 8C names the tile one above it) and fits no set at face value.
LONE_WILD = "1B 2B 3B 4D 5D 6D 7D 8D 9D EW EW 2C 3C 9C"


def test_the_generic_level_would_throw_the_lone_wild_but_the_beijing_robot_never_does() -> None:
    assert LevelOne().discard(view_of(LONE_WILD, "8C")) == (parse("9C"), False)
    for level in (1, 2, 3):
        tile, _ = BeijingStrategy(level).discard(view_of(LONE_WILD, "8C"))
        assert tile != parse("9C")


def test_the_wild_counts_toward_the_hand_so_it_is_kept_ready() -> None:
    # With the wild the hand waits (2C 3C and a wild); the discard keeps it so: the pair of winds stays.
    tile, _ = BeijingStrategy(1).discard(view_of("1B 2B 3B 4D 5D 6D 7D 8D 9D EW EW 2C 9C NW", "8C"))
    assert tile in (parse("NW"), parse("2C"))


def test_a_closed_hand_claims_a_set_only_when_it_makes_the_hand_ready() -> None:
    far = "1B 2B 5B 9B 4D 6D 8D 1C 5C 9C EW SW NW"
    assert BeijingStrategy(1).claim(offered(view_of(far, "2C"), "3B"), parse("3B"), 30) is None
    ready_after = "1B 2B 4D 5D 6D 7D 8D 2C 3C 4C EW EW 9C"
    claim = BeijingStrategy(1).claim(offered(view_of(ready_after, "6C"), "3B"), parse("3B"), 30)
    assert claim is not None and claim.kind is ClaimKind.CHOW


def test_a_beijing_table_is_played_by_the_beijing_strategy() -> None:
    assert isinstance(ByRules(2)._for(view_of(LONE_WILD, "8C")), BeijingStrategy)


def test_level_one_sees_only_how_near_a_discard_leaves_the_hand_and_level_three_also_its_useful_tiles() -> None:
    # Four discards leave the hand as near to ready (3D wild, none held); throwing EW keeps the most useful tiles.
    hand = "1B 2B 3B 4C 5C 6C 7D 8D 9D 5B 5B 6B 9C EW"
    picks = {
        level: Counter(BeijingStrategy(level, seed=s).discard(view_of(hand, "2D"))[0] for s in range(40))
        for level in LEVELS
    }
    assert set(picks[3]) == {parse("EW")}
    assert len(picks[1]) == 4
    # Level 2 counts them in half of its hands (mj.robot.levels.SLIP): some seeds throw EW, others not.
    assert 0 < picks[2][parse("EW")] < 40
