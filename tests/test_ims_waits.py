"""A hand's completing kinds, worked out at once, are those the IMS pattern test accepts one by one.

The legal moves offer [MahJong] on a discard only when its kind is among the seat's
completing kinds (:func:`mj.rules.ims.scoring.completing_kinds`), so these must be
exactly the kinds :func:`~mj.rules.ims.scoring.is_winning_pattern` accepts: a kind
missing would hide a win, one too many would only cost a needless test.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mj.hand import counts
from mj.rules.ims.scoring import completing_kinds, is_winning_pattern
from mj.tiles import KINDS, NUM_KINDS, Tile

#: Count-vector indices of the suits' first ranks, and of the seven words.
SUIT_STARTS = (0, 9, 18)
WORDS = tuple(range(27, 34))


def accepted_one_by_one(hand: list[Tile], declared: int) -> frozenset[int]:
    """The kinds the pattern test accepts added to ``hand`` (a fifth copy of a kind is never dealt)."""
    held = counts(hand)
    return frozenset(k for k in range(NUM_KINDS) if held[k] < 4 and is_winning_pattern([*hand, KINDS[k]], declared))


def dealt(indices: list[int]) -> list[Tile]:
    return [KINDS[i] for i in indices]


@st.composite
def standard_hands(draw: st.DrawFn) -> tuple[list[Tile], int]:
    """4 sets and a pair, some of the sets declared, less one concealed tile."""
    declared = draw(st.integers(0, 4))
    indices: list[int] = []
    for _ in range(4 - declared):
        if draw(st.booleans()):
            start = draw(st.sampled_from(SUIT_STARTS)) + draw(st.integers(0, 6))
            indices += [start, start + 1, start + 2]
        else:
            indices += [draw(st.integers(0, NUM_KINDS - 1))] * 3
    indices += [draw(st.integers(0, NUM_KINDS - 1))] * 2
    indices.pop(draw(st.integers(0, len(indices) - 1)))
    return dealt(indices), declared


@st.composite
def special_hands(draw: st.DrawFn) -> tuple[list[Tile], int]:
    """7 Pairs, 13 Orphans or 13 Individuals, less one tile."""
    pattern = draw(st.sampled_from(["pairs", "orphans", "individuals"]))
    if pattern == "pairs":
        indices = [k for k in draw(st.lists(st.integers(0, NUM_KINDS - 1), min_size=7, max_size=7)) for _ in (1, 2)]
    elif pattern == "orphans":
        majors = [s + r for s in SUIT_STARTS for r in (0, 8)] + list(WORDS)
        indices = [*majors, draw(st.sampled_from(majors))]
    else:
        suits = draw(st.permutations(SUIT_STARTS))
        indices = [start + low + step for start, low in zip(suits, (0, 1, 2), strict=True) for step in (0, 3, 6)]
        words = draw(st.permutations(WORDS))[:4]
        indices += [*words, words[0]]
    indices.pop(draw(st.integers(0, len(indices) - 1)))
    return dealt(indices), 0


@st.composite
def any_hands(draw: st.DrawFn) -> tuple[list[Tile], int]:
    """Tiles at random (at most four of a kind): mostly hands that wait for nothing."""
    declared = draw(st.integers(0, 4))
    size = 13 - 3 * declared
    held = draw(st.lists(st.integers(0, NUM_KINDS - 1), min_size=size, max_size=size).filter(
        lambda xs: all(xs.count(k) <= 4 for k in set(xs))
    ))  # fmt: skip
    return dealt(held), declared


@settings(max_examples=400, deadline=None)
@given(st.one_of(standard_hands(), special_hands(), any_hands()))
def test_completing_kinds_are_the_kinds_the_pattern_test_accepts(case: tuple[list[Tile], int]) -> None:
    hand, declared = case
    held = counts(hand)
    possible = frozenset(k for k in range(NUM_KINDS) if held[k] < 4)
    assert completing_kinds(held, declared) & possible == accepted_one_by_one(hand, declared)


def test_thirteen_individuals_wait_for_their_missing_tile() -> None:
    """1-4-7 bamboos, 2-5-8 characters, 3-6-9 circles, E S W and a pair of N, less the 7 of bamboos."""
    indices = [0, 3, 9 + 1, 9 + 4, 9 + 7, 18 + 2, 18 + 5, 18 + 8, 27, 28, 29, 30, 30]
    assert 6 in completing_kinds(counts(dealt(indices)), 0)
    assert 6 not in completing_kinds(counts(dealt(indices)), 1)
