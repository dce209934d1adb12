"""Shanten (mj.hand): how many tile exchanges a hand is from ready.

Shanten is defined by the game itself: a complete hand is -1, and otherwise a hand
that must still discard is as far as its best discard leaves it, while a hand that
must still draw is one more than its best draw leaves it.  Those equations
determine the function completely, so besides known values the tests check them on
thousands of seeded random hands, with completeness judged by a brute-force
reference on tile lists.  A second, independent reference enumerates every block
reading of a hand (the textbook recursive count) without any tables.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

import pytest

from mj.hand import (
    IMPOSSIBLE,
    counts,
    shanten,
    shanten_after_discards,
    shanten_after_draws,
    shanten_all,
    shanten_seven_pairs,
    shanten_thirteen,
    useful_draws,
)
from mj.tiles import KINDS, Tile, full_set, is_major, is_suited, parse_many

MAJORS = {t for t in KINDS if is_major(t)}
SETS = [(t, t, t) for t in KINDS] + [(t, t + 1, t + 2) for t in KINDS if is_suited(t) and t % 10 <= 7]


def vector(text: str) -> list[int]:
    return counts(parse_many(text))


# --- references on tile lists --------------------------------------------------------


def splits(hand: Sequence[Tile], sets: int, pair: bool) -> bool:
    rest = sorted(hand)
    if not rest:
        return sets == 0 and not pair
    low = rest[0]
    if pair and rest.count(low) >= 2 and splits(rest[2:], sets, False):
        return True
    if sets and rest.count(low) >= 3 and splits(rest[3:], sets - 1, pair):
        return True
    if sets and is_suited(low) and low + 1 in rest and low + 2 in rest:
        remaining = list(rest)
        for t in (low, low + 1, low + 2):
            remaining.remove(t)
        return splits(remaining, sets - 1, pair)
    return False


def standard_complete(hand: Sequence[Tile], declared: int) -> bool:
    return len(hand) == 3 * (4 - declared) + 2 and splits(hand, 4 - declared, True)


def seven_pairs_complete(hand: Sequence[Tile]) -> bool:
    return len(hand) == 14 and all(n % 2 == 0 for n in Counter(hand).values())


def thirteen_complete(hand: Sequence[Tile]) -> bool:
    return len(hand) == 14 and set(hand) == MAJORS


def any_complete(hand: Sequence[Tile]) -> bool:
    return standard_complete(hand, 0) or seven_pairs_complete(hand) or thirteen_complete(hand)


def block_count_shanten(hand: Sequence[Tile], declared: int) -> int:
    """The textbook count over every reading of the tiles as sets, partials and a pair."""
    cap = 4 - declared
    best = 8

    def read(rest: list[Tile], sets: int, partials: int, head: int) -> None:
        nonlocal best
        if not rest:
            best = min(best, 8 - 2 * (declared + sets) - min(partials, cap - sets) - head)
            return
        low = rest[0]
        read(rest[1:], sets, partials, head)
        shapes: list[tuple[tuple[Tile, ...], int, int, int]] = [
            ((low, low), 0, 1, 0),
            ((low, low, low), 1, 0, 0),
        ]
        if not head:
            shapes.append(((low, low), 0, 0, 1))
        if is_suited(low):
            # Tile values skip 10, 20, ... so a run cannot wrap into the next suit,
            # but 9B + 2 is 1C: two-apart partials need a rank of 7 or less.
            shapes += [
                ((low, low + 1, low + 2), 1, 0, 0),
                ((low, low + 1), 0, 1, 0),
            ]
            if low % 10 <= 7:
                shapes.append(((low, low + 2), 0, 1, 0))
        for shape, more_sets, more_partials, more_head in shapes:
            remaining = list(rest)
            try:
                for t in shape:
                    remaining.remove(t)
            except ValueError:
                continue
            read(remaining, sets + more_sets, partials + more_partials, head + more_head)

    read(sorted(hand), 0, 0, 0)
    return best


# --- random hands ---------------------------------------------------------------------


def random_hand(rng: random.Random, size: int) -> list[Tile]:
    """Random tiles half the time; otherwise a complete hand with a few tiles changed."""
    if rng.random() < 0.5:
        return rng.sample(full_set(flowers=False), size)
    hand = [rng.choice(KINDS)] * 2
    while len(hand) < size + 1:
        hand.extend(rng.choice(SETS))
    hand = hand[: size + 1]
    hand.remove(rng.choice(hand))
    for _ in range(rng.randrange(4)):
        hand[rng.randrange(size)] = rng.choice(KINDS)
    return hand


def check_game_equations(
    distance: Callable[[Sequence[Tile]], int], complete: Callable[[Sequence[Tile]], bool], hand: list[Tile]
) -> None:
    """``distance`` obeys the equations that define shanten, at ``hand``."""
    if len(hand) % 3 == 1:
        assert distance(hand) == 1 + min(distance([*hand, t]) for t in KINDS), hand
    elif complete(hand):
        assert distance(hand) == -1, hand
    else:
        after_discard = []
        for t in set(hand):
            rest = list(hand)
            rest.remove(t)
            after_discard.append(distance(rest))
        assert distance(hand) == min(after_discard), hand


# --- known values -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("1B 1B 1B 2B 3B 4B 5B 6B 7B 8B 9B 9B 9B 5B", -1),
        ("1B 1B 1B 2B 3B 4B 5B 6B 7B 8B 9B 9B 9B", 0),
        ("2C 3C 4C 6D 7D 8D EW EW EW RD RD 5B 6B", 0),
        ("2C 3C 4C 6D 7D 8D EW EW EW RD RD 5B 9B", 1),
        # Three sets and two runs of two: one draw makes a set, then a single wait.
        ("1B 2B 3B 4C 5C 6C 7D 8D 9D 2B 3B 5C 6C", 1),
        # Six pairs are only 3-shanten for a standard hand: too many partials count once.
        ("1B 1B 2B 2B 3C 3C 4C 4C EW EW RD RD 5D", 3),
        # Thirteen unrelated tiles: the worst a standard hand can be.
        ("1B 4B 7B 1C 4C 7C 1D 4D 7D EW SW WW NW", 8),
    ],
)
def test_standard_shanten_examples(hand: str, expected: int) -> None:
    assert shanten(vector(hand)) == expected


def test_declared_sets_leave_fewer_tiles_to_complete() -> None:
    assert shanten(vector("5D"), declared_sets=4) == 0
    assert shanten(vector("5D 5D"), declared_sets=4) == -1
    assert shanten(vector("5D 7D"), declared_sets=4) == 0
    assert shanten(vector("3B 4B 6C 6C"), declared_sets=3) == 0
    assert shanten(vector("3B 4B 6C 6C 9D"), declared_sets=3) == 0
    assert shanten(vector("1B 5B 9C NW"), declared_sets=3) == 2


def test_seven_pairs_shanten_counts_pairs_and_four_of_a_kind_twice() -> None:
    assert shanten_seven_pairs(vector("1B 1B 2B 2B 3C 3C 4C 4C EW EW RD RD 5D")) == 0
    assert shanten_seven_pairs(vector("1B 1B 2B 2B 3C 3C 4C 4C EW EW RD RD 5D 5D")) == -1
    assert shanten_seven_pairs(vector("1B 1B 1B 1B 3C 3C 4C 4C EW EW RD RD 5D 5D")) == -1
    assert shanten_seven_pairs(vector("1B 1B 1B 2B 3C 4C 5C 6C 7C 8C 9C EW SW")) == 5


def test_thirteen_wonders_shanten_counts_major_kinds_and_one_duplicate() -> None:
    wonders = "1B 9B 1C 9C 1D 9D EW SW WW NW RD WD GD"
    assert shanten_thirteen(vector(wonders)) == 0
    assert shanten_thirteen(vector(wonders + " GD")) == -1
    assert shanten_thirteen(vector("1B 9B 1C 9C 1D 9D EW SW WW NW RD WD 5B")) == 1
    assert shanten_thirteen(vector("1B 9B 1C 9C 1D 9D EW SW WW NW RD RD 5B")) == 1
    assert shanten_thirteen(vector("1B 9B 1C 9C 1D 9D EW SW WW 2B 3B 4B 5B")) == 4


def test_shanten_all_takes_the_best_open_shape() -> None:
    pairs = vector("1B 1B 2B 2B 3C 3C 4C 4C EW EW RD RD 5D")
    assert shanten_all(pairs) == 0
    assert shanten_all(pairs, seven_pairs=False) == 3
    orphans = vector("1B 9B 1C 9C 1D 9D EW SW WW NW RD WD 5B")
    assert shanten_all(orphans) == 1
    assert shanten(orphans) == 8
    # With a set declared, only standard hands remain.
    assert shanten_all(vector("1B 1B 2B 2B 3C 3C 4C 4C EW EW"), declared_sets=1) == shanten(
        vector("1B 1B 2B 2B 3C 3C 4C 4C EW EW"), declared_sets=1
    )


# --- the defining equations and the block-count reference ---------------------------


@pytest.mark.parametrize("declared", [0, 1, 2, 3, 4])
@pytest.mark.parametrize("extra", [0, 1])
def test_standard_shanten_obeys_the_game_equations(declared: int, extra: int) -> None:
    rng = random.Random(declared * 2 + extra)
    for _ in range(600):
        hand = random_hand(rng, 3 * (4 - declared) + 1 + extra)
        check_game_equations(
            lambda h: shanten(counts(h), declared),
            lambda h: standard_complete(h, declared),
            hand,
        )


@pytest.mark.parametrize("extra", [0, 1])
def test_shanten_all_obeys_the_game_equations(extra: int) -> None:
    rng = random.Random(50 + extra)
    for _ in range(1200):
        check_game_equations(lambda h: shanten_all(counts(h)), any_complete, random_hand(rng, 13 + extra))


@pytest.mark.parametrize("extra", [0, 1])
def test_special_hand_shanten_obey_the_game_equations(extra: int) -> None:
    rng = random.Random(60 + extra)
    for _ in range(400):
        hand = random_hand(rng, 13 + extra)
        if rng.random() < 0.5:
            hand = [rng.choice(sorted(MAJORS)) if is_major(t) or rng.random() < 0.7 else t for t in hand]
        check_game_equations(lambda h: shanten_seven_pairs(counts(h)), seven_pairs_complete, hand)
        check_game_equations(lambda h: shanten_thirteen(counts(h)), thirteen_complete, hand)


@pytest.mark.parametrize("declared", [0, 1, 2, 4])
def test_standard_shanten_matches_the_block_count_reference(declared: int) -> None:
    rng = random.Random(70 + declared)
    for _ in range(300):
        hand = random_hand(rng, 3 * (4 - declared) + 1 + rng.randrange(2))
        assert shanten(counts(hand), declared) == block_count_shanten(hand, declared), hand


# --- one tile more or less: what the robots ask at every decision -------------------------


def hand_with_majors(rng: random.Random, size: int) -> list[Tile] | None:
    """A random hand, made rich in majors and pairs three times in ten so that the special
    hands take part; None when those majors exceed the four copies of a kind."""
    hand = random_hand(rng, size)
    if rng.random() < 0.3:
        hand = [rng.choice(sorted(MAJORS)) if is_major(t) or rng.random() < 0.7 else t for t in hand]
    return hand if max(counts(hand)) <= 4 else None


@pytest.mark.parametrize("declared", [0, 1, 3])
@pytest.mark.parametrize("seven_pairs", [True, False])
def test_shanten_after_each_draw_and_discard_is_shanten_all_of_the_changed_hand(
    declared: int, seven_pairs: bool
) -> None:
    rng = random.Random(80 + declared * 2 + seven_pairs)
    for _ in range(300):
        hand = hand_with_majors(rng, 3 * (4 - declared) + 1)
        if hand is None:
            continue
        held = counts(hand)
        after_draws = shanten_after_draws(held, declared, seven_pairs)
        after_discards = shanten_after_discards(held, declared, seven_pairs)
        for kind in range(len(held)):
            changed = list(held)
            changed[kind] += 1
            expected = shanten_all(changed, declared, seven_pairs) if changed[kind] <= 4 else IMPOSSIBLE
            assert after_draws[kind] == expected, (hand, KINDS[kind])
            changed[kind] -= 2
            expected = shanten_all(changed, declared, seven_pairs) if changed[kind] >= 0 else IMPOSSIBLE
            assert after_discards[kind] == expected, (hand, KINDS[kind])


@pytest.mark.parametrize("declared", [0, 1, 3])
@pytest.mark.parametrize("seven_pairs", [True, False])
def test_useful_draws_are_the_draws_lowering_the_shanten_after_each_discard(declared: int, seven_pairs: bool) -> None:
    rng = random.Random(90 + declared * 2 + seven_pairs)
    for _ in range(200):
        hand = hand_with_majors(rng, 3 * (4 - declared) + 2)
        if hand is not None:
            check_useful_draws(counts(hand), declared, seven_pairs)


@pytest.mark.parametrize(
    "hand", ["1B 1B 4B 1C 1C 4C 5D 6D 7D EW SW WW NW RD", "1B 1B 9B 1C 1C 9C 1D 9D EW SW WW NW RD GD"]
)
def test_useful_draws_tell_apart_two_suits_held_alike(hand: str) -> None:
    for seven_pairs in (True, False):
        held = vector(hand)
        check_useful_draws(held, 0, seven_pairs)
        for kind, after in enumerate(shanten_after_discards(held, 0, seven_pairs)):
            left = list(held)
            left[kind] -= 1
            assert after == (shanten_all(left, 0, seven_pairs) if held[kind] else IMPOSSIBLE)


def check_useful_draws(held: list[int], declared: int, seven_pairs: bool) -> None:
    discards = [kind for kind in range(len(held)) if held[kind]]
    for kind, (after, draws) in zip(discards, useful_draws(held, declared, seven_pairs, discards), strict=True):
        left = list(held)
        left[kind] -= 1
        expected = shanten_all(left, declared, seven_pairs)
        lowering = [k for k, s in enumerate(shanten_after_draws(left, declared, seven_pairs)) if s < expected]
        assert (after, list(draws)) == (expected, lowering), (held, KINDS[kind])
