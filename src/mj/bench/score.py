"""Hand scorings per second on one core, each hand scored as the winner's.

Run as ``mj bench score``. The hands are a fixed, seeded set of random complete
winning hands (four sets and a pair, mixed exposed and concealed, some kongs of every
origin, flowers) with the facts of how they were won, so runs are comparable. Each is
scored as the winner's hand, the expensive case (winner-only elements and the
"filling the only place" wait analysis). ``--rules ims`` scores the same hands by the
IMS rules (every arrangement of the concealed tiles, each fan and bonus element).
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass

from mj.argtypes import whole
from mj.melds import KongOrigin, Meld, MeldKind, chow, kong, pair, pung
from mj.rules import winhand
from mj.rules.base import SeatHand, Win, WinSource
from mj.rules.classical.scoring import score_hand
from mj.rules.ims import options as ims_options
from mj.rules.ims.scoring import score as ims_score
from mj.rules.options import GameOptions
from mj.tiles import KINDS, NUM_KINDS, SPECIALS, WINDS, Tile, is_suited, kind_index

_SOURCES = (WinSource.WALL, WinSource.DISCARD, WinSource.DISCARD, WinSource.LOOSE)


def _random_set(rng: random.Random, left: list[int]) -> tuple[str, Tile] | None:
    """A chow, pung or kong drawn from the tiles still ``left`` (counts by kind), or None."""
    for _ in range(20):
        tile = rng.choice(KINDS)
        i = kind_index(tile)
        shape = rng.choice(("chow", "chow", "pung", "pung", "kong"))
        if shape == "chow":
            if not is_suited(tile) or tile % 10 > 7 or min(left[i], left[i + 1], left[i + 2]) == 0:
                continue
            for k in (i, i + 1, i + 2):
                left[k] -= 1
            return shape, tile
        need = 4 if shape == "kong" else 3
        if left[i] >= need:
            left[i] -= need
            return shape, tile
    return None


def random_winning_hand(rng: random.Random) -> tuple[SeatHand, Win]:
    """One complete hand, its sets in formation order, and the facts of its win."""
    while True:
        left = [4] * NUM_KINDS
        sets = [_random_set(rng, left) for _ in range(4)]
        pair_tile = rng.choice(KINDS)
        if any(s is None for s in sets) or left[kind_index(pair_tile)] < 2:
            continue
        break
    source = rng.choice(_SOURCES)
    # Kongs and the first few sets were declared during play; the rest at mah-jong.
    exposed = rng.randrange(0, 4)
    sets.sort(key=lambda s: s is not None and s[0] != "kong")
    declared = max(exposed, sum(1 for s in sets if s is not None and s[0] == "kong"))
    melds: list[Meld] = []
    for n, shape_tile in enumerate(sets):
        assert shape_tile is not None
        shape, tile = shape_tile
        concealed = n >= exposed
        if shape == "chow":
            melds.append(chow(tile, concealed))
        elif shape == "pung":
            melds.append(pung(tile, concealed))
        elif concealed:
            melds.append(kong(tile, KongOrigin.CONCEALED))
        else:
            melds.append(kong(tile, rng.choice((KongOrigin.CLAIMED, KongOrigin.ANNEXED))))
    melds.append(pair(pair_tile, True))
    if declared == 4:
        declared = 3
        melds[3] = pung(melds[3].tile, True)
    # The winning tile completes one of the sets formed at mah-jong (the pair sometimes).
    last = len(melds) - 1 if rng.random() < 0.3 else rng.randrange(declared, 4)
    winning = melds[last]
    if source is WinSource.DISCARD:
        melds[last] = Meld(winning.kind, winning.tile, False)
    melds.insert(declared, melds.pop(last))
    win_tile = winning.tile + rng.randrange(0, 3) if winning.kind is MeldKind.CHOW else winning.tile
    hand = SeatHand(
        melds=tuple(melds),
        concealed=(),
        specials=tuple(rng.sample(SPECIALS, rng.randrange(0, 4))),
        own_wind=rng.choice(WINDS),
        prevailing_wind=rng.choice(WINDS),
    )
    if source is WinSource.LOOSE and not winhand.draws_loose_tiles(melds[:declared], hand.specials):
        source = WinSource.WALL
    visible = tuple(rng.randrange(0, 5) for _ in range(NUM_KINDS))
    win = Win(
        tile=win_tile,
        source=source,
        melds_before_win=declared,
        visible=visible,
        last_tile=rng.random() < 0.05,
        heavens_blessing=False,
        earths_blessing=False,
        kong_upon_kong=False,
        original_call=rng.random() < 0.02,
        hands_as_east=0,
        winner_is_east=hand.own_wind == WINDS[0],
    )
    return hand, win


@dataclass(frozen=True, slots=True)
class Rate:
    """How many scorings took how long."""

    scorings: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.scorings / self.seconds if self.seconds > 0 else 0.0


def measure(hands: int = 2000, rounds: int = 10, seed: int = 1) -> Rate:
    """Score ``hands`` seeded random winning hands ``rounds`` times each, as the winner's."""
    rng = random.Random(seed)
    cases = [random_winning_hand(rng) for _ in range(hands)]
    options = GameOptions()
    start = time.perf_counter()
    for _ in range(rounds):
        for hand, win in cases:
            score_hand(hand, win, options)
    return Rate(hands * rounds, time.perf_counter() - start)


def as_winning_hand(rng: random.Random, hand: SeatHand, win: Win) -> winhand.WinningHand:
    """The classical benchmark's hand as a rule-neutral one (a discard fed by a random other seat)."""
    declared = hand.melds[: win.melds_before_win]
    seat = WINDS.index(hand.own_wind)
    how = winhand.HOW_OF[win.source]
    result = winhand.WinningHand(
        seat=seat,
        round_wind=WINDS.index(hand.prevailing_wind),
        exposed=tuple(m if m.kind is MeldKind.KONG else Meld(m.kind, m.tile, False) for m in declared),
        concealed=tuple(t for m in hand.melds[win.melds_before_win :] for t in m.tiles),
        winning_tile=win.tile,
        how=how,
        discarder=rng.choice([s for s in range(4) if s != seat]) if how.fed else None,
        flowers=hand.specials,
    )
    winhand.check(result)
    return result


def measure_ims(hands: int = 2000, rounds: int = 10, seed: int = 1) -> Rate:
    """Score the same seeded hands as :func:`measure` by the IMS rules (default options), ``rounds`` times each."""
    rng = random.Random(seed)
    feeders = random.Random(seed)
    cases = [as_winning_hand(feeders, *random_winning_hand(rng)) for _ in range(hands)]
    options = ims_options.DEFAULTS
    start = time.perf_counter()
    for _ in range(rounds):
        for hand in cases:
            ims_score(hand, options)
    return Rate(hands * rounds, time.perf_counter() - start)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rules", choices=("classical", "ims"), default="classical", help="rule system (default classical)"
    )
    parser.add_argument("--hands", type=whole(1), default=2000, help="distinct hands (default 2000)")
    parser.add_argument("--rounds", type=whole(1), default=10, help="times each hand is scored (default 10)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the hands (default 1)")


def run(args: argparse.Namespace) -> int:
    if args.rules == "ims":
        rate = measure_ims(args.hands, args.rounds, args.seed)
        print(f"{rate.scorings} IMS hand scorings in {rate.seconds:.3f} s: {rate.per_second:,.0f} per second")
        return 0
    rate = measure(args.hands, args.rounds, args.seed)
    print(f"{rate.scorings} hand scorings in {rate.seconds:.3f} s: {rate.per_second:,.0f} per second")
    return 0
