"""What one client may take of the lobby: chat lines, waiting tables, spectator places.

The lobby serves anybody; without a share per client, one client's chat flood
filled the database and pushed everybody's lines out of ``GET /api/chat``, and one
client's tables or sockets filled the lobby's limits for all. A client is the account
logged in, else the address it connects from (an IPv6 address as its /64, one
site's, as ``mj-server`` counts them; behind a trusted reverse proxy, the address
the proxy names, :mod:`mj.lobby.proxies`).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Final

from aiohttp import web

from mj.lobby.accounts import Who
from mj.server.guard import RateLimit
from mj.server.transport import Limits, site_of

#: Chat lines one client may send at once, then a second: mj-server's own figures for a player.
CHAT_BURST: Final = Limits().chat_burst
CHAT_RATE: Final = Limits().chat_rate
#: Clients whose chat rate is remembered (the longest idle forgotten first: it has its burst back anyway).
MAX_POSTERS: Final = 4096
#: Spectator sockets one address may hold in the whole lobby (a table takes
#: :data:`mj.lobby.live.MAX_SPECTATORS`): one client cannot take a table's places from everybody.
MAX_WATCHING_PER_ADDRESS: Final = 10


def address(request: web.Request) -> str:
    """The address a request comes from, an IPv6 one as its /64 (:func:`mj.server.transport.site_of`)."""
    return site_of(request.remote or "")


def client(request: web.Request, who: Who | None) -> str:
    """The client a request is counted as: its account, else its address."""
    return f"account {who.id}" if who is not None else f"address {address(request)}"


class ChatLimit:
    """Each client's chat lines, lobby and tables together: :data:`CHAT_BURST` at once, then :data:`CHAT_RATE`
    a second."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._buckets: OrderedDict[str, RateLimit] = OrderedDict()

    def take(self, key: str) -> bool:
        """Whether ``key`` may send a line now (it is then counted)."""
        now = self.clock()
        bucket = self._buckets.pop(key, None) or RateLimit(CHAT_BURST, CHAT_RATE, now)
        self._buckets[key] = bucket
        while len(self._buckets) > MAX_POSTERS:
            self._buckets.popitem(last=False)
        return bucket.take(now)
