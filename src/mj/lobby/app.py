"""The lobby's web application: the JSON API, the lobby page, and the browser gateway's seats."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Final
from urllib.parse import urlsplit

from aiohttp import web
from aiohttp.typedefs import Middleware

from mj.lobby.accounts import Accounts
from mj.lobby.api import Api, error
from mj.lobby.fanout import Fanout
from mj.lobby.live import Live
from mj.lobby.proxies import TrustedProxies
from mj.lobby.seats import PAGE, LobbyGateway
from mj.lobby.store import Lease, Store
from mj.lobby.tables import Tables
from mj.quoting import quoted
from mj.web.hosts import LOOPBACK_ONLY, HostPolicy

#: Largest request body accepted (a table request, a login).
MAX_BODY: Final = 64 * 1024
STATIC: Final = Path(__file__).parent / "static"
#: The lobby's pages: the lobby itself, a table watched, a stored game replayed, an account's history.
PAGES: Final = {"/": "index.html", "/watch": "watch.html", "/replay": "replay.html", "/player": "player.html"}
#: The methods that change nothing (RFC 9110's safe methods): any page may ask them.
SAFE_METHODS: Final = frozenset(("GET", "HEAD", "OPTIONS"))


class Lobby:
    """One lobby process: its store, its tables and the application serving them."""

    def __init__(
        self, store: Store, require_login: bool = False, robot_delay: float = 0.0, hosts: HostPolicy = LOOPBACK_ONLY,
        lease: Lease | None = None, proxies: TrustedProxies | None = None,
    ) -> None:  # fmt: skip
        self.store = store
        #: The reverse proxies whose word on the client's address is taken (none: every peer is the client).
        self.proxies = TrustedProxies() if proxies is None else proxies
        self.tables = Tables(store, robot_delay, lease)
        self.require_login = require_login
        self.accounts = Accounts(store)
        self.api = Api(store, self.tables, self.accounts, require_login)
        self.gateway = LobbyGateway(hosts)
        self.fanout = Fanout(store.url)
        self.live = Live(store, self.tables, self.accounts, self.gateway, require_login, self.fanout)

    def application(self) -> web.Application:
        middlewares = [
            self.proxies.middleware(), self.gateway.served_hosts_only(), _same_site_only(self.gateway.config.hosts),
            _headers,
        ]  # fmt: skip
        app = web.Application(client_max_size=MAX_BODY, middlewares=middlewares)
        self.api.add_routes(app)
        self.live.add_routes(app)
        self.gateway.add_routes(app, PAGE)
        for path, page in PAGES.items():
            app.router.add_get(path, _page(page))
        app.router.add_static("/lobby-static", STATIC)
        app.on_startup.append(self._on_startup)
        app.on_shutdown.append(self._on_shutdown)
        return app

    async def _on_startup(self, _app: web.Application) -> None:
        await self.tables.resume()
        self.fanout.start()

    async def _on_shutdown(self, _app: web.Application) -> None:
        await self.fanout.close()
        await self.gateway.close()
        await self.tables.close()


def _page(name: str) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
    async def serve(_request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / name)

    return serve


def _same_site_only(hosts: HostPolicy) -> Middleware:
    """The middleware refusing (403) a request that would change something (log in or out, make a table, sit,
    chat) sent by another site's page through a visitor's browser. The SameSite=Lax cookie keeps the session
    out of such a request, but not the request itself: a guest's chat line or a table counted against the
    visitor's address, a login to the forger's account; and a browser's idea of "same site" is wider than the
    lobby's own origin.

    The page's origin is the ``Origin`` header, else the ``Referer``'s, judged by the rule the WebSockets
    are (:meth:`HostPolicy.allows_origin`), with the scheme a trusted proxy says the page was served over.
    A request naming neither is a program's (curl, a script), never a browser's: browsers send ``Origin``
    with every cross-site POST.
    """

    @web.middleware
    async def same_site_only(
        request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        if request.method not in SAFE_METHODS:
            named, origin = _page_origin(request)
            if not hosts.allows_origin(origin, request.headers.get("Host"), request.scheme):
                raise error(
                    web.HTTPForbidden, f"refused: sent from another site's page ({named}), not from this lobby's"
                )
        return await handler(request)

    return same_site_only


def _page_origin(request: web.Request) -> tuple[str, str | None]:
    """The header naming the page a request comes from, as said in a refusal, and the page's origin (None:
    no page named; ``""``, refused: a ``Referer`` that is no address)."""
    origin = request.headers.get("Origin")
    if origin is not None:
        return f"Origin {quoted(origin)}", origin
    referer = request.headers.get("Referer")
    if referer is None:
        return "", None
    try:
        page = urlsplit(referer)
    except ValueError:  # an IPv6 address with no closing "]"
        return f"Referer {quoted(referer)}", ""
    return f"Referer {quoted(referer)}", f"{page.scheme}://{page.netloc}"


@web.middleware
async def _headers(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """Pages and files change with the package (no caching); no other site may frame the lobby."""
    response = await handler(request)
    with contextlib.suppress(RuntimeError, AttributeError):
        response.headers["Cache-Control"] = "no-cache"
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["X-Content-Type-Options"] = "nosniff"
    return response
