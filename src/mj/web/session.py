"""One person's seat: a protocol connection to the game server, and the browsers watching it.

A session is an ordinary client of the game server (protocol.md §6, §14.2): it
connects with ``Connect 1110 <id> <name>``, keeps the seat's view from every
message, and sends only what the person chose in a dialog the session offered,
plus the few answers a client gives by itself (acknowledging an option the server
orders, §7.13; passing on a kong it cannot rob, as xmj does, §15).

The session outlives its browsers: a reload, a second tab or a dropped network
attaches again with the session's token and simply gets the latest snapshot. If
the connection to the game server itself is lost before the game is over, the
session rejoins the same seat with its player id (§10.4).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import Awaitable, Callable, Hashable
from typing import Any, Final

from aiohttp import web

from mj.protocol import ProtocolError
from mj.protocol import cmsg as C
from mj.protocol import pmsg as P
from mj.protocol.connect import EXTENDED_PROTOCOL_VERSION, split_address
from mj.protocol.framing import LineDecoder, LineTooLong, encode_line
from mj.rules import registry
from mj.rules.ruleset import Ruleset
from mj.seatview import SeatView
from mj.web import dialogs, snapshot
from mj.web.seatlog import SeatLog

#: How long a lost connection to the game server is retried before the session gives up.
REJOIN_SECONDS: Final = 60.0
#: How long to wait for the server's ConnectReply.
CONNECT_SECONDS: Final = 10.0
#: Sent lines remembered to explain later Error messages.
_REMEMBERED: Final = 256

Json = dict[str, Any]
#: Opens a connection to the game server another way than by its address (the lobby's tables).
Connector = Callable[[], Awaitable[tuple[asyncio.StreamReader, asyncio.StreamWriter]]]


class Session:
    """One seat at one game server, driven by the person's browsers."""

    def __init__(
        self, target: str, name: str, player_id: int = 0, password: str | None = None, rules: Ruleset | None = None,
        connect: Connector | None = None,
    ) -> None:  # fmt: skip
        self.token = secrets.token_urlsafe(18)
        #: The server's address, or (with ``connect``) only what the person is shown of where they play.
        self.target = target
        #: A game this gateway started (its server and robots): the person is told so, not its socket's path.
        self.local = False
        self._connect = connect
        self.name = name
        self.password = password
        #: The table's rule system, which decides the moves offered.
        self.rules = rules if rules is not None else registry.DEFAULT
        self.view = SeatView(rules=self.rules)
        self.log = SeatLog(self.view)
        self.sockets: set[web.WebSocketResponse] = set()
        #: "connecting", "connected", "rejoining", "refused", "lost", "closed" or "over".
        self.status = "connecting"
        self.detail = ""
        #: Awaited once when the session ends for good (the owner stops a local game then), before
        #: the server is told we leave.
        self.on_close: Callable[[], Awaitable[None]] | None = None
        #: When the last browser went away (monotonic), None while one is attached.
        self.orphaned_since: float | None = time.monotonic()
        #: Told whether a browser is attached, each time that changes (the lobby's stand-in timer).
        self.on_presence: Callable[[bool], None] | None = None
        #: A connection lost while no browser is attached waits for one before rejoining (the lobby:
        #: a robot stands in for a person whose page has gone, until the page comes back).
        self.rejoin_with_page = False
        #: The last chat and move-log lines the attached browsers have been sent.
        self._broadcast_sent = snapshot.Sent(0, 0)
        self._requested_id = player_id
        self._writer: asyncio.StreamWriter | None = None
        self._reader_task: asyncio.Task[None] | None = None
        self._seated = asyncio.Event()
        self._sent: dict[int, P.PMsg] = {}
        self._seq = 0
        self._closing = False
        #: The decision point of the person's last move: its dialog is not offered again until something changes.
        self._acted_at: Hashable | None = None
        self._dialog_point: Hashable | None = None
        self._dialog_number = 0
        #: Messages for the browsers produced while reading (server errors), sent after the batch.
        self._events: list[Json] = []

    # ------------------------------------------------------------------ connection

    async def start(self) -> bool:
        """Connect and wait for the server's answer; False (with :attr:`detail`) if refused, unreachable or silent.

        Both are bounded together by :data:`CONNECT_SECONDS`: the page waits for the outcome with its game held.
        """
        try:
            async with asyncio.timeout(CONNECT_SECONDS):
                await self._open()
                await self._seated.wait()
        except TimeoutError:  # (an OSError too: said first)
            self.status, self.detail = "lost", f"no answer from {self.target} within {CONNECT_SECONDS:g} seconds"
            return False
        except (OSError, ValueError) as exc:
            self.status, self.detail = "lost", f"cannot connect to {self.target}: {exc}"
            return False
        return self.status == "connected"

    async def _open(self) -> None:
        # bounded: a connection whose first packet is dropped would be waited out for minutes
        async with asyncio.timeout(CONNECT_SECONDS):
            if self._connect is not None:
                reader, writer = await self._connect()
            elif isinstance(where := split_address(self.target), str):
                reader, writer = await asyncio.open_unix_connection(where)
            else:
                reader, writer = await asyncio.open_connection(*where)
        self._writer = writer
        self._seq = 0
        self._sent.clear()
        self._send(P.Connect(EXTENDED_PROTOCOL_VERSION, self.view.my_id or self._requested_id, self.name))
        self._reader_task = asyncio.create_task(self._read(reader))

    async def _read(self, reader: asyncio.StreamReader) -> None:
        decoder = LineDecoder()
        while True:
            try:
                data = await reader.read(65536)
            except (OSError, ConnectionError):
                data = b""
            try:
                lines = decoder.feed(data) if data else []
            except LineTooLong:
                data = b""
                lines = []
            for line in lines:
                self._handle(line)
            if not data:
                break
            await self._after_batch()
        await self._lost()

    async def _lost(self) -> None:
        """The server closed the connection: over, refused, or a rejoin to attempt."""
        self._writer = None
        if self._closing or self.status in ("refused", "closed"):
            return
        if self.view.game_over:
            self.status, self.detail = "over", "The game is over."
            await self.broadcast()
            await self._finish()
            return
        if self.view.my_id == 0:
            self.status = "lost"
            where = "the local game's server" if self.local else f"the server at {self.target}"
            self.detail = self.detail or f"{where} closed the connection"
            self._seated.set()
            await self.broadcast()
            return
        if self.rejoin_with_page and not self.sockets:
            self.status, self.detail = "away", "Away from the table; back when the page is open again."
            return
        self.status, self.detail = "rejoining", "Lost the connection to the server; rejoining..."
        await self.broadcast()
        deadline = time.monotonic() + REJOIN_SECONDS
        while not self._closing and time.monotonic() < deadline:
            await asyncio.sleep(1.0)
            try:
                await self._rejoin()
                return
            except (OSError, ValueError):
                continue
        self.status, self.detail = "lost", "The connection to the server was lost."
        await self.broadcast()
        await self._finish()

    async def _rejoin(self) -> None:
        """Connect again as the same player: a fresh view, the texts and chat kept (§10.4)."""
        old = self.log
        self.view = SeatView(old.view.my_id, self.rules)
        self.log = SeatLog(self.view)
        self.log.chat, self.log.notices, self.log.scoring = old.chat, old.notices, old.scoring
        self.log.moves, self.log.save_folder = old.moves, old.save_folder
        self._seated.clear()
        await self._open()

    def _handle(self, line: str) -> None:
        try:
            msg = C.decode(line)
        except ProtocolError:
            return
        match msg:
            case C.ConnectReply(id=0, reason=reason):
                self.status, self.detail = "refused", f"The server refused the connection: {reason}"
                self._seated.set()
                return
            case C.ConnectReply(id=pid):
                self.status, self.detail = "connected", ""
                self.view.player(pid).name = self.name  # the server announces everybody but us
                self._seated.set()
            case C.AuthReqd(authtype=kind):
                if kind == "basic" and self.password is not None:
                    self._send(P.AuthInfo("basic", self.password))
                else:
                    self.status, self.detail = "refused", "The server wants a password."
                    self._seated.set()
                return
            case C.Reconnect():
                self._send(P.Connect(EXTENDED_PROTOCOL_VERSION, self.view.my_id, self.name))
                return
            case C.Error(seqno=seqno, text=text):
                refused = self._sent.get(seqno)
                about = f" ({refused.encode()})" if refused is not None else ""
                self.log.notices.append(f"Error{about}: {text}")
                self._acted_at = None  # a refused move: ask again
                self._events.append({"type": "error", "message": f"The server says: {text}{about}"})
                return
            case C.PlayerOptionSet(ack=False, option=option, value=value, text=text):
                self._send(P.SetPlayerOption(option, True, value, text))
        self.view.apply(msg)
        self.log.apply(msg)

    async def _after_batch(self) -> None:
        """Answers owed without asking the person, announcements, then the new snapshot."""
        owed = dialogs.unrobbable(self.view, self.log)
        if owed is not None:
            self.log.mark_answered(owed.discard if isinstance(owed, P.NoClaim) else 0)
            self._send(owed)
        events = [{"type": "announce", "player": a.player, "text": a.text, "hand": a.hand} for a in self.log.drain()]
        events.extend(self._events)
        self._events.clear()
        for event in events:
            await self._to_all(json.dumps(event))
        await self.broadcast()
        if self._writer is not None:
            with contextlib.suppress(OSError, ConnectionError):
                await self._writer.drain()

    def _send(self, msg: P.PMsg) -> None:
        if self._writer is None:
            return
        self._seq += 1
        self._sent[self._seq] = msg
        self._sent.pop(self._seq - _REMEMBERED, None)
        self._writer.write(encode_line(msg.encode()))

    # ------------------------------------------------------------------ the person

    def dialog(self) -> dialogs.Dialog | None:
        if self.status != "connected":
            return None
        point = dialogs.decision_point(self.view, self.log)
        if point == self._acted_at:
            return None
        if point != self._dialog_point:
            self._dialog_point = point
            self._dialog_number += 1
        return dialogs.current(self.view, self.log, number=self._dialog_number)

    async def act(self, button: object, tile: object, number: object = None) -> None:
        """Press a button of the current dialog; :class:`dialogs.ActionError` if it is not offered.

        ``number`` is the dialog's number as the browser saw it: a click on a dialog that
        has since been replaced (a late double click) is refused rather than applied to the new one.
        """
        dialog = self.dialog()
        if number is not None and dialog is not None and number != dialog.number:
            raise dialogs.ActionError("that dialog is out of date")
        message = dialogs.choose(dialog, button, tile)
        self.send(message)
        self._acted_at = dialogs.decision_point(self.view, self.log)
        pending = self.view.pending
        if pending is not None and pending.who != self.view.my_id:
            # answered: no second dialog for this discard, whatever the server says next
            self.log.mark_answered(pending.serial)

    def send(self, msg: P.PMsg) -> None:
        """Send a message on the person's behalf (chat, saving, options; moves go through :meth:`act`)."""
        if self._writer is None:
            raise dialogs.ActionError("not connected to the game server")
        self._send(msg)

    # ------------------------------------------------------------------ browsers

    def snapshot(self, sent: snapshot.Sent | None = None) -> Json:
        """The snapshot; the chat and move-log lines after those ``sent`` only, or (None) all of them."""
        connection = {"status": self.status, "detail": self.detail, "server": self.target, "name": self.name,
                      "save_folder": self.log.save_folder, "local": self.local}  # fmt: skip
        return snapshot.build(self.view, self.log, self.dialog(), connection, sent)

    async def attach(self, ws: web.WebSocketResponse) -> None:
        first = not self.sockets
        self.sockets.add(ws)
        self.orphaned_since = None
        if first and self.on_presence is not None:
            self.on_presence(True)
        if self.status == "away":
            self._reader_task = asyncio.create_task(self._lost())
        await _send_to(ws, json.dumps(self.snapshot()))

    def detach(self, ws: web.WebSocketResponse) -> None:
        attached = ws in self.sockets
        self.sockets.discard(ws)
        if not self.sockets:
            self.orphaned_since = time.monotonic()
            if attached and self.on_presence is not None:
                self.on_presence(False)

    async def broadcast(self) -> None:
        if self.sockets:
            state = self.snapshot(self._broadcast_sent)
            self._broadcast_sent = snapshot.Sent.of(self.log)
            await self._to_all(json.dumps(state))

    async def _to_all(self, text: str) -> None:
        for ws in list(self.sockets):
            if not await _send_to(ws, text):
                self.detach(ws)

    # ------------------------------------------------------------------ ending

    async def close(self) -> None:
        """Leave the game: the server sees a disconnection (§10.5)."""
        self._closing = True
        if self.status not in ("over", "refused"):
            self.status = "closed"
        writer, self._writer = self._writer, None
        # no more news of the game reaches the pages: how it ends as we leave is not theirs to see
        if self._reader_task is not None and self._reader_task is not asyncio.current_task():
            self._reader_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader_task
        # a local game is ended first, its robots before its server: told of our Disconnect, the server
        # would close the robots' connections under them, and each would say so on our terminal
        await self._finish()
        if writer is not None:
            with contextlib.suppress(OSError, ConnectionError):
                writer.write(encode_line(P.Disconnect().encode()))
                await writer.drain()
            writer.close()

    async def _finish(self) -> None:
        callback, self.on_close = self.on_close, None
        if callback is not None:
            await callback()


async def _send_to(ws: web.WebSocketResponse, text: str) -> bool:
    if ws.closed:
        return False
    try:
        await ws.send_str(text)
    except (ConnectionError, RuntimeError):
        return False
    return True
