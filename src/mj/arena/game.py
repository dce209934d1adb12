"""One arena game: the server's table and four robots in one process, exchanging message objects.

The table (:class:`mj.table.Table`) is the one ``mj-server`` runs and the robots
(:class:`mj.robot.agent.Robot`) are the ones ``mj-player`` runs; only the sockets
are gone. Each robot sits on a connection numbered like the server's ``cnxK``
slots and joins as ``mj-player`` does (``Connect``), so ids and seats are given by
the table's own rules: the k-th to join gets id k and sits at the k-th seat of the
first hand.

Lines are handled one at a time in the order they were sent, as the server
handles its event queue, and every message the table sends is handed to its robot
at once; what a robot answers joins the end of the queue. The order is therefore
fixed by the players' moves alone, and a game is a function of its seed, its
options and its players. Moves travel as message objects both ways (a message
reads back from its line unchanged), and are encoded only for the log.

With a log file, the game is written in the server's ``--logfile`` format (what
each connection sent, what the table logged), so ``mj replay`` can check it
against our table as it checks the original's logs.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from mj.arena.exchange import exchange
from mj.arena.players import PlayerSpec
from mj.arena.stats import PlayerGame
from mj.arena.tally import GameTally
from mj.robot.agent import Robot
from mj.rules import registry
from mj.rules.options import OptionEntry
from mj.seatview import SeatView
from mj.server.logwriter import LogWriter
from mj.table import Table, TableSettings

SEATS: Final = 4


class GameError(Exception):
    """A game that could not be played to its end (a robot or table fault); the message says where."""


@dataclass(frozen=True, slots=True)
class GameSetup:
    """Everything one game depends on (picklable, for the worker processes)."""

    seed: int
    #: 0..3: player ``i`` of ``players`` joins ``(i + rotation) % 4``-th.
    rotation: int
    players: tuple[PlayerSpec, ...]
    options: tuple[OptionEntry, ...] = ()
    log: Path | None = None
    #: The rule system's name (:mod:`mj.rules.registry`): a name travels to the workers, a Ruleset need not pickle.
    rules: str = registry.DEFAULT_NAME


@dataclass(frozen=True, slots=True)
class GameRecord:
    """What one game gave each player, in the order of :attr:`GameSetup.players`."""

    seed: int
    rotation: int
    hands: int
    players: tuple[PlayerGame, ...]
    #: Moves of each player the table refused (a robot that misjudged the rules).
    refusals: tuple[int, ...]


def joining_order(rotation: int) -> tuple[int, ...]:
    """The players (indices) in the order they join: the seats East, South, West, North of the first hand."""
    return tuple((place - rotation) % SEATS for place in range(SEATS))


def play(setup: GameSetup) -> GameRecord:
    """Play the game of ``setup`` to its end; :class:`GameError` if it stops before."""
    order = joining_order(setup.rotation)
    rules = registry.get(setup.rules)
    table = Table(TableSettings(timeout=0, seed=setup.seed, option_entries=setup.options, rules=rules))
    robots = [Robot(setup.players[player].strategy(setup.seed), SeatView(rules=rules)) for player in order]
    tally = GameTally()
    with contextlib.ExitStack() as stack:
        log = None
        if setup.log is not None:
            log = LogWriter(stack.enter_context(setup.log.open("wb")), owned=False)
            stack.callback(log.flush)  # before the file is closed, also when the game fails
        exchange(table, robots, [f"Robot{player + 1}" for player in order], tally, log)
    if not tally.game_over:
        raise GameError(f"seed {setup.seed} rotation {setup.rotation}: play stopped in hand {tally.hands}")
    players = [PlayerGame.from_tally(tally, place + 1) for place in range(SEATS)]
    refusals = [len(robot.refusals) for robot in robots]
    return GameRecord(
        setup.seed,
        setup.rotation,
        tally.hands,
        tuple(players[order.index(player)] for player in range(SEATS)),
        tuple(refusals[order.index(player)] for player in range(SEATS)),
    )
