"""``mj-player``: a robot that joins a game on a Unix Mah-Jong compatible server.

The options are the original robot's (protocol.md §11.2), so scripts and ``xmj``
can start it in place of ``/usr/games/mj-player``; ``--level`` and ``--seed`` are
ours. It exits 0 when the game is over and 1 when it cannot play on (refused,
disconnected, redirected), like the original.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys

from mj.robot.agent import Robot
from mj.robot.client import DEFAULT_SERVER, Client, ClientConfig, stderr_log
from mj.robot.levels import DEFAULT_LEVEL, LEVELS
from mj.robot.personality import PersonalityError, parse_personality
from mj.robot.systems import make_strategy


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mj-player", description="A Mah-Jong playing robot (protocol 1110).")
    parser.add_argument(
        "--server",
        "--address",
        dest="server",
        default=DEFAULT_SERVER,
        help="HOST:PORT for TCP (':PORT' = localhost), or the path of a Unix socket (default %(default)s)",
    )
    parser.add_argument("--id", type=int, default=0, help="player id to ask for (default 0: any)")
    parser.add_argument("--name", help="player name (default Robot(<pid>))")
    parser.add_argument("--password", help="password for basic authentication")
    personality = parser.add_argument_group(
        "strategy options", "comma-separated lists of up to 5 numbers, as the original robot takes them"
    )
    personality.add_argument("--chowness", metavar="LIST", help="-1..1: >0 favours chows, -1 never chows")
    personality.add_argument("--hiddenness", metavar="LIST", help="0..1: reluctance to expose sets")
    personality.add_argument("--majorness", metavar="LIST", help="0..1: favours terminals and honours")
    personality.add_argument("--suitness", metavar="LIST", help="0..1: favours one-suit hands")
    personality.add_argument("--hysteresis", metavar="X", help="how much better a strategy must be to switch to it")
    parser.add_argument(
        "--level",
        type=int,
        choices=LEVELS,
        default=DEFAULT_LEVEL,
        help="strength of play: 1 speed only, 2 with defence, 3 weighs hand value against risk (default %(default)s)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed for breaking ties between equal moves")
    parser.add_argument("-v", "--verbose", action="store_true", help="log claim denials and fallbacks to stderr")
    return parser


#: Options whose value may start with a minus sign (``--chowness -1,0``).
_SIGNED = ("--chowness", "--hiddenness", "--majorness", "--suitness", "--hysteresis")


def _join_signed(argv: list[str]) -> list[str]:
    """``--chowness -1,0`` as ``--chowness=-1,0``: argparse would take ``-1,0`` for an option."""
    joined: list[str] = []
    words = iter(argv)
    for word in words:
        if word in _SIGNED:
            value = next(words, None)
            joined.append(word if value is None else f"{word}={value}")
        else:
            joined.append(word)
    return joined


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(_join_signed(sys.argv[1:] if argv is None else argv))
    try:
        personality = parse_personality(args.chowness, args.hiddenness, args.majorness, args.suitness, args.hysteresis)
    except PersonalityError as exc:
        parser.error(str(exc))
    if args.id < 0:
        parser.error("--id must be 0 (any) or a positive player id")
    name = args.name if args.name else f"Robot({os.getpid()})"
    config = ClientConfig(server=args.server, id=args.id, name=name, password=args.password)
    log = stderr_log(f"mj-player {name}")
    robot = Robot(make_strategy(args.level, personality, args.seed), log=log if args.verbose else None)
    try:
        return asyncio.run(Client(config, robot, log).run())
    except KeyboardInterrupt:
        return 1


if __name__ == "__main__":
    sys.exit(main())
