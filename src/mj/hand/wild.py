"""Hand analysis with wild tiles (Beijing's 混儿), on count vectors.

A wild tile may stand for any tile or for itself, so whether a hand is complete
depends only on its other tiles and how many wilds it holds: the hand is complete
when the fewest jokers its other tiles need to make sets and a pair is no more than
the wilds held (a wild standing for itself is a joker that chose its own face).
That fewest number is a sum over the four groups (three suits, honours), each
memoised per group pattern as :mod:`mj.hand.complete` memoises its splits, so a
test is a few dictionary look-ups. Jokers left over always make whole sets of
their own: the tile count makes the remainder a multiple of three.

Scoring needs more than completeness (a wild at its face value keeps a hand
Straight): :func:`arrangements` lists every reading, saying which tiles the
jokers stand for. A joker may stand for a kind whose four copies are already
in sight; mj does not count copies for jokers (docs/rules-beijing.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final

from mj.hand.complete import decompositions
from mj.hand.counting import HONOURS_START, SUIT_STARTS
from mj.hand.distance import GroupInfo, honour_info, shanten_of_groups, shanten_seven_pairs, suit_info
from mj.hand.distance import shanten as standard_shanten
from mj.tiles import KINDS, NUM_KINDS, Tile

#: A need no joker count can meet.
UNREACHABLE: Final = 99
#: No kind is wild (the index given for ``wild``).
NO_WILD: Final = -1

Pattern = tuple[int, ...]


@cache
def group_need(pattern: Pattern, pair: bool, suited: bool) -> int:
    """Fewest jokers that make one group's counts into sets, plus one pair if ``pair``.

    The lowest rank held must go into a pung, the pair, or a chow in which it is the
    lowest, middle or highest tile; a chow takes real tiles before jokers (swapping a
    joker in a chow for a real tile used elsewhere never costs more).
    """
    low = next((i for i, c in enumerate(pattern) if c), None)
    if low is None:
        return 2 if pair else 0
    held = pattern[low]
    best = UNREACHABLE
    for size, is_pair in ((3, False), (2, True)):
        if is_pair and not pair:
            continue
        used = min(held, size)
        rest = list(pattern)
        rest[low] -= used
        best = min(best, size - used + group_need(tuple(rest), pair and not is_pair, suited))
    if suited:
        for start in range(max(0, low - 2), min(low, 6) + 1):
            rest = list(pattern)
            jokers = 0
            for rank in range(start, start + 3):
                if rest[rank]:
                    rest[rank] -= 1
                else:
                    jokers += 1
            best = min(best, jokers + group_need(tuple(rest), pair, suited))
    return best


_BAMBOO, _CHARACTERS, _CIRCLES = (slice(start, start + 9) for start in SUIT_STARTS)
_HONOURS: Final = slice(HONOURS_START, None)


@cache
def _suit_needs(pattern: Pattern) -> tuple[int, int]:
    """A suit's need without the pair, and what the pair adds: one look-up per group and test."""
    without = group_need(pattern, False, True)
    return without, group_need(pattern, True, True) - without


@cache
def _honour_needs(pattern: Pattern) -> tuple[int, int]:
    without = group_need(pattern, False, False)
    return without, group_need(pattern, True, False) - without


def jokers_needed(real: Sequence[int]) -> int:
    """Fewest jokers that make the counts ``real`` into sets and one pair."""
    b, b_pair = _suit_needs(tuple(real[_BAMBOO]))
    c, c_pair = _suit_needs(tuple(real[_CHARACTERS]))
    d, d_pair = _suit_needs(tuple(real[_CIRCLES]))
    h, h_pair = _honour_needs(tuple(real[_HONOURS]))
    return min(b + c + d + h + min(b_pair, c_pair, d_pair, h_pair), UNREACHABLE)


def sets_needed(real: Sequence[int]) -> int:
    """Fewest jokers that make the counts ``real`` into sets with no pair."""
    suits = sum(_suit_needs(tuple(real[group]))[0] for group in (_BAMBOO, _CHARACTERS, _CIRCLES))
    return min(suits + _honour_needs(tuple(real[_HONOURS]))[0], UNREACHABLE)


def _split(counts: Sequence[int], wild: int) -> tuple[list[int], int]:
    """The counts without the wild kind, and how many wilds they held."""
    real = list(counts)
    if wild == NO_WILD:
        return real, 0
    wilds = real[wild]
    real[wild] = 0
    return real, wilds


def seven_pairs_needed(real: list[int]) -> int:
    """Jokers that make ``real`` seven pairs (four of a kind is two pairs): one per odd count."""
    return sum(c % 2 for c in real)


def is_complete(counts: Sequence[int], wild: int, declared_sets: int, seven_pairs: bool = True) -> bool:
    """Whether concealed ``counts`` (wilds at their face kind ``wild``) beside ``declared_sets`` make a winning hand.

    Four sets and a pair, or, with no declared sets, seven pairs. The counts must
    hold 14 tiles less three per declared set; other sizes are never complete.
    """
    real, wilds = _split(counts, wild)
    if sum(real) + wilds != 14 - 3 * declared_sets:
        return False
    if jokers_needed(real) <= wilds:
        return True
    return seven_pairs and declared_sets == 0 and seven_pairs_needed(real) <= wilds


def wait_indices(counts: Sequence[int], wild: int, declared_sets: int, seven_pairs: bool = True) -> list[int]:
    """The kinds (count-vector indices) that would complete a hand one tile short."""
    found = []
    vector = list(counts)
    for index in range(NUM_KINDS):
        if vector[index] >= 4:
            continue
        vector[index] += 1
        if is_complete(vector, wild, declared_sets, seven_pairs):
            found.append(index)
        vector[index] -= 1
    return found


def shanten(counts: Sequence[int], wild: int, declared_sets: int, seven_pairs: bool = True) -> int:
    """Tiles still to exchange before the hand waits (0) or wins (-1), counting each wild as one.

    Each wild advances the hand by one tile on the classical shanten of its other
    tiles (it turns a partial set into a set or a lone tile into a partial one), which
    is exact on complete and waiting hands and a close estimate elsewhere: the robot's
    measure of progress, not a rule.
    """
    if is_complete(counts, wild, declared_sets, seven_pairs):
        return -1
    real, wilds = _split(counts, wild)
    best = standard_shanten(real, declared_sets)
    if seven_pairs and declared_sets == 0:
        best = min(best, shanten_seven_pairs(real))
    return max(0, best - wilds)


def shanten_after_draws(
    counts: Sequence[int], wild: int, declared_sets: int, seven_pairs: bool, kinds: Sequence[int]
) -> list[int]:
    """:func:`shanten` of ``counts`` with one more tile of each of ``kinds`` in turn (in order).

    The robot counts its useful draws with this for every discard it weighs. A draw
    changes one group, so the other three groups' needs and table entries are looked
    up once for all draws, and the pairs and odd counts are updated, not recounted;
    the answer is :func:`shanten`'s, draw by draw (a draw of the wild, or of a fifth
    copy, is simply handed to it).
    """
    real, wilds = _split(counts, wild)
    complete_size = sum(real) + wilds + 1 == 14 - 3 * declared_sets
    special = seven_pairs and declared_sets == 0
    patterns = [tuple(real[_BAMBOO]), tuple(real[_CHARACTERS]), tuple(real[_CIRCLES]), tuple(real[_HONOURS])]
    needs = [_suit_needs(patterns[0]), _suit_needs(patterns[1]), _suit_needs(patterns[2]), _honour_needs(patterns[3])]
    infos: list[GroupInfo] = [suit_info(patterns[0]), suit_info(patterns[1]), suit_info(patterns[2])]
    infos.append(honour_info(patterns[3]))
    # jokers_needed with one group changed: the other groups' needs summed, and their least pair need.
    rest_needs = []
    rest_pair = []
    for group in range(4):
        total = 0
        pair = UNREACHABLE
        for other in range(4):
            if other != group:
                total += needs[other][0]
                pair = min(pair, needs[other][1])
        rest_needs.append(total)
        rest_pair.append(pair)
    pairs = 0
    odd = 0  # as seven_pairs_needed counts them: kinds held an odd number of times
    for held in real:
        pairs += held // 2
        odd += held % 2
    found = []
    for kind in kinds:
        held = real[kind]
        if kind == wild or held >= 4:
            drawn = list(counts)
            drawn[kind] += 1
            found.append(shanten(drawn, wild, declared_sets, seven_pairs))
            continue
        group = 3 if kind >= HONOURS_START else kind // 9
        changed = list(patterns[group])
        changed[kind - 9 * group] += 1
        pattern = tuple(changed)
        pairs_now = pairs - held // 2 + (held + 1) // 2
        odd_now = odd - (held not in (0, 2, 4)) + (held + 1 not in (0, 2, 4))
        if complete_size:
            need, pair_need = _honour_needs(pattern) if group == 3 else _suit_needs(pattern)
            total = rest_needs[group] + need + min(rest_pair[group], pair_need)
            if min(total, UNREACHABLE) <= wilds or (special and odd_now <= wilds):
                found.append(-1)
                continue
        group_infos = list(infos)
        group_infos[group] = honour_info(pattern) if group == 3 else suit_info(pattern)
        best = shanten_of_groups(group_infos, declared_sets)
        if special:
            best = min(best, 6 - min(7, pairs_now))
        found.append(max(0, best - wilds))
    return found


@dataclass(frozen=True, slots=True)
class Arrangement:
    """One reading of a winning hand with wilds.

    ``jokers`` are the kinds the wilds read as jokers stand for (the other wilds are at
    face value); ``pair``, ``pungs`` and ``chows`` read the concealed tiles with those
    values, as :class:`mj.hand.complete.Decomposition` does, or ``pairs`` lists seven
    pairs (a kind twice for four of a kind).
    """

    jokers: tuple[Tile, ...]
    pair: Tile | None
    pungs: tuple[Tile, ...]
    chows: tuple[Tile, ...]
    pairs: tuple[Tile, ...] = ()

    @property
    def seven_pairs(self) -> bool:
        return bool(self.pairs)

    @property
    def straight(self) -> bool:
        """No wild stands for another tile: every wild (if any) is at its face value."""
        return not self.jokers


def _joker_sets(base: list[int], jokers: int, seven: bool) -> list[tuple[int, ...]]:
    """Every multiset of ``jokers`` kinds completing ``base``, in ascending kind order, pruned by the need tables."""
    found: list[tuple[int, ...]] = []

    def grow(chosen: list[int], first: int) -> None:
        left = jokers - len(chosen)
        need = seven_pairs_needed(base) if seven else jokers_needed(base)
        if need > left:
            return
        if left == 0:
            found.append(tuple(chosen))
            return
        for index in range(first, NUM_KINDS):
            base[index] += 1
            chosen.append(index)
            grow(chosen, index)
            chosen.pop()
            base[index] -= 1

    grow([], 0)
    return found


def arrangements(counts: Sequence[int], wild: int, declared_sets: int, seven_pairs: bool = True) -> list[Arrangement]:
    """Every reading of a winning hand: each number of wilds read as jokers, each choice of what they stand for.

    A joker never stands for its own face (that reading is the wild at face value), so
    no reading is listed twice. Empty when the hand is not complete.
    """
    found: list[Arrangement] = []
    real, wilds = _split(counts, wild)
    for jokers in range(wilds + 1):
        base = list(real)
        if wild != NO_WILD:
            base[wild] = wilds - jokers
        shapes = [False, True] if seven_pairs and declared_sets == 0 else [False]
        for seven in shapes:
            for chosen in _joker_sets(base, jokers, seven):
                if wild != NO_WILD and wild in chosen:
                    continue
                plain = list(base)
                for index in chosen:
                    plain[index] += 1
                values = tuple(KINDS[i] for i in chosen)
                if seven:
                    if all(c % 2 == 0 for c in plain) and sum(plain) == 14:
                        pairs = tuple(KINDS[i] for i, c in enumerate(plain) for _ in range(c // 2))
                        found.append(Arrangement(values, None, (), (), pairs))
                    continue
                tiles = [KINDS[i] for i, c in enumerate(plain) for _ in range(c)]
                for reading in decompositions(tiles, declared_sets):
                    found.append(Arrangement(values, reading.pair, reading.pungs, reading.chows))
    return found
