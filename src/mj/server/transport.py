"""The asyncio network loop of ``mj-server``: sockets in, table events, deliveries out.

Each connection has its own reader task that buffers bytes and cuts them into
logical lines with :class:`~mj.protocol.framing.LineDecoder`, so a client that
sends half a line never stalls the others (the original blocked on it). Complete
lines, ends of connections and timer expiries are put on one queue and handed to
the table strictly one at a time by a single processing task: the table is
not thread- or task-safe and the log must show each received line followed by
exactly the messages it caused. Writes never wait for a client: a client whose
unread output piles up, or whose socket fails, is treated as having closed.

Connection numbers are the original's ``cnxK`` slots: the lowest free number from
1, freed only once the table has been told the connection ended, so the table
never sees two connections with the same number at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import stat
import sys
import traceback
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from mj.protocol import cmsg as C
from mj.protocol.framing import MAX_LINE, WHITESPACE, LineDecoder, LineTooLong, encode_line
from mj.server.address import Address, TcpAddress, UnixAddress
from mj.server.logwriter import LogWriter
from mj.server.pacing import Pacer
from mj.table import Delivery

#: Bytes asked for per read; lines are reassembled whatever the chunking.
READ_CHUNK: Final = 64 * 1024
#: How long a closed connection may take to flush its last messages before it is dropped.
CLOSE_GRACE: Final = 2.0


class TableLike(Protocol):
    """What the server needs of :class:`mj.table.Table` (a fake can stand in for tests)."""

    @property
    def closing(self) -> set[int]: ...

    @property
    def exit_status(self) -> int | None: ...

    def open(self, connection: int) -> list[Delivery]: ...

    def receive(self, connection: int, line: str) -> list[Delivery]: ...

    def close(self, connection: int) -> list[Delivery]: ...

    def timeout(self) -> list[Delivery]: ...

    def claim_timer(self) -> tuple[Hashable, float] | None: ...

    def pacing(self) -> float: ...


@dataclass(frozen=True, slots=True)
class Limits:
    """Protection against clients that misbehave, and room for more than the original's 7."""

    max_connections: int = 64
    #: Longest logical line accepted, escapes and terminators counted.
    max_line: int = MAX_LINE
    #: Lines from one client received but not yet handled; more means a flood.
    max_pending: int = 1000
    #: Bytes queued for one client that it has not read; more means it stopped reading.
    max_unsent: int = 4 * 1024 * 1024


@dataclass(eq=False, slots=True)
class Client:
    """One accepted connection."""

    number: int
    writer: asyncio.StreamWriter
    decoder: LineDecoder
    #: Lines queued for the table and not handled yet.
    pending: int = 0
    #: The end of this connection has been queued; read nothing more from it.
    ending: bool = False
    #: The table has been told the connection ended; drop anything still queued for it.
    closed: bool = False


@dataclass(frozen=True, slots=True)
class Opened:
    client: Client


@dataclass(frozen=True, slots=True)
class Received:
    client: Client
    #: The logical line as received, terminator included (the log keeps it).
    raw: str


@dataclass(frozen=True, slots=True)
class Ended:
    client: Client
    #: Why the server cut the client off ("" = the client closed or the socket failed).
    reason: str = ""


@dataclass(frozen=True, slots=True)
class TimerFired:
    key: Hashable


Event = Opened | Received | Ended | TimerFired


@dataclass(slots=True)
class _Timer:
    key: Hashable
    handle: asyncio.TimerHandle


class Server:
    """One table served on one listening address until the table says to exit or :meth:`stop` is called."""

    def __init__(self, table: TableLike, log: LogWriter | None = None, limits: Limits | None = None) -> None:
        self.table = table
        self.log = log
        self.limits = limits or Limits()
        self._clients: dict[int, Client] = {}
        self._events: asyncio.Queue[Event] = asyncio.Queue()
        self._timer: _Timer | None = None
        self._pacer = Pacer()
        self._listener: asyncio.Server | None = None
        self._unix_path: str | None = None
        self._stopped: asyncio.Event | None = None

    # ------------------------------------------------------------------ lifecycle

    async def start(self, address: Address) -> None:
        """Listen on ``address`` (:class:`OSError` if that is impossible)."""
        self._stopped = asyncio.Event()
        if isinstance(address, UnixAddress):
            _remove_stale_socket(address.path)
            self._listener = await asyncio.start_unix_server(self._accept, address.path, limit=READ_CHUNK)
            self._unix_path = address.path
            return
        self._listener = await asyncio.start_server(
            self._accept, address.host, address.port, limit=READ_CHUNK, reuse_address=True
        )

    @property
    def tcp_address(self) -> TcpAddress | None:
        """Where the first TCP socket listens (the real port when port 0 was asked); None on a Unix socket."""
        if self._listener is None or self._unix_path is not None or not self._listener.sockets:
            return None
        host, port = self._listener.sockets[0].getsockname()[:2]
        return TcpAddress(host, port)

    def stop(self) -> None:
        """Ask :meth:`run` to return (signal handlers call this)."""
        if self._stopped is not None:
            self._stopped.set()

    async def run(self) -> int:
        """Handle events until the table sets an exit status (returned) or :meth:`stop` (0)."""
        assert self._stopped is not None, "start() first"
        processing = asyncio.create_task(self._process())
        stopping = asyncio.create_task(self._stopped.wait())
        try:
            await asyncio.wait({processing, stopping}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            stopping.cancel()
            if not processing.done():
                processing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await processing
            await self._shut_down()
        if processing.cancelled():
            return 0
        return processing.result()

    async def _shut_down(self) -> None:
        """Stop listening, flush and close every connection, remove our socket file."""
        self._cancel_timer()
        if self._listener is not None:
            self._listener.close()
        clients = list(self._clients.values())
        for client in clients:
            client.ending = True
            client.writer.close()
        if clients:
            waits = {asyncio.create_task(_wait_closed(c.writer)): c for c in clients}
            _, late = await asyncio.wait(waits, timeout=CLOSE_GRACE)
            for task in late:
                task.cancel()
                waits[task].writer.transport.abort()  # a client that does not read loses the rest
        if self.log is not None:
            self.log.flush()
        if self._unix_path is not None:
            _remove_stale_socket(self._unix_path)

    # ------------------------------------------------------------------ reading

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Per-connection task: give the client a slot, then turn its bytes into queued lines."""
        number = self._free_slot()
        if number is None:
            with contextlib.suppress(ConnectionError, OSError):
                writer.write(encode_line(C.Error(0, "Unable to accept new connections").encode()))
            writer.close()
            return
        _set_nodelay(writer)
        client = Client(number, writer, LineDecoder(self.limits.max_line))
        self._clients[number] = client
        self._events.put_nowait(Opened(client))
        with contextlib.suppress(ConnectionError, OSError):
            await self._read(client, reader)
        self._end(client)

    async def _read(self, client: Client, reader: asyncio.StreamReader) -> None:
        while not client.ending:
            data = await reader.read(READ_CHUNK)
            if not data:
                return
            try:
                lines = client.decoder.feed_raw(data)
            except LineTooLong:
                self._end(client, "Line too long; connection closed")
                return
            for raw in lines:
                if client.ending:
                    return
                client.pending += 1
                if client.pending > self.limits.max_pending:
                    self._end(client, "Too many lines received; connection closed")
                    return
                self._events.put_nowait(Received(client, raw))

    def _end(self, client: Client, reason: str = "") -> None:
        """Queue the end of ``client`` once, behind the lines it already sent."""
        if client.ending:
            return
        client.ending = True
        self._events.put_nowait(Ended(client, reason))

    def _free_slot(self) -> int | None:
        for number in range(1, self.limits.max_connections + 1):
            if number not in self._clients:
                return number
        return None

    # ------------------------------------------------------------------ the table

    async def _process(self) -> int:
        """The one task that talks to the table, event by event.

        An exception from the table is a bug that may have left it half-way through
        a change, so the server quits with status 1 and the traceback on stderr
        (the original, too, quits on internal errors, without saving).
        """
        while True:
            event = await self._events.get()
            try:
                await self._deliver(self._handle(event))
                await self._close_requested()
            except Exception:
                print(f"-E- internal error while handling {type(event).__name__}; quitting", file=sys.stderr)
                traceback.print_exc()
                return 1
            status = self.table.exit_status
            if status is not None:
                return status
            self._arm_timer()
            if self.log is not None:
                self.log.flush()

    def _handle(self, event: Event) -> list[Delivery]:
        if isinstance(event, TimerFired):
            if self._timer is None or self._timer.key != event.key:
                return []  # a window that closed meanwhile
            self._timer = None
            return self.table.timeout()
        client = event.client
        if client.closed:
            return []
        if isinstance(event, Opened):
            return self.table.open(client.number)
        if isinstance(event, Received):
            client.pending -= 1
            if self.log is not None:
                self.log.received(client.number, event.raw)
            return self.table.receive(client.number, event.raw.rstrip(WHITESPACE))
        if event.reason:
            self._send(client, encode_line(C.Error(0, event.reason).encode()))
        return self._close(client, by_us=False)

    def _close(self, client: Client, by_us: bool) -> list[Delivery]:
        """Close ``client``'s socket (after its queued output) and tell the table.

        ``by_us`` marks the connections the table asked to close (a refused Connect, a
        Disconnect): the original logs no end of file for those, and ``mj replay`` closes
        them on its own. A client's end of file, and our cut-off of a flooding client
        (which the original has no counterpart for), are logged as ``(null)``.
        """
        client.ending = client.closed = True
        client.writer.close()
        # the socket stays open until its last messages are read: not forever
        asyncio.get_running_loop().call_later(CLOSE_GRACE, _drop_if_unsent, client.writer.transport)
        self.table.closing.discard(client.number)
        if self.log is not None and not by_us:
            self.log.end_of_file(client.number)
        out = self.table.close(client.number)
        del self._clients[client.number]
        return out

    async def _close_requested(self) -> None:
        """Close the connections the table asked to close, once their messages have been sent."""
        while self.table.closing:
            number = min(self.table.closing)
            client = self._clients.get(number)
            if client is None or client.closed:
                self.table.closing.discard(number)
                await self._deliver(self.table.close(number))
                continue
            await self._deliver(self._close(client, by_us=True))

    async def _deliver(self, batch: Sequence[Delivery]) -> None:
        """Send a batch in order, after any hold-back for pacing; log the copies marked logged.

        Each client's share of the batch goes out in one write: a deal is some 200
        messages, and one system call (one TCP segment) per client instead of one
        per message is what keeps a game of robots fast.
        """
        if not batch:
            return
        loop = asyncio.get_running_loop()
        wait = self._pacer.wait(batch, self.table.pacing(), loop.time())
        if wait > 0:
            await asyncio.sleep(wait)
        outgoing: dict[int, bytearray] = {}
        for delivery in batch:
            text = delivery.message.encode()
            if delivery.logged and self.log is not None:
                self.log.sent(delivery.connection, text)
            outgoing.setdefault(delivery.connection, bytearray()).extend(encode_line(text))
        if self.log is not None:
            self.log.flush()  # whoever watches the log sees a message no later than its recipient
        for number, data in outgoing.items():
            client = self._clients.get(number)
            if client is not None and not client.closed:
                self._send(client, bytes(data))
        self._pacer.sent(batch, loop.time())

    def _send(self, client: Client, data: bytes) -> None:
        """Queue bytes for a client without waiting; a dead or non-reading client is ended."""
        writer = client.writer
        if writer.is_closing():
            self._end(client)
            return
        try:
            writer.write(data)
        except (ConnectionError, OSError, RuntimeError):
            self._end(client)
            return
        if writer.transport.get_write_buffer_size() > self.limits.max_unsent:
            writer.transport.abort()
            self._end(client)

    # ------------------------------------------------------------------ the claim timer

    def _arm_timer(self) -> None:
        """Make the running timer match :meth:`Table.claim_timer`: same key keeps it, a new key restarts it."""
        wanted = self.table.claim_timer()
        if wanted is None:
            self._cancel_timer()
            return
        key, seconds = wanted
        if self._timer is not None and self._timer.key == key:
            return
        self._cancel_timer()
        handle = asyncio.get_running_loop().call_later(max(0.0, seconds), self._events.put_nowait, TimerFired(key))
        self._timer = _Timer(key, handle)

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.handle.cancel()
            self._timer = None


def _drop_if_unsent(transport: asyncio.WriteTransport) -> None:
    """Abort a closed connection whose last messages are still not sent (its client does not read).

    Only then: a transport that finished sending its buffer after :meth:`close` is gone,
    and aborting it again fails inside asyncio (its loop is already None).
    """
    if transport.get_write_buffer_size():
        transport.abort()


def _set_nodelay(writer: asyncio.StreamWriter) -> None:
    """Messages are small and interactive: send each at once (no Nagle delay) on TCP."""
    sock = writer.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def _remove_stale_socket(path: str) -> None:
    """Remove a socket file left at ``path`` (the original unlinks first too); other files are kept."""
    try:
        if stat.S_ISSOCK(os.lstat(path).st_mode):
            os.unlink(path)
    except FileNotFoundError:
        pass


async def _wait_closed(writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(ConnectionError, OSError):
        await writer.wait_closed()
