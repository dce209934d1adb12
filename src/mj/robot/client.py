"""The robot's connection to a server: asyncio, a Unix socket or TCP, the session messages.

Everything about playing is the :class:`~mj.robot.agent.Robot`'s; this module only
carries lines and handles what concerns the connection itself (protocol.md §6,
§14.1):

* ``Connect 1110 <id> <name>``, then ``ConnectReply`` (id 0: refused, exit 1);
* ``AuthReqd basic`` answered with ``AuthInfo basic <password>`` (no password, or
  another type: exit 1, as the original);
* ``Error <seqno> <text>``: logged to stderr and handed to the robot together with
  the line it refers to (lines are numbered from 1 as the server numbers them), so
  that it can fall back instead of waiting for an answer that will never come;
* ``Reconnect``: ``Connect`` again on the same socket with the id we have;
  ``Redirect``: exit 1 (the original robot does the same);
* ``GameOver``: exit 0; the connection lost before it: exit 1.

Addresses follow §1.1: with a colon, ``HOST:PORT`` over TCP (``:PORT`` means
localhost); without, the path of a Unix-domain socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Callable
from dataclasses import dataclass

from mj.protocol import ProtocolError
from mj.protocol import cmsg as C
from mj.protocol import pmsg as P
from mj.protocol.connect import EXTENDED_PROTOCOL_VERSION, split_address
from mj.protocol.framing import LineDecoder, LineTooLong, encode_line
from mj.robot.agent import Robot

DEFAULT_SERVER = "localhost:5000"
#: Sent lines remembered to explain later Error messages.
_REMEMBERED = 256


@dataclass(frozen=True, slots=True)
class ClientConfig:
    server: str = DEFAULT_SERVER
    id: int = 0
    name: str = "Robot"
    password: str | None = None


def stderr_log(prefix: str) -> Callable[[str], None]:
    def log(text: str) -> None:
        print(f"{prefix}: {text}", file=sys.stderr, flush=True)

    return log


class Client:
    """One robot's session with a server; :meth:`run` returns the exit status."""

    def __init__(self, config: ClientConfig, robot: Robot, log: Callable[[str], None] | None = None) -> None:
        self.config = config
        self.robot = robot
        self.log = log or stderr_log(f"mj-player {config.name}")
        #: Error messages received (each also logged).
        self.errors: list[C.Error] = []
        self._writer: asyncio.StreamWriter | None = None
        self._sent: dict[int, P.PMsg] = {}
        self._seq = 0

    async def run(self) -> int:
        try:
            reader, self._writer = await self._open()
        except (OSError, ValueError) as exc:
            self.log(f"cannot connect to {self.config.server}: {exc}")
            return 1
        try:
            return await self._session(reader)
        finally:
            self._writer.close()
            with contextlib.suppress(OSError, ConnectionError):
                await self._writer.wait_closed()

    async def _open(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        where = split_address(self.config.server)
        if isinstance(where, str):
            return await asyncio.open_unix_connection(where)
        return await asyncio.open_connection(*where)

    async def _session(self, reader: asyncio.StreamReader) -> int:
        self._send(P.Connect(EXTENDED_PROTOCOL_VERSION, self.config.id, self.config.name))
        decoder = LineDecoder()
        while True:
            try:
                data = await reader.read(65536)
            except (OSError, ConnectionError) as exc:
                self.log(f"connection lost: {exc}")
                return 1
            if not data:
                self.log("connection closed by the server before the game was over")
                return 1
            try:
                lines = decoder.feed(data)
            except LineTooLong as exc:
                self.log(f"the server sent an overlong line: {exc}")
                return 1
            for line in lines:
                status = self._handle(line)
                if status is not None:
                    await self._flush()
                    return status
            await self._flush()

    def _handle(self, line: str) -> int | None:
        """Process one line; an exit status when the session is over."""
        try:
            msg = C.decode(line)
        except ProtocolError as exc:
            self.log(f"ignoring a line that is not a message ({exc}): {line!r}")
            return None
        match msg:
            case C.ConnectReply(id=0, reason=reason):
                self.log(f"connection refused: {reason}")
                return 1
            case C.AuthReqd(authtype=kind):
                if kind != "basic" or self.config.password is None:
                    self.log(f"server wants {kind} authentication and no password was given")
                    return 1
                self._send(P.AuthInfo("basic", self.config.password))
                return None
            case C.Reconnect():
                self._send(P.Connect(EXTENDED_PROTOCOL_VERSION, self.robot.view.my_id, self.config.name))
                return None
            case C.Redirect(dest=dest):
                self.log(f"server redirects to {dest!r}; not supported")
                return 1
            case C.Error(seqno=seqno, text=text):
                self.errors.append(msg)
                refused = self._sent.get(seqno)
                about = f" (to {refused.encode()!r})" if refused is not None else ""
                self.log(f"Error from server{about}: {text}")
                if refused is not None:
                    self._send_all(self.robot.refused(refused, text))
                return None
        self._send_all(self.robot.receive(msg))
        if isinstance(msg, C.GameOver):
            return 0
        return None

    def _send_all(self, messages: list[P.PMsg]) -> None:
        for message in messages:
            self._send(message)

    def _send(self, msg: P.PMsg) -> None:
        assert self._writer is not None
        self._seq += 1
        self._sent[self._seq] = msg
        self._sent.pop(self._seq - _REMEMBERED, None)
        self._writer.write(encode_line(msg.encode()))

    async def _flush(self) -> None:
        assert self._writer is not None
        with contextlib.suppress(OSError, ConnectionError):
            await self._writer.drain()
