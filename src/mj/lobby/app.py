"""The lobby's web application: the JSON API, the lobby page, and the browser gateway's seats."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Final

from aiohttp import web

from mj.lobby.accounts import Accounts
from mj.lobby.api import Api
from mj.lobby.fanout import Fanout
from mj.lobby.live import Live
from mj.lobby.proxies import TrustedProxies
from mj.lobby.seats import PAGE, LobbyGateway
from mj.lobby.store import Lease, Store
from mj.lobby.tables import Tables
from mj.web.hosts import LOOPBACK_ONLY, HostPolicy

#: Largest request body accepted (a table request, a login).
MAX_BODY: Final = 64 * 1024
STATIC: Final = Path(__file__).parent / "static"
#: The lobby's pages: the lobby itself, a table watched, a stored game replayed, an account's history.
PAGES: Final = {"/": "index.html", "/watch": "watch.html", "/replay": "replay.html", "/player": "player.html"}


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
        middlewares = [self.proxies.middleware(), self.gateway.served_hosts_only(), _headers]
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
