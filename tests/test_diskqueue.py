"""Saves are written by a worker thread, in order, a file queued again before it is written only once."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from mj.server.diskqueue import DiskQueue, SyncQueue


def test_a_file_saved_again_before_it_is_written_is_written_once_with_the_latest_data(tmp_path: Path) -> None:
    written: list[tuple[str, bytes]] = []
    first_started = threading.Event()
    release = threading.Event()

    def write(path: Path, data: bytes, mode: int) -> None:
        written.append((path.name, data))
        if not first_started.is_set():
            first_started.set()
            assert release.wait(10)

    queue = DiskQueue(write)
    queue.write(tmp_path / "a.mjs", b"1", 0o644)
    assert first_started.wait(10)  # the thread is busy with the first file: the next ones wait in the queue
    for number in range(2, 1000):
        queue.write(tmp_path / "b.mjs", str(number).encode(), 0o644)
    queue.write(tmp_path / "c.mjs", b"c", 0o644)
    release.set()
    queue.close()
    assert written == [("a.mjs", b"1"), ("b.mjs", b"999"), ("c.mjs", b"c")]


def test_a_failed_write_is_reported_and_the_others_go_on(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    def write(path: Path, data: bytes, mode: int) -> None:
        if path.name == "bad.mjs":
            raise OSError("disk full")
        path.write_bytes(data)

    queue = DiskQueue(write)
    queue.write(tmp_path / "bad.mjs", b"x", 0o644)
    queue.write(tmp_path / "good.mjs", b"y", 0o644)
    queue.close()
    assert (tmp_path / "good.mjs").read_bytes() == b"y"
    assert "unable to save state to bad.mjs: disk full" in capfd.readouterr().err


def test_a_sync_is_done_on_its_own_duplicate_and_a_failure_is_reported(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """The caller may close its descriptor at once; a file that cannot be synced (a pipe) costs one line."""
    syncs = SyncQueue("cannot sync the journal j.mjs")
    with (tmp_path / "j.mjs").open("wb") as file:
        file.write(b"x")
        file.flush()
        syncs.sync(file.fileno())
    reading, writing = os.pipe()
    syncs.sync(writing)
    os.close(writing)
    os.close(reading)
    syncs.close()
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and err.startswith("+W+ cannot sync the journal j.mjs: "), err
