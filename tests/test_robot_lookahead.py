"""The lookahead over the unseen tiles (mj.robot.lookahead) and level 3's use of it."""

from __future__ import annotations

from dataclasses import replace

from mj.robot import evaluate
from mj.robot.levels import LEVEL_THREE, LevelTwo
from mj.robot.lookahead import Lookahead
from mj.tiles import kind_index, parse
from test_robot import view_of
from test_robot_defence import risk, threatened

#: Ready after either discard with four unseen winning tiles: 9C leaves a closed wait on
#: 8C, 7C a wait on 9C or WD whose pung of dragons doubles the hand.
TWO_WAITS = "6B 6B 6B 7C 9C 9C 1D 2D 3D 6D 7D 8D WD WD"


def test_a_wait_completing_a_doubling_pung_is_worth_more_than_a_plain_wait_as_often_drawn() -> None:
    view = view_of(TWO_WAITS)
    vector, unseen = view.hand_counts(), view.unseen_counts()
    look = Lookahead()
    closed = look.ready_worth(view, evaluate.without(vector, parse("9C")), unseen)
    doubling = look.ready_worth(view, evaluate.without(vector, parse("7C")), unseen)
    assert unseen[kind_index(parse("8C"))] == unseen[kind_index(parse("9C"))] + unseen[kind_index(parse("WD"))]
    assert doubling > 1.5 * closed > 0


def test_a_ready_hand_whose_winning_tiles_have_all_come_into_sight_is_worth_nothing() -> None:
    view = view_of(TWO_WAITS)
    vector, unseen = view.hand_counts(), view.unseen_counts()
    rest = evaluate.without(vector, parse("9C"))
    look = Lookahead()  # the same hand: what it remembers must not hide the copies seen since
    assert look.ready_worth(view, rest, unseen) > 0
    unseen[kind_index(parse("8C"))] = 0
    assert look.ready_worth(view, rest, unseen) == 0


def test_a_hand_one_from_ready_is_worth_more_when_its_draws_lead_to_dearer_waits() -> None:
    # Both one from ready in the same shape; a pung of red dragons doubles, one of the
    # south wind does not (East's own and the prevailing wind is east).
    view = view_of("6B 6B 6B 1D 2D 3D 6D 7D 8D RD RD 2C 4C 9C")
    plain = view_of("6B 6B 6B 1D 2D 3D 6D 7D 8D SW SW 2C 4C 9C")
    look = Lookahead()

    def near(v: object) -> float:
        assert isinstance(v, type(view))
        rest = evaluate.without(v.hand_counts(), parse("9C"))
        return look.worth(v, rest, v.unseen_counts(), 1)

    assert near(view) > near(plain) > 0


def test_level_three_keeps_the_dearer_of_two_equally_wide_waits() -> None:
    view = view_of(TWO_WAITS)
    assert LevelTwo(rules=LEVEL_THREE).discard(view) == (parse("7C"), False)
    assert LevelTwo(rules=replace(LEVEL_THREE, lookahead=0)).discard(view) == (parse("9C"), False)


def test_a_ready_hand_waiting_for_a_flush_risks_a_more_dangerous_discard_than_its_sets_alone_are_worth() -> None:
    # Both discards leave the hand ready: GD (safer) on a single 3C, 3C on a single GD for
    # one suit with honours, which the sets alone (no pung) do not show.
    hand = "1B 2B 3B 3B 4B 5B 5B 6B 7B 7B 8B 9B 3C GD"
    assert risk(threatened(hand), "GD") < risk(threatened(hand), "3C")
    assert LevelTwo(rules=replace(LEVEL_THREE, ready_stake=False)).discard(threatened(hand)) == (parse("GD"), False)
    assert LevelTwo(rules=LEVEL_THREE).discard(threatened(hand)) == (parse("3C"), False)
