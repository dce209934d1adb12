"""Serving an aiohttp application with a bound on what a client can make it hold.

aiohttp keeps a connection open until its request's headers are complete, with no
limit on their number: a client that opens connections and never finishes a
request would hold them all and, at the usual limit of 1024 open files, lock
everybody out of this process (the game port, the page, the database). So each
connection must bring a complete request within ``header_timeout`` seconds of its
opening or of its previous answer (aiohttp's keep-alive timer, which it starts at
the connection's opening and which only a complete request stops), and at most
``max_connections`` are served at once, WebSockets included: one beyond is answered
503 and closed at once. The cap is kept below half the process's limit of open
files, raised to its hard limit first, so the cap, not the system, is what binds,
and the other half is left to the game port, the seats and the files. A handler
that reads a request's body bounds that too (:data:`BODY_SECONDS`).
"""

from __future__ import annotations

import asyncio
import resource
from dataclasses import dataclass
from typing import Final, cast

from aiohttp import web

#: How long a request's body may take to arrive once its headers have (read by the handler that wants it).
BODY_SECONDS: Final = 10.0
#: What a connection beyond the cap is sent before it is closed.
_BUSY: Final = b"HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
#: The most open files asked for when the hard limit is unlimited.
_MOST_FILES: Final = 65536


@dataclass(frozen=True, slots=True)
class HttpLimits:
    """How long a connection may take to send a request, and how many are served at once."""

    header_timeout: float = 10.0
    max_connections: int = 256


#: ``mj-server --http`` and ``xmj``: a table's people and a few onlookers.
GATEWAY_LIMITS: Final = HttpLimits()
#: ``mj lobby``: every person at a table and every spectator holds a WebSocket.
LOBBY_LIMITS: Final = HttpLimits(max_connections=4096)


def raise_open_file_limit() -> int:
    """Raise this process's soft limit of open files to its hard limit (a standard start-up step); the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = _MOST_FILES if hard == resource.RLIM_INFINITY else hard
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        except (OSError, ValueError):
            return soft
        return wanted
    return _MOST_FILES if soft == resource.RLIM_INFINITY else soft


def connection_cap(limits: HttpLimits) -> int:
    """The HTTP connections served at once: ``limits.max_connections``, within half the open files allowed."""
    return max(1, min(limits.max_connections, raise_open_file_limit() // 2))


async def serve(
    app: web.Application, host: str, port: int, limits: HttpLimits = GATEWAY_LIMITS
) -> tuple[web.AppRunner, int]:
    """Serve ``app`` on ``host:port`` (0: any free port) in the running loop, within ``limits``; the runner and port."""
    runner = web.AppRunner(app, access_log=None, keepalive_timeout=limits.header_timeout)
    await runner.setup()
    site = _CappedSite(runner, host, port, connection_cap(limits))
    try:
        await site.start()
    except OSError:
        await runner.cleanup()
        raise
    return runner, runner.addresses[0][1]


class _Busy(asyncio.Protocol):
    """A connection beyond the cap: told so and closed, nothing read."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        cast(asyncio.WriteTransport, transport).write(_BUSY)  # uvloop's TCP transport is not asyncio's class
        transport.close()


class _CappedSite(web.BaseSite):
    """aiohttp's TCP site, whose connections beyond ``cap`` get :class:`_Busy` instead of aiohttp's handler."""

    __slots__ = ("_cap", "_host", "_port")

    def __init__(self, runner: web.AppRunner, host: str, port: int, cap: int) -> None:
        super().__init__(runner)
        self._host = host
        self._port = port
        self._cap = cap

    @property
    def name(self) -> str:
        return f"http://{self._host}:{self._port}"

    async def start(self) -> None:
        await super().start()
        server = self._runner.server
        assert server is not None

        def protocol() -> asyncio.BaseProtocol:
            return _Busy() if len(server.connections) >= self._cap else server()

        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(
            protocol, self._host or None, self._port, backlog=self._backlog, reuse_address=True
        )
