"""Several lobby processes on one database: each table is played by the one process holding its lease.

On SQLite and on a real PostgreSQL. A process takes back its own tables when it starts
again, never a table another live process holds, and takes over those of a process whose
lease has run out (docs/lobby-scaling.md).
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest

from mj.lobby.store import Batch, Lease, Store, now

A = Lease("lobby-a:8080", 15)
B = Lease("lobby-b:8080", 15)


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    opened = Store(database_url)
    try:
        yield opened
    finally:
        opened.close()


def _new_table(store: Store, lease: Lease | None) -> int:
    return store.create_table("classical", {}, 4, 1, 7, 0, None, lease).id


def test_a_table_belongs_to_the_process_that_made_it_and_it_alone_takes_it_back_on_restart(store: Store) -> None:
    mine, theirs = _new_table(store, A), _new_table(store, B)
    row = store.table(mine)
    assert row is not None and row.process == A.process and row.lease_until is not None
    assert [t.id for t in store.claim(A)] == [mine]
    assert [t.id for t in store.claim(B)] == [theirs]


def test_a_table_whose_lease_ran_out_is_taken_over_by_another_process_and_is_no_longer_the_first_ones(
    store: Store,
) -> None:
    table = _new_table(store, A)
    assert store.claim(B, at=now() + timedelta(seconds=10)) == []
    (taken,) = store.claim(B, at=now() + timedelta(seconds=16))
    assert (taken.id, taken.process) == (table, B.process)
    assert store.renew(A) == set() and store.renew(B) == {table}
    assert store.claim(A) == []


def test_tables_of_no_process_and_finished_tables(store: Store) -> None:
    """Tables recorded before leases existed are anyone's; a finished table is no one's to play."""
    orphan = _new_table(store, None)
    finished = store.table(_new_table(store, A))
    assert finished is not None
    store.record(store.start_game(finished).id, Batch(final={}))
    assert [t.id for t in store.claim(B)] == [orphan]
    assert store.claim(A) == [] and store.renew(A) == set()


def test_a_lobby_started_under_another_name_leaves_a_live_processs_table_alone_and_its_owner_resumes_it(
    start_lobby: Any, database_url: str
) -> None:
    first = start_lobby(database_url, "--name", "a", "--robot-delay", "0.01")
    status, answer = first.call("POST", "/api/tables", {"options": {"NumRounds": 1}, "robots": 4, "level": 1})
    assert status == 201
    table = first.wait_for(answer["table"], lambda t: t["hands"] >= 1)
    os.kill(first.process.pid, signal.SIGKILL)
    first.process.wait()
    other = start_lobby(database_url, "--name", "b", "--lease", "60")
    before = other.get(f"/api/games/{table['game']}")
    time.sleep(1.5)
    assert other.get(f"/api/games/{table['game']}")["moves"] == before["moves"], "b played a's table"
    listed = other.get(f"/api/tables/{answer['table']}")
    assert (listed["process"], listed["seats"]) == ("a", [])  # b does not play it: no live seats
    status, refused = other.call("POST", f"/api/tables/{answer['table']}/sit", {"name": "Ann"})
    assert (status, refused) == (404, {"error": f"table {answer['table']} is played by the lobby process a"})
    again = start_lobby(database_url, "--name", "a")
    finished = again.wait_for(answer["table"], lambda t: t["status"] == "finished")
    assert finished["hands"] >= table["hands"]


def test_a_lobby_takes_over_the_tables_of_a_process_gone_past_its_lease(start_lobby: Any, database_url: str) -> None:
    first = start_lobby(database_url, "--name", "a", "--lease", "2", "--robot-delay", "0.01")
    status, answer = first.call("POST", "/api/tables", {"options": {"NumRounds": 1}, "robots": 4, "level": 1})
    assert status == 201
    first.wait_for(answer["table"], lambda t: t["hands"] >= 1)
    os.kill(first.process.pid, signal.SIGKILL)
    first.process.wait()
    other = start_lobby(database_url, "--name", "b", "--lease", "2")
    other.wait_for(answer["table"], lambda t: t["status"] == "finished")
