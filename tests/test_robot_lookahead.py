"""The lookahead over the unseen tiles (mj.robot.lookahead) and level 3's use of it."""

from __future__ import annotations

from dataclasses import replace

from mj.robot import evaluate
from mj.robot.levels import LEVEL_THREE, LevelTwo
from mj.robot.lookahead import Lookahead
from mj.tiles import kind_index, parse
from test_robot import view_of

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


def test_a_ready_hand_whose_winning_tiles_are_all_in_sight_is_worth_nothing() -> None:
    view = view_of(TWO_WAITS)
    vector, unseen = view.hand_counts(), view.unseen_counts()
    rest = evaluate.without(vector, parse("9C"))
    assert Lookahead().ready_worth(view, rest, unseen) > 0
    unseen[kind_index(parse("8C"))] = 0
    assert Lookahead().ready_worth(view, rest, unseen) == 0


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
    looking = LevelTwo(rules=replace(LEVEL_THREE, lookahead=1))
    assert looking.discard(view) == (parse("7C"), False)


def test_a_hand_far_from_ready_and_nearly_one_suit_gives_a_step_to_throw_the_other_suit() -> None:
    # Three from ready throwing the west wind; four throwing the 5C of the 5C-6C pair.
    view = view_of("1B 1B 2B 2B 2B 5B 6B 8B 5C 6C SW WW WD GD")
    vector = view.hand_counts()
    assert evaluate.shanten(evaluate.without(vector, parse("WW")), 0, False) == 3
    assert evaluate.shanten(evaluate.without(vector, parse("5C")), 0, False) == 4
    assert LevelTwo(rules=replace(LEVEL_THREE, flush_off=0)).discard(view) == (parse("WW"), False)
    assert LevelTwo(rules=replace(LEVEL_THREE, flush_off=3)).discard(view)[0] in (parse("5C"), parse("6C"))


def test_a_hand_near_ready_never_gives_a_step_for_a_flush() -> None:
    # One from ready: the 4C-5C pair stays (the wind goes) however few tiles of other suits are left.
    view = view_of("1B 2B 3B 4B 5B 6B 7B 7B 9B 9B 4C 5C WW RD")
    flushing = LevelTwo(rules=replace(LEVEL_THREE, flush_off=3))
    assert flushing.discard(view)[0] in (parse("WW"), parse("RD"))
