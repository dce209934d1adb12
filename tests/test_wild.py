"""Hand analysis with wild tiles (mj.hand.wild): complete hands, readings, waits and shanten."""

from __future__ import annotations

import itertools
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from mj.hand import counts, is_mahjong
from mj.hand.wild import (
    NO_WILD,
    arrangements,
    is_complete,
    jokers_needed,
    shanten,
    shanten_after_draws,
    wait_indices,
)
from mj.tiles import KINDS, Tile, is_suited, kind_index, parse


def tiles(text: str) -> list[Tile]:
    return [parse(c) for c in text.split()]


def vector(text: str) -> list[int]:
    return counts(tiles(text))


def wild(text: str) -> int:
    return kind_index(parse(text))


@st.composite
def complete_concealed(draw: st.DrawFn) -> list[Tile]:
    """Four random chows or pungs and a pair, 14 tiles, no kind more than four times."""
    left = dict.fromkeys(KINDS, 4)
    hand: list[Tile] = []
    for _ in range(4):
        if draw(st.booleans()):
            chows = [t for t in KINDS if is_suited(t) and t % 10 <= 7 and all(left[t + i] for i in range(3))]
            low = draw(st.sampled_from(chows))
            group = [low, low + 1, low + 2]
        else:
            group = [draw(st.sampled_from([t for t in KINDS if left[t] >= 3]))] * 3
        for t in group:
            left[t] -= 1
        hand += group
    hand += [draw(st.sampled_from([t for t in KINDS if left[t] >= 2]))] * 2
    return hand


def test_without_wilds_a_hand_is_complete_exactly_when_the_classical_test_says_so() -> None:
    for text in (
        "1B 2B 3B 4B 5B 6B 7B 8B 9B 1C 1C 5D 6D 7D",
        "1B 2B 3B 4B 5B 6B 7B 8B 9B 1C 2C 5D 6D 7D",
        "1B 1B 2B 2B 3B 3B EW EW RD RD 9C 9C 5D 5D",
    ):
        assert is_complete(vector(text), NO_WILD, 0) == is_mahjong(tiles(text), 0, True)


@settings(max_examples=300, deadline=None)
@given(complete_concealed(), st.data())
def test_a_complete_hand_stays_complete_whatever_tiles_become_wilds(hand: list[Tile], data: st.DataObject) -> None:
    replaced = data.draw(st.integers(1, 3))
    wild_kind = data.draw(st.sampled_from([t for t in KINDS if hand.count(t) + replaced <= 4]))
    positions = data.draw(st.permutations(range(14)))[:replaced]
    changed = [wild_kind if i in positions else t for i, t in enumerate(hand)]
    assert is_complete(counts(changed), kind_index(wild_kind), 0)
    assert arrangements(counts(changed), kind_index(wild_kind), 0)


@settings(max_examples=150, deadline=None)
@given(complete_concealed(), st.data())
def test_wilds_complete_a_hand_exactly_when_some_tiles_in_their_place_do(hand: list[Tile], data: st.DataObject) -> None:
    """The memoised need tables agree with trying every tile for each wild (up to two wilds)."""
    hand = list(hand)
    hand[data.draw(st.integers(0, 13))] = data.draw(st.sampled_from(KINDS))
    wild_kind = data.draw(st.sampled_from(KINDS))
    real = [t for t in hand if t != wild_kind]
    held = len(hand) - len(real)
    if held > 2:
        return
    brute = any(arranges(real + list(c)) for c in itertools.combinations_with_replacement(KINDS, held))
    assert is_complete(counts(hand), kind_index(wild_kind), 0) == brute


def arranges(hand: list[Tile]) -> bool:
    """Four chows or pungs and a pair, or seven pairs, with no cap on copies: a wild "can be
    substituted for any tile" (seed 004), even a fifth copy of a kind held four times."""
    held = Counter(hand)
    return all(n % 2 == 0 for n in held.values()) or _sets_and_pair(held, pair_left=True)


def _sets_and_pair(held: Counter[Tile], pair_left: bool) -> bool:
    low = min((t for t, n in held.items() if n), default=None)
    if low is None:
        return not pair_left
    options = [[low] * 3]
    if pair_left:
        options.append([low] * 2)
    if is_suited(low) and low % 10 <= 7 and held[low + 1] and held[low + 2]:
        options.append([low, low + 1, low + 2])
    for group in options:
        held.subtract(group)
        found = min(held[t] for t in group) >= 0 and _sets_and_pair(held, pair_left and len(group) == 3)
        held.update(group)
        if found:
            return True
    return False


def test_a_wild_at_face_value_gives_a_straight_reading() -> None:
    # 5B is wild (indicator 4B); here it is needed as itself in 4B-5B-6B.
    found = arrangements(vector("1B 2B 3B 4B 5B 6B 7B 8B 9B 1C 1C 5D 6D 7D"), wild("5B"), 0)
    # No other tile in the 5B's place completes the hand, so every reading has it at face value.
    assert found and all(a.straight for a in found)


def test_a_wild_standing_for_another_tile_is_not_straight() -> None:
    found = arrangements(vector("1B 2B 3B 4B 5B 6B 7B 8B 9B 1C EW 5D 6D 7D"), wild("EW"), 0)
    assert found and not any(a.straight for a in found)
    assert {a.jokers for a in found} == {(parse("1C"),)}


def test_seven_pairs_with_a_wild_completing_a_pair() -> None:
    hand = vector("1B 1B 3B 3B 5C 5C 7D 7D EW EW RD RD GD SW")
    assert is_complete(hand, wild("SW"), 0)
    assert any(a.seven_pairs and a.jokers == (parse("GD"),) for a in arrangements(hand, wild("SW"), 0))
    assert not is_complete(hand, NO_WILD, 0)


def test_a_wild_may_stand_for_a_fifth_or_sixth_copy_of_a_kind_held_four_times() -> None:
    """Seed 004: a wild "can be substituted for any tile in a winning hand", so copies held do not limit it."""
    two_pungs = arrangements(vector("1C 1C 1C 1C SW SW 2B 3B 4B 5C 5C 5C RD RD"), wild("SW"), 0)
    assert any(a.jokers == (parse("1C"), parse("1C")) and a.pungs.count(parse("1C")) == 2 for a in two_pungs)
    pung_and_pair = arrangements(vector("RD RD RD RD SW 2B 3B 4B 5C 5C 5C 7D 8D 9D"), wild("SW"), 0)
    assert [(a.pair, a.pungs) for a in pung_and_pair] == [(parse("RD"), (parse("5C"), parse("RD")))]
    three_pairs = arrangements(vector("1C 1C 1C 1C SW SW 3B 3B 5C 5C 7D 7D RD RD"), wild("SW"), 0)
    assert any(a.pairs.count(parse("1C")) == 3 for a in three_pairs)


def test_seven_pairs_needs_a_concealed_hand() -> None:
    assert not is_complete(vector("1B 1B 3B 3B 5C 5C 7D 7D EW EW RD"), NO_WILD, 1)


def test_four_sets_and_a_lone_wild_wait_on_every_tile() -> None:
    hand = vector("1B 2B 3B 4C 5C 6C 7D 8D 9D EW EW EW SW")
    waits = wait_indices(hand, wild("SW"), 0)
    assert len(waits) == len(KINDS)
    assert shanten(hand, wild("SW"), 0) == 0


def test_waits_without_wilds_are_the_classical_waits() -> None:
    hand = vector("1B 2B 3B 4C 5C 6C 7D 8D 9D EW EW 2C 3C")
    assert [KINDS[i] for i in wait_indices(hand, NO_WILD, 0)] == tiles("1C 4C 7C")


def test_shanten_is_minus_one_when_complete_and_zero_when_waiting() -> None:
    assert shanten(vector("1B 2B 3B 4B 5B 6B 7B 8B 9B 1C EW 5D 6D 7D"), wild("EW"), 0) == -1
    assert shanten(vector("1B 2B 3B 4B 5B 6B 7B 8B 9B 1C EW 5D 6D"), wild("EW"), 0) == 0


def test_each_wild_brings_the_hand_one_tile_nearer() -> None:
    hand = "1B 5B 9B 2C 6C 9C 3D 7D EW SW WW RD GD"
    plain = shanten(vector(hand), NO_WILD, 0)
    assert shanten(vector(hand), wild("GD"), 0) == plain - 1


def test_jokers_needed_counts_the_tiles_missing_from_sets_and_a_pair() -> None:
    assert jokers_needed(vector("1B 2B 3B 4B 5B 6B 7B 8B 9B 1C 1C 5D 6D 7D")) == 0
    assert jokers_needed(vector("1B 2B 3B 4B 5B 6B 7B 8B 9B 5D 6D 7D")) == 2
    assert jokers_needed(vector("1B 3B 4B 5B 6B 7B 8B 9B 1C 1C 5D 6D 7D")) == 1


def test_declared_sets_leave_fewer_tiles_to_arrange() -> None:
    assert is_complete(vector("1B 2B 3B 1C 1C"), NO_WILD, 3)
    assert is_complete(vector("1B 2B RD 1C 1C"), wild("RD"), 3)
    assert not is_complete(vector("1B 2B 3B 1C 1C"), NO_WILD, 2)


@st.composite
def hand_about_to_draw(draw: st.DrawFn) -> tuple[list[int], int, int, bool]:
    """A concealed hand one tile short of complete, often near a win: a complete hand or seven pairs less
    one tile (a declared set standing for some of its sets), or random tiles; a wild kind it often holds
    (or none); whether seven pairs count."""
    shape = draw(st.sampled_from(["complete", "pairs", "random"]))
    sets = 0
    if shape == "complete":
        sets = draw(st.integers(0, 2))
        hand = [kind_index(t) for t in draw(complete_concealed())][3 * sets :]
    elif shape == "pairs":
        hand = [k for k in draw(st.permutations(range(len(KINDS))))[:7] for _ in range(2)]
    else:
        sets = draw(st.integers(0, 2))
        hand = list(draw(st.permutations([k for k in range(len(KINDS)) for _ in range(4)]))[: 14 - 3 * sets])
    hand.pop(draw(st.integers(0, len(hand) - 1)))
    counts_ = [0] * len(KINDS)
    for k in hand:
        counts_[k] += 1
    wild_kind = draw(st.sampled_from([NO_WILD, *hand, *hand, *range(len(KINDS))]))
    return counts_, wild_kind, sets, draw(st.booleans())


@settings(max_examples=500, deadline=None)
@given(hand_about_to_draw())
def test_shanten_after_each_draw_is_the_shanten_of_the_hand_with_that_tile(
    case: tuple[list[int], int, int, bool],
) -> None:
    counts_, wild_kind, sets, seven = case
    kinds = list(range(len(KINDS)))
    expected = []
    for k in kinds:
        drawn = list(counts_)
        drawn[k] += 1
        expected.append(shanten(drawn, wild_kind, sets, seven))
    assert shanten_after_draws(counts_, wild_kind, sets, seven, kinds) == expected


def test_shanten_after_draws_finds_the_winning_draws_of_a_waiting_hand() -> None:
    waiting = vector("1B 2B 3B 4C 5C 6C 7D 8D 9D 1D 1D 5B 6B")  # waits on 4B and 7B
    after = shanten_after_draws(waiting, NO_WILD, 0, True, [kind_index(parse("4B")), kind_index(parse("7B")), 0])
    assert after == [-1, -1, 0]
