"""The loop of an arena game: messages carried between the table and the robots, in the order they were sent.

Apart from :mod:`mj.arena.game` so that mypyc compiles it (:mod:`mj.compiled`): it
runs once per message and robot, and game.py's records must stay plain Python
classes, which pickle to the worker processes.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import Final

from mj.arena.tally import GameTally
from mj.protocol import cmsg as C
from mj.protocol import pmsg as P
from mj.protocol.connect import EXTENDED_PROTOCOL_VERSION
from mj.robot.agent import Robot
from mj.server.logwriter import LogWriter
from mj.table import Table

#: What ends every line a robot sends (the log keeps a received line's terminator).
_TERMINATOR: Final = "\r\n"


def exchange(
    table: Table,
    robots: Sequence[Robot],
    names: Sequence[str],
    tally: GameTally,
    log: LogWriter | None,
    watch: Callable[[int, C.CMsg, bool], None] | None = None,
) -> None:
    """Carry messages between the table and the robots until nobody has anything to send.

    Robot ``k`` is on connection ``k + 1``. A robot leaves after the ``GameOver``
    (as ``mj-player`` exits), so nothing more is handed to it. ``watch`` is told of
    every message the table sends (to robot ``k``, whether it is logged), the robots'
    private ones included: a test's view of what each seat was told.
    """
    sent: list[list[P.PMsg]] = [[] for _ in robots]
    playing = [True] * len(robots)
    queue: deque[tuple[int, P.PMsg]] = deque()
    for k, name in enumerate(names):
        table.open(k + 1)
        queue.append((k, P.Connect(EXTENDED_PROTOCOL_VERSION, 0, name)))
    while queue:
        k, move = queue.popleft()
        sent[k].append(move)
        if log is not None:
            log.received(k + 1, move.encode() + _TERMINATOR)
        for delivery in table.receive_message(k + 1, move):
            message = delivery.message
            if delivery.logged:
                tally.observe(message)
                if log is not None:
                    log.sent(delivery.connection, message.encode())
            to = delivery.connection - 1
            if watch is not None:
                watch(to, message, delivery.logged)
            if not playing[to]:
                continue
            robot = robots[to]
            if isinstance(message, C.Error):
                # The table numbers a connection's lines from 1: the refused move is that line.
                answers = robot.refused(sent[to][message.seqno - 1], message.text)
            else:
                answers = robot.receive(message)
                playing[to] = not isinstance(message, C.GameOver)
            if answers:
                queue.extend((to, answer) for answer in answers)
