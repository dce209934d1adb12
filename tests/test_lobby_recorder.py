"""Group commit: the batches of every table of one turn of the event loop are stored in one transaction,
in order, and a batch that cannot be stored fails its own table alone; and what a batch sends spectators
is encoded once for all of them."""

from __future__ import annotations

import asyncio
import json

from sqlalchemy import event
from sqlalchemy.exc import IntegrityError

from mj.lobby.recorder import Recorder
from mj.lobby.runner import TableRunner
from mj.lobby.store import Batch, Store


def _game(store: Store) -> int:
    return store.start_game(store.create_table("classical", {}, 4, 1, 5, 0)).id


def _move(seq: int, text: str = "x") -> Batch:
    return Batch(moves=[(seq, "<", 1, text)])


def _commits(store: Store) -> list[int]:
    counted = [0]
    event.listen(store.engine, "commit", lambda _connection: counted.__setitem__(0, counted[0] + 1))
    return counted


def test_the_batches_of_one_turn_of_the_loop_are_one_transaction_stored_in_order(store: Store) -> None:
    games = [_game(store) for _ in range(3)]
    commits = _commits(store)

    async def one_turn() -> None:
        recorder = Recorder(store)
        stored = [recorder.record(game, _move(seq)) for seq in range(2) for game in games]
        await asyncio.gather(*stored)

    asyncio.run(one_turn())
    assert commits == [1]
    for game in games:
        assert [m.seq for m in store.moves(game)] == [0, 1]


def test_a_batch_that_cannot_be_stored_fails_its_table_alone_and_that_tables_later_batches_too(
    store: Store,
) -> None:
    good, bad = _game(store), _game(store)
    store.record(bad, _move(0, "stored before"))

    async def one_turn() -> list[BaseException | None]:
        recorder = Recorder(store)
        stored = [recorder.record(good, _move(0)), recorder.record(bad, _move(0, "again")),
                  recorder.record(bad, _move(1)), recorder.record(good, _move(1))]  # fmt: skip
        return list(await asyncio.gather(*stored, return_exceptions=True))

    outcomes = asyncio.run(one_turn())
    assert outcomes[0] is None and outcomes[3] is None
    assert isinstance(outcomes[1], IntegrityError) and outcomes[2] is outcomes[1]
    assert [m.seq for m in store.moves(good)] == [0, 1]
    assert [(m.seq, m.text) for m in store.moves(bad)] == [(0, "stored before")]


def test_the_spectators_message_of_a_batch_is_encoded_once_for_all_who_have_seen_the_same(store: Store) -> None:
    row = store.create_table("classical", {}, 4, 1, 5, 0)
    runner = TableRunner(Recorder(store), row, store.start_game(row))
    runner.play.public.extend(["NewHand 1", "PlayerDiscards 1 3B", "PlayerDiscards 2 4B"])
    runner.published = 2
    assert runner.public_frame(2) is None
    first = runner.public_frame(0)
    assert first is not None and json.loads(first) == {"type": "public", "lines": ["NewHand 1", "PlayerDiscards 1 3B"]}
    assert runner.public_frame(0) is first  # the second spectator is sent the same text, not a new one
    runner.published = 3
    assert json.loads(runner.public_frame(2) or "") == {"type": "public", "lines": ["PlayerDiscards 2 4B"]}
