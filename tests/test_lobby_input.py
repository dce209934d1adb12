"""What a client sends the lobby's API is checked before anything is stored: a fault is a 400 naming the field.

JSON may hold text no database or password hash can take (a lone UTF-16 surrogate,
``"\\ud800"``), and numbers written with words after them; both are refused in one
line, and nothing is stored.
"""

from __future__ import annotations

import urllib.parse
from pathlib import Path
from typing import Any

import pytest

#: A JSON string of one lone surrogate, as a client may send it (valid JSON, not encodable as UTF-8).
LONE = '"\\ud800"'


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/api/chat", '{"name": "Ann", "text": ' + LONE + "}", "text"),
        ("/api/tables/1/chat", '{"name": "Ann", "text": ' + LONE + "}", "text"),
        ("/api/chat", '{"name": ' + LONE + ', "text": "hello"}', "name"),
        ("/api/register", '{"name": "Ann", "password": "secret-' + LONE[1:] + "}", "password"),
        ("/api/login", '{"name": "Ann", "password": "secret-' + LONE[1:] + "}", "password"),
        ("/api/tables", '{"options": {"NumRounds": ' + LONE + "}}", "options"),
    ],
)
def test_text_holding_a_lone_surrogate_is_refused_naming_the_field_and_nothing_is_stored(
    start_lobby: Any, database_url: str, path: str, body: str, field: str
) -> None:
    lobby = start_lobby(database_url)
    assert lobby.call("POST", "/api/tables", {"robots": 3, "level": 1})[0] == 201
    status, answer = lobby.call("POST", path, raw=body.encode())
    assert status == 400, answer
    assert answer["error"].startswith(f"{field}: ") and "\n" not in answer["error"]
    assert lobby.get("/api/chat") == [] and lobby.get("/api/tables/1/chat") == []
    assert [t["id"] for t in lobby.get("/api/tables")] == [1]
    assert lobby.call("POST", "/api/login", {"name": "Ann", "password": "secret-password"})[0] == 401
    assert lobby.call("POST", "/api/chat", {"name": "Ann", "text": "still here"})[0] == 201


@pytest.mark.parametrize(
    "value", ["1\nGameOption x", "4 rounds please", "1abc", " 4", "4.0", "+4", "", 4.5, None, [4], "9" * 5000]
)
def test_a_number_option_is_a_json_number_or_a_string_of_digits_else_a_400_naming_it(
    start_lobby: Any, tmp_path: Path, value: object
) -> None:
    lobby = start_lobby(f"sqlite:///{tmp_path / 'lobby.db'}")
    status, answer = lobby.call("POST", "/api/tables", {"options": {"NumRounds": value}})
    assert status == 400, answer
    assert answer["error"].startswith("options: NumRounds: ") and "\n" not in answer["error"]
    assert len(answer["error"]) < 200
    assert lobby.get("/api/tables") == []


def test_a_number_option_written_in_digits_is_stored_as_the_number(start_lobby: Any, tmp_path: Path) -> None:
    lobby = start_lobby(f"sqlite:///{tmp_path / 'lobby.db'}")
    for value in ("2", 4):
        status, answer = lobby.call("POST", "/api/tables", {"options": {"NumRounds": value, "Flowers": False}})
        assert status == 201, answer
    assert [t["options"] for t in lobby.get("/api/tables")] == [
        {"NumRounds": 2, "Flowers": 0},
        {"NumRounds": 4, "Flowers": 0},
    ]


@pytest.mark.parametrize(
    "path", ["/api/tables/²", "/api/tables/١", "/api/games/²", "/api/games/1/hands/²", "/api/tables/²/sit"]
)
def test_a_number_in_the_path_is_ascii_digits_else_a_404(start_lobby: Any, tmp_path: Path, path: str) -> None:
    lobby = start_lobby(f"sqlite:///{tmp_path / 'lobby.db'}")
    assert lobby.call("POST", "/api/tables", {"robots": 3, "level": 1})[0] == 201
    method = "POST" if path.endswith("/sit") else "GET"
    status, answer = lobby.call(method, urllib.parse.quote(path), {"name": "Ann"} if method == "POST" else None)
    assert status == 404, answer  # ² is a digit to str.isdigit, not to int; ١ (Arabic-Indic one) is no table 1
    assert answer["error"].startswith("no such ") and "\n" not in answer["error"]
    assert "Traceback" not in lobby.output.read_text()
    assert lobby.get("/api/tables/1")["id"] == 1
