"""A robot stands in for a person gone from a table and gives the seat back when they return.

The person here is a robot outside the table, playing through the table's text lines
as a person's connection does; the record of the whole game, stand-in included, must
rebuild the game exactly and replay identically.
"""

from __future__ import annotations

import json

from mj.lobby.models import LobbyTable
from mj.lobby.play import STAND_IN, TablePlay
from mj.lobby.runner import robot_seeds, table_setup
from mj.logfile import parse_log
from mj.protocol import cmsg as C
from mj.replay import replay
from mj.robot.agent import Robot
from mj.robot.levels import make_strategy
from mj.table import PROTOCOL_VERSION
from test_lobby_play import Moves, _log

PERSON = "Ann"


def _row() -> LobbyTable:
    return LobbyTable(id=1, rules="classical", options=json.dumps({"NumRounds": 1}), robots=3, level=1, seed=17,
                      turn_timer=5, status="playing")  # fmt: skip


class Person:
    """Somebody at the table through a connection of lines (here played by a robot's strategy)."""

    def __init__(self, play: TablePlay, connection: int, player_id: int = 0) -> None:
        self.play, self.connection = play, connection
        self.robot = Robot(make_strategy(1, seed=99))
        play.open(connection)
        play.receive_line(connection, f"Connect {PROTOCOL_VERSION} {player_id} {PERSON}")

    def answer(self) -> int:
        """Read what the table sent this connection and answer it; how many lines were sent."""
        sent = 0
        for delivery in self.play.take_outbox():
            if delivery.connection != self.connection or isinstance(delivery.message, C.Error):
                continue
            for move in self.robot.receive(delivery.message):
                self.play.receive_line(self.connection, move.encode())
                sent += 1
        return sent


def _run(play: TablePlay, person: Person | None, moves: Moves, steps: int | None = None) -> None:
    done = 0
    while (play.queue or (person is not None and person.answer())) and (steps is None or done < steps):
        play.step(1)
        moves.extend(play.take_batch().moves)
        done += 1
    moves.extend(play.take_batch().moves)


def test_a_robot_stands_in_for_a_person_gone_and_gives_the_seat_back_on_return() -> None:
    row = _row()
    play = TablePlay(table_setup(row))
    moves: Moves = []
    for connection, (name, seed) in robot_seeds(row).items():
        play.add_robot(connection, name, seed)
    person = Person(play, 10)
    _run(play, person, moves, steps=400)
    hands_before = play.hands
    ann = next(r.id for r in play.table.players if r.name == PERSON)

    play.close(10)  # the person is gone: play stops
    moves.extend(play.take_batch().moves)
    assert not play.table.active

    play.stand_in(11, ann, PERSON)  # the turn timer ran out
    _run(play, None, moves, steps=600)
    assert play.table.active and play.hands > hands_before
    assert play.stand_ins == {ann: 11}

    play.close(11)  # the person is back: the robot leaves the seat ...
    person = Person(play, 12, ann)  # ... and the person takes it again with their id
    assert play.stand_ins == {}
    _run(play, person, moves)
    assert play.game_over
    assert [m[0] for m in moves] == list(range(len(moves)))
    assert [m[1] for m in moves].count(STAND_IN) == 1

    again = TablePlay(table_setup(row))
    again.rebuild(moves, robot_seeds(row))
    assert again.game_over and again.seq == play.seq and again.hands == play.hands
    assert replay(parse_log(_log(moves))).mismatch is None
