"""What a hostile or careless client cannot do to the table: ids that collide or overflow, password probing."""

from __future__ import annotations

from pathlib import Path

import pytest

from mj.protocol import cmsg as C
from mj.protocol.fields import ChowPosition
from mj.replay import read_entries, table_for
from mj.table import (
    BAD_PLAYER_ID,
    BAD_SAVE_NAME,
    MAX_CHAT,
    MAX_PLAYER_ID,
    MAX_SAVE_NAMES,
    TOO_FAST,
    Table,
    TableSettings,
)
from test_sessions import play_until
from test_table import texts


def connect_three(table: Table) -> None:
    for connection in range(1, 4):
        table.receive(connection, f"Connect 1110 0 Robot{connection}")


@pytest.mark.parametrize("player", [-1, -2, MAX_PLAYER_ID + 1, 2**63, 10**30])
def test_a_connect_with_an_id_that_is_negative_or_beyond_32_bits_is_refused(player: int) -> None:
    table = Table(TableSettings(timeout=0, seed=7))
    assert texts(table.receive(1, f"Connect 1110 {player} Mallory")) == [(1, f"ConnectReply 1110 0 {BAD_PLAYER_ID}")]
    assert 1 in table.closing and not table.players


def test_id_0_still_asks_for_a_new_id_and_the_largest_id_is_accepted() -> None:
    table = Table(TableSettings(timeout=0, seed=7))
    assert texts(table.receive(1, "Connect 1110 0 Alice")) == [(1, "ConnectReply 1110 1 ")]
    assert texts(table.receive(2, f"Connect 1110 {MAX_PLAYER_ID} Bob"))[0] == (2, f"ConnectReply 1110 {MAX_PLAYER_ID} ")


def test_no_manager_cannot_be_bypassed_by_taking_the_no_manager_id() -> None:
    table = Table(TableSettings(timeout=0, seed=7, no_manager=True))
    connect_three(table)
    assert texts(table.receive(4, "Connect 1110 -1 Mallory")) == [(4, f"ConnectReply 1110 0 {BAD_PLAYER_ID}")]
    table.close(4)
    table.receive(5, "Connect 1110 0 Robot4")
    assert table.game is not None and all(p.id > 0 for p in table.players)
    out = table.receive(1, "SetGameOption NumRounds 2")
    assert [d.message for d in out if isinstance(d.message, C.GameOption)] == [], "nobody manages the game"


def saving_table() -> tuple[Table, dict[str, str]]:
    saved: dict[str, str] = {}
    table = Table(TableSettings(timeout=0, seed=7))
    for connection in range(1, 5):
        table.receive(connection, f"Connect 1110 0 Robot{connection}")

    def save(name: str, text: str) -> str:
        name = name or "default.mjs"
        saved[name] = text
        return name

    table.saver = save
    return table, saved


@pytest.mark.parametrize(
    "name", ["bad\x0bname", "caf\xe9", "a b", "x" * 61, ".hidden", "semi;colon", "quote'", "star*"]
)
def test_a_save_name_of_unsafe_characters_hidden_or_too_long_is_refused_and_nothing_saved(name: str) -> None:
    table, saved = saving_table()
    out = texts(table.receive(1, f"SaveState {name}"))
    assert out == [(1, f"Error 2 {BAD_SAVE_NAME}")] and not saved


def test_a_game_is_saved_under_a_bounded_number_of_names_and_saving_again_replaces() -> None:
    table, saved = saving_table()
    for number in range(MAX_SAVE_NAMES):
        assert texts(table.receive(1, f"SaveState game{number}"))[0][1] == f"StateSaved 1 game{number}.mjs"
    refused = texts(table.receive(1, "SaveState one-more"))
    assert refused == [
        (1, f"Error {MAX_SAVE_NAMES + 2} A game is saved under at most {MAX_SAVE_NAMES} names; reuse one")
    ]
    assert texts(table.receive(2, "SaveState game3"))[0][1] == "StateSaved 2 game3.mjs", "an old name is reused"
    assert texts(table.receive(2, "SaveState"))[0][1] == "StateSaved 2 game3.mjs", "no name: the last one again"
    assert len(saved) == MAX_SAVE_NAMES


def test_a_chat_line_beyond_the_limit_is_refused_and_one_at_the_limit_passes() -> None:
    table, _ = saving_table()
    assert texts(table.receive(1, "SendMessage 0 " + "x" * (MAX_CHAT + 1))) == [
        (1, f"Error 2 Message too long (at most {MAX_CHAT} characters)")
    ]
    assert len(table.receive(1, "SendMessage 0 " + "x" * MAX_CHAT)) == 4


def test_a_line_refused_for_its_rate_is_counted_and_answered() -> None:
    table, _ = saving_table()
    assert texts(table.refuse(3)) == [(3, f"Error 2 {TOO_FAST}")]
    assert texts(table.receive(3, "Bogus")) == [(3, "Error 3 Protocol error")]


def test_info_tiles_asked_for_before_the_game_exists_is_honoured_once_it_does() -> None:
    table = Table(TableSettings(timeout=0, seed=7))
    table.receive(1, "Connect 1110 0 Alice")
    assert texts(table.receive(1, "SetPlayerOption InfoTiles 0 1 "))[0] == (1, "PlayerOptionSet InfoTiles 1 1 ")
    for connection in range(2, 5):
        table.receive(connection, f"Connect 1110 0 Robot{connection}")
    out = []
    for connection in range(1, 5):
        out += texts(table.receive(connection, "Ready"))
    infos = [text for connection, text in out if text.startswith("InfoTiles ")]
    assert infos and all(connection == 1 for connection, text in out if text.startswith("InfoTiles "))
    assert infos[0].startswith("InfoTiles 1 ")


def test_a_won_anypos_chow_private_to_its_claimer_is_not_replayed_to_another_player_who_rejoins() -> None:
    entries = read_entries(Path(__file__).parent / "data" / "reference" / "scenario-B-server.log.gz")
    table = table_for(entries)
    play_until(table, entries, lambda m: isinstance(m, C.PlayerChows) and m.cpos is ChowPosition.ANYPOS)
    table.close(2)
    rejoined = texts(table.receive(9, "Connect 1110 2 P2"))
    assert any(c == 9 and t.startswith("PlayerDiscards ") for c, t in rejoined), "the hand so far is replayed"
    assert not [t for c, t in rejoined if c == 9 and t.startswith("PlayerChows ") and t.endswith("AnyPos")]
