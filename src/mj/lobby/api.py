"""The lobby's JSON API, under ``/api``: what the lobby page uses, and anyone's scripts.

Reading needs no account. Creating a table needs one only where the lobby runs with
``--require-login``. Every fault is answered ``{"error": TEXT}`` with a 4xx status
and changes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any, Final

from aiohttp import web

from mj.lobby import export, rules
from mj.lobby.store import Store
from mj.lobby.tables import TableRequestError, Tables, parse_request

Json = dict[str, Any]
#: Tables and games listed at most.
LIST_LIMIT: Final = 500

#: Who a request comes from (an account id), or None; given by the accounts layer.
Identify = Callable[[web.Request], Awaitable[int | None]]


def error(status: type[web.HTTPException], text: str) -> web.HTTPException:
    return status(text=json.dumps({"error": text}), content_type="application/json")


def _id(request: web.Request, key: str) -> int:
    text = request.match_info[key]
    if not text.isdigit() or len(text) > 12:
        raise error(web.HTTPNotFound, f"no such {key}: {text!r}")
    return int(text)


class Api:
    def __init__(self, store: Store, tables: Tables, identify: Identify, require_login: bool) -> None:
        self.store = store
        self.tables = tables
        self.identify = identify
        self.require_login = require_login

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/api/rules", self.rule_systems)
        app.router.add_get("/api/tables", self.list_tables)
        app.router.add_post("/api/tables", self.create_table)
        app.router.add_get("/api/tables/{table}", self.one_table)
        app.router.add_get("/api/games", self.list_games)
        app.router.add_get("/api/games/{game}", self.one_game)
        app.router.add_get("/api/games/{game}/log", self.game_log)

    async def rule_systems(self, _request: web.Request) -> web.Response:
        return web.json_response({"rules": list(rules.playable()), "default": rules.DEFAULT})

    async def list_tables(self, _request: web.Request) -> web.Response:
        rows = self.store.tables()[-LIST_LIMIT:]
        return web.json_response([self.tables.describe(row) for row in rows])

    async def one_table(self, request: web.Request) -> web.Response:
        row = self.store.table(_id(request, "table"))
        if row is None:
            raise error(web.HTTPNotFound, "no such table")
        return web.json_response(self.tables.describe(row))

    async def create_table(self, request: web.Request) -> web.Response:
        account = await self.identify(request)
        if self.require_login and account is None:
            raise error(web.HTTPUnauthorized, "log in to create a table")
        try:
            data = await request.json()
        except (ValueError, UnicodeDecodeError):
            raise error(web.HTTPBadRequest, "expected a JSON object") from None
        try:
            runner = await self.tables.create(parse_request(data), account)
        except TableRequestError as exc:
            raise error(web.HTTPBadRequest, str(exc)) from None
        return web.json_response({"table": runner.row.id}, status=201)

    async def list_games(self, _request: web.Request) -> web.Response:
        return web.json_response([export.summary(game, hands) for game, hands in self.store.games(LIST_LIMIT)])

    async def one_game(self, request: web.Request) -> web.Response:
        game = self.store.game(_id(request, "game"))
        if game is None:
            raise error(web.HTTPNotFound, "no such game")
        response = web.json_response(export.document(self.store, game))
        if request.query.get("download"):
            response.headers["Content-Disposition"] = f'attachment; filename="mj-game-{game.id}.json"'
        return response

    async def game_log(self, request: web.Request) -> web.Response:
        game = self.store.game(_id(request, "game"))
        if game is None:
            raise error(web.HTTPNotFound, "no such game")
        response = web.Response(text=export.log_text(self.store, game), content_type="text/plain", charset="latin-1")
        response.headers["Content-Disposition"] = f'attachment; filename="mj-game-{game.id}.log"'
        return response
