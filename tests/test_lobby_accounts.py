"""Accounts of ``mj lobby``: register, log in and out, hashed passwords, cookie flags, rate limits, --require-login."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from lobbyproc import Lobby
from mj.lobby.accounts import ATTEMPTS, RateLimit

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
        400, {"error": "the name 'Ann' is taken"})  # fmt: skip
    assert other.call("POST", "/api/register", {"name": "Robot2", "password": PASSWORD})[0] == 400
    assert other.call("POST", "/api/register", {"name": "<b>", "password": PASSWORD})[0] == 400
    assert other.call("POST", "/api/register", {"name": "Bob", "password": "short"})[0] == 400
    assert other.get("/api/me") == {"account": None}


def test_login_attempts_are_limited_even_with_the_right_password_afterwards(start_lobby: Any, tmp_path: Path) -> None:
    lobby: Lobby = start_lobby(_sqlite(tmp_path))
    lobby.call("POST", "/api/register", {"name": "Ann", "password": PASSWORD})
    for _ in range(ATTEMPTS - 1):
        assert lobby.call("POST", "/api/login", {"name": "Ann", "password": "guessing!"})[0] == 401
    status, answer = lobby.call("POST", "/api/login", {"name": "Ann", "password": PASSWORD})
    assert status == 429 and "too many attempts" in answer["error"]


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
