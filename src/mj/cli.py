"""The ``mj`` command: play, replay, arena, score and bench."""

from __future__ import annotations

import argparse
import functools
import os
import sys
from pathlib import Path
from typing import Final

from mj import bench, compiled
from mj.arena import cli as arena_cli
from mj.calculator import cli as score_cli
from mj.lobby import cli as lobby_cli
from mj.narrate import Narrator
from mj.replay import ReplayError, read_entries, replay
from mj.web import cli as xmj

#: The exit status of a command ended by Ctrl-C, and of one whose output's reader went away (128 + SIGPIPE).
INTERRUPTED: Final = 130
BROKEN_PIPE: Final = 141


def _replay(args: argparse.Namespace) -> int:
    status = 0
    for path in args.logs:
        try:
            result = replay(read_entries(Path(path)), Narrator({}) if args.verbose else None)
        except BrokenPipeError:
            raise  # the reader of our output has gone (``| head``): not the log's fault
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
        parser.set_defaults(run=functools.partial(_bench, module))


def _bench(module: bench.Benchmark, args: argparse.Namespace) -> int:
    """Run a benchmark, first saying whether the hot modules run compiled: its figures depend on it."""
    print(compiled.describe(), flush=True)
    return module.run(args)


def _play(args: argparse.Namespace) -> int:
    """``mj play`` is ``xmj`` (one way to start a local game)."""
    return xmj.main(args.xmj_args, prog="mj play")


def _play_args(argv: list[str] | None) -> list[str] | None:
    """The arguments after ``play``, which go to xmj untouched (argparse would take ``--help`` itself)."""
    words = sys.argv[1:] if argv is None else argv
    return words[1:] if words[:1] == ["play"] else None


def _innermost(parser: argparse.ArgumentParser, args: argparse.Namespace) -> argparse.ArgumentParser:
    """The subcommand's own parser, so that a wrong flag is answered with that command's usage, not ``mj``'s."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            chosen = action.choices.get(getattr(args, action.dest, None) or "")
            if chosen is not None:
                return _innermost(chosen, args)
    return parser


def main(argv: list[str] | None = None) -> int:
    play_args = _play_args(argv)
    if play_args is not None:
        return xmj.main(play_args, prog="mj play")
    parser = argparse.ArgumentParser(prog="mj", description="Mah-Jong: rules engine, server, robots, client.")
    commands = parser.add_subparsers(dest="command", required=True)
    rp = commands.add_parser("replay", help="check our engine against logs of the original mj-server")
    rp.add_argument("logs", nargs="+", help="log files written by mj-server --logfile (.gz accepted)")
    rp.add_argument("-v", "--verbose", action="store_true", help="print each hand's play and scoring")
    rp.set_defaults(run=_replay)
    arena_cli.add_parser(commands)
    score_cli.add_parser(commands)
    lobby_cli.add_parser(commands)
    _add_bench(commands)
    pp = commands.add_parser("play", help="the same as xmj: a local game in the browser (xmj --help)", add_help=False)
    pp.add_argument("xmj_args", nargs=argparse.REMAINDER, help="xmj's options")
    pp.set_defaults(run=_play)
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        _innermost(parser, args).error(f"unrecognized arguments: {' '.join(unknown)}")
    try:
        return int(args.run(args))
    except KeyboardInterrupt:
        # Ctrl-C ends a long run (arena, bench, replay) as a shell expects: one line, status 128 + SIGINT.
        print(f"mj {args.command}: interrupted", file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:
        # The output's reader stopped early (``| head``): end quietly, as a shell tool does, and keep
        # Python from reporting the failed flush of what was left at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return BROKEN_PIPE


if __name__ == "__main__":
    sys.exit(main())
