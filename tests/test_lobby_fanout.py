"""Spectators of a table played by another lobby process on the same PostgreSQL: served from the record,
woken by the owner's NOTIFY, they are sent exactly what the owner's own spectators are sent."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import aiohttp

from lobbyproc import Lobby
from mj.lobby.fanout import POLL, Fanout
from mj.lobby.store import Batch, Store
from pgserver import fresh_postgres_database


async def _watch(url: str, table: int) -> list[list[str]]:
    """Every frame of public lines a spectator is sent, until the lobby closes the feed."""
    frames: list[list[str]] = []
    async with aiohttp.ClientSession() as http, http.ws_connect(f"{url}api/tables/{table}/watch") as ws:
        async for message in ws:
            data = json.loads(message.data)
            if data["type"] == "public":
                frames.append(data["lines"])
    return frames


async def _watch_both(owner: Lobby, other: Lobby, table: int) -> tuple[list[list[str]], list[list[str]]]:
    return await asyncio.gather(_watch(owner.url, table), _watch(other.url, table))


def test_a_spectator_of_another_processs_table_sees_what_the_owners_spectators_see_as_it_is_played(
    start_lobby: Any, postgres_server: str
) -> None:
    database = fresh_postgres_database(postgres_server)
    owner = start_lobby(database, "--name", "a", "--robot-delay", "0.01")
    other = start_lobby(database, "--name", "b")
    status, answer = owner.call("POST", "/api/tables", {"options": {"NumRounds": 1}, "robots": 4, "level": 1})
    assert status == 201
    table = answer["table"]
    owner.wait_for(table, lambda t: t["status"] == "playing")
    assert other.get(f"/api/tables/{table}")["seats"] == []  # b does not play it
    at_owner, at_other = asyncio.run(_watch_both(owner, other, table))
    lines = [line for frame in at_other for line in frame]
    assert lines == [line for frame in at_owner for line in frame]
    assert "GameOver" in lines and any(line.startswith("Settlement ") for line in lines)
    game = owner.get(f"/api/tables/{table}")
    assert game["status"] == "finished"


def test_a_spectator_of_a_finished_table_elsewhere_is_sent_the_whole_game_and_the_feed_ends(
    start_lobby: Any, postgres_server: str
) -> None:
    database = fresh_postgres_database(postgres_server)
    owner = start_lobby(database, "--name", "a")
    status, answer = owner.call("POST", "/api/tables", {"options": {"NumRounds": 1}, "robots": 4, "level": 1})
    assert status == 201
    owner.wait_for(answer["table"], lambda t: t["status"] == "finished")
    other = start_lobby(database, "--name", "b")
    at_owner, at_other = asyncio.run(_watch_both(owner, other, answer["table"]))
    assert [line for frame in at_other for line in frame] == [line for frame in at_owner for line in frame]


def test_a_stored_batch_wakes_the_readers_of_its_game_in_other_processes_at_once(postgres_server: str) -> None:
    """Through PostgreSQL's NOTIFY, sent with the batch's transaction: not the POLL timeout, not another game."""
    url = fresh_postgres_database(postgres_server)
    store = Store(url)
    games = [store.start_game(store.create_table("classical", {}, 4, 1, seed, 0)).id for seed in (1, 2)]

    async def read() -> tuple[bool, float, int]:
        fanout = Fanout(url)
        fanout.start()
        try:
            await asyncio.wait_for(fanout.listening.wait(), 30)
            waiter = asyncio.create_task(fanout.wait(games[0], timeout=60 * POLL))
            await asyncio.to_thread(store.record, games[1], Batch(moves=[(0, "<", 1, "another game's move")]))
            await asyncio.sleep(1)
            woken_by_another_game = waiter.done()
            began = time.monotonic()
            await asyncio.to_thread(store.record, games[0], Batch(moves=[(0, "<", 1, "a move")]))
            await waiter
            return woken_by_another_game, time.monotonic() - began, fanout.received
        finally:
            await fanout.close()

    try:
        woken_by_another_game, waited, received = asyncio.run(read())
    finally:
        store.close()
    assert not woken_by_another_game
    assert waited < 30 * POLL and received == 2
