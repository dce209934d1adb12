"""The ``mj`` command: play, replay, arena and bench."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from mj import bench
from mj.arena import cli as arena_cli
from mj.narrate import Narrator
from mj.play import default_address, play
from mj.replay import ReplayError, read_entries, replay


def _replay(args: argparse.Namespace) -> int:
    status = 0
    for path in args.logs:
        try:
            result = replay(read_entries(Path(path)), Narrator({}) if args.verbose else None)
        except (OSError, ReplayError, ValueError) as exc:
            print(f"{path}: cannot replay: {exc}", file=sys.stderr)
            status = 2
            continue
        if result.mismatch is not None:
            print(f"{path}: {result.mismatch}")
            status = max(status, 1)
        else:
            print(f"{path}: {result.hands} hands, {result.messages} messages compared: identical")
    return status


def _list_benchmarks(args: argparse.Namespace) -> int:
    for name in bench.BENCHMARKS:
        print(f"{name:10} {bench.summary(bench.load(name))}")
    return 0


def _add_bench(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``mj bench NAME [options]``: one subcommand per module of :data:`mj.bench.BENCHMARKS`."""
    bp = commands.add_parser("bench", help="micro-benchmarks of hot paths (no name: list them)")
    bp.set_defaults(run=_list_benchmarks)
    names = bp.add_subparsers(dest="benchmark", metavar="NAME")
    for name in bench.BENCHMARKS:
        module = bench.load(name)
        about = bench.summary(module)
        parser = names.add_parser(name, help=about, description=about)
        module.add_arguments(parser)
        parser.set_defaults(run=module.run)


def _play(args: argparse.Namespace) -> int:
    extra = [a for a in args.server_args if a != "--"]
    return play(args.server or default_address(), args.name, args.client, args.level, extra)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="mj", description="Mah-Jong: rules engine, server, robots, client.")
    commands = parser.add_subparsers(dest="command", required=True)
    rp = commands.add_parser("replay", help="check our engine against logs of the original mj-server")
    rp.add_argument("logs", nargs="+", help="log files written by mj-server --logfile (.gz accepted)")
    rp.add_argument("-v", "--verbose", action="store_true", help="print each hand's play and scoring")
    rp.set_defaults(run=_replay)
    arena_cli.add_parser(commands)
    _add_bench(commands)
    pp = commands.add_parser("play", help="a local game: our server, three robots and a seat for you")
    pp.add_argument("--server", default=None, help="address for the server (default: a private Unix socket)")
    pp.add_argument("--name", default=os.environ.get("USER", "Player"), help="your name at the table")
    pp.add_argument(
        "--client",
        choices=("auto", "xmj", "none"),
        default="auto",
        help="your client: xmj when a display is available (auto), or none: wait for one to connect",
    )
    pp.add_argument("--level", type=int, choices=(1, 2, 3), default=1, help="the robots' level")
    pp.add_argument("server_args", nargs=argparse.REMAINDER, help="after --: more mj-server options")
    pp.set_defaults(run=_play)
    args = parser.parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    sys.exit(main())
