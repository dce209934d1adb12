"""A fault of one table (a damaged record, a line its play cannot take) stops that table alone.

The lobby starts, and its other tables play on; the table at fault is listed as
failed with the reason, which is also said in one line on stderr, never as a traceback
or a task's exception nobody retrieved.
"""

from __future__ import annotations

import asyncio
import gc
import os
import signal
from typing import Any

import pytest
from sqlalchemy import text

from mj.lobby.store import Store
from mj.lobby.tables import Tables, parse_request
from mj.protocol import pmsg as P
from mj.protocol.connect import EXTENDED_PROTOCOL_VERSION
from mj.protocol.framing import encode_line

#: Ways one table's record is damaged, each as SQL run on the table's rows (table 1, game 1).
DAMAGE = {
    "options not JSON": "UPDATE tables SET options = '{not json' WHERE id = 1",
    "unknown rules": "UPDATE tables SET rules = 'nosuch' WHERE id = 1",
    "move out of sequence": "DELETE FROM moves WHERE game_id = 1 AND seq = 0",
    "line the table cannot take": "UPDATE moves SET direction = '+', text = 'Junk' WHERE game_id = 1 AND seq = 0",
}


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_a_damaged_table_record_is_listed_as_failed_and_the_other_tables_play_on(
    start_lobby: Any, database_url: str, damage: str
) -> None:
    lobby = start_lobby(database_url)
    for _ in range(2):
        assert lobby.call("POST", "/api/tables", {"options": {"NumRounds": 1}, "robots": 3, "level": 1})[0] == 201
    for table in (1, 2):
        lobby.wait_for(table, lambda t: len(t["seats"]) == 3)
    os.kill(lobby.process.pid, signal.SIGTERM)  # everything played so far is stored
    assert lobby.process.wait(30) == 0
    store = Store(database_url)
    try:
        with store.engine.begin() as connection:
            assert connection.execute(text(DAMAGE[damage])).rowcount == 1
    finally:
        store.close()

    again = start_lobby(database_url)
    broken, healthy = again.get("/api/tables")
    assert broken["status"] == "failed" and broken["error"] and "\n" not in broken["error"]
    assert healthy["status"] == "waiting" and "error" not in healthy
    assert again.call("POST", "/api/tables/2/robot")[0] == 201
    assert again.wait_for(2, lambda t: t["status"] == "finished")["hands"] >= 4
    said = [line for line in again.output.read_text().splitlines() if not line.startswith("OK: ")]
    assert said == [f"mj lobby: table 1 cannot be played: {broken['error']}"]


def test_a_line_that_makes_a_table_raise_stops_that_table_alone_with_one_line_said(
    store: Store, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from mj.table import Table

    received = Table.receive

    def receive(self: Table, connection: int, line: str) -> Any:
        if "Poison" in line:
            raise ValueError("the table cannot take this")
        return received(self, connection, line)

    monkeypatch.setattr(Table, "receive", receive)
    unretrieved: list[dict[str, Any]] = []

    async def scenario() -> tuple[str, str, str | None]:
        asyncio.get_running_loop().set_exception_handler(lambda _loop, context: unretrieved.append(context))
        tables = Tables(store)
        await tables.resume()
        try:
            poisoned = await tables.create(parse_request({"robots": 3, "level": 1}))
            other = await tables.create(parse_request({"options": {"NumRounds": 1}, "robots": 4, "level": 1}))
            _reader, writer = await tables.connect(poisoned.row.id)
            writer.write(encode_line(P.Connect(EXTENDED_PROTOCOL_VERSION, 0, "Ann").encode()))
            writer.write(encode_line("Poison"))
            await writer.drain()
            for _ in range(2000):
                if poisoned.error is not None and other.finished and other.stored:
                    break
                await asyncio.sleep(0.01)
            writer.close()
            await asyncio.sleep(0.1)
            gc.collect()
            await asyncio.sleep(0)
            listed = {t["id"]: t for t in (tables.describe(row) for row in store.tables())}
            return listed[poisoned.row.id]["status"], listed[other.row.id]["status"], poisoned.error
        finally:
            await tables.close()

    poisoned, other, error = asyncio.run(scenario())
    gc.collect()
    assert (poisoned, other) == ("failed", "finished")
    assert error == "ValueError: the table cannot take this"
    assert unretrieved == []
    assert capsys.readouterr().err == f"mj lobby: table 1 stops: {error}\n"
