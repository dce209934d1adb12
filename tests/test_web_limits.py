"""The HTTP side (xmj, ``mj-server --http``, ``mj lobby``) bounds what a client can make it hold.

A connection that never finishes its request is closed after the header timeout,
and connections beyond the cap are refused at once, so a client opening many and
finishing none cannot use up the process's open files: the game port, the tables
and, after the timeout, the page go on for everybody else.
"""

from __future__ import annotations

import asyncio
import contextlib
import resource
import selectors
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from aiohttp import web

from conftest import OUR_SERVER
from mj.lobby.api import body
from mj.web.serving import HttpLimits, serve

#: The open files the programs below are started with: the usual limit of 1024, smaller to keep the test light.
FILES = 256
#: Unfinished requests the hostile client holds: more than the programs may open.
HELD = 300
PARTIAL = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n"


def answered(port: int, path: str = "/") -> int | None:
    """The status of a complete GET, None if the connection is closed without an answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
        client.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
        try:
            head = client.recv(64)
        except (ConnectionResetError, TimeoutError):
            return None
    return int(head.split()[1]) if head.startswith(b"HTTP/1.1 ") else None


def refused(held: list[socket.socket], seconds: float = 2.0) -> int:
    """How many of ``held`` the server closes (an answer first allowed) within ``seconds``."""
    closed: set[socket.socket] = set()
    with selectors.DefaultSelector() as waiting:
        for client in held:
            client.setblocking(False)
            waiting.register(client, selectors.EVENT_READ)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and len(closed) < len(held):
            for key, _events in waiting.select(max(0.0, deadline - time.monotonic())):
                client = key.fileobj
                assert isinstance(client, socket.socket)
                try:
                    data = client.recv(4096)
                except BlockingIOError:
                    continue
                except ConnectionResetError:
                    data = b""
                if not data:
                    closed.add(client)
                    waiting.unregister(client)
    return len(closed)


def hold_unfinished_requests(port: int, count: int) -> list[socket.socket]:
    """Up to ``count`` connections to ``port``, each with a request begun and never finished."""
    held = []
    for _ in range(count):
        try:
            client = socket.create_connection(("127.0.0.1", port), timeout=2)
            client.sendall(PARTIAL)
        except OSError:
            break  # the server takes no more: the test's assertions say so
        held.append(client)
    return held


async def page(_request: web.Request) -> web.Response:
    return web.Response(text="page")


async def serving(limits: HttpLimits) -> tuple[web.AppRunner, int]:
    """A server of :func:`page` under ``limits``: its runner (to clean up) and port."""
    app = web.Application()
    app.router.add_get("/", page)
    return await serve(app, "127.0.0.1", 0, limits)


async def answers_a_whole_request(port: int) -> bool:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(PARTIAL + b"\r\n")
    answered = (await asyncio.wait_for(reader.readline(), 10)).startswith(b"HTTP/1.1 200")
    writer.close()
    return answered


def test_a_request_whose_headers_never_end_is_closed_after_the_header_timeout() -> None:
    async def scenario() -> None:
        runner, port = await serving(HttpLimits(header_timeout=0.5, max_connections=8))
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(PARTIAL)
            assert await asyncio.wait_for(reader.read(), 10) == b"", "closed, no answer"
            writer.close()
            assert await answers_a_whole_request(port), "a whole one is served"
        finally:
            await runner.cleanup()

    asyncio.run(scenario())


def test_connections_beyond_the_cap_are_refused_at_once_and_taken_again_below_it() -> None:
    async def scenario() -> None:
        runner, port = await serving(HttpLimits(header_timeout=60, max_connections=4))
        try:
            held = [await asyncio.open_connection("127.0.0.1", port) for _ in range(4)]
            for _reader, writer in held:
                writer.write(PARTIAL)
            await asyncio.sleep(0.2)
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            assert (await asyncio.wait_for(reader.read(), 10)).startswith(b"HTTP/1.1 503"), "the fifth is refused"
            writer.close()
            for _reader, writer in held:
                writer.close()
            await asyncio.sleep(0.2)
            assert await answers_a_whole_request(port), "room again"
        finally:
            await runner.cleanup()

    asyncio.run(scenario())


def test_a_lobby_request_whose_body_never_ends_is_answered_408_after_the_body_timeout() -> None:
    async def echo(request: web.Request) -> web.Response:
        return web.json_response(await body(request, seconds=0.5))

    async def post(data: bytes) -> bytes:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n" + data)
        answer = await asyncio.wait_for(reader.readline(), 10)
        writer.close()
        return answer

    async def scenario() -> None:
        nonlocal port
        app = web.Application()
        app.router.add_post("/", echo)
        runner, port = await serve(app, "127.0.0.1", 0, HttpLimits(header_timeout=60))
        try:
            assert (await post(b'{"text": "')).startswith(b"HTTP/1.1 408 ")
            assert (await post(b'{"text": "' + b"x" * 88 + b'"}')).startswith(b"HTTP/1.1 200 "), "a whole one is read"
        finally:
            await runner.cleanup()

    port = 0
    asyncio.run(scenario())


def _few_files() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (FILES, FILES))


@contextlib.contextmanager
def started(command: list[str], cwd: Path) -> Iterator[subprocess.Popen[str]]:
    """``command`` under a limit of :data:`FILES` open files (soft and hard), ended afterwards, with no traceback."""
    errors = (cwd / "stderr").open("w+")
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=errors, text=True, cwd=cwd, preexec_fn=_few_files
    )
    try:
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        errors.seek(0)
        complaints = errors.read()
        errors.close()
    assert "Traceback" not in complaints, complaints[-2000:]


def port_of(url: str) -> int:
    return int(url.strip().rstrip("/").rpartition(":")[2])


def answered_again_while_held(port: int, path: str, seconds: float = 40) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if answered(port, path) == 200:
            return True
        time.sleep(0.5)
    return False


def test_mj_server_http_held_unfinished_requests_lock_out_neither_the_game_port_nor_the_page(tmp_path: Path) -> None:
    with socket.socket() as game:
        game.bind(("127.0.0.1", 0))
        game_port = game.getsockname()[1]
    command = [*OUR_SERVER, "--server", f"127.0.0.1:{game_port}", "--timeout", "0", "--http", "127.0.0.1:0"]
    with started(command, tmp_path) as server:
        assert server.stdout is not None
        server.stdout.readline()
        http_port = port_of(server.stdout.readline().split(" ", 1)[1])
        held = hold_unfinished_requests(http_port, HELD)
        try:
            with socket.create_connection(("127.0.0.1", game_port), timeout=10) as player:
                player.sendall(b"Connect 1110 0 Player\r\n")
                assert player.makefile("rb").readline().startswith(b"ConnectReply 1110 "), "the game port answers"
            closed = refused(held)
            assert len(held) - closed <= FILES // 2, f"{len(held) - closed} of {len(held)} held: the files run out"
            assert answered_again_while_held(http_port, "/"), "the page is served again after the header timeout"
            assert server.poll() is None
        finally:
            for client in held:
                client.close()


def test_mj_lobby_held_unfinished_requests_lock_nobody_out_for_longer_than_the_header_timeout(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "mj.cli", "lobby", "--http", "127.0.0.1:0", "--db", f"sqlite:///{tmp_path}/l.db"]
    with started(command, tmp_path) as lobby:
        assert lobby.stdout is not None
        port = port_of(lobby.stdout.readline().split()[1])
        held = hold_unfinished_requests(port, HELD)
        try:
            closed = refused(held)
            assert len(held) - closed <= FILES // 2, f"{len(held) - closed} of {len(held)} held: the files run out"
            assert answered_again_while_held(port, "/api/tables"), "the lobby answers again after the header timeout"
            assert lobby.poll() is None
        finally:
            for client in held:
                client.close()
