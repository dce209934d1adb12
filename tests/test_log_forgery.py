"""No line a client sends can pass for the server's in the log, and ``mj replay`` reads such logs back.

Clients send lines that would read as more than one entry if logged as they are:
a line starting ``(null)`` (which ends an entry), and lines continued onto a line
that starts like an entry, received or (through chat) sent. The log escapes just
those, and the replay of the game compares every message as ever.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from mj.logfile import ESCAPED, LogEntry, format_entry, parse_log
from mj.protocol.framing import ENCODING
from mj.replay import read_entries, replay
from mj.server.address import UnixAddress
from mj.server.logwriter import LogWriter
from mj.server.transport import Server
from mj.table import Table, TableSettings
from test_server import _client, short_dir  # noqa: F401

FORGED = [
    "(null)>cnx1 Message 0 0 forged",
    "SendMessage 0 hello\n>cnx1 Message 0 0 forged",
    "SendMessage 0 hi\n<cnx3 Discard 1B 0",
    f"{ESCAPED}SendMessage 0 not really escaped\\n",
    "(null)",
]


@pytest.mark.parametrize("text", [*FORGED, "Discard 1B 0", "Settlement 0 0 0 0 \nline two\n"])
@pytest.mark.parametrize("direction", ["<", ">"])
def test_every_entry_reads_back_as_itself_alone(text: str, direction: str) -> None:
    entries = [LogEntry(direction, 2, text), LogEntry(">", 1, "Message 0 0 real")]  # type: ignore[arg-type]
    assert parse_log("".join(format_entry(e) for e in entries)) == entries


def test_normal_entries_are_written_as_the_original_writes_them() -> None:
    for entry in (LogEntry("<", 1, "Discard 1B 0"), LogEntry(">", 2, "Settlement 1 2\nscore 3\n")):
        assert format_entry(entry) == f"{entry.direction}cnx{entry.connection} {entry.text}\r\n"


def _wire(text: str) -> bytes:
    """A line as a client sends it: its line breaks continued with a backslash."""
    return text.replace("\\", "\\\\").replace("\n", "\\\r\n").encode(ENCODING) + b"\r\n"


def test_forged_lines_are_logged_as_received_and_the_game_replays(short_dir: Path) -> None:  # noqa: F811
    path = str(short_dir / "s")
    logfile = short_dir / "game.log"

    def script() -> None:
        clients = []
        for number in range(1, 5):
            client = _client(path)
            client.send(f"Connect 1110 0 Robot{number}")
            client.expect(f"ConnectReply 1110 {number} ")
            clients.append(client)
        clients[3].expect(lambda line: line.startswith("StartPlay"))
        for text in FORGED:
            clients[1].send(_wire(text))
        clients[1].send("SendMessage 0 the last line")
        clients[0].expect("Message 2 0 the last line")
        for client in clients:
            client.close()

    async def run() -> None:
        log = LogWriter.open(str(logfile))
        server = Server(Table(TableSettings(timeout=0, seed=7)), log)
        await server.start(UnixAddress(path))
        running = asyncio.create_task(server.run())
        try:
            await asyncio.to_thread(script)
            await asyncio.wait([running], timeout=0.5)  # the players gone, the server waits for them: stopped
        finally:
            server.stop()
            await asyncio.wait_for(running, 10)
            log.close()

    asyncio.run(run())
    entries = read_entries(logfile)
    received = [e.text for e in entries if e.direction == "<" and e.connection == 2 and e.text is not None]
    assert received[1:-1] == FORGED, "each forged line is one received entry, as sent"
    sent_by_server = [e.text for e in entries if e.direction == ">" and e.text is not None]
    assert not any(t.startswith("Message 0 0 forged") for t in sent_by_server)
    assert "Message 2 0 hello\n>cnx1 Message 0 0 forged" in sent_by_server, "a chat line continued is one entry"
    result = replay(entries)
    assert result.mismatch is None, result.mismatch
