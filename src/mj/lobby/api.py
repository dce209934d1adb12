"""The lobby's JSON API, under ``/api``: what the lobby page uses, and anyone's scripts.

Reading needs no account. Creating a table needs one only where the lobby runs with
``--require-login``. Every fault is answered ``{"error": TEXT}`` with a 4xx status
and changes nothing.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any, Final

from aiohttp import web

from mj.lobby import export, history, replayer, rules
from mj.lobby.accounts import COOKIE, SESSION_DAYS, AccountError, Accounts, TooManyAttempts, Who
from mj.lobby.limits import address, client
from mj.lobby.store import Store
from mj.lobby.tables import TableRequestError, Tables, TooManyTables, parse_request
from mj.web.serving import BODY_SECONDS

Json = dict[str, Any]
#: Tables and games listed at most.
LIST_LIMIT: Final = 500


def error(status: type[web.HTTPException], text: str) -> web.HTTPException:
    return status(text=json.dumps({"error": text}), content_type="application/json")


def path_id(request: web.Request, key: str) -> int:
    """The number in the path: ASCII digits alone (``str.isdigit`` takes ``²``, which ``int`` refuses)."""
    text = request.match_info[key]
    if not (text.isascii() and text.isdigit()) or len(text) > 12:
        raise error(web.HTTPNotFound, f"no such {key}: {text!r}")
    return int(text)


class Api:
    def __init__(self, store: Store, tables: Tables, accounts: Accounts, require_login: bool) -> None:
        self.store = store
        self.tables = tables
        self.accounts = accounts
        self.require_login = require_login

    def identify(self, request: web.Request) -> Who | None:
        """The account logged in on this browser, if any."""
        return self.accounts.who(request.cookies.get(COOKIE))

    def add_routes(self, app: web.Application) -> None:
        app.router.add_post("/api/register", self.register)
        app.router.add_post("/api/login", self.login)
        app.router.add_post("/api/logout", self.logout)
        app.router.add_get("/api/me", self.me)
        app.router.add_get("/api/rules", self.rule_systems)
        app.router.add_get("/api/tables", self.list_tables)
        app.router.add_post("/api/tables", self.create_table)
        app.router.add_get("/api/tables/{table}", self.one_table)
        app.router.add_get("/api/games", self.list_games)
        app.router.add_get("/api/games/{game}", self.one_game)
        app.router.add_get("/api/games/{game}/log", self.game_log)
        app.router.add_get("/api/games/{game}/hands/{hand}", self.hand_replay)
        app.router.add_get("/api/players/{name}", self.one_player)

    async def rule_systems(self, _request: web.Request) -> web.Response:
        return web.json_response(
            {"rules": list(rules.playable()), "default": rules.DEFAULT, "systems": rules.systems()}
        )

    async def list_tables(self, _request: web.Request) -> web.Response:
        rows = self.store.tables(newest=LIST_LIMIT)
        return web.json_response(self.tables.describe_all(rows))

    async def one_table(self, request: web.Request) -> web.Response:
        row = self.store.table(path_id(request, "table"))
        if row is None:
            raise error(web.HTTPNotFound, "no such table")
        return web.json_response(self.tables.describe(row))

    async def create_table(self, request: web.Request) -> web.Response:
        account = self.identify(request)
        if self.require_login and account is None:
            raise error(web.HTTPUnauthorized, "log in to create a table")
        data = await body(request)
        try:
            asked = parse_request(data)
            runner = await self.tables.create(asked, None if account is None else account.id, client(request, account))
        except TooManyTables as exc:
            raise error(web.HTTPTooManyRequests, str(exc)) from None
        except TableRequestError as exc:
            raise error(web.HTTPBadRequest, str(exc)) from None
        return web.json_response({"table": runner.row.id}, status=201)

    async def list_games(self, _request: web.Request) -> web.Response:
        return web.json_response([export.summary(game, hands) for game, hands in self.store.games(LIST_LIMIT)])

    async def _read(self, work: Callable[[], str]) -> str:
        """``work``, which reads a whole game back (seconds for a game of a hundred rounds, and anyone may ask
        again and again), in the store's reader thread, one at a time: the event loop does not wait for it."""
        return await asyncio.wrap_future(self.store.reader.submit(work))

    async def one_game(self, request: web.Request) -> web.Response:
        game = self.store.game(path_id(request, "game"))
        if game is None:
            raise error(web.HTTPNotFound, "no such game")
        text = await self._read(lambda: json.dumps(export.document(self.store, game)))
        response = web.Response(text=text, content_type="application/json")
        if request.query.get("download"):
            response.headers["Content-Disposition"] = f'attachment; filename="mj-game-{game.id}.json"'
        return response

    async def game_log(self, request: web.Request) -> web.Response:
        game = self.store.game(path_id(request, "game"))
        if game is None:
            raise error(web.HTTPNotFound, "no such game")
        text = await self._read(lambda: export.log_text(self.store, game))
        response = web.Response(text=text, content_type="text/plain", charset="latin-1")
        response.headers["Content-Disposition"] = f'attachment; filename="mj-game-{game.id}.log"'
        return response

    async def hand_replay(self, request: web.Request) -> web.Response:
        game = self.store.game(path_id(request, "game"))
        if game is None:
            raise error(web.HTTPNotFound, "no such game")
        hand = path_id(request, "hand")
        try:
            text = await self._read(lambda: json.dumps(replayer.hand_frames(self.store, game, hand)))
        except replayer.ReplayUnavailable as exc:
            raise error(web.HTTPNotFound, str(exc)) from None
        return web.Response(text=text, content_type="application/json")

    async def one_player(self, request: web.Request) -> web.Response:
        found = history.player(self.store, request.match_info["name"][:100])
        if found is None:
            raise error(web.HTTPNotFound, "no such player")
        return web.json_response(found)

    # ------------------------------------------------------------------ accounts

    async def register(self, request: web.Request) -> web.Response:
        data = await body(request)
        try:
            who, token = await self.accounts.register(address(request), data.get("name"), data.get("password"))
        except TooManyAttempts as exc:
            raise error(web.HTTPTooManyRequests, str(exc)) from None
        except AccountError as exc:
            raise error(web.HTTPBadRequest, str(exc)) from None
        return _logged_in(request, who, token, status=201)

    async def login(self, request: web.Request) -> web.Response:
        data = await body(request)
        try:
            who, token = await self.accounts.login(address(request), data.get("name"), data.get("password"))
        except TooManyAttempts as exc:
            raise error(web.HTTPTooManyRequests, str(exc)) from None
        except AccountError as exc:
            raise error(web.HTTPUnauthorized, str(exc)) from None
        return _logged_in(request, who, token)

    async def logout(self, request: web.Request) -> web.Response:
        token = request.cookies.get(COOKIE)
        if token:
            self.accounts.logout(token)
        response = web.json_response({"account": None})
        response.del_cookie(COOKIE, path="/")
        return response

    async def me(self, request: web.Request) -> web.Response:
        who = self.identify(request)
        return web.json_response({"account": None if who is None else {"id": who.id, "name": who.name}})


async def body(request: web.Request, seconds: float = BODY_SECONDS) -> Json:
    """The request's JSON object, all arrived within ``seconds`` (else a 408, not a handler held for ever),
    every text in it encodable (a 400 naming the field otherwise)."""
    try:
        async with asyncio.timeout(seconds):
            data = await request.json()
    except TimeoutError:
        raise error(web.HTTPRequestTimeout, f"the request's body did not arrive within {seconds:g} s") from None
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise error(web.HTTPBadRequest, "expected a JSON object") from None
    if not isinstance(data, dict):
        raise error(web.HTTPBadRequest, "expected a JSON object")
    for field, value in data.items():
        if not _encodable(field) or not _encodable(value):
            raise error(web.HTTPBadRequest, f"{ascii(field)[1:-1]}: not text (it holds a lone UTF-16 surrogate)")
    return data


def _encodable(value: object) -> bool:
    """Whether every string in ``value`` can be written as UTF-8: JSON's ``"\\ud800"`` is a string no
    database or password hash takes."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            try:
                item.encode()
            except UnicodeEncodeError:
                return False
        elif isinstance(item, dict):
            pending.extend(item)
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return True


def _logged_in(request: web.Request, who: Who, token: str, status: int = 200) -> web.Response:
    response = web.json_response({"account": {"id": who.id, "name": who.name}}, status=status)
    keep_cookie(request, response, COOKIE, token)
    return response


def keep_cookie(request: web.Request, response: web.Response, name: str, token: str) -> None:
    """A secret the browser keeps for :data:`SESSION_DAYS` and sends this lobby alone: no script of the page reads
    it, and another site's page has it sent only by a link followed from there (SameSite=Lax)."""
    response.set_cookie(name, token, max_age=SESSION_DAYS * 86400, path="/", httponly=True, samesite="Lax",
                        secure=request.secure)  # fmt: skip
