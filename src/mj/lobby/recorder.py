"""Group commit: the batches every table hands over in one turn of the event loop, stored in one transaction.

Each table's batch must be stored before what it caused is sent (what a person has
seen is in the record, whatever kills the lobby). Stored one transaction per batch,
as many tables as move at once each cost a commit, a hand-over to the store's thread
and a wake-up of the event loop; gathered per turn of the loop they cost one of each
for all of them (docs/lobby-scaling.md has the figures).
"""

from __future__ import annotations

import asyncio
import concurrent.futures

from mj.lobby.store import Batch, Store

_Waiting = list[tuple[int, Batch, asyncio.Future[None]]]


class Recorder:
    """Hands the store's writer thread all the batches of one turn of the event loop at once."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._waiting: _Waiting = []

    def record(self, game_id: int, batch: Batch) -> asyncio.Future[None]:
        """A future done once ``batch`` is stored (or failing with why not), in the order batches were given."""
        loop = asyncio.get_running_loop()
        stored: asyncio.Future[None] = loop.create_future()
        if not self._waiting:
            loop.call_soon(self._hand_over)  # after every table that moves in this turn has handed its batch
        self._waiting.append((game_id, batch, stored))
        return stored

    def _hand_over(self) -> None:
        waiting, self._waiting = self._waiting, []
        loop = asyncio.get_running_loop()
        job = self.store.writer.submit(self.store.record_all, [(game_id, batch) for game_id, batch, _ in waiting])
        job.add_done_callback(lambda done: loop.call_soon_threadsafe(_settle, waiting, done))


def _settle(waiting: _Waiting, done: concurrent.futures.Future[list[Exception | None]]) -> None:
    error = done.exception()
    faults: list[BaseException | None] = [error] * len(waiting) if error is not None else list(done.result())
    for (_, _, stored), fault in zip(waiting, faults, strict=True):
        if stored.cancelled():
            continue
        if fault is None:
            stored.set_result(None)
        else:
            stored.set_exception(fault)
