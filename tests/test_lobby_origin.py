"""Only the lobby's own pages open its WebSockets (a seat's, ``/ws``, and a spectator's, ``.../watch``) and
send it requests that change anything (log in or out, register, make a table, sit, seat a robot, chat).

Another site's page must not watch tables (taking the visitor's spectator places),
drive a seat, or act in the lobby through a visitor's browser: a WebSocket whose
``Origin`` is not the lobby itself is refused (403), and so is a POST whose
``Origin`` (or, without one, ``Referer``) is not, by the one rule of
:mod:`mj.web.hosts`, changing nothing. A request naming no page is a program's.
Behind a trusted HTTPS proxy the lobby's own pages are ``https://NAME``.
"""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import pytest

from lobbyproc import Json, Lobby

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


def _posts(name: str, table: int) -> list[tuple[str, Json]]:
    """Every request that changes something, as ``name``'s browser sends it, at ``table``."""
    return [
        ("/api/register", {"name": name, "password": "a long password"}),
        ("/api/logout", None),
        ("/api/login", {"name": name, "password": "a long password"}),
        ("/api/tables", {"robots": 0}),
        (f"/api/tables/{table}/sit", {"name": name}),
        (f"/api/tables/{table}/robot", None),
        (f"/api/tables/{table}/chat", {"text": "hello"}),
        ("/api/chat", {"text": "hello"}),
    ]


def _seen(browser: Lobby) -> Json:
    """All a POST could change, as this browser reads it."""
    paths = ("/api/me", "/api/tables", "/api/chat", "/api/tables/1/chat")
    return {path: browser.get(path) for path in paths} | {"Eve": browser.call("GET", "/api/players/Eve")[0]}


def test_a_post_from_another_sites_page_is_refused_and_changes_nothing(start_lobby: Any) -> None:
    lobby = start_lobby("sqlite:///lobby.db")
    visitor = lobby.browser()
    assert visitor.call("POST", "/api/register", {"name": "Ann", "password": "a long password"})[0] == 201
    assert visitor.call("POST", "/api/tables", {"robots": 0}) == (201, {"table": 1})
    before = _seen(visitor)
    for page in ("http://evil.example", "http://localhost:1", "null"):
        for header, value in (("Origin", page), ("Referer", f"{page}/form?x=1")):
            visitor.sends = {header: value}
            refused = (
                403,
                {"error": f"refused: sent from another site's page ({header} {value!r}), not from this lobby's"},
            )
            assert [visitor.call("POST", path, body) for path, body in _posts("Eve", 1)] == [refused] * 8
    visitor.sends = {"Referer": "http://[::1/"}
    assert visitor.call("POST", "/api/chat", {"text": "hello"})[0] == 403, "a Referer that is no address"
    visitor.sends = {"Origin": "http://" + "e" * 4000 + ".example"}
    status, answer = visitor.call("POST", "/api/chat", {"text": "hello"})
    assert status == 403 and "(4015 characters)" in answer["error"] and len(answer["error"]) < 200
    visitor.sends = {}
    assert _seen(visitor) == before, "still logged in, no account, table, seat, robot or chat line more"


@pytest.mark.parametrize("page", ["Origin", "Referer", None])
def test_a_post_from_the_lobbys_own_page_or_from_no_page_is_answered(start_lobby: Any, page: str | None) -> None:
    lobby = start_lobby("sqlite:///lobby.db")
    assert lobby.call("POST", "/api/tables", {"robots": 0})[0] == 201
    here = f"http://{urlsplit(lobby.url).netloc}"
    visitor = lobby.browser()
    visitor.sends = {} if page is None else {page: here if page == "Origin" else f"{here}/?table=1"}
    statuses = [visitor.call("POST", path, body)[0] for path, body in _posts("Ann", 1)]
    assert statuses == [201, 200, 200, 201, 200, 201, 201, 201]


@pytest.mark.parametrize("trusted", [True, False])
def test_behind_a_trusted_https_proxy_the_lobbys_https_pages_post_to_it(start_lobby: Any, trusted: bool) -> None:
    proxy = ["--trusted-proxy", "127.0.0.1"] if trusted else []
    lobby = start_lobby("sqlite:///lobby.db", "--allow-host", "club.example", *proxy)
    visitor = lobby.browser()
    through = {"Host": "club.example", "X-Forwarded-For": "192.0.2.1", "X-Forwarded-Proto": "https"}

    def status(origin: str) -> int:
        visitor.sends = {**through, "Origin": origin}
        return visitor.call("POST", "/api/tables", {"robots": 0})[0]

    # the proxy says the page was served over https: believed from a trusted proxy only
    assert status("https://club.example") == (201 if trusted else 403)
    assert status("http://club.example") == (403 if trusted else 201), "the scheme the request came by is the page's"
    assert status("https://evil.example") == 403
    assert len(lobby.get("/api/tables")) == 1
