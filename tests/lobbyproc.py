"""``mj lobby`` started as a program for a test, and a small HTTP client of it (JSON, cookies)."""

from __future__ import annotations

import http.cookiejar
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mj.server.robotgame import kill

Json = Any


class Lobby:
    """A running lobby, and a browser of it with its own cookies."""

    def __init__(self, process: subprocess.Popen[bytes], url: str, output: Path) -> None:
        self.process = process
        self.url = url
        self.output = output
        self.cookies = http.cookiejar.CookieJar()
        self._opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))
        self.headers: dict[str, str] = {}
        #: Headers sent with every request of this browser (a proxy's, for one).
        self.sends: dict[str, str] = {}

    def browser(self) -> Lobby:
        """Another browser of the same lobby (cookies of its own)."""
        return Lobby(self.process, self.url, self.output)

    def call(self, method: str, path: str, body: object = None, raw: bytes | None = None) -> tuple[int, Json]:
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        request = urllib.request.Request(self.url + path.lstrip("/"), data=data, method=method, headers=self.sends)
        try:
            with self._opener.open(request, timeout=30) as response:
                self.headers = dict(response.headers)
                text = response.read().decode("latin-1")
                status = response.status
        except urllib.error.HTTPError as exc:
            text, status = exc.read().decode(), exc.code
            self.headers = dict(exc.headers)
        try:
            return status, json.loads(text)
        except json.JSONDecodeError:
            return status, text

    def get(self, path: str) -> Json:
        status, answer = self.call("GET", path)
        assert status == 200, answer
        return answer

    def wait_for(self, table: int, done: Any, seconds: float = 120) -> Json:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            described = self.get(f"/api/tables/{table}")
            if done(described):
                return described
            assert self.process.poll() is None, "the lobby exited"
            time.sleep(0.05)
        raise AssertionError(f"table {table} did not get there in {seconds} s: {described}")


@pytest.fixture
def start_lobby(tmp_path: Path) -> Iterator[Any]:
    started: list[subprocess.Popen[bytes]] = []

    def start(db: str, *args: str, env: dict[str, str] | None = None) -> Lobby:
        output = tmp_path / f"lobby{len(started)}.out"
        # The lobby's output is read through other opens of the file: seeking the handle it writes
        # through would move its offset too, and a line written after that seek lands at the start.
        with output.open("wb") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", "mj.cli", "lobby", "--http", "127.0.0.1:0", "--db", db, *args],
                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=tmp_path,
                env=None if env is None else {**os.environ, **env},
            )  # fmt: skip
        started.append(process)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            text = output.read_bytes().decode()
            ok = [line for line in text.splitlines(keepends=True) if line.startswith("OK: http://")]
            if ok and ok[0].endswith("\n"):  # after any line on a table it cannot play
                return Lobby(process, ok[0].split()[1], output)
            assert process.poll() is None, f"mj lobby exited: {text}"
            time.sleep(0.05)
        raise AssertionError("mj lobby did not print OK")

    try:
        yield start
    finally:
        for process in started:
            kill(process)
