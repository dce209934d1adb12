"""The asyncio network loop of ``mj-server``: sockets in, table events, deliveries out.

Connections are :class:`asyncio.Protocol` objects, so the event loop hands each
chunk of bytes straight to the server: no task, stream or queue per line. Each
connection cuts its bytes into logical lines with its own
:class:`~mj.protocol.framing.LineDecoder`, so a client that sends half a line never
stalls the others (the original blocked on it). Complete lines, ends of connections
and timer expiries become events that the table handles strictly one at a time, in
the order they happened: the table is not re-entrant and the log must show each
received line followed by exactly the messages it caused.

The messages caused by all the events of one wake-up of the loop are gathered per
client and written with one system call each, and the log is flushed once, before
those writes (whoever watches the log sees a message no later than its recipient):
the flush is a callback queued with ``call_soon``, which the loop runs only after it
has passed on all the bytes of that wake-up. A robot game is a few thousand short
exchanges (the original robots send each answer in a packet of its own, and three
"no claim" answers often arrive together), and per-message system calls were much of
our server's CPU time. Writes never wait for a client: a client whose unread output
piles up, or whose socket fails, is treated as having closed.

``mj-server`` runs this on uvloop (see :mod:`mj.server.cli`); the tests run it on
asyncio's own loop too, so it relies on nothing but asyncio's documented interface.

Pacing (``--pause``, §7.13) is the one wait: a batch that must be held back stops
all handling, reading from every socket is paused, and the events that arrive
meanwhile are handled in their order once the batch is sent, as after the
original's sleep.

Connection numbers are the original's ``cnxK`` slots: the lowest free number from
1, freed only once the table has been told the connection ended, so the table
never sees two connections with the same number at once.

Connections that are not yet a player's ("waiting") are bounded so that nobody
can lock the players out (see :class:`Limits`): each must send a ``Connect`` that
the table accepts within a deadline, each line once started must be finished within
another, and when too many wait, from one address or in all, the oldest waiting one
is cut off to make room for the newcomer. A newcomer is therefore always let in and
has its chance to join; a seated player who lost the connection comes back that way.
Failed passwords make the next attempt from that address, or for that id, wait
(:mod:`mj.server.guard`): its ``AuthInfo`` is held back, not refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import os
import socket
import stat
import sys
import traceback
from collections import deque
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Final, Protocol, cast

from mj.protocol import cmsg as C
from mj.protocol.framing import MAX_LINE, WHITESPACE, LineDecoder, LineTooLong, encode_line
from mj.server.address import Address, TcpAddress, UnixAddress
from mj.server.guard import AuthPenalties, RateLimit
from mj.server.logwriter import LogWriter
from mj.server.pacing import Pacer
from mj.table import Delivery

#: How long a closed connection may take to flush its last messages before it is dropped.
CLOSE_GRACE: Final = 2.0
#: The lines a player may send only at a bounded rate: chat, and saves (each writes a file).
_RATED: Final = ("SendMessage", "SaveState")


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

    def refuse(self, connection: int) -> list[Delivery]: ...

    def joined(self, connection: int) -> bool: ...

    def auth_player(self, connection: int) -> int | None: ...

    @property
    def auth_failures(self) -> list[tuple[int, int]]: ...


class Listener(Protocol):
    """What the server needs of a listening server: ``asyncio.Server``, or uvloop's own.

    uvloop's hands out a list of sockets where asyncio promises a tuple; compiled code
    checks such promises, so the server asks only for a sequence.
    """

    @property
    def sockets(self) -> Sequence[socket.socket]: ...

    def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class Limits:
    """Protection against clients that misbehave, and room for more than the original's 7.

    ``mj-server --help`` names each limit with its default; the options set them.
    """

    max_connections: int = 64
    #: Connections not yet a player's, in all; a newcomer beyond it cuts off the oldest.
    max_waiting: int = 32
    #: Connections not yet a player's from one address (an IPv6 /64), the oldest cut off likewise.
    max_waiting_per_address: int = 8
    #: Seconds from accepting a connection to the table accepting its ``Connect``.
    connect_timeout: float = 60.0
    #: Seconds from the first byte of a line to its end.
    line_timeout: float = 30.0
    #: Chat lines (``SendMessage``) of one player at once, and then a second.
    chat_burst: int = 20
    chat_rate: float = 2.0
    #: Saves (``SaveState``) of one player at once, and then a second.
    save_burst: int = 3
    save_rate: float = 0.2
    #: Longest logical line accepted, escapes and terminators counted.
    max_line: int = MAX_LINE
    #: Lines from one client received but not yet handled; more means a flood.
    max_pending: int = 1000
    #: Bytes queued for one client that it has not read; more means it stopped reading.
    max_unsent: int = 4 * 1024 * 1024
    #: Seconds a TCP connection may be silent before the system probes it, then the probes'
    #: interval and count: a player whose network died (no FIN, no RST reached us) is found
    #: gone within about two minutes, and can take its seat again from elsewhere.
    keepalive_idle: int = 60
    keepalive_interval: int = 15
    keepalive_probes: int = 4


@dataclass(eq=False, slots=True)
class Client:
    """One accepted connection."""

    number: int
    transport: asyncio.Transport
    decoder: LineDecoder
    #: Set when the socket is gone (closed by either side), for the shutdown to wait on.
    gone: asyncio.Future[None]
    #: Lines received and not handled yet.
    pending: int = 0
    #: The end of this connection has been queued; read nothing more from it.
    ending: bool = False
    #: The table has been told the connection ended; drop anything still queued for it.
    closed: bool = False
    #: Lines for this client gathered during the current wake-up, joined when sent.
    outgoing: list[bytes] = field(default_factory=list)
    #: Where it connected from (an IPv6 address as its /64); None on a Unix socket.
    host: str | None = None
    #: Not yet a player's: bounded in number and in time.
    waiting: bool = True
    #: Cuts the client off unless it joins in time.
    connect_deadline: asyncio.TimerHandle | None = None
    #: Cuts the client off unless the line it started ends in time.
    line_deadline: asyncio.TimerHandle | None = None
    #: Its events held back while a password attempt waits (:mod:`mj.server.guard`), in order.
    deferred: list[Event] | None = None
    #: Its rate limits for chat and saves, made at its first such line.
    rates: dict[str, RateLimit] | None = None


@dataclass(frozen=True, slots=True)
class Opened:
    client: Client


@dataclass(slots=True, init=False)
class Received:
    """One for every line: its ``__init__`` is written out to run compiled (see :mod:`mj.compiled`)."""

    client: Client
    #: The logical line as received, terminator included (the log keeps it).
    raw: str

    def __init__(self, client: Client, raw: str) -> None:
        self.client = client
        self.raw = raw


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


@dataclass(slots=True)
class _Held:
    """A batch held back for pacing, and when it may go."""

    batch: Sequence[Delivery]
    handle: asyncio.TimerHandle


class _Link(asyncio.Protocol):
    """The event loop's side of one connection: passes everything on to the :class:`Server`."""

    __slots__ = ("client", "server")

    def __init__(self, server: Server) -> None:
        self.server = server
        self.client: Client | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # a stream connection's transport is always a Transport, but uvloop's are not subclasses of it
        self.client = self.server._opened(cast(asyncio.Transport, transport))

    def data_received(self, data: bytes) -> None:
        if self.client is not None:
            self.server._received(self.client, data)

    def eof_received(self) -> bool:
        return False  # close our side too: the client has said all it will say

    def connection_lost(self, exc: Exception | None) -> None:
        client, self.client = self.client, None  # no cycle left (client, transport, link) for the collector
        if client is not None:
            if not client.gone.done():
                client.gone.set_result(None)
            self.server._end(client)


class Server:
    """One table served on one listening address until the table says to exit or :meth:`stop` is called.

    Made in the running event loop that will serve it; it keeps that loop rather than
    asking for it at every wake-up (which costs a system call: asyncio checks the process id).
    """

    def __init__(self, table: TableLike, log: LogWriter | None = None, limits: Limits | None = None) -> None:
        self._loop = asyncio.get_running_loop()
        self.table = table
        self.log = log
        self.limits = limits or Limits()
        self._clients: dict[int, Client] = {}
        self._backlog: deque[Event] = deque()
        self._draining = False
        self._flush_due = False
        self._held: _Held | None = None
        self._timer: _Timer | None = None
        self._pacer = Pacer()
        self._listener: Listener | None = None
        self._unix_path: str | None = None
        self._result: asyncio.Future[int] | None = None
        #: Clients not yet a player's, oldest first.
        self._waiting: dict[Client, None] = {}
        self._penalties = AuthPenalties()

    # ------------------------------------------------------------------ lifecycle

    async def start(self, address: Address) -> None:
        """Listen on ``address`` (:class:`OSError` if that is impossible)."""
        loop = self._loop
        self._result = loop.create_future()
        if isinstance(address, UnixAddress):
            _remove_stale_socket(address.path)
            self._listener = await loop.create_unix_server(lambda: _Link(self), address.path)
            self._unix_path = address.path
            return
        self._listener = await loop.create_server(lambda: _Link(self), address.host, address.port, reuse_address=True)

    @property
    def tcp_address(self) -> TcpAddress | None:
        """Where the first TCP socket listens (the real port when port 0 was asked); None on a Unix socket."""
        if self._listener is None or self._unix_path is not None or not self._listener.sockets:
            return None
        host, port = self._listener.sockets[0].getsockname()[:2]
        return TcpAddress(host, port)

    def stop(self) -> None:
        """Ask :meth:`run` to return 0 (signal handlers call this)."""
        self._finish(0)

    async def run(self) -> int:
        """Handle events until the table sets an exit status (returned) or :meth:`stop` (0).

        An exception from the table is a bug that may have left it half-way through a
        change, so the server quits with status 1 and the traceback on stderr (the
        original, too, quits on internal errors, without saving).
        """
        assert self._result is not None, "start() first"
        try:
            return await self._result
        finally:
            await self._shut_down()

    def _finish(self, status: int) -> None:
        if self._result is not None and not self._result.done():
            self._result.set_result(status)

    @property
    def _finished(self) -> bool:
        return self._result is not None and self._result.done()

    async def _shut_down(self) -> None:
        """Stop listening, flush and close every connection, remove our socket file."""
        self._cancel_timer()
        if self._held is not None:
            self._held.handle.cancel()
            self._held = None
        if self._listener is not None:
            self._listener.close()
        self._flush()
        clients = list(self._clients.values())
        for client in clients:
            client.ending = True
            client.transport.close()
        if clients:
            _, late = await asyncio.wait([c.gone for c in clients], timeout=CLOSE_GRACE)
            for client in clients:
                if client.gone in late:
                    client.transport.abort()  # a client that does not read loses the rest
        if self.log is not None:
            self.log.flush()
        if self._unix_path is not None:
            _remove_stale_socket(self._unix_path)

    # ------------------------------------------------------------------ events from the loop

    def _opened(self, transport: asyncio.Transport) -> Client | None:
        """A new connection: make room among the waiting ones, give it the lowest free slot, or refuse it."""
        host = _peer_host(transport)
        if not self._finished:
            self._make_room(host)
        number = self._free_slot()
        if number is None or self._finished:
            with contextlib.suppress(ConnectionError, OSError, RuntimeError):
                transport.write(encode_line(C.Error(0, "Unable to accept new connections").encode()))
            transport.close()
            return None
        sock = transport.get_extra_info("socket")
        if sock is not None:
            tune_tcp(sock, self.limits)
        client = Client(number, transport, LineDecoder(self.limits.max_line), self._loop.create_future())
        client.host = host
        self._clients[number] = client
        self._waiting[client] = None
        seconds = self.limits.connect_timeout
        reason = f"No Connect accepted within {seconds:g} seconds; connection closed"
        client.connect_deadline = self._loop.call_later(seconds, self._end, client, reason)
        self._submit(Opened(client))
        return client

    def _make_room(self, host: str | None) -> None:
        """Cut off the oldest waiting connection from ``host``, or of all, if one more would be too many."""
        limits = self.limits
        same = [c for c in self._waiting if c.host == host] if host is not None else []
        if len(same) >= limits.max_waiting_per_address:
            self._evict(same[0], "Too many connections waiting from your address; connection closed")
        elif len(self._waiting) >= limits.max_waiting:
            self._evict(next(iter(self._waiting)), "Too many connections waiting; connection closed")

    def _evict(self, client: Client, reason: str) -> None:
        self._waiting.pop(client, None)
        self._end(client, reason)

    def _joined(self, client: Client) -> None:
        """``client`` is a player's now: no longer bounded as a waiting connection."""
        client.waiting = False
        self._waiting.pop(client, None)
        if client.connect_deadline is not None:
            client.connect_deadline.cancel()
            client.connect_deadline = None

    def _received(self, client: Client, data: bytes) -> None:
        """Bytes from ``client``: queue its complete lines and handle them."""
        if client.ending:
            return
        decoder = client.decoder
        try:
            lines = decoder.feed_raw(data)
        except LineTooLong:
            self._end(client, "Line too long; connection closed")
            return
        if client.line_deadline is not None and (lines or not decoder.partial):
            client.line_deadline.cancel()
            client.line_deadline = None
        if client.line_deadline is None and decoder.partial:
            seconds = self.limits.line_timeout
            reason = f"Line not finished within {seconds:g} seconds; connection closed"
            client.line_deadline = self._loop.call_later(seconds, self._end, client, reason)
        for raw in lines:
            client.pending += 1
            if client.pending > self.limits.max_pending:
                self._end(client, "Too many lines received; connection closed")
                break
            self._backlog.append(Received(client, raw))
        self._drain()

    def _end(self, client: Client, reason: str = "") -> None:
        """Queue the end of ``client`` once, behind the lines it already sent."""
        if client.ending:
            return
        client.ending = True
        if client.deferred is not None:  # a password attempt held back: dropped with its client
            client.pending -= sum(isinstance(e, Received) for e in client.deferred)
            client.deferred = None
        self._submit(Ended(client, reason))

    def _free_slot(self) -> int | None:
        for number in range(1, self.limits.max_connections + 1):
            if number not in self._clients:
                return number
        return None

    # ------------------------------------------------------------------ the table

    def _submit(self, event: Event) -> None:
        self._backlog.append(event)
        self._drain()

    def _drain(self) -> None:
        """Handle queued events in order, unless already doing so further up the stack or held back.

        Handling an event can cause another (closing a client flushes, and a write that
        fails ends its client), so this loop, not a nested call, takes those too, after
        the event in hand. The output is sent at the end of the wake-up (:meth:`_flush`).
        """
        if self._draining:
            return
        self._draining = True
        try:
            while self._backlog and self._held is None and not self._finished:
                self._handle(self._backlog.popleft())
        finally:
            self._draining = False
        if self._finished:
            self._backlog.clear()
            return
        if not self._flush_due:
            self._flush_due = True
            self._loop.call_soon(self._flush)
        if self._held is not None:
            self._pause_reading(True)

    def _handle(self, event: Event) -> None:
        try:
            batch = self._table_event(event)
            if self.table.auth_failures:
                self._auth_failed()
            if self._deliver(batch):
                self._after_batch()
        except Exception:
            print(f"-E- internal error while handling {type(event).__name__}; quitting", file=sys.stderr)
            traceback.print_exc()
            self._finish(1)

    def _after_batch(self) -> None:
        """What follows an event's batch once it is sent: requested closes, the exit, the claim timer."""
        self._close_requested()
        status = self.table.exit_status
        if status is not None:
            self._finish(status)
            return
        self._arm_timer()

    def _table_event(self, event: Event) -> list[Delivery]:
        if isinstance(event, TimerFired):
            if self._timer is None or self._timer.key != event.key:
                return []  # a window that closed meanwhile
            self._timer = None
            return self.table.timeout()
        client = event.client
        if client.closed:
            return []
        if client.waiting:
            return self._waiting_event(client, event)
        if isinstance(event, Received):
            client.pending -= 1
            if self.log is not None:
                self.log.received(client.number, event.raw)
            if event.raw.startswith(_RATED) and not self._within_rate(client, event.raw):
                return self.table.refuse(client.number)
            return self.table.receive(client.number, event.raw.rstrip(WHITESPACE))
        if isinstance(event, Opened):
            return self.table.open(client.number)
        return self._ended(client, event)

    def _waiting_event(self, client: Client, event: Opened | Received | Ended) -> list[Delivery]:
        """An event of a client not yet a player's: a password attempt may have to wait; a Connect may seat it."""
        if client.deferred is not None:
            client.deferred.append(event)
            return []
        if isinstance(event, Received) and event.raw.startswith("AuthInfo"):
            wait = self._auth_wait(client)
            if wait > 0:
                client.deferred = [event]
                self._loop.call_later(wait, self._release_deferred, client)
                return []
        if not isinstance(event, Received):
            return self.table.open(client.number) if isinstance(event, Opened) else self._ended(client, event)
        client.pending -= 1
        if self.log is not None:
            self.log.received(client.number, event.raw)
        out = self.table.receive(client.number, event.raw.rstrip(WHITESPACE))
        if self.table.joined(client.number):
            self._joined(client)
        return out

    def _within_rate(self, client: Client, raw: str) -> bool:
        """Whether a player's chat line or save is within its rate (each kind has its own)."""
        kind = "chat" if raw.startswith("SendMessage") else "save"
        now = self._loop.time()
        if client.rates is None:
            client.rates = {}
        rate = client.rates.get(kind)
        if rate is None:
            limits = self.limits
            if kind == "chat":
                rate = RateLimit(limits.chat_burst, limits.chat_rate, now)
            else:
                rate = RateLimit(limits.save_burst, limits.save_rate, now)
            client.rates[kind] = rate
        return rate.take(now)

    def _ended(self, client: Client, event: Ended) -> list[Delivery]:
        if event.reason:
            client.outgoing.append(encode_line(C.Error(0, event.reason).encode()))
        return self._close(client, by_us=False)

    def _auth_key(self, client: Client) -> tuple[Hashable, ...]:
        """What a password attempt on ``client`` is counted under: its address and the id it claims."""
        player = self.table.auth_player(client.number)
        address = ("address", client.host or "local")
        return (address,) if player is None else (address, ("id", player))

    def _auth_wait(self, client: Client) -> float:
        return self._penalties.wait(self._auth_key(client), self._loop.time())

    def _release_deferred(self, client: Client) -> None:
        """The wait is over: the held events go first (they arrived before anything still queued)."""
        events, client.deferred = client.deferred, None
        if not events or client.closed or self._finished:
            return
        self._backlog.extendleft(reversed(events))
        self._drain()

    def _auth_failed(self) -> None:
        """Count each failed password against its address and id, and log it in one line."""
        now = self._loop.time()
        for connection, player in self.table.auth_failures:
            client = self._clients.get(connection)
            host = client.host if client is not None and client.host is not None else "local"
            failures, wait = self._penalties.failed((("address", host), ("id", player)), now)
            print(
                f"+W+ authentication failure for id {player} from {host} (failure {failures}; "
                f"the next attempt waits {wait:.1f} s)",
                file=sys.stderr,
                flush=True,
            )
        self.table.auth_failures.clear()

    def _close(self, client: Client, by_us: bool) -> list[Delivery]:
        """Close ``client``'s socket (after its queued output) and tell the table.

        ``by_us`` marks the connections the table asked to close (a refused Connect, a
        Disconnect): the original logs no end of file for those, and ``mj replay`` closes
        them on its own. A client's end of file, and our cut-off of a flooding client
        (which the original has no counterpart for), are logged as ``(null)``.
        """
        self._flush()
        client.ending = client.closed = True
        client.transport.close()
        self._waiting.pop(client, None)
        for deadline in (client.connect_deadline, client.line_deadline):
            if deadline is not None:
                deadline.cancel()
        client.connect_deadline = client.line_deadline = None
        # the socket stays open until its last messages are read: not forever (nothing left to read: closed now)
        if client.transport.get_write_buffer_size():
            self._loop.call_later(CLOSE_GRACE, _drop_if_unsent, client.transport)
        self.table.closing.discard(client.number)
        if self.log is not None and not by_us:
            self.log.end_of_file(client.number)
        out = self.table.close(client.number)
        del self._clients[client.number]
        return out

    def _close_requested(self) -> None:
        """Close the connections the table asked to close, once their messages have been sent.

        What the table answers to a close (news of a player gone) moves no tile, so it
        is never held back.
        """
        while self.table.closing:
            number = min(self.table.closing)
            client = self._clients.get(number)
            if client is None or client.closed:
                self.table.closing.discard(number)
                self._gather(self.table.close(number))
                continue
            self._gather(self._close(client, by_us=True))

    # ------------------------------------------------------------------ sending

    def _deliver(self, batch: Sequence[Delivery]) -> bool:
        """Gather ``batch`` for sending, or hold it back for pacing (False: held)."""
        if not batch:
            return True
        interval = self.table.pacing()
        if interval <= 0:  # no pacing: the usual case, and no bookkeeping for it
            self._gather(batch)
            return True
        loop = self._loop
        wait = self._pacer.wait(batch, interval, loop.time())
        if wait > 0:
            self._held = _Held(batch, loop.call_later(wait, self._release))
            return False
        self._gather(batch)
        self._pacer.sent(batch, loop.time())
        return True

    def _release(self) -> None:
        """The held batch may go now: send it, finish its event, go on with what arrived meanwhile."""
        held, self._held = self._held, None
        if held is None or self._finished:
            return
        self._pause_reading(False)
        try:
            self._gather(held.batch)
            self._pacer.sent(held.batch, self._loop.time())
            self._after_batch()
        except Exception:
            print("-E- internal error after a paced batch; quitting", file=sys.stderr)
            traceback.print_exc()
            self._finish(1)
        self._drain()

    def _gather(self, batch: Sequence[Delivery]) -> None:
        """Encode ``batch``, log the copies marked logged, add each message to its client's outgoing bytes.

        A broadcast is one message object delivered to every seat in a row, so it is
        encoded once.
        """
        log = self.log
        clients = self._clients
        last: object = None
        text = ""
        data = b""
        for delivery in batch:
            message = delivery.message
            if message is not last:
                last = message
                text = message.encode()
                data = encode_line(text)
            if delivery.logged and log is not None:
                log.sent(delivery.connection, text, data)
            client = clients.get(delivery.connection)
            if client is not None and not client.closed:
                client.outgoing.append(data)

    def _flush(self) -> None:
        """Flush the log, then write each client's gathered bytes in one call; end the clients that failed."""
        self._flush_due = False
        if self.log is not None:
            self.log.flush()
        failed = [client for client in self._clients.values() if client.outgoing and not self._send(client)]
        for client in failed:
            self._end(client)

    def _send(self, client: Client) -> bool:
        """Write a client's gathered bytes without waiting; False if it is dead or does not read."""
        data = b"".join(client.outgoing)
        client.outgoing.clear()
        transport = client.transport
        if transport.is_closing():
            return False
        try:
            transport.write(data)
        except (ConnectionError, OSError, RuntimeError):
            return False
        if transport.get_write_buffer_size() > self.limits.max_unsent:
            transport.abort()
            return False
        return True

    def _pause_reading(self, paused: bool) -> None:
        """While a batch is held back, leave new bytes in the sockets (bounded memory, order kept)."""
        for client in self._clients.values():
            if client.closed or client.transport.is_closing():
                continue
            with contextlib.suppress(RuntimeError):
                if paused and client.transport.is_reading():
                    client.transport.pause_reading()
                elif not paused and not client.transport.is_reading():
                    client.transport.resume_reading()

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
        handle = self._loop.call_later(max(0.0, seconds), self._submit, TimerFired(key))
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


def _peer_host(transport: asyncio.BaseTransport) -> str | None:
    """The address a TCP client connected from, as :func:`site_of` counts it; None on a Unix socket."""
    peer = transport.get_extra_info("peername")
    if not isinstance(peer, tuple) or not peer or not isinstance(peer[0], str):
        return None
    return site_of(peer[0])


def site_of(host: str) -> str:
    """A client's address as limits per address count it: an IPv6 one as its /64 (one site's, which
    holds many addresses), an IPv4 one as it is."""
    if ":" in host:
        with contextlib.suppress(ValueError):
            return str(ipaddress.ip_network(f"{host.partition('%')[0]}/64", strict=False))
    return host


def tune_tcp(sock: socket.socket, limits: Limits) -> None:
    """On TCP: send each message at once (they are small and interactive: no Nagle delay), and
    probe a silent connection (:class:`Limits`' keepalive), since a server waiting for a seat's
    move writes nothing that would find its link dead."""
    if sock.family not in (socket.AF_INET, socket.AF_INET6):
        return
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE, limits.keepalive_idle)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPINTVL, limits.keepalive_interval)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPCNT, limits.keepalive_probes)


def _remove_stale_socket(path: str) -> None:
    """Remove a socket file left at ``path`` (the original unlinks first too); other files are kept."""
    try:
        if stat.S_ISSOCK(os.lstat(path).st_mode):
            os.unlink(path)
    except FileNotFoundError:
        pass
