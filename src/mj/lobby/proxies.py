"""Who a request comes from when the lobby sits behind a reverse proxy (``mj lobby --trusted-proxy``).

Behind a proxy every connection comes from the proxy's address, so each limit per
address (:mod:`mj.lobby.limits`, the login attempts) would be one limit for the
whole club. The proxy names the client in a header it appends to, ``X-Forwarded-For``
or RFC 7239's ``Forwarded``: what stands left of its own entry is whatever the
client sent. So the header is read only when the connection comes from a proxy the
lobby was told to trust, and from the right: an entry that is itself a trusted proxy
hands over to the one before it, and the first that is not is the client. Without
``--trusted-proxy`` nothing is read, since anyone can send these headers. The
scheme the client used (``X-Forwarded-Proto``, or ``proto=``) is taken the same
way, so that a lobby behind an HTTPS proxy knows its pages are served over HTTPS
(secure cookies, the origin of its own pages).

aiohttp-remotes was considered: its strict middlewares refuse (400) every request
not arriving through the configured chain of proxies, exact hop count included, and
its relaxed and filtered ones believe the headers from any peer; none reads them
only from a trusted peer and ignores them otherwise.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:  # aiohttp is imported where the middleware is made: `mj`'s options are read without it
    from aiohttp import web
    from aiohttp.typedefs import Middleware

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Handler = Callable[["web.Request"], Awaitable["web.StreamResponse"]]

X_FORWARDED_FOR: Final = "X-Forwarded-For"
FORWARDED: Final = "Forwarded"
#: The headers a proxy may name its client in (``mj lobby --proxy-header``).
HEADERS: Final = (X_FORWARDED_FOR, FORWARDED)
#: The schemes a proxy may say its client used.
_SCHEMES: Final = frozenset(("http", "https"))


def parse_address(text: str) -> Address | None:
    """A proxy's entry for a node as an IP address (``1.2.3.4``, ``1.2.3.4:80``, ``[2001:db8::1]:80``);
    None for anything else (``unknown``, an obfuscated ``_name``, garbage). An IPv4-mapped IPv6 address is
    its IPv4 address."""
    text = text.strip().strip('"')
    if text.startswith("["):
        text = text[1:].partition("]")[0]
    elif text.count(":") == 1:
        text = text.partition(":")[0]
    try:
        address = ipaddress.ip_address(text.partition("%")[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def parse_network(text: str) -> Network:
    """An address or network given to ``--trusted-proxy``; ValueError saying why for anything else."""
    return ipaddress.ip_network(text.strip())


@dataclass(frozen=True, slots=True)
class Hop:
    """One entry of a proxy header, right-most first: the node it names, and the scheme it says was used."""

    node: str
    scheme: str | None = None


@dataclass(frozen=True, slots=True)
class TrustedProxies:
    """The proxies whose header naming the client is believed, and which header that is."""

    networks: tuple[Network, ...] = ()
    header: str = X_FORWARDED_FOR

    def trusts(self, address: Address | None) -> bool:
        return address is not None and any(address in network for network in self.networks)

    def client(self, peer: str, hops: Iterable[Hop]) -> tuple[str, str | None]:
        """The client's address and the scheme it used (None: as the connection's), from the connection's
        ``peer`` and the header's ``hops`` (right-most first), which are read only if the peer is a trusted proxy."""
        if not self.trusts(parse_address(peer)):
            return peer, None
        address, scheme = peer, None
        for hop in hops:
            found = parse_address(hop.node)
            if found is None:
                break  # a node the proxy cannot name: the client is the last one it could
            address, scheme = str(found), hop.scheme
            if not self.trusts(found):
                break
        return address, scheme

    def hops(self, request: web.Request) -> Iterator[Hop]:
        """The header's entries, right-most first (several header lines read as one list, in order); the
        headers are parsed when the first entry is asked for, so never for a peer whose word is not taken."""
        if self.header == FORWARDED:
            yield from (
                Hop(element.get("for", ""), _scheme(element.get("proto"))) for element in request.forwarded[::-1]
            )
            return
        nodes = [node for line in request.headers.getall(X_FORWARDED_FOR, ()) for node in line.split(",")][::-1]
        schemes = [_scheme(s) for line in request.headers.getall("X-Forwarded-Proto", ()) for s in line.split(",")]
        schemes.reverse()  # a proxy may overwrite it rather than append: then its one value says for every hop
        for i, node in enumerate(nodes):
            yield Hop(node, schemes[i] if i < len(schemes) else schemes[-1] if schemes else None)

    def middleware(self) -> Middleware:
        """The middleware giving each request its client's address (and scheme) when a trusted proxy sent it."""
        from aiohttp import web

        @web.middleware
        async def behind_proxies(request: web.Request, handler: Handler) -> web.StreamResponse:
            peer = request.remote or ""
            address, scheme = self.client(peer, self.hops(request))
            if (address, scheme) == (peer, None):
                return await handler(request)  # every client that is not a proxy (the common case): as it came
            return await handler(request.clone(remote=address, scheme=scheme or request.scheme))

        return behind_proxies


def _scheme(text: str | None) -> str | None:
    value = (text or "").strip().lower()
    return value if value in _SCHEMES else None
