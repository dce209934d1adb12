"""The Unix Mah-Jong line protocol, version 1110 (protocol.md §1-§4).

Two layers: :mod:`~mj.protocol.framing` turns bytes into logical lines and back,
and the message modules turn lines into typed messages and back. Controller and
player messages live in separate modules, :mod:`~mj.protocol.cmsg` and
:mod:`~mj.protocol.pmsg`, because two names exist in both directions with different
fields (``ChangeManager``, ``SwapTile``)::

    from mj.protocol import cmsg, pmsg

    line = cmsg.PlayerDiscards(1, tiles.parse("4C"), 1, False).encode()
    message = pmsg.decode("Discard 4C 0")
"""

from mj.protocol import cmsg, pmsg
from mj.protocol.cmsg import CMsg
from mj.protocol.fields import ChowPosition, PlayerOption, ProtocolError
from mj.protocol.framing import LineDecoder, LineTooLong, encode_line
from mj.protocol.pmsg import PMsg

__all__ = [
    "CMsg",
    "ChowPosition",
    "LineDecoder",
    "LineTooLong",
    "PMsg",
    "PlayerOption",
    "ProtocolError",
    "cmsg",
    "encode_line",
    "pmsg",
]
