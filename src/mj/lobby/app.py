"""The lobby's web application: the JSON API, the lobby page, and the browser gateway's seats."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Final

from aiohttp import web

from mj.lobby.accounts import Accounts
from mj.lobby.api import Api
from mj.lobby.store import Store
from mj.lobby.tables import Tables

#: Largest request body accepted (a table request, a login).
MAX_BODY: Final = 64 * 1024


class Lobby:
    """One lobby process: its store, its tables and the application serving them."""

    def __init__(self, store: Store, require_login: bool = False, robot_delay: float = 0.0) -> None:
        self.store = store
        self._socket_dir = tempfile.TemporaryDirectory(prefix="mj-lobby-")
        self.tables = Tables(store, Path(self._socket_dir.name), robot_delay)
        self.require_login = require_login
        self.accounts = Accounts(store)
        self.api = Api(store, self.tables, self.accounts, require_login)

    def application(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY)
        self.api.add_routes(app)
        app.on_startup.append(self._on_startup)
        app.on_shutdown.append(self._on_shutdown)
        return app

    async def _on_startup(self, _app: web.Application) -> None:
        await self.tables.resume()

    async def _on_shutdown(self, _app: web.Application) -> None:
        await self.tables.close()
        self._socket_dir.cleanup()
