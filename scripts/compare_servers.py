#!/usr/bin/env python3
"""Play the same seeded robot games on the original mj-server and on ours, and compare the logs.

For each seed, both servers run with ``--seed N --timeout 0 --exit-on-disconnect``
(and the option file, if given), each in its own temporary directory on a Unix
socket (ours on TCP 127.0.0.1 with ``--tcp``), with four original ``mj-player``
robots connected in order. With ``--stacked`` both servers also get the same
``--wallfile``, made from the seed: every seat is dealt most of a hand rich in
what scoring tells apart (pungs and kongs of honours, flushes, terminals, the
rare limit hands) and finds the rest among its first draws, so the hands that go
out cover far more of the scoring than shuffled walls do. (The original plays
the first hand of a wall-file game with blank tiles, §12.3; ours does the same.)
The two logs are compared in the canonical form of
:mod:`mj.server.logcompare`, which forgets only the interleaving of concurrent
robots, and each seed is reported identical or different with the first
difference. The exit status is 1 if any game differs or fails.

Example::

    python scripts/compare_servers.py --seeds 1-5 --option-file tests/data/options/no-flowers.opt
    python scripts/compare_servers.py --seeds 1-20 --stacked --jobs 2

Every process started here is ended by PID.
"""

from __future__ import annotations

import argparse
import os
import random
import shlex
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from mj import original, tiles
from mj.hand.counting import counts
from mj.hand.distance import shanten_all
from mj.logfile import LogEntry, parse_log
from mj.protocol.framing import ENCODING
from mj.rules import registry
from mj.rules.options import GameOptions
from mj.seeds import parse_seeds
from mj.server.cli import read_option_file
from mj.server.logcompare import first_difference
from mj.server.robotgame import GameRun, play_robot_game


@dataclass(frozen=True)
class Outcome:
    seed: int
    same: bool
    report: str
    original: GameRun
    ours: GameRun


#: Where a stacked hand's sets come from, with their weights: what the scoring tells apart.
THEMES: dict[str, int] = {"mixed": 4, "flush": 3, "pungs": 3, "majors": 2, "orphans": 1, "gates": 1}
ORPHANS = [s + r for s in tiles.SUITS for r in (1, 9)] + list(tiles.WINDS) + list(tiles.DRAGONS)


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
    dealt = [
        [
            *range(4 * seat, 4 * seat + 4),
            *range(16 + 4 * seat, 20 + 4 * seat),
            *range(32 + 4 * seat, 36 + 4 * seat),
            48 + seat,
        ]
        for seat in range(4)
    ]
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
    while _heavens_blessing(complete):
        swap = rng.randrange(60, len(complete))
        complete[EAST_FOURTEENTH], complete[swap] = complete[swap], complete[EAST_FOURTEENTH]
    return complete


#: Where East's fourteenth tile lies in a wall file (§12.3).
EAST_FOURTEENTH = 52


def _heavens_blessing(wall: Sequence[tiles.Tile]) -> bool:
    """Whether East is dealt a complete hand: the original then announces a stale tile (§16 item 9),
    which our server does not reproduce after the first hand."""
    east = [*wall[0:4], *wall[16:20], *wall[32:36], wall[48], wall[EAST_FOURTEENTH]]
    return shanten_all(counts([t for t in east if not tiles.is_special(t)])) == -1


def server_arguments(seed: int, address: str, option_file: Path | None, wall_file: Path | None) -> list[str]:
    arguments = ["--server", address, "--seed", str(seed), "--timeout", "0", "--exit-on-disconnect"]
    arguments += ["--logfile", "game.log"]
    if option_file is not None:
        arguments += ["--option-file", str(option_file)]
    if wall_file is not None:
        arguments += ["--wallfile", str(wall_file)]
    return arguments


def play(command: Sequence[str], seed: int, address: str, args: argparse.Namespace, keep: Path | None) -> GameRun:
    with tempfile.TemporaryDirectory(prefix="mjcmp-") as name:
        workdir = Path(name)
        wall_file = None
        if args.stacked:
            wall_file = workdir / "wall"
            wall_file.write_text(tiles.codes(stacked_wall(seed, args.flowers)) + "\n", encoding="ascii")
        run = play_robot_game(
            [*command, *server_arguments(seed, address, args.option_file, wall_file)],
            workdir,
            workdir / "game.log",
            timeout=args.timeout,
            player=args.player,
        )
    if keep is not None:
        keep.write_bytes(run.log)
    return run


def compare_seed(seed: int, args: argparse.Namespace) -> Outcome:
    keep: Path | None = args.keep
    original = play([args.original], seed, "sock", args, keep / f"seed{seed}-original.log" if keep else None)
    ours_address = "127.0.0.1:0" if args.tcp else "sock"
    ours_command = [*shlex.split(args.ours), *(["--original-quirks"] if args.stacked else [])]
    ours = play(ours_command, seed, ours_address, args, keep / f"seed{seed}-ours.log" if keep else None)
    original_log, ours_log = parse_log(original.log.decode(ENCODING)), parse_log(ours.log.decode(ENCODING))
    if args.stacked and original.unfinished and ours.unfinished:
        if first_difference(original_log, ours_log) is None:
            report = f"identical, but neither game ended in {args.timeout:.0f} s (the robots stalled alike)"
            return Outcome(seed, True, report, original, ours)
        hands = min(_hands_started(original_log), _hands_started(ours_log)) - 1
        difference = first_difference(_before_hand(original_log, hands + 1), _before_hand(ours_log, hands + 1))
        if difference is None and hands >= 1:
            report = f"identical over {hands} hands; neither game ended in {args.timeout:.0f} s"
            return Outcome(seed, True, report + " (a hand dealt again and again)", original, ours)
        if difference is None:
            return Outcome(seed, False, f"original server failed: {original.message}", original, ours)
    elif not original.ok:
        return Outcome(seed, False, f"original server failed: {original.message}", original, ours)
    elif not ours.ok:
        return Outcome(seed, False, f"our server failed: {ours.message}", original, ours)
    else:
        difference = first_difference(original_log, ours_log)
    if difference is None:
        return Outcome(seed, True, "identical", original, ours)
    return Outcome(seed, False, "DIFFERENT, " + difference.describe("original", "ours"), original, ours)


def _hands_started(log: Sequence[LogEntry]) -> int:
    return sum(1 for entry in log if entry.direction == ">" and (entry.text or "").startswith("NewHand "))


def _before_hand(log: Sequence[LogEntry], number: int) -> list[LogEntry]:
    """The entries before the ``number``-th hand's ``NewHand``: the hands both games played in full.

    A wall file is dealt again every hand, so a hand that washes out (or that East
    wins) on it can come round for ever, and such a game is compared over the hands
    both servers finished before the deadline.
    """
    seen = 0
    for index, entry in enumerate(log):
        if entry.direction == ">" and (entry.text or "").startswith("NewHand "):
            seen += 1
            if seen == number:
                return list(log[:index])
    return list(log)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--seeds", required=True, help="e.g. 1-10,15")
    parser.add_argument("--option-file", type=Path, help="option file given to both servers")
    parser.add_argument("--tcp", action="store_true", help="run our server on TCP 127.0.0.1 (a free port)")
    parser.add_argument("--jobs", type=int, default=1, help="seeds played in parallel")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per game")
    parser.add_argument("--original", default=original.SERVER, help="the original mj-server binary")
    parser.add_argument("--player", default=original.PLAYER, help="the original mj-player binary")
    parser.add_argument(
        "--ours", default=f"{shlex.quote(sys.executable)} -m mj.server", help="command that runs our server"
    )
    parser.add_argument("--keep", type=Path, help="directory to keep both logs of every seed in")
    parser.add_argument("--stacked", action="store_true", help="a wall file stacked toward rich hands, from the seed")
    args = parser.parse_args(argv)
    try:
        seeds = parse_seeds(args.seeds)
    except ValueError as exc:
        parser.error(str(exc))
    if args.option_file is not None:
        if not args.option_file.is_file():
            parser.error(f"option file not found: {args.option_file}")
        args.option_file = args.option_file.resolve()
    options = GameOptions()
    for entry in read_option_file(args.option_file) if args.option_file else ():
        options.apply_entry(entry)
    args.flowers = registry.DEFAULT.flowers(options)
    for binary in (args.original, args.player):
        if not os.access(binary, os.X_OK):
            print(f"error: {binary} not found (apt-get install mah-jong)", file=sys.stderr)
            return 2
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)

    started = time.monotonic()
    differ = 0
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for outcome in pool.map(lambda seed: compare_seed(seed, args), seeds):
            times = f"original {outcome.original.seconds:5.2f} s, ours {outcome.ours.seconds:5.2f} s"
            print(f"seed {outcome.seed}: {outcome.report} ({times})", flush=True)
            differ += not outcome.same
    total = time.monotonic() - started
    print(f"{len(seeds) - differ}/{len(seeds)} games identical in {total:.1f} s", flush=True)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
