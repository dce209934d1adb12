"""What one client may take of the lobby is bounded: chat lines, waiting tables, spectator places.

A client is an account logged in, else its address; what one client takes beyond
its share is refused (429, or 503 for a spectator place) in one line, and the others
are served as before.
"""

from __future__ import annotations

import asyncio
import json
import time
from datetime import timedelta
from typing import Any

import aiohttp
import pytest
from sqlalchemy import update

from mj.lobby.limits import MAX_WATCHING_PER_ADDRESS
from mj.lobby.models import LobbyTable
from mj.lobby.store import Store, now
from mj.lobby.tables import (
    MAX_ROBOT_TABLES_PER_CLIENT,
    MAX_WAITING_PER_CLIENT,
    WAITING_EXPIRY,
    Tables,
    TooManyTables,
    parse_request,
)
from mj.protocol import pmsg as P
from mj.protocol.connect import EXTENDED_PROTOCOL_VERSION
from mj.protocol.framing import encode_line
from mj.server.transport import Limits

BURST, RATE = Limits().chat_burst, Limits().chat_rate


def test_a_chat_poster_has_a_burst_of_lines_then_about_two_a_second_and_others_chat_on(
    start_lobby: Any, database_url: str
) -> None:
    lobby = start_lobby(database_url)
    assert lobby.call("POST", "/api/tables", {"robots": 3, "level": 1})[0] == 201
    began = time.monotonic()
    answers = [lobby.call("POST", "/api/chat", {"name": "Flood", "text": f"line {n}"}) for n in range(BURST + 20)]
    answers.append(lobby.call("POST", "/api/tables/1/chat", {"name": "Flood", "text": "here too"}))
    elapsed = time.monotonic() - began
    accepted = [answer for status, answer in answers if status == 201]
    refused = [answer for status, answer in answers if status != 201]
    assert BURST <= len(accepted) <= BURST + RATE * elapsed + 1
    assert {status for status, _ in answers} == {201, 429}
    assert all(answer["error"].startswith("too many chat lines") for answer in refused)
    assert [line["text"] for line in lobby.get("/api/chat")] == [a["text"] for a in accepted if a["text"] != "here too"]

    other = lobby.browser()  # an account is a poster of its own, wherever it posts from
    assert other.call("POST", "/api/register", {"name": "Bea", "password": "a good password"})[0] == 201
    assert other.call("POST", "/api/chat", {"text": "can I speak?"})[0] == 201
    last = lobby.get("/api/chat")[-1]
    assert (last["name"], last["text"]) == ("Bea", "can I speak?")
    time.sleep(1.5 / RATE)
    assert lobby.call("POST", "/api/chat", {"name": "Flood", "text": "again"})[0] == 201


def test_a_client_holds_a_few_waiting_tables_at_most_and_others_still_create_theirs(start_lobby: Any) -> None:
    lobby = start_lobby("sqlite:///lobby.db")
    made = [lobby.call("POST", "/api/tables", {"robots": 3, "level": 1}) for _ in range(MAX_WAITING_PER_CLIENT)]
    assert [status for status, _ in made] == [201] * MAX_WAITING_PER_CLIENT
    status, answer = lobby.call("POST", "/api/tables", {"robots": 0})
    assert status == 429 and answer["error"].startswith(f"you have {MAX_WAITING_PER_CLIENT} tables waiting")
    other = lobby.browser()
    assert other.call("POST", "/api/register", {"name": "Bea", "password": "a good password"})[0] == 201
    assert other.call("POST", "/api/tables", {"robots": 0})[0] == 201
    # a table of the first client that starts playing is no longer waiting: it may make another
    first = made[0][1]["table"]
    assert lobby.call("POST", f"/api/tables/{first}/robot")[0] == 201
    lobby.wait_for(first, lambda t: t["status"] != "waiting")
    assert lobby.call("POST", "/api/tables", {"robots": 0})[0] == 201
    assert lobby.call("POST", "/api/tables", {"robots": 0})[0] == 429


def test_a_client_has_a_few_tables_played_by_robots_alone_at_most_and_others_still_make_theirs(
    start_lobby: Any,
) -> None:
    """Each such table plays on by itself (slowed down here to last) and is stored: without a share, one
    client's tables of four robots took the lobby's MAX_TABLES from everybody."""
    lobby = start_lobby("sqlite:///lobby.db", "--robot-delay", "1")
    robots = {"robots": 4, "level": 1}
    made = [lobby.call("POST", "/api/tables", robots) for _ in range(MAX_ROBOT_TABLES_PER_CLIENT)]
    assert [status for status, _ in made] == [201] * MAX_ROBOT_TABLES_PER_CLIENT
    status, answer = lobby.call("POST", "/api/tables", robots)
    assert status == 429 and answer["error"].startswith(
        f"you have {MAX_ROBOT_TABLES_PER_CLIENT} tables played by robots alone"
    )
    # nor by filling a table with robots: its last seat is refused, the others taken
    status, answer = lobby.call("POST", "/api/tables", {"robots": 2, "level": 1})
    assert status == 201
    table = answer["table"]
    assert lobby.call("POST", f"/api/tables/{table}/robot")[0] == 201
    status, answer = lobby.call("POST", f"/api/tables/{table}/robot")
    assert status == 429 and answer["error"].startswith(f"you have {MAX_ROBOT_TABLES_PER_CLIENT} tables")
    assert lobby.wait_for(table, lambda t: len(t["seats"]) == 3)["status"] == "waiting"
    other = lobby.browser()
    assert other.call("POST", "/api/register", {"name": "Bea", "password": "a good password"})[0] == 201
    assert other.call("POST", "/api/tables", robots)[0] == 201
    status, answer = other.call("POST", f"/api/tables/{table}/robot")  # the share is the maker's
    assert status == 429 and answer["error"].startswith("this table's maker has")


def test_a_clients_waiting_tables_count_after_the_lobby_restarts(database_url: str) -> None:
    store = Store(database_url)
    ann, bob = "address 192.0.2.1", "account 7"

    async def scenario() -> tuple[list[int], str, int]:
        tables = Tables(store)
        await tables.resume()
        try:
            made = [(await tables.create(parse_request({}), client=ann)).row.id for _ in range(MAX_WAITING_PER_CLIENT)]
        finally:
            await tables.close()
        again = Tables(store)  # the lobby started again: Ann's tables are waiting still, and still hers
        await again.resume()
        try:
            with pytest.raises(TooManyTables) as refused:
                await again.create(parse_request({}), client=ann)
            other = await again.create(parse_request({}), client=bob)
        finally:
            await again.close()
        return made, str(refused.value), other.row.id

    try:
        made, refused, other = asyncio.run(scenario())
        assert [table.made_by for table in store.tables()] == [ann] * MAX_WAITING_PER_CLIENT + [bob]
    finally:
        store.close()
    assert refused.startswith(f"you have {MAX_WAITING_PER_CLIENT} tables waiting for players (tables {made[0]},")
    assert other == made[-1] + 1


async def _sit(tables: Tables, table: int, name: str) -> asyncio.StreamWriter:
    _reader, writer = await tables.connect(table)
    writer.write(encode_line(P.Connect(EXTENDED_PROTOCOL_VERSION, 0, name).encode()))
    await writer.drain()
    return writer


def test_a_waiting_table_nobody_sits_at_expires_and_does_not_come_back_after_a_restart(database_url: str) -> None:
    store = Store(database_url)
    long_ago = timedelta(seconds=WAITING_EXPIRY + 1)

    async def scenario() -> tuple[set[int], set[int], list[str]]:
        tables = Tables(store)
        await tables.resume()
        try:
            idle = await tables.create(parse_request({"robots": 3, "level": 1}))
            seated = await tables.create(parse_request({"robots": 2, "level": 1}))
            playing = await tables.create(parse_request({"robots": 3, "level": 1}))
            young = await tables.create(parse_request({"robots": 3, "level": 1}))
            people = [await _sit(tables, seated.row.id, "Ann"), await _sit(tables, playing.row.id, "Bob")]
            while playing.play.table.game is None or len(seated.play.table.players) < 3:
                await asyncio.sleep(0.01)
            for runner in (idle, seated, playing):  # made long ago
                runner.row.created_at -= long_ago
            expired = await tables.expire_waiting()
            assert set(tables.runners) == {seated.row.id, playing.row.id, young.row.id}
            for writer in people:
                writer.close()
        finally:
            await tables.close()
        with store.engine.begin() as connection:  # the table Ann sat at was made long ago too
            connection.execute(update(LobbyTable).where(LobbyTable.id == 2).values(created_at=now() - long_ago))
        again = Tables(store)
        await again.resume()  # Ann's seat is empty after a restart: that table expires now
        await again.close()
        return expired, set(again.runners), [t.status for t in store.tables()]

    try:
        expired, after_restart, statuses = asyncio.run(scenario())
    finally:
        store.close()
    assert expired == {1}
    assert after_restart == {3, 4}
    assert statuses == ["expired", "expired", "playing", "playing"]


def test_an_address_takes_a_few_spectator_places_at_most_in_the_whole_lobby(start_lobby: Any) -> None:
    lobby = start_lobby("sqlite:///lobby.db")
    for _ in range(2):
        assert lobby.call("POST", "/api/tables", {"robots": 3, "level": 1})[0] == 201

    async def watch() -> tuple[list[int], bool]:
        async with aiohttp.ClientSession() as http:
            sockets = []
            for _ in range(MAX_WATCHING_PER_ADDRESS):
                ws = await http.ws_connect(f"{lobby.url}api/tables/1/watch")
                assert json.loads((await ws.receive(10)).data)["type"] == "rules"
                sockets.append(ws)
            refused = []
            for table in (1, 2):
                with pytest.raises(aiohttp.WSServerHandshakeError) as caught:
                    await http.ws_connect(f"{lobby.url}api/tables/{table}/watch")
                refused.append(caught.value.status)
            await sockets.pop().close()
            await asyncio.sleep(0.2)
            again = await http.ws_connect(f"{lobby.url}api/tables/2/watch")
            first = json.loads((await again.receive(10)).data)["type"] == "rules"
            for ws in [*sockets, again]:
                await ws.close()
            return refused, first

    refused, watched = asyncio.run(watch())
    assert refused == [429, 429]
    assert watched
