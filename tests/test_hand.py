"""Complete hands, waits, declaration checks and decompositions (mj.hand).

Each rule is first pinned by hand-picked examples, then checked on thousands of
seeded random hands against brute-force references that work on plain tile lists
and share no code or tables with the implementation.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations_with_replacement

import pytest

from mj.hand import (
    Decomposition,
    can_complete,
    counts,
    decompositions,
    is_mahjong,
    is_seven_pairs,
    is_thirteen_wonders,
    waits,
)
from mj.tiles import KINDS, Tile, full_set, is_major, is_suited, parse, parse_many

MAJORS = [t for t in KINDS if is_major(t)]
ALL_SETS = [(t, t, t) for t in KINDS] + [(t, t + 1, t + 2) for t in KINDS if is_suited(t) and t % 10 <= 7]


def tiles(text: str) -> list[Tile]:
    return parse_many(text)


# --- brute-force references -------------------------------------------------------


def brute_split(hand: Sequence[Tile], sets: int, pair: bool) -> bool:
    """Try every pung, chow and pair for the lowest tile, on a sorted tile list."""
    rest = sorted(hand)
    if not rest:
        return sets == 0 and not pair
    low = rest[0]
    if pair and rest.count(low) >= 2 and brute_split(rest[2:], sets, False):
        return True
    if sets and rest.count(low) >= 3 and brute_split(rest[3:], sets - 1, pair):
        return True
    if sets and is_suited(low) and low + 1 in rest and low + 2 in rest:
        remaining = list(rest)
        for t in (low, low + 1, low + 2):
            remaining.remove(t)
        return brute_split(remaining, sets - 1, pair)
    return False


def brute_mahjong(hand: Sequence[Tile], declared: int, seven_pairs: bool) -> bool:
    if len(hand) == 3 * (4 - declared) + 2 and brute_split(hand, 4 - declared, True):
        return True
    if declared or len(hand) != 14:
        return False
    if set(hand) == set(MAJORS):
        return True
    return seven_pairs and all(n % 2 == 0 for n in Counter(hand).values())


def brute_waits(hand: Sequence[Tile], declared: int, seven_pairs: bool) -> list[Tile]:
    return [t for t in KINDS if brute_mahjong([*hand, t], declared, seven_pairs)]


def brute_decompositions(hand: Sequence[Tile], declared: int) -> list[Decomposition]:
    """Every pair and every multiset of sets whose tiles add up to the hand."""
    held = Counter(hand)
    usable = [s for s in ALL_SETS if all(held[t] >= s.count(t) for t in s)]
    found = set()
    for pair in [t for t in held if held[t] >= 2]:
        for chosen in combinations_with_replacement(usable, 4 - declared):
            if Counter([pair, pair, *(t for s in chosen for t in s)]) == held:
                found.add(
                    Decomposition(
                        pair,
                        tuple(sorted(s[0] for s in chosen if s[0] == s[1])),
                        tuple(sorted(s[0] for s in chosen if s[0] != s[1])),
                    )
                )
    return sorted(found)


# --- random hands -------------------------------------------------------------------


def random_complete(rng: random.Random, sets: int) -> list[Tile]:
    """A random complete standard hand of ``sets`` sets and a pair (at most 4 copies)."""
    while True:
        hand = [rng.choice(KINDS)] * 2
        for _ in range(sets):
            hand.extend(rng.choice(ALL_SETS))
        if max(Counter(hand).values()) <= 4:
            return hand


def random_near_complete(rng: random.Random, sets: int) -> list[Tile]:
    """A complete hand with one tile removed and, half the time, another one swapped."""
    hand = random_complete(rng, sets)
    hand.remove(rng.choice(hand))
    if rng.random() < 0.5:
        hand[rng.randrange(len(hand))] = rng.choice(KINDS)
    return hand


# --- counts ---------------------------------------------------------------------------


def test_counts_index_kinds_and_skip_flowers_seasons_and_blanks() -> None:
    vector = counts([*tiles("1B 1B 9D GD 1F 3S"), 0])
    assert len(vector) == 34
    assert vector[KINDS.index(parse("1B"))] == 2
    assert vector[KINDS.index(parse("9D"))] == 1
    assert vector[KINDS.index(parse("GD"))] == 1
    assert sum(vector) == 4


def test_counts_agree_with_counting_each_kind_from_a_generator() -> None:
    rng = random.Random(7)
    pool = [*full_set(flowers=True), 0]
    for size in (0, 1, 14, 60, 144):
        held = rng.sample(pool, size)
        assert counts(t for t in held) == [held.count(kind) for kind in KINDS]


# --- is_mahjong -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "declared"),
    [
        ("1B 1B 1B 2B 3B 4B 5B 6B 7B 8B 9B 9B 9B 5B", 0),
        ("2C 3C 4C 2C 3C 4C 2C 3C 4C 7D 8D 9D EW EW", 0),
        ("RD RD RD WD WD WD GD GD GD NW NW NW SW SW", 0),
        ("1D 1D 1D 2D 2D 2D 3D 3D 3D 4D 4D 4D 5D 5D", 0),
        ("3B 4B 5B 5B 5B", 3),
        ("WW WW", 4),
    ],
)
def test_four_sets_and_a_pair_is_mahjong(hand: str, declared: int) -> None:
    assert is_mahjong(tiles(hand), declared, seven_pairs=False)


@pytest.mark.parametrize(
    ("hand", "declared", "why"),
    [
        ("1B 1B 1B 2B 3B 4B 5B 6B 7B 8B 9B 9B 9B 1C", 0, "1C is unmatched"),
        ("8B 9B 1C 1C 1C 2C 2C 2C 3C 3C 3C 4C 4C 4C", 0, "runs do not wrap across suits"),
        ("EW SW WW RD RD RD WD WD WD GD GD GD NW NW", 0, "winds do not make chows"),
        ("1B 1B 2B 2B 3B 3B 4B 4B 5B 5B 6B 6B 7B 7B", 1, "too many tiles beside a set"),
        ("1B 1B 1B 1B 2B 3B 4B 5B 6B 7B 8B 9B 9B", 0, "thirteen tiles"),
        ("1B 1B 1B 1B 5C 5C 5C 5C 9D 9D 9D 9D EW EW", 0, "kongs must be declared"),
    ],
)
def test_other_hands_are_not_mahjong(hand: str, declared: int, why: str) -> None:
    assert not is_mahjong(tiles(hand), declared, seven_pairs=False), why


def test_flowers_and_seasons_in_the_hand_are_ignored() -> None:
    assert is_mahjong(tiles("3B 4B 5B 5B 5B 1F 2S"), 3, seven_pairs=False)


def test_thirteen_unique_wonders_needs_every_major_and_nothing_declared() -> None:
    wonders = tiles("1B 9B 1C 9C 1D 9D EW SW WW NW RD WD GD RD")
    assert is_thirteen_wonders(wonders)
    assert is_mahjong(wonders, 0, seven_pairs=False)
    assert not is_thirteen_wonders(wonders[:-1] + tiles("5B"))
    assert not is_thirteen_wonders(wonders[:-1])
    assert not is_mahjong(wonders[:-3], 1, seven_pairs=False)


def test_seven_pairs_only_with_the_option_and_four_of_a_kind_is_two_pairs() -> None:
    pairs = tiles("1B 1B 5B 5B 5B 5B 2C 2C 9D 9D EW EW RD RD")
    assert is_seven_pairs(pairs)
    assert is_mahjong(pairs, 0, seven_pairs=True)
    assert not is_mahjong(pairs, 0, seven_pairs=False)
    assert not is_seven_pairs(tiles("1B 1B 5B 5B 5B 2C 2C 2C 9D 9D EW EW RD RD"))


@pytest.mark.parametrize("declared", [0, 1, 2, 3, 4])
def test_is_mahjong_agrees_with_brute_force(declared: int) -> None:
    rng = random.Random(declared)
    wall = full_set(flowers=False)
    size = 3 * (4 - declared) + 2
    for _ in range(1500):
        if rng.random() < 0.5:
            hand = random_complete(rng, 4 - declared)
            if rng.random() < 0.5:
                hand[rng.randrange(size)] = rng.choice(KINDS)
        else:
            hand = rng.sample(wall, size)
        for seven_pairs in (False, True):
            assert is_mahjong(hand, declared, seven_pairs) == brute_mahjong(hand, declared, seven_pairs), hand


# --- waits -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "declared", "seven_pairs", "expected"),
    [
        # The "nine gates": every bamboo completes it.
        ("1B 1B 1B 2B 3B 4B 5B 6B 7B 8B 9B 9B 9B", 0, False, "1B 2B 3B 4B 5B 6B 7B 8B 9B"),
        ("2C 3C 4C 6D 7D 8D EW EW EW RD RD 5B 6B", 0, False, "4B 7B"),
        ("1C 1C 1C 2C 3C 4C 5C 6C 7C 9D 9D 9D WD", 0, False, "WD"),
        ("5D", 4, False, "5D"),
        ("1B 9B 1C 9C 1D 9D EW SW WW NW RD WD GD", 0, False, "1B 9B 1C 9C 1D 9D EW SW WW NW RD WD GD"),
        ("1B 9B 1C 9C 1D 9D EW SW WW NW RD RD GD", 0, False, "WD"),
        ("1B 1B 2B 2B 3C 3C 4C 4C EW EW RD RD 5D", 0, True, "5D"),
        ("1B 1B 2B 2B 3C 3C 4C 4C EW EW RD RD 5D", 0, False, ""),
        ("2B 2B 3B 3B 4B 4B 6C 6C 6C 7C 7C 8C 8C", 0, True, "6C 7C 8C 9C"),
    ],
)
def test_waits_examples(hand: str, declared: int, seven_pairs: bool, expected: str) -> None:
    assert waits(tiles(hand), declared, seven_pairs) == tiles(expected)


def test_waits_include_a_fifth_copy_the_caller_must_rule_out() -> None:
    # 1111 234: 111 + 1234 waits on 1B or 4B, though all four 1B are in the hand.
    hand = tiles("1B 1B 1B 1B 2B 3B 4B 5C 6C 7C EW EW EW")
    assert waits(hand, 0, seven_pairs=False) == tiles("1B 4B")


def test_a_hand_of_the_wrong_size_waits_on_nothing() -> None:
    assert waits(tiles("1B 2B 3B 4B 5B"), 0, seven_pairs=True) == []
    assert waits(tiles("1B 1B 1B 2B 3B 4B 5B 6B 7B 8B 9B 9B 9B 9B"), 0, False) == []


@pytest.mark.parametrize("declared", [0, 1, 2, 3, 4])
def test_waits_agree_with_brute_force(declared: int) -> None:
    rng = random.Random(100 + declared)
    wall = full_set(flowers=False)
    for _ in range(400 if declared == 0 else 800):
        if rng.random() < 0.7:
            hand = random_near_complete(rng, 4 - declared)
        else:
            hand = rng.sample(wall, 3 * (4 - declared) + 1)
        for seven_pairs in (False, True):
            assert waits(hand, declared, seven_pairs) == brute_waits(hand, declared, seven_pairs)


# --- can_complete -----------------------------------------------------------------------


def test_can_complete_counts_exactly_the_sets_and_pair_asked_for() -> None:
    rest = tiles("2B 3B 4B 7C 7C 7C 9D 9D")
    assert can_complete(rest, 2, True)
    assert not can_complete(rest, 3, True)
    assert not can_complete(rest, 2, False)
    assert can_complete(tiles("2B 3B 4B 7C 7C 7C"), 2, False)
    assert can_complete(tiles("9D 9D"), 0, True)
    assert can_complete([], 0, False)
    assert not can_complete(tiles("2B 3B 5B 7C 7C 7C 9D 9D"), 2, True)


def test_can_complete_with_pairs_left_of_a_seven_pairs_hand() -> None:
    assert can_complete(tiles("1B 1B 5C 5C 5C 5C"), 0, False, seven_pairs_left=3)
    assert not can_complete(tiles("1B 1B 5C 5C 5C 5C"), 0, False, seven_pairs_left=2)
    assert not can_complete(tiles("1B 1B 5C 5C 5C 6C"), 0, False, seven_pairs_left=3)


def test_can_complete_agrees_with_brute_force() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        sets = rng.randrange(5)
        pair = rng.random() < 0.7
        hand = random_complete(rng, sets)[0 if pair else 2 :]
        if hand and rng.random() < 0.5:
            hand[rng.randrange(len(hand))] = rng.choice(KINDS)
        wanted_sets, wanted_pair = rng.choice([(sets, pair), (sets, not pair), (max(0, sets - 1), pair)])
        assert can_complete(hand, wanted_sets, wanted_pair) == brute_split(hand, wanted_sets, wanted_pair)


# --- decompositions ---------------------------------------------------------------------


def test_decompositions_list_every_reading_once_sorted() -> None:
    hand = tiles("1B 1B 1B 2B 2B 2B 3B 3B 3B 4B 4B 5D 6D 7D")
    assert decompositions(hand, 0) == [
        Decomposition(parse("1B"), (), (*tiles("1B 2B 2B 5D"),)),
        Decomposition(parse("4B"), (), (*tiles("1B 1B 1B 5D"),)),
        Decomposition(parse("4B"), (*tiles("1B 2B 3B"),), (*tiles("5D"),)),
    ]


def test_decompositions_of_a_hand_that_is_not_standard_are_empty() -> None:
    wonders = tiles("1B 9B 1C 9C 1D 9D EW SW WW NW RD WD GD RD")
    assert decompositions(wonders, 0) == []
    assert decompositions(tiles("3B 4B 5B 5B 5B"), 2) == []


def test_decompositions_agree_with_brute_force() -> None:
    rng = random.Random(11)
    for _ in range(300):
        declared = rng.choice([0, 0, 1, 2, 3, 4])
        hand = random_complete(rng, 4 - declared)
        found = decompositions(hand, declared)
        assert found == brute_decompositions(hand, declared)
        assert found
