"""Complete hands: mah-jong tests, waits, declaration-phase checks and decompositions.

Everything here is table-driven on count vectors (:mod:`mj.hand.counting`).  Whether a
suit's 9 counts split into sets is a pure function of those counts, so it is memoised
per suit pattern: a game only ever meets a few thousand patterns, after which the
checks are a handful of dictionary look-ups.  The honours need no table, because an
honour can only be in a pung or a pair of its own kind.

A pattern whose size is 2 modulo 3 must hold the hand's one pair, a pattern whose size
is 0 modulo 3 none, so "splits" below always means "splits into sets, plus one pair
when its size calls for it".  Kongs never appear in concealed tiles: a concealed kong
is declared, and callers count it among the declared sets.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final, NamedTuple

from mj.hand.counting import GROUP_OF, HONOURS_START, MAJOR_INDICES, SUIT_STARTS, counts
from mj.tiles import KINDS, Tile

#: A suit pattern: the counts of ranks 1..9 of one suit.
Pattern = tuple[int, ...]


@cache
def suit_splits(pattern: Pattern) -> bool:
    """Whether one suit's counts split into chows and pungs (and a pair if size ≡ 2 mod 3).

    The lowest tile present must start a pung, a chow or the pair, so trying those
    three covers every split.
    """
    size = sum(pattern)
    if size % 3 == 1:
        return False
    low = next((i for i, c in enumerate(pattern) if c), None)
    if low is None:
        return True
    held = pattern[low]
    if size % 3 == 2 and held >= 2 and suit_splits(_take(pattern, low, 2)):
        return True
    if held >= 3 and suit_splits(_take(pattern, low, 3)):
        return True
    return low <= 6 and pattern[low + 1] > 0 and pattern[low + 2] > 0 and suit_splits(_take_chow(pattern, low))


def honours_split(pattern: Pattern) -> bool:
    """Whether the honour counts are pungs and at most one pair (a lone pair iff size ≡ 2).

    A count may pass four where wilds stand for a kind whose four copies are all held
    (Beijing): five is a pung and the pair, six two pungs.
    """
    pairs = 0
    for held in pattern:
        if held % 3 == 1:
            return False
        pairs += held % 3 == 2
    return pairs <= 1


def _take(pattern: Pattern, rank: int, n: int) -> Pattern:
    as_list = list(pattern)
    as_list[rank] -= n
    return tuple(as_list)


def _take_chow(pattern: Pattern, low: int) -> Pattern:
    as_list = list(pattern)
    as_list[low] -= 1
    as_list[low + 1] -= 1
    as_list[low + 2] -= 1
    return tuple(as_list)


def _groups(vector: Sequence[int]) -> list[Pattern]:
    """The three suit patterns and the honour pattern of a count vector."""
    return [
        *(tuple(vector[s : s + 9]) for s in SUIT_STARTS),
        tuple(vector[HONOURS_START:]),
    ]


def _group_splits(index: int, pattern: Pattern) -> bool:
    return honours_split(pattern) if index == 3 else suit_splits(pattern)


def standard_split(vector: Sequence[int], sets: int, pair: bool) -> bool:
    """Whether the counts are exactly ``sets`` chows/pungs plus, if ``pair``, one pair."""
    if sum(vector) != 3 * sets + 2 * pair:
        return False
    pair_groups = 0
    for index, pattern in enumerate(_groups(vector)):
        if not _group_splits(index, pattern):
            return False
        pair_groups += sum(pattern) % 3 == 2
    return pair_groups == pair


def thirteen_wonders_counts(vector: Sequence[int]) -> bool:
    """One of each major kind plus one more major, and nothing else (14 tiles)."""
    return sum(vector) == 14 and all(vector[i] for i in MAJOR_INDICES) and sum(vector[i] for i in MAJOR_INDICES) == 14


def seven_pairs_counts(vector: Sequence[int]) -> bool:
    """Fourteen tiles in pairs; four of a kind is two pairs, as the original allows."""
    return sum(vector) == 14 and all(held % 2 == 0 for held in vector)


def is_thirteen_wonders(concealed: Sequence[Tile]) -> bool:
    """Thirteen Unique Wonders: one of each of the 13 major kinds and a duplicate of one."""
    return thirteen_wonders_counts(counts(concealed))


def is_seven_pairs(concealed: Sequence[Tile]) -> bool:
    """Seven pairs (whether the SevenPairs option allows it is the caller's business)."""
    return seven_pairs_counts(counts(concealed))


def _complete_counts(vector: Sequence[int], declared_sets: int, seven_pairs: bool) -> bool:
    if standard_split(vector, 4 - declared_sets, True):
        return True
    if declared_sets:
        return False
    return thirteen_wonders_counts(vector) or (seven_pairs and seven_pairs_counts(vector))


def is_mahjong(concealed: Sequence[Tile], declared_sets: int, seven_pairs: bool) -> bool:
    """Whether the concealed tiles complete a hand that already has ``declared_sets`` sets.

    The concealed tiles must make the remaining ``4 - declared_sets`` sets and the
    pair.  With nothing declared they may instead be Thirteen Unique Wonders or, when
    ``seven_pairs`` (the SevenPairs game option), seven pairs.  Flowers and seasons in
    ``concealed`` are ignored.
    """
    return _complete_counts(counts(concealed), declared_sets, seven_pairs)


def waits(concealed: Sequence[Tile], declared_sets: int, seven_pairs: bool) -> list[Tile]:
    """The kinds that would complete the hand if added, in ascending tile order.

    ``concealed`` is the hand between turns: ``3 * (4 - declared_sets) + 1`` ordinary
    tiles (any other size has no waits).  A kind is listed even when the hand and the
    table already show all four copies: which copies are still live is the caller's
    knowledge, not the hand's, and the robots want the shape-only answer.
    """
    return [KINDS[i] for i in wait_indices(counts(concealed), declared_sets, seven_pairs)]


def wait_indices(vector: Sequence[int], declared_sets: int, seven_pairs: bool) -> list[int]:
    """:func:`waits` on a count vector: the completing kinds' indices, ascending.

    Only the group receiving the tile changes, so every other group must already
    split; with two broken groups no standard hand can result.  What each group
    holds, whether it splits and which kinds complete it come from memoised
    per-pattern tables, so this is a few look-ups and a little arithmetic.
    """
    patterns = (tuple(vector[0:9]), tuple(vector[9:18]), tuple(vector[18:27]), tuple(vector[27:34]))
    infos = (
        _bamboo_info(patterns[0]),
        _character_info(patterns[1]),
        _circle_info(patterns[2]),
        _honour_info(patterns[3]),
    )
    size = broken = pair_groups = 0
    for info in infos:
        size += info.size
        broken += not info.splits
        pair_groups += info.size % 3 == 2
    if size != 3 * (4 - declared_sets) + 1:
        return []
    found: list[int] = []
    if broken <= 1:
        for group, (held, splits, _, _, _) in enumerate(infos):
            # After the draw this group holds the pair iff it had 1 (mod 3) tiles.
            if held and not (broken and splits) and pair_groups - (held % 3 == 2) + (held % 3 == 1) == 1:
                found += _GROUP_KINDS[group](patterns[group])
    if declared_sets:
        return found
    special: set[int] = set()
    major_kinds = sum(info.major_kinds for info in infos)
    if major_kinds >= 12 and sum(info.majors for info in infos) == 13:
        # Thirteen distinct majors wait on any of them; twelve (one doubled) on the gap.
        special.update(i for i in MAJOR_INDICES if major_kinds == 13 or not vector[i])
    if seven_pairs and sum(info.pairs for info in infos) == 6:
        special.update(i for i, held in enumerate(vector) if held % 2)
    return sorted(special.union(found)) if special else found


def group_waits(vector: Sequence[int], index: int) -> tuple[int, ...]:
    """The kinds (count-vector indices) that would let the group of kind ``index`` split.

    The group is the suit, or the honours, holding kind ``index``; it splits into sets
    and the pair its size calls for.  For callers that know the other groups already
    split, so only this one matters (the scorer's "filling the only place");
    :func:`wait_indices` is the whole story.
    """
    group = GROUP_OF[index]
    start, end = _GROUP_BOUNDS[group]
    return _GROUP_KINDS[group](tuple(vector[start:end]))


def group_splits(vector: Sequence[int], index: int) -> bool:
    """Whether the group (suit or honours) of kind ``index`` splits as it is (see :func:`group_waits`)."""
    group = GROUP_OF[index]
    start, end = _GROUP_BOUNDS[group]
    return _GROUP_INFO[group](tuple(vector[start:end])).splits


class GroupInfo(NamedTuple):
    """What :func:`wait_indices` needs of one group's counts (a suit's nine or the seven honours)."""

    size: int  #: tiles held
    splits: bool  #: they split into sets (and the pair their size calls for)
    pairs: int  #: pairs held, four of a kind counting twice (seven pairs)
    majors: int  #: major tiles held (Thirteen Unique Wonders)
    major_kinds: int  #: distinct major kinds held


def _group_tables(
    start: int, splits: Callable[[Pattern], bool], major_ranks: Sequence[int]
) -> tuple[Callable[[Pattern], GroupInfo], Callable[[Pattern], tuple[int, ...]]]:
    """The memoised tables of the group whose counts start at ``start`` in a count vector.

    The completing kinds take a split check per rank, so they have their own table,
    filled only for the groups that can take the tile.
    """

    @cache
    def info(pattern: Pattern) -> GroupInfo:
        return GroupInfo(
            sum(pattern),
            splits(pattern),
            sum(held // 2 for held in pattern),
            sum(pattern[rank] for rank in major_ranks),
            sum(1 for rank in major_ranks if pattern[rank]),
        )

    @cache
    def kinds(pattern: Pattern) -> tuple[int, ...]:
        if sum(pattern) % 3 == 0:
            return ()  # 3k tiles and one more never split
        as_list = list(pattern)
        found = []
        for rank in range(len(pattern)):
            # A tile with no other within two ranks can only be a lone tile.
            if any(pattern[max(rank - 2, 0) : rank + 3]):
                as_list[rank] += 1
                if splits(tuple(as_list)):
                    found.append(start + rank)
                as_list[rank] -= 1
        return tuple(found)

    return info, kinds


_bamboo_info, _bamboo_kinds = _group_tables(SUIT_STARTS[0], suit_splits, (0, 8))
_character_info, _character_kinds = _group_tables(SUIT_STARTS[1], suit_splits, (0, 8))
_circle_info, _circle_kinds = _group_tables(SUIT_STARTS[2], suit_splits, (0, 8))
_honour_info, _honour_kinds = _group_tables(HONOURS_START, honours_split, range(7))
#: By :data:`GROUP_OF` number: each group's slice of a count vector and its two tables.
_GROUP_BOUNDS: Final = ((0, 9), (9, 18), (18, 27), (27, 34))
_GROUP_INFO: Final = (_bamboo_info, _character_info, _circle_info, _honour_info)
_GROUP_KINDS: Final = (_bamboo_kinds, _character_kinds, _circle_kinds, _honour_kinds)


def can_complete(concealed: Sequence[Tile], sets_needed: int, pair_needed: bool, seven_pairs_left: int = 0) -> bool:
    """Whether the tiles not yet declared can still be declared as the rest of the hand.

    Used while a mah-jong hand is being exposed set by set: the remaining concealed
    tiles must make exactly ``sets_needed`` chows/pungs and, if ``pair_needed``, one
    pair.  For a seven-pairs hand being declared, pass ``seven_pairs_left`` (the pairs
    still to declare): then the tiles may instead be exactly that many pairs.
    """
    vector = counts(concealed)
    if standard_split(vector, sets_needed, pair_needed):
        return True
    return seven_pairs_left > 0 and sum(vector) == 2 * seven_pairs_left and all(held % 2 == 0 for held in vector)


@dataclass(frozen=True, slots=True, order=True)
class Decomposition:
    """One way of reading a standard hand's concealed tiles.

    ``pungs`` holds the repeated tile of each pung and ``chows`` the lowest tile of each
    chow, both in ascending order (a tile repeats when the hand has two equal sets).
    """

    pair: Tile
    pungs: tuple[Tile, ...]
    chows: tuple[Tile, ...]


#: A group's decomposition with group-relative ranks: (pair or -1, pungs, chows).
_Split = tuple[int, tuple[int, ...], tuple[int, ...]]


@cache
def _suit_decompositions(pattern: Pattern) -> frozenset[_Split]:
    """Every distinct split of one suit's counts (pair included iff size ≡ 2 mod 3)."""
    size = sum(pattern)
    low = next((i for i, c in enumerate(pattern) if c), None)
    if low is None:
        return frozenset([(-1, (), ())])
    if size % 3 == 1:
        return frozenset()
    held = pattern[low]
    found: set[_Split] = set()
    if size % 3 == 2 and held >= 2:
        found.update((low, pungs, chows) for _, pungs, chows in _suit_decompositions(_take(pattern, low, 2)))
    if held >= 3:
        found.update(
            (pair, tuple(sorted((low, *pungs))), chows)
            for pair, pungs, chows in _suit_decompositions(_take(pattern, low, 3))
        )
    if low <= 6 and pattern[low + 1] and pattern[low + 2]:
        found.update(
            (pair, pungs, tuple(sorted((low, *chows))))
            for pair, pungs, chows in _suit_decompositions(_take_chow(pattern, low))
        )
    return frozenset(found)


def _honours_decompositions(pattern: Pattern) -> frozenset[_Split]:
    if not honours_split(pattern):
        return frozenset()
    pair = next((i for i, held in enumerate(pattern) if held % 3 == 2), -1)
    return frozenset([(pair, tuple(i for i, held in enumerate(pattern) for _ in range(held // 3)), ())])


def decompositions(concealed: Sequence[Tile], declared_sets: int) -> list[Decomposition]:
    """Every distinct reading of the concealed tiles as chows, pungs and one pair.

    The concealed tiles must be exactly the ``4 - declared_sets`` sets and the pair a
    standard hand still needs; otherwise there is no reading and the list is empty.
    Special hands (Thirteen Unique Wonders, seven pairs) are not readings here.
    """
    vector = counts(concealed)
    if sum(vector) != 3 * (4 - declared_sets) + 2:
        return []
    readings: list[tuple[int, list[int], list[int]]] = [(-1, [], [])]
    for g, pattern in enumerate(_groups(vector)):
        start = HONOURS_START if g == 3 else SUIT_STARTS[g]
        options = _honours_decompositions(pattern) if g == 3 else _suit_decompositions(pattern)
        readings = [
            (
                start + pair if pair >= 0 else so_far_pair,
                [*so_far_pungs, *(start + r for r in pungs)],
                [*so_far_chows, *(start + r for r in chows)],
            )
            for so_far_pair, so_far_pungs, so_far_chows in readings
            for pair, pungs, chows in options
            if pair < 0 or so_far_pair < 0
        ]
    return sorted(
        Decomposition(
            KINDS[pair],
            tuple(KINDS[i] for i in sorted(pungs)),
            tuple(KINDS[i] for i in sorted(chows)),
        )
        for pair, pungs, chows in readings
        if pair >= 0
    )
