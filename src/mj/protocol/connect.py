"""What a client needs to reach a server: the protocol version it speaks and the address forms (§1.1).

Shared by every client of ours (the robot, the browser gateway) and by the table,
which checks the version a client announces.
"""

from __future__ import annotations

from typing import Final

#: The protocol version of the original programs (1.11), which ours speak.
PROTOCOL_VERSION: Final = 1110
#: The version mj's own clients announce in ``Connect``: 1110's messages and mj's extension
#: (docs/protocol-extension.md: other rule systems than classical). The major version is the
#: same, so any server accepts it; a table that plays another rule system admits only
#: clients that announce at least this.
EXTENDED_PROTOCOL_VERSION: Final = 1900


def split_address(address: str) -> tuple[str, int] | str:
    """``(host, port)`` for a TCP address, the path for a Unix socket (§1.1)."""
    if ":" not in address:
        if not address:
            raise ValueError("empty server address")
        return address
    host, _, port_text = address.rpartition(":")
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ValueError(f"bad port in server address {address!r}")
    return (host or "localhost", int(port_text))
