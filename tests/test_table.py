"""A table answers bad or untimely lines with the original's errors and changes nothing."""

from __future__ import annotations

import copy

from mj.protocol import cmsg as C
from mj.table import Table, TableSettings, save_file_name


def seated_table(**settings: object) -> Table:
    table = Table(TableSettings(timeout=0, seed=7, **settings))  # type: ignore[arg-type]
    for connection in range(1, 5):
        table.receive(connection, f"Connect 1110 0 Robot{connection}")
    return table


def texts(deliveries: list) -> list[tuple[int, str]]:  # type: ignore[type-arg]
    return [(d.connection, d.message.encode()) for d in deliveries]


def ready_all(table: Table) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    for connection in range(1, 5):
        out += texts(table.receive(connection, "Ready"))
    return out


def test_the_fourth_player_starts_the_game_with_the_seeded_first_hand() -> None:
    table = seated_table()
    assert table.game is not None and table.active
    out = ready_all(table)
    assert (1, "NewHand 1 2 14") in out
    # seed 7 deals 9C RD 4D 8B first to East, as the original does
    east_sees = [text for connection, text in out if connection == 1]
    assert east_sees[east_sees.index("NewHand 1 2 14") + 1 :][:4] == [
        f"PlayerDraws 1 {t}" for t in ("9C", "RD", "4D", "8B")
    ]
    assert (2, "PlayerDraws 1 --") in out  # the others see blanks


def test_a_line_that_cannot_be_decoded_gets_a_protocol_error_with_its_line_number() -> None:
    table = seated_table()
    assert texts(table.receive(2, "discard 7B 0")) == [(2, "Error 2 Protocol error")]
    assert texts(table.receive(2, "Discard 7B")) == [(2, "Error 3 Protocol error")]
    assert texts(table.receive(2, "")) == [(2, "Error 4 Protocol error")]


def test_messages_before_connect_are_refused_without_harm() -> None:
    table = Table(TableSettings())
    assert texts(table.receive(1, "SetPlayerOption InfoTiles 0 1 ")) == [(1, "Error 1 You must connect first")]
    assert texts(table.receive(1, "Connect 1110 0 P1")) == [(1, "ConnectReply 1110 1 ")]


def test_play_before_the_game_is_active_is_refused() -> None:
    table = Table(TableSettings())
    table.receive(1, "Connect 1110 0 P1")
    assert texts(table.receive(1, "Discard 7B 0")) == [(1, "Error 2 Game not active")]


def test_an_illegal_move_is_refused_and_changes_nothing() -> None:
    table = seated_table()
    ready_all(table)
    game = table.game
    assert game is not None
    before = copy.deepcopy((game.seats, game.wall, game.phase, game.serial, game.history))
    # South may not discard during East's declaring turn
    assert texts(table.receive(2, "Discard 9C 0")) == [(2, "Error 3 Can't discard now")]
    assert texts(table.receive(2, "DeclareSpecial --")) == [(2, "Error 4 Can only declare in turn")]
    assert texts(table.receive(1, "DeclareSpecial 3F")) == [(1, "Error 3 Don't have that special")]
    assert (game.seats, game.wall, game.phase, game.serial, game.history) == before


def test_option_errors_use_the_original_texts() -> None:
    table = seated_table()
    assert texts(table.receive(1, "SetGameOption NumRounds 3")) == [
        (1, "Error 2 Number of rounds must be 1, 2 or a multiple of 4")
    ]
    assert texts(table.receive(1, "SetGameOption Bogus 1")) == [(1, "Error 3 Trying to set unknown option")]
    # A number of thousands of digits is read as C reads it, saturated; it once stopped the server.
    huge = "9" * 5000
    assert texts(table.receive(1, f"SetGameOption NumRounds {huge}")) == [
        (1, "Error 4 Number of rounds must be 1, 2 or a multiple of 4")
    ]
    assert texts(table.receive(1, f"SetGameOption Timeout {huge}")) == [
        (1, "Error 5 Timeout must be between 0 and 3600")
    ]
    out = texts(table.receive(1, "SetGameOption NumRounds 2"))
    assert out[0] == (1, "GameOption 1 NumRounds nat 0 1 2 number of rounds to play")
    assert len(out) == 4


def test_an_option_the_option_file_disables_is_played_but_not_listed_nor_set() -> None:
    """As the original: listed only on ``ListGameOptions 1``, still queried, its value still played (no flowers)."""
    disabled = C.decode("GameOption 0 Flowers bool 1020 0 0 play using flowers and seasons")
    assert isinstance(disabled, C.GameOption)
    table = Table(TableSettings(timeout=0, seed=7, option_entries=(disabled.entry,)))
    for connection in range(1, 4):
        table.receive(connection, f"Connect 1110 0 Robot{connection}")
    started = [text for connection, text in texts(table.receive(4, "Connect 1110 0 Robot4")) if connection == 4]
    listed = [text.split()[2] for text in started if text.startswith("GameOption 0 ")]
    assert "Flowers" not in listed and listed[-1] == "End" and len(listed) == 23
    assert "GameOption 0 Flowers bool 1020 0 0 play using flowers and seasons" not in [
        text for _, text in texts(table.receive(1, "ListGameOptions 0"))
    ]
    assert (1, "GameOption 0 Flowers bool 1020 0 0 play using flowers and seasons") in texts(
        table.receive(1, "ListGameOptions 1")
    )
    assert texts(table.receive(1, "QueryGameOption Flowers")) == [
        (1, "GameOption 0 Flowers bool 1020 0 0 play using flowers and seasons")
    ]
    assert texts(table.receive(1, "SetGameOption Flowers 1")) == [(1, "Error 5 Option not available in this game")]
    dealt = [text.split()[2] for connection, text in ready_all(table) if text.startswith(f"PlayerDraws {connection} ")]
    assert len(dealt) == 53 and not any(code[1] in "FS" for code in dealt)


def test_save_state_writes_the_table_as_a_save_file() -> None:
    saved: dict[str, str] = {}
    table = seated_table()
    table.saver = lambda name, text: saved.setdefault(name or "game.mjs", text) and (name or "game.mjs")
    ready_all(table)
    out = texts(table.receive(3, "SaveState ../../etc/evil.txt"))
    assert out[0] == (1, "StateSaved 3 evil.txt.mjs")
    lines = saved["evil.txt.mjs"].split("\r\n")
    assert lines[:5] == ["Player 1 Robot1", "Player 2 Robot2", "Player 3 Robot3", "Player 4 Robot4", lines[4]]
    assert lines[4].startswith("Game 1 2 3 4 E 0 1 0 0 0 0 1110 0")
    assert lines[5] == "# CompletedRounds      0"
    assert lines[30].startswith("Wall 9C RD 4D 8B")
    assert lines[31] == "NewHand 1 2 14"


def test_save_state_without_a_saver_reports_failure() -> None:
    table = seated_table()
    assert texts(table.receive(1, "SaveState x")) == [(1, "Error 2 Unable to save state")]


def test_save_file_names_lose_their_directories_and_gain_mjs() -> None:
    assert save_file_name("../../etc/evil.txt") == "evil.txt.mjs"
    assert save_file_name("a\\b\\game.mjs") == "game.mjs"


def test_a_received_message_decodes_as_the_wire_form() -> None:
    assert C.decode("StateSaved 3 scC.mjs") == C.StateSaved(3, "scC.mjs")
