"""Accounts of ``mj lobby``: register, log in and out, hashed passwords, cookie flags, rate limits, --require-login."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import insert, select

from lobbyproc import Lobby
from mj.lobby.accounts import ATTEMPTS, RateLimit
from mj.lobby.models import Account
from mj.lobby.store import MIGRATIONS, Store, now, open_engine

PASSWORD = "correct horse battery"


def _sqlite(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'lobby.db'}"


def test_a_person_registers_is_logged_in_logs_out_and_logs_in_again(start_lobby: Any, tmp_path: Path) -> None:
    lobby: Lobby = start_lobby(_sqlite(tmp_path))
    assert lobby.get("/api/me") == {"account": None}
    status, answer = lobby.call("POST", "/api/register", {"name": "Ann", "password": PASSWORD})
    assert status == 201 and answer["account"]["name"] == "Ann"
    cookie = lobby.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "mj_session=" in cookie
    assert lobby.get("/api/me")["account"]["name"] == "Ann"
    assert lobby.browser().get("/api/me") == {"account": None}
    assert lobby.call("POST", "/api/logout")[0] == 200
    assert lobby.get("/api/me") == {"account": None}
    status, answer = lobby.call("POST", "/api/login", {"name": "Ann", "password": "wrong password"})
    assert (status, answer) == (401, {"error": "wrong name or password"})
    assert lobby.call("POST", "/api/login", {"name": "Ann", "password": PASSWORD})[0] == 200
    assert lobby.get("/api/me")["account"]["name"] == "Ann"


def test_passwords_are_stored_hashed_with_argon2_and_never_in_clear(start_lobby: Any, tmp_path: Path) -> None:
    lobby: Lobby = start_lobby(_sqlite(tmp_path))
    lobby.call("POST", "/api/register", {"name": "Ann", "password": PASSWORD})
    lobby.call("POST", "/api/login", {"name": "Ann", "password": PASSWORD})
    lobby.call("POST", "/api/login", {"name": "Ann", "password": PASSWORD + "x"})
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("lobby.db*"))
    assert b"$argon2id$" in stored
    for text in (PASSWORD, PASSWORD + "x"):
        assert text.encode() not in stored
        assert text.encode() not in lobby.output.read_bytes()


def test_names_are_checked_and_taken_only_once(start_lobby: Any, tmp_path: Path) -> None:
    lobby: Lobby = start_lobby(_sqlite(tmp_path))
    assert lobby.call("POST", "/api/register", {"name": "Ann", "password": PASSWORD})[0] == 201
    other = lobby.browser()
    assert other.call("POST", "/api/register", {"name": "Ann", "password": PASSWORD}) == (
        400, {"error": "the name 'Ann' is taken (or one that differs only in case)"})  # fmt: skip
    assert other.call("POST", "/api/register", {"name": "Robot2", "password": PASSWORD})[0] == 400
    assert other.call("POST", "/api/register", {"name": "<b>", "password": PASSWORD})[0] == 400
    assert other.call("POST", "/api/register", {"name": "Bob", "password": "short"})[0] == 400
    assert other.get("/api/me") == {"account": None}


def test_names_that_look_alike_are_one_name_for_accounts_guests_and_the_seats_of_a_table(
    start_lobby: Any, database_url: str
) -> None:
    """``ann``, ``ANN`` and a full-width ``Ａnn`` read as ``Ann``, and a Cyrillic ``А`` looks like a Latin one:
    each made another account, or a guest's seat, under a name others took for Ann's."""
    lobby: Lobby = start_lobby(database_url)
    assert lobby.call("POST", "/api/register", {"name": "Ann", "password": PASSWORD})[0] == 201
    other = lobby.browser()
    for name in ("ann", "ANN", "\uff21nn"):
        assert other.call("POST", "/api/register", {"name": name, "password": PASSWORD})[0] == 400, name
        assert other.call("POST", "/api/chat", {"name": name, "text": "hi"}) == (
            400, {"error": "'Ann' is an account's name: log in to use it" if name == "\uff21nn" else
                  f"{name!r} is an account's name: log in to use it"})  # fmt: skip
    assert other.call("POST", "/api/register", {"name": "\u0410nn", "password": PASSWORD}) == (
        400, {"error": "a name's letters are of one alphabet, not Cyrillic and Latin"})  # fmt: skip
    assert other.call("POST", "/api/register", {"name": "\u0410\u043d\u043d\u0430", "password": PASSWORD})[0] == 201
    assert other.get("/api/me")["account"]["name"] == "\u0410\u043d\u043d\u0430"
    assert lobby.browser().call("POST", "/api/login", {"name": "\uff21nn", "password": PASSWORD})[0] == 200
    # at a table, a guest may not sit under a name that differs from a seated one's in case alone
    status, made = lobby.call("POST", "/api/tables", {"robots": 2, "level": 1})
    assert status == 201
    bea = lobby.browser()
    assert bea.call("POST", f"/api/tables/{made['table']}/sit", {"name": "Bea"})[0] == 200
    assert lobby.browser().call("POST", f"/api/tables/{made['table']}/sit", {"name": "BEA"}) == (
        403, {"error": "Bea sits at this table: choose a name that differs from theirs by more than case"})  # fmt: skip
    assert [s["name"] for s in lobby.get(f"/api/tables/{made['table']}")["seats"]] == ["Robot1", "Robot2", "Bea"]


def test_accounts_whose_names_differed_in_case_alone_keep_them_and_the_oldest_the_name(database_url: str) -> None:
    """Made before names were one whatever their case: the upgrade keeps both accounts, the oldest holding the name."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    engine = open_engine(database_url)
    with engine.begin() as connection:  # the schema as version 0006 left it, with three accounts
        config.attributes["connection"] = connection
        command.upgrade(config, "0006")
        made = [{"name": name, "password_hash": "x", "created_at": now()} for name in ("Ann", "ann", "Bob")]
        connection.execute(insert(Account), made)
    engine.dispose()
    store = Store(database_url)
    try:
        with store.session() as s:
            keys = [tuple(row) for row in s.execute(select(Account.name, Account.name_key).order_by(Account.id))]
    finally:
        store.close()
    assert keys == [("Ann", "ann"), ("ann", None), ("Bob", "bob")]


def test_login_attempts_are_limited_even_with_the_right_password_afterwards(start_lobby: Any, tmp_path: Path) -> None:
    lobby: Lobby = start_lobby(_sqlite(tmp_path))
    lobby.call("POST", "/api/register", {"name": "Ann", "password": PASSWORD})
    for _ in range(ATTEMPTS - 1):
        assert lobby.call("POST", "/api/login", {"name": "Ann", "password": "guessing!"})[0] == 401
    status, answer = lobby.call("POST", "/api/login", {"name": "Ann", "password": PASSWORD})
    assert status == 429 and "too many attempts" in answer["error"]


def test_a_login_under_a_name_no_account_can_have_is_refused_uncounted_and_unkept(
    start_lobby: Any, tmp_path: Path
) -> None:
    """Each attempt's name was a key the rate limit kept, however long (up to the 64 KiB of a body), up to 10,000 of
    them: 640 MB held."""
    lobby: Lobby = start_lobby(_sqlite(tmp_path))
    lobby.call("POST", "/api/register", {"name": "Ann", "password": PASSWORD})
    for _ in range(ATTEMPTS):
        answer = lobby.call("POST", "/api/login", {"name": "A" * 60_000, "password": "guessing!"})
        assert answer == (401, {"error": "wrong name or password"})
    assert lobby.call("POST", "/api/login", {"name": "Ann", "password": PASSWORD})[0] == 200


def test_the_rate_limit_forgets_attempts_older_than_its_window() -> None:
    limit = RateLimit(attempts=2, window=0.001)
    for _ in range(5):
        assert limit.allow("client:x")
        time.sleep(0.002)
    strict = RateLimit(attempts=2, window=60.0)
    assert [strict.allow("client:x", "name:ann") for _ in range(3)] == [True, True, False]
    assert strict.allow("client:y", "name:bob")


def test_with_require_login_only_people_logged_in_create_tables(start_lobby: Any, tmp_path: Path) -> None:
    lobby: Lobby = start_lobby(_sqlite(tmp_path), "--require-login")
    request = {"robots": 4, "level": 1, "options": {"NumRounds": 1}}
    assert lobby.call("POST", "/api/tables", request) == (401, {"error": "log in to create a table"})
    assert lobby.get("/api/tables") == []
    lobby.call("POST", "/api/register", {"name": "Ann", "password": PASSWORD})
    status, answer = lobby.call("POST", "/api/tables", request)
    assert status == 201
    assert lobby.browser().get(f"/api/tables/{answer['table']}")["id"] == answer["table"]
