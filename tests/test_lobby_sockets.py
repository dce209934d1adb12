"""How people reach a lobby's tables: a connection the lobby makes, with no name on the machine.

A socket file per table (in a temporary directory) outlived every lobby killed with
SIGKILL, and anybody who found it could connect; a connected socket pair leaves
nothing to remove however the lobby ends, and only the lobby holds its ends.
"""

from __future__ import annotations

import asyncio
import functools
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from lobbyproc import Lobby
from mj.lobby.models import LobbyTable
from mj.lobby.recorder import Recorder
from mj.lobby.runner import TableRunner
from mj.lobby.store import Store
from mj.lobby.tables import Tables
from mj.protocol import cmsg as C
from mj.protocol import pmsg as P
from mj.protocol.connect import EXTENDED_PROTOCOL_VERSION
from mj.protocol.framing import LineDecoder, encode_line
from mj.web.session import Session


def _left_in(folder: Path) -> list[str]:
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*"))


@pytest.mark.parametrize("ending", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL], ids=lambda s: s.name)
def test_a_lobby_with_a_person_seated_leaves_nothing_in_the_temporary_directory_before_or_after_it_ends(
    start_lobby: Any, tmp_path: Path, ending: signal.Signals
) -> None:
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    lobby: Lobby = start_lobby(f"sqlite:///{tmp_path / 'lobby.db'}", env={"TMPDIR": str(temporary)})
    status, answer = lobby.call("POST", "/api/tables", {"robots": 3, "level": 1})
    assert status == 201
    table = answer["table"]
    assert lobby.call("POST", f"/api/tables/{table}/sit", {"name": "Ann"})[0] == 200
    seats = lobby.get(f"/api/tables/{table}")["seats"]
    assert {s["name"]: s["connected"] for s in seats}["Ann"] is True
    assert _left_in(temporary) == []
    os.kill(lobby.process.pid, ending)
    assert lobby.process.wait(30) == (-signal.SIGKILL if ending is signal.SIGKILL else 0)
    assert _left_in(temporary) == []


async def _connect_as(runner: TableRunner, name: str) -> C.CMsg:
    """Connect to the table as a client of mj-server would; the table's first answer."""
    reader, writer = await runner.connect()
    try:
        writer.write(encode_line(P.Connect(EXTENDED_PROTOCOL_VERSION, 0, name).encode()))
        decoder = LineDecoder()
        while True:
            data = await asyncio.wait_for(reader.read(65536), 10)
            assert data, "the table closed the connection"
            lines = decoder.feed(data)
            if lines:
                return C.decode(lines[0])
    finally:
        writer.close()


def _waiting_table(store: Store) -> LobbyTable:
    return store.create_table("classical", {}, 3, 1, 5, 0)


def test_a_person_connects_to_a_table_as_to_mj_server_and_is_given_a_player_id(store: Store) -> None:
    async def scenario() -> C.CMsg:
        row = _waiting_table(store)
        runner = TableRunner(Recorder(store), row, store.start_game(row))
        await runner.start(resume=False)
        try:
            return await _connect_as(runner, "Ann")
        finally:
            await runner.stop()

    reply = asyncio.run(scenario())
    assert isinstance(reply, C.ConnectReply) and reply.id != 0


def test_a_table_stopped_or_not_played_here_refuses_connections(store: Store) -> None:
    async def scenario() -> None:
        tables = Tables(store)
        row = _waiting_table(store)
        runner = TableRunner(Recorder(store), row, store.start_game(row))
        with pytest.raises(ConnectionRefusedError):  # not started yet
            await runner.connect()
        await runner.start(resume=False)
        tables.runners[row.id] = runner
        assert isinstance(await _connect_as(runner, "Ann"), C.ConnectReply)
        with pytest.raises(ConnectionRefusedError):
            await tables.connect(row.id + 1)
        await tables.close()
        with pytest.raises(ConnectionRefusedError):
            await tables.connect(row.id)

    asyncio.run(scenario())


def test_a_seat_whose_connection_to_its_table_drops_rejoins_the_same_seat_through_the_lobby(store: Store) -> None:
    async def scenario() -> tuple[int, int, str]:
        tables = Tables(store)
        row = _waiting_table(store)
        runner = TableRunner(Recorder(store), row, store.start_game(row))
        await runner.start(resume=False)
        tables.runners[row.id] = runner
        session = Session(f"lobby table {row.id}", "Ann", connect=functools.partial(tables.connect, row.id))
        try:
            assert await session.start(), session.detail
            seated = session.view.my_id
            (writer,) = runner._writers.values()  # the table's end of Ann's connection
            writer.close()
            deadline = asyncio.get_running_loop().time() + 10
            while session.status != "connected" or len(runner._writers) != 1 or writer in runner._writers.values():
                assert asyncio.get_running_loop().time() < deadline, session.status
                await asyncio.sleep(0.05)
            ann = next(p for p in runner.play.table.players if p.name == "Ann")
            assert ann.connection is not None
            return seated, ann.id, session.status
        finally:
            await session.close()
            await tables.close()

    seated, again, status = asyncio.run(scenario())
    assert seated != 0 and again == seated and status == "connected"
