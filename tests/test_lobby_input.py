"""What a client sends the lobby's API is checked before anything is stored: a fault is a 400 naming the field.

JSON may hold text no database or password hash can take (a lone UTF-16 surrogate,
``"\\ud800"``), and numbers written with words after them; both are refused in one
line, and nothing is stored.
"""

from __future__ import annotations

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
