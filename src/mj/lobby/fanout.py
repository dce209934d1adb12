"""News of tables played by other lobby processes: PostgreSQL's LISTEN/NOTIFY, or polling the record.

The process playing a table notifies ``mj_games`` with the game's id in the same
transaction as each group of batches (:meth:`mj.lobby.store.Store.record_all`), so the
notification goes out only once the moves are stored. Any other process sharing the
database listens, and wakes those who wait for that game (its spectators) to read the
new moves from the record. A notification carries nothing of the game; one lost costs
nothing but a delay, since readers also look again every :data:`POLL` seconds, which is
all there is on SQLite (one machine: its lobbies share the file, not a server).
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from typing import Final

from sqlalchemy.engine import make_url

#: The PostgreSQL channel the stored games are announced on.
CHANNEL: Final = "mj_games"
#: Seconds a reader waits for news before it looks at the record anyway.
POLL: Final = 2.0
#: Seconds before listening again after the listening connection failed.
RETRY: Final = 5.0


class Fanout:
    """Wakes the readers of games stored by any process, as the database announces them."""

    def __init__(self, url: str) -> None:
        parsed = make_url(url)
        self._conninfo = (
            parsed.set(drivername="postgresql").render_as_string(hide_password=False)
            if parsed.get_backend_name() == "postgresql"
            else None
        )
        self._news: dict[int, asyncio.Event] = {}
        self._readers: dict[int, int] = {}
        self._task: asyncio.Task[None] | None = None
        #: Set once this process listens (PostgreSQL): from then on no notification is missed.
        self.listening = asyncio.Event()
        #: Notifications received.
        self.received = 0

    def start(self) -> None:
        if self._conninfo is not None:
            self._task = asyncio.create_task(self._listen(self._conninfo))

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def wait(self, game: int, timeout: float = POLL) -> None:
        """Until the game is announced stored again, or ``timeout`` seconds."""
        event = self._news.setdefault(game, asyncio.Event())
        self._readers[game] = self._readers.get(game, 0) + 1
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), timeout)
        finally:
            self._readers[game] -= 1
            if not self._readers[game]:
                del self._readers[game]
                self._news.pop(game, None)

    def announced(self, game: int) -> None:
        self.received += 1
        event = self._news.pop(game, None)
        if event is not None:
            event.set()  # its waiters wake; the next wait makes a new event

    async def _listen(self, conninfo: str) -> None:
        import psycopg

        while True:
            try:
                async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as connection:
                    await connection.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    async for note in connection.notifies():
                        if note.payload.isdigit():
                            self.announced(int(note.payload))
            except (psycopg.Error, OSError) as exc:
                print(f"mj lobby: not listening to other processes' games ({exc}); again in {RETRY:g} s",
                      file=sys.stderr, flush=True)  # fmt: skip
            self.listening.clear()
            await asyncio.sleep(RETRY)
