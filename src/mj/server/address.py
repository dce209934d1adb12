"""The ``--server ADDRESS`` string (protocol.md §1.1): a TCP host and port, or a Unix socket path.

The original treats any address with a colon as TCP and binds the port on all
interfaces whatever host is given. We bind the host given (``:PORT`` meaning
``localhost``), so a server started for a local game is not reachable from the
network, and treat anything with a ``/`` or not of the form ``HOST:PORT`` as a
socket path, so paths that happen to contain a colon still work.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

DEFAULT_ADDRESS: Final = "localhost:5000"
DEFAULT_HOST: Final = "localhost"

#: ``HOST:PORT``, ``:PORT`` or ``[IPv6]:PORT``.
_TCP: Final = re.compile(r"(?:\[(?P<v6>[0-9A-Fa-f:.]+)\]|(?P<host>[^:/\[\]]*)):(?P<port>[0-9]{1,5})")


@dataclass(frozen=True, slots=True)
class TcpAddress:
    host: str
    port: int


@dataclass(frozen=True, slots=True)
class UnixAddress:
    path: str


Address = TcpAddress | UnixAddress


def parse_address(text: str) -> Address:
    """The transport that ``text`` selects; ports must be 0..65535 (0 = any free port)."""
    match = _TCP.fullmatch(text)
    if match is None or "/" in text:
        if not text:
            raise ValueError("empty server address")
        return UnixAddress(text)
    port = int(match["port"])
    if port > 65535:
        raise ValueError(f"port out of range in {text!r}")
    host = match["v6"] or match["host"] or DEFAULT_HOST
    return TcpAddress(host, port)
