"""Walls stacked toward rich hands, for comparing the servers' scoring (``compare_servers.py --stacked``).

Seeded walls seldom deal the limit hands, so the scoring of most of them would go
unchecked against the original. A stacked wall, made from a seed, deals each seat
most of a hand rich in what scoring tells apart and lays the rest where the seat
will draw it or another will throw it; a wall file is dealt again every hand (§12.3).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from mj import tiles
from mj.hand.counting import counts
from mj.hand.distance import shanten_all
from mj.rules import registry

#: Where a stacked hand's sets come from, with their weights: what the scoring tells apart.
THEMES: dict[str, int] = {"mixed": 4, "flush": 3, "pungs": 3, "majors": 2, "orphans": 1, "gates": 1}
ORPHANS = [s + r for s in tiles.SUITS for r in (1, 9)] + list(tiles.WINDS) + list(tiles.DRAGONS)
#: Where each seat's tiles of the deal lie in a wall file (§12.3), as the classical rules deal them.
_DEALT: Final = [[n for n, seat in enumerate(registry.DEFAULT.deal_order()) if seat == s] for s in range(4)]
#: Where East's fourteenth tile lies.
EAST_FOURTEENTH: Final = _DEALT[0][13]


def _take(pool: list[tiles.Tile], wanted: Sequence[tiles.Tile]) -> bool:
    """Remove ``wanted`` from ``pool`` if every copy is there; leave it untouched otherwise."""
    left = list(pool)
    for tile in wanted:
        if tile not in left:
            return False
        left.remove(tile)
    pool[:] = left
    return True


def _stacked_hand(rng: random.Random, pool: list[tiles.Tile]) -> list[tiles.Tile]:
    """Tiles of one complete hand (sets and a pair, or a limit shape) taken from ``pool``."""
    theme = rng.choices(list(THEMES), weights=list(THEMES.values()))[0]
    suit = rng.choice(tiles.SUITS)
    honours = [*tiles.WINDS, *tiles.DRAGONS]
    if theme == "orphans" and _take(pool, shape := [*ORPHANS, rng.choice(ORPHANS)]):
        return shape
    if theme == "gates" and _take(pool, shape := [suit + r for r in (1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9)]):
        return [*shape, *([t] if _take(pool, [t := suit + rng.randint(1, 9)]) else [])]
    kinds = {
        "mixed": [s + r for s in tiles.SUITS for r in range(1, 10)] + honours,
        "flush": [suit + r for r in range(1, 10)] + (honours if rng.random() < 0.5 else []),
        "pungs": list(tiles.KINDS),
        "majors": [s + r for s in tiles.SUITS for r in (1, 9)] + honours,
    }.get(theme, list(tiles.KINDS))
    hand: list[tiles.Tile] = []
    sets = 0
    for _ in range(200):
        if sets == 4:
            break
        kind = rng.choice(kinds)
        chow = theme in ("mixed", "flush") and tiles.is_suited(kind) and tiles.rank(kind) <= 7 and rng.random() < 0.5
        wanted = [kind, kind + 1, kind + 2] if chow else [kind] * (4 if rng.random() < 0.1 else 3)
        if _take(pool, wanted):
            hand += wanted
            sets += 1
    for _ in range(200):
        if _take(pool, [kind := rng.choice(kinds)] * 2):
            return [*hand, kind, kind]
    return hand


def dealt_places(seat: int) -> list[int]:
    """Where in a wall file the 13 tiles dealt to ``seat`` (0: East) lie, East's fourteenth aside."""
    return _DEALT[seat][:13]


def stacked_wall(seed: int, flowers: bool) -> list[tiles.Tile]:
    """A wall in draw order (§12.3) stacked toward rich hands.

    Each seat is dealt most of a complete hand and one to three other tiles; each
    tile its hand lacks is either among its first six draws or dealt to another
    seat, which will likely throw it, so hands are made by claims as well as draws.
    """
    rng = random.Random(seed)
    pool = [t for t in tiles.full_set(flowers) if not tiles.is_special(t)]
    rng.shuffle(pool)
    hands = [_stacked_hand(rng, pool) for _ in range(4)]
    wall: list[tiles.Tile | None] = [None] * tiles.wall_size(flowers)
    dealt = [dealt_places(seat) for seat in range(4)]
    draws = [[53 + (seat + 3) % 4 + 4 * turn for turn in range(6)] for seat in range(4)]
    for places in (*dealt, *draws):
        rng.shuffle(places)
    missing: list[tuple[int, tiles.Tile]] = []
    for seat, hand in enumerate(hands):
        rng.shuffle(hand)
        own = 13 - rng.randint(1, 3)
        for tile in hand[:own]:
            wall[dealt[seat].pop()] = tile
        missing += [(seat, tile) for tile in hand[own:]]
    for seat, tile in missing:
        others = [other for other in range(4) if other != seat and dealt[other]]
        if others and rng.random() < 0.5:
            wall[dealt[rng.choice(others)].pop()] = tile
        elif draws[seat]:
            wall[draws[seat].pop()] = tile
        else:
            pool.append(tile)
    pool += [t for t in tiles.full_set(flowers) if tiles.is_special(t)]
    rng.shuffle(pool)
    free = [i for i, t in enumerate(wall) if t is None]
    for place, tile in zip(free, pool, strict=True):
        wall[place] = tile
    complete = [t for t in wall if t is not None]
    while heavens_blessing(complete):
        swap = rng.randrange(60, len(complete))
        complete[EAST_FOURTEENTH], complete[swap] = complete[swap], complete[EAST_FOURTEENTH]
    return complete


def heavens_blessing(wall: Sequence[tiles.Tile]) -> bool:
    """Whether East is dealt a complete hand: the original then announces a stale tile (§16 item 9),
    which our server does not reproduce after the first hand."""
    east = [wall[place] for place in (*dealt_places(0), EAST_FOURTEENTH)]
    return shanten_all(counts([t for t in east if not tiles.is_special(t)])) == -1
