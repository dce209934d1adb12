"""Only the lobby's own pages open its WebSockets: a seat's (``/ws``) and a spectator's (``.../watch``) alike.

Another site's page must not watch tables (taking the visitor's spectator places)
or drive a seat through a visitor's browser: a WebSocket whose ``Origin`` is not
the lobby itself is refused (403), by the one rule of :mod:`mj.web.hosts`. Behind
a trusted HTTPS proxy the lobby's own pages are ``https://NAME``.
"""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import pytest

SOCKETS = ("ws", "api/tables/1/watch")


async def _status(url: str, headers: dict[str, str]) -> int:
    """101 if the WebSocket opens with these headers, else the refusal's status."""
    async with aiohttp.ClientSession() as http:
        try:
            async with http.ws_connect(url, headers=headers):
                return 101
        except aiohttp.WSServerHandshakeError as exc:
            return exc.status


def _statuses(lobby: Any, headers: dict[str, str]) -> list[int]:
    return [asyncio.run(_status(lobby.url + path, headers)) for path in SOCKETS]


def test_a_websocket_of_the_lobby_from_another_sites_page_is_refused(start_lobby: Any) -> None:
    lobby = start_lobby("sqlite:///lobby.db")
    assert lobby.call("POST", "/api/tables", {"robots": 0})[0] == 201
    here = urlsplit(lobby.url).netloc
    assert _statuses(lobby, {"Origin": "http://evil.example"}) == [403, 403]
    assert _statuses(lobby, {"Origin": "http://localhost:1"}) == [403, 403], "another site on this machine"
    assert _statuses(lobby, {"Origin": f"http://{here}"}) == [101, 101]
    assert _statuses(lobby, {}) == [101, 101], "no Origin: a program, not a page"


@pytest.mark.parametrize("trusted", [True, False])
def test_behind_a_trusted_https_proxy_the_lobbys_https_pages_open_its_websockets(
    start_lobby: Any, trusted: bool
) -> None:
    proxy = ["--trusted-proxy", "127.0.0.1"] if trusted else []
    lobby = start_lobby("sqlite:///lobby.db", "--allow-host", "club.example", *proxy)
    assert lobby.call("POST", "/api/tables", {"robots": 0})[0] == 201
    page = {"Host": "club.example", "Origin": "https://club.example", "X-Forwarded-For": "192.0.2.1"}
    # the proxy says the page was served over https: believed from a trusted proxy only
    assert _statuses(lobby, {**page, "X-Forwarded-Proto": "https"}) == ([101, 101] if trusted else [403, 403])
    assert _statuses(lobby, page) == [403, 403], "an http request from an https page's origin"
