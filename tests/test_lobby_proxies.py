"""Behind a reverse proxy each client is counted at its own address, and only a trusted proxy says which.

A proxy names the client in ``X-Forwarded-For`` (or ``Forwarded``), appending to
whatever the client sent: so the header is read only from a proxy given with
``mj lobby --trusted-proxy``, from the right, and the first entry that is not a
trusted proxy is the client. From anyone else the header is ignored.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterator
from typing import Any

import pytest
from aiohttp.test_utils import make_mocked_request
from multidict import CIMultiDict

from mj.lobby.proxies import FORWARDED, Hop, TrustedProxies, parse_address
from mj.lobby.tables import MAX_WAITING_PER_CLIENT

PROXY = TrustedProxies((ipaddress.ip_network("10.0.0.0/8"), ipaddress.ip_network("::1/128")))


def hops(*nodes: str) -> list[Hop]:
    """Entries as a header lists them, left to right (the client's first): right-most first, as read."""
    return [Hop(node) for node in reversed(nodes)]


def test_a_trusted_proxys_header_names_the_right_most_address_that_is_not_itself_a_trusted_proxy() -> None:
    assert PROXY.client("10.0.0.1", hops("192.0.2.7")) == ("192.0.2.7", None)
    # what the client wrote itself stands left of what the proxies appended: never reached
    assert PROXY.client("10.0.0.1", hops("1.1.1.1", "192.0.2.7", "10.0.0.2")) == ("192.0.2.7", None)
    assert PROXY.client("::1", hops("2001:db8::5")) == ("2001:db8::5", None)


def test_a_header_from_a_peer_that_is_not_a_trusted_proxy_is_ignored() -> None:
    assert PROXY.client("192.0.2.7", hops("1.1.1.1")) == ("192.0.2.7", None)
    assert TrustedProxies().client("10.0.0.1", hops("1.1.1.1")) == ("10.0.0.1", None), "none trusted by default"


def test_a_header_from_a_peer_that_is_not_a_trusted_proxy_is_not_even_parsed() -> None:
    def unread() -> Iterator[Hop]:
        raise AssertionError("the header of a peer that is not a trusted proxy was read")
        yield  # a generator: raises when the first entry is asked for

    assert PROXY.client("192.0.2.7", unread()) == ("192.0.2.7", None)
    assert PROXY.client("garbage", unread()) == ("garbage", None)


def test_a_node_the_proxy_cannot_name_leaves_the_last_address_it_could() -> None:
    assert PROXY.client("10.0.0.1", hops("unknown")) == ("10.0.0.1", None)
    assert PROXY.client("10.0.0.1", hops("192.0.2.7", "garbage", "10.0.0.3")) == ("10.0.0.3", None)
    assert PROXY.client("10.0.0.1", []) == ("10.0.0.1", None), "a trusted proxy's own request"


def test_entries_with_ports_brackets_and_mapped_addresses_are_read_as_addresses() -> None:
    assert parse_address("192.0.2.7:4711") == ipaddress.ip_address("192.0.2.7")
    assert parse_address('"[2001:db8::1]:4711"') == ipaddress.ip_address("2001:db8::1")
    assert parse_address("::ffff:10.0.0.1") == ipaddress.ip_address("10.0.0.1")
    assert parse_address("_hidden") is None and parse_address("") is None


def test_the_scheme_is_the_one_given_with_the_client_entry_in_either_header() -> None:
    forwarded = TrustedProxies(PROXY.networks, FORWARDED)
    request = make_mocked_request(
        "GET", "/", headers=CIMultiDict(Forwarded='for=1.1.1.1;proto=http, for="[2001:db8::1]:80";proto=https')
    )
    assert forwarded.client("10.0.0.1", forwarded.hops(request)) == ("2001:db8::1", "https")
    headers = CIMultiDict([("X-Forwarded-For", "1.1.1.1, 192.0.2.7"), ("X-Forwarded-Proto", "https")])
    request = make_mocked_request("GET", "/", headers=headers)
    assert PROXY.client("10.0.0.1", PROXY.hops(request)) == ("192.0.2.7", "https")
    assert forwarded.client("10.0.0.1", forwarded.hops(request)) == ("10.0.0.1", None), "not the header named"


def _forwarded_for(lobby: Any, address: str) -> Any:
    """A browser of the lobby reached through a proxy on this machine that names it at ``address``."""
    browser = lobby.browser()
    browser.sends = {"X-Forwarded-For": f"203.0.113.9, {address}", "X-Forwarded-Proto": "https"}
    return browser


@pytest.mark.parametrize("trusted", [True, False])
def test_behind_a_trusted_proxy_each_client_has_its_own_share_of_waiting_tables(
    start_lobby: Any, trusted: bool
) -> None:
    lobby = start_lobby("sqlite:///lobby.db", *(["--trusted-proxy", "127.0.0.0/8"] if trusted else []))
    ann, bob = _forwarded_for(lobby, "192.0.2.1"), _forwarded_for(lobby, "192.0.2.2")
    made = [ann.call("POST", "/api/tables", {"robots": 0})[0] for _ in range(MAX_WAITING_PER_CLIENT + 1)]
    assert made == [201] * MAX_WAITING_PER_CLIENT + [429]
    # through a trusted proxy Bob is another client; else the header is a forgery, and he is Ann's address
    assert bob.call("POST", "/api/tables", {"robots": 0})[0] == (201 if trusted else 429)


def test_a_client_of_a_trusted_https_proxy_gets_a_secure_cookie(start_lobby: Any) -> None:
    lobby = start_lobby("sqlite:///lobby.db", "--trusted-proxy", "127.0.0.1")
    ann = _forwarded_for(lobby, "192.0.2.1")
    assert ann.call("POST", "/api/register", {"name": "Ann", "password": "a good password"})[0] == 201
    assert "Secure" in ann.headers["Set-Cookie"]


def test_a_trusted_proxy_that_is_not_an_address_is_a_usage_error(start_lobby: Any) -> None:
    with pytest.raises(AssertionError, match=r"--trusted-proxy: .*10\.0\.0\.1/8"):
        start_lobby("sqlite:///lobby.db", "--trusted-proxy", "10.0.0.1/8")
