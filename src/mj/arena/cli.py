"""``mj arena``: the command line of :func:`mj.arena.run`.

Everything given is checked before the first game (players, options, option file,
log directory); a mistake ends the command with one line on standard error and
status 2, as argparse does for the options it checks itself. A game that cannot
be finished (a robot or table fault, or a worker process that died playing it) ends
it with one line naming the game and status 1.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from pathlib import Path

from mj.arena.game import GameError
from mj.arena.options import game_options
from mj.arena.players import DEFAULT_WORD, KEYS, SpecError
from mj.arena.plot import check_plot_path, plot_scores
from mj.arena.report import format_result
from mj.arena.runner import DEFAULT_GAMES, run
from mj.robot.levels import SYSTEM_FIELDS
from mj.robot.systems import STRATEGIES
from mj.rules import registry

DESCRIPTION = "Play games in-process between four robots, seats rotated over seeds, and report figures per player."
EPILOG = textwrap.dedent(
    f"""\
    PLAYER is KEY=VALUE pairs separated by commas, keys {", ".join(KEYS)}:
      level=2                       level of play (1, 2 or 3, as mj-player --level)
      level=2,chowness=0.5          with mj-player's strategy options and their ranges: chowness -1..1,
                                    hiddenness, majorness, suitness 0..1 (lists of up to 5), hysteresis >= 0
      chowness=0,-0.9,hiddenness=1  a word without '=' continues the list before it
      name=Cautious,level=3         name: the player's label in the report
      level=3,generic=1             the generic level even where the rules have a strategy of their own
      level=3,cost=1,hurry=0        a variant: fields of the level's Defence replaced (levels 2, 3, as
                                    scripts/tournament.py --set; where the own strategy of {" or ".join(STRATEGIES)}
                                    plays the options (not IMS at MinimumFan=0), only {", ".join(SYSTEM_FIELDS)},
                                    unless generic=1)
      {DEFAULT_WORD}                       the default robot
    example: mj arena --games 40 --option NumRounds=1 level=1 level=2 level=3 level=1,chowness=-1
    """
)


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``mj arena`` to the ``mj`` command's subcommands."""
    parser = commands.add_parser(
        "arena",
        help="in-process tournaments between robots (duplicate format, all cores)",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add = parser.add_argument
    # not nargs=4: argparse would answer three players with "the following arguments are required: PLAYER"
    add("players", nargs="+", metavar="PLAYER", help="a robot specification, four of them (see below)")
    add("--games", type=int, default=DEFAULT_GAMES, metavar="N",
        help=f"games to play, a multiple of 4: each seed in 4 rotations (default {DEFAULT_GAMES})")  # fmt: skip
    add("--seed", type=int, default=1, metavar="S", help="the first seed; then S+1... (default 1)")
    add("--jobs", type=int, default=None, metavar="J", help="worker processes (default: every core)")
    add("--option", action="append", default=[], metavar="NAME=VALUE",
        help="a game option, as mj-server's SetGameOption takes it (e.g. NumRounds=1); repeatable")  # fmt: skip
    add("--option-file", type=Path, metavar="FILE", help="game options, as mj-server --option-file reads them")
    add("--json", action="store_true", help="print the results as JSON instead of a table")
    add("--plot", type=Path, metavar="FILE.png", help="draw the players' score distributions into FILE.png")
    add("--log", type=Path, metavar="DIR", help="write each game's log there, in mj-server's --logfile format")
    add("--rules", default=registry.DEFAULT_NAME, metavar="NAME",
        help=f"the rule system: {', '.join(registry.names())} (default %(default)s)")  # fmt: skip
    parser.set_defaults(run=main)


def main(args: argparse.Namespace) -> int:
    try:
        if args.plot is not None:
            check_plot_path(args.plot)
        try:
            rules = registry.get(args.rules)
        except registry.RulesError as exc:
            raise SpecError(str(exc)) from None
        options = game_options(args.option_file, args.option, rules)
        result = run(
            args.players,
            games=args.games,
            seed=args.seed,
            jobs=args.jobs,
            options=options,
            log_dir=args.log,
            progress=sys.stderr.isatty(),
            rules=args.rules,
        )
    except SpecError as exc:
        print(f"mj arena: error: {exc}", file=sys.stderr)
        return 2
    except GameError as exc:
        print(f"mj arena: game failed: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(result.as_dict(), indent=2, allow_nan=False))
    else:
        print(format_result(result), end="")
    if args.plot is not None:
        try:
            plot_scores(result, args.plot)
        except OSError as exc:  # checked before the games; the disk may still fill up
            print(f"mj arena: error: --plot {args.plot}: cannot write it: {exc.strerror or exc}", file=sys.stderr)
            return 1
    return 0
