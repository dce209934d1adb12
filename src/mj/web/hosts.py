"""Which ``Host`` and ``Origin`` headers the gateway answers: a defence against DNS rebinding.

A hostile web page can make a visitor's browser send requests to the gateway on
127.0.0.1 under a name of its own (``evil.example`` made to resolve to 127.0.0.1):
the browser then treats the gateway as part of ``evil.example``, and comparing
``Origin`` with ``Host`` proves nothing, since the attacker chose both. So the
gateway answers only the names it is served under: the address it bound, the
loopback names, and those given with ``--allow-host``. An IP address as the Host is
no rebinding (the browser's origin is then that address), so a gateway bound to
every interface also answers its machine's name and the IP addresses of this
machine, and only those: a page served from another machine's address on the same
port number is a foreign origin. Which addresses are this machine's is asked of
the kernel when a request names one (bind and connect a UDP socket to it), so an
address the machine gains or loses later is answered or refused accordingly.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from aiohttp import web

#: The names of this machine's loopback interface, always served.
LOOPBACK: Final = frozenset(("localhost", "127.0.0.1", "::1"))
#: Bind addresses meaning "every interface".
_WILDCARDS: Final = frozenset(("", "0.0.0.0", "::"))
#: An origin as browsers send it: the scheme, ``://``, the host (an IPv6 address in brackets, else a name or an
#: IPv4 address) and the port where it is not the scheme's default; no user, path, query or fragment.
_ORIGIN: Final = re.compile(r"(https?)://(\[[0-9A-Fa-f:.]+\]|[^\[\]@:/?#\\\s]+)(?::([0-9]{1,5}))?")


def host_name(header: str) -> str:
    """The name of a ``Host`` header or of an origin's authority, without port, brackets or final dot, lower case."""
    text = header.strip().lower()
    if text.startswith("["):
        return text[1:].partition("]")[0]
    if text.count(":") == 1:
        text = text.partition(":")[0]
    return text.rstrip(".")


def is_local_address(name: str) -> bool:
    """``name`` is an IP address of this machine: loopback, or one its interfaces hold.

    The kernel lets a socket bind only to an address of this machine (or to a
    broadcast or multicast one), and a datagram socket connect to a broadcast
    address only if it asked to: so a bind and a connect that both succeed name
    one of our unicast addresses, with no list of interfaces to keep up to date.
    """
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if address.is_loopback:
        return True
    if address.is_unspecified or address.is_multicast:
        return False
    family = socket.AF_INET6 if address.version == 6 else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.bind((str(address), 0))
            probe.connect((str(address), 9))  # a datagram socket's connect sends nothing
    except OSError:
        return False
    return True


@dataclass(frozen=True, slots=True)
class HostPolicy:
    """The names a gateway answers to (see the module's docstring)."""

    names: frozenset[str]
    #: Bound to every interface: each IP address of this machine is a name of ours.
    any_address: bool = False

    @classmethod
    def for_bind(cls, bound_host: str, extra: Iterable[str] = ()) -> HostPolicy:
        """The policy of a gateway bound to ``bound_host``, also answering the names in ``extra``."""
        names = set(LOOPBACK) | {host_name(name) for name in extra if name.strip()}
        wildcard = bound_host in _WILDCARDS
        if wildcard:
            names.add(host_name(socket.gethostname()))
        else:
            names.add(host_name(bound_host))
        return cls(frozenset(names), wildcard)

    def allows_host(self, header: str | None) -> bool:
        """``Host`` names one of our names (HTTP/1.1 requires the header; none is refused)."""
        if not header:
            return False
        name = host_name(header)
        return name in self.names or (self.any_address and is_local_address(name))

    def allows_origin(self, origin: str | None, host_header: str | None, scheme: str = "http") -> bool:
        """A browser's ``Origin`` is this very site: one of our names, on the port the request came to
        (a ``Host`` without a port: the default port of the request's ``scheme``, https behind a TLS proxy).

        No ``Origin`` at all is a program, not a page (browsers always send one with a WebSocket).
        """
        if origin is None:
            return True
        parsed = _origin(origin)
        if parsed is None:
            return False  # "null" (a file or a sandboxed frame) included
        origin_scheme, authority = parsed
        return self.allows_host(authority) and _port(authority, origin_scheme) == _port(host_header or "", scheme)


#: Loopback names only: a gateway bound to localhost with no --allow-host.
LOOPBACK_ONLY: Final = HostPolicy(LOOPBACK)


def _origin(origin: str) -> tuple[str, str] | None:
    """The scheme and the ``host[:port]`` of a well-formed http or https ``origin``; None for any other: a page
    the server served has one, while a lenient reading found a name in a malformed one (``http://[::1`` read
    as ``::1`` on port 80)."""
    parts = _ORIGIN.fullmatch(origin)
    if parts is None:
        return None
    scheme, host, port = parts.groups()
    if port is not None and not 0 < int(port) <= 65535:
        return None
    if host.startswith("["):
        try:
            ipaddress.IPv6Address(host[1:-1])
        except ValueError:
            return None
    return scheme, origin.partition("://")[2]


def _port(authority: str, scheme: str) -> str:
    """The port of ``host[:port]`` (the scheme's default when absent)."""
    text = authority.strip().lower()
    after = text.rpartition("]")[2] if text.startswith("[") else text
    if after.count(":") == 1:
        return after.partition(":")[2]
    return "443" if scheme == "https" else "80"


def refuse_foreign_origin(hosts: HostPolicy, request: web.Request) -> None:
    """Refuse (403) a WebSocket opened by another site's page (:meth:`HostPolicy.allows_origin`): it must not drive
    a seat, start processes, or watch tables on a visitor's behalf, through the visitor's browser."""
    if not hosts.allows_origin(request.headers.get("Origin"), request.headers.get("Host"), request.scheme):
        raise web.HTTPForbidden(text="cross-origin WebSocket refused")
