"""Players leaving and coming back, saved and loaded games, passwords: the table's sessions (§6.5, §10).

The games here are real ones: a table set up as a recorded original server was, fed
the lines its robots sent, stopped at some point of the game.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from mj.logfile import LogEntry
from mj.protocol import cmsg as C
from mj.replay import read_entries, table_for
from mj.rules.options import OptionEntry, OptionType
from mj.savefile import parse_save
from mj.table import Delivery, LoadError, SeededWalls, Table, TableSettings
from mj.tiles import GlibcRandom

REFERENCE = Path(__file__).parent / "data" / "reference"
SEED7 = read_entries(REFERENCE / "game-seed7-default-flowers.log.gz")


def texts(deliveries: list[Delivery]) -> list[tuple[int, str]]:
    return [(d.connection, d.message.encode()) for d in deliveries]


def play_until(table: Table, entries: list[LogEntry], stop: Callable[[C.CMsg], bool]) -> list[LogEntry]:
    """Feed the log's received lines until the table sends a message ``stop`` accepts; return the rest."""
    received = [e for e in entries if e.direction == "<" and e.text is not None]
    for index, entry in enumerate(received):
        assert entry.text is not None
        out = table.receive(entry.connection, entry.text)
        if any(stop(d.message) for d in out):
            return received[index + 1 :]
    raise AssertionError("the log ended first")


def mid_hand(**settings: object) -> tuple[Table, list[LogEntry]]:
    """Seed 7, first hand, just after the fifth discard: a claim window is open."""
    table = table_for(SEED7, **settings)
    rest = play_until(table, SEED7, lambda m: isinstance(m, C.PlayerDiscards) and m.discard == 5)
    return table, rest


def between_hands(**settings: object) -> tuple[Table, list[LogEntry]]:
    table = table_for(SEED7, **settings)
    rest = play_until(table, SEED7, lambda m: isinstance(m, C.Settlement))
    return table, rest


# ---------------------------------------------------------------- losing a player


def test_a_lost_player_suspends_the_game_and_play_is_refused_unlogged() -> None:
    table, _ = mid_hand()
    assert texts(table.close(2)) == [(c, "StopPlay Lost connection to player 2; game suspended") for c in (1, 3, 4)]
    refused = table.receive(3, "NoClaim 5")
    assert texts(refused) == [(3, f"Error {table.connections[3].seqno} Game not active")]
    assert not refused[0].logged  # the original leaves these out of its log
    assert table.exit_status is None


def test_the_news_of_a_lost_east_is_logged_as_easts_copy_and_sent_to_the_others() -> None:
    """The original logs a broadcast as East's copy, under East's connection though East has gone."""
    table, _ = mid_hand()
    out = table.close(1)
    assert [(d.connection, d.logged) for d in out] == [(1, True), (2, False), (3, False), (4, False)]
    assert {d.message.encode() for d in out} == {"StopPlay Lost connection to player 1; game suspended"}


def test_a_rejoining_player_gets_the_hand_so_far_without_anyone_elses_tiles() -> None:
    table, _ = mid_hand()
    table.close(2)
    table.open(7)
    out = texts(table.receive(7, "Connect 1110 2 Robot2b"))
    assert out[0] == (7, "ConnectReply 1110 2 ")
    assert (1, "Player 2 Robot2b") in out  # the others learn the new name
    mine = [text for connection, text in out if connection == 7]
    assert mine[4].startswith("Game ") and mine[5].startswith("GameOption 0 Timeout ")
    history = mine[mine.index("GameOption 0 End bool 0 1 1 end of option list") + 1 :]
    assert history[0].startswith("NewHand ")
    draws = [t.split() for t in history if t.startswith("PlayerDraws ")]
    assert all((tile == "--") == (who != "2") for _, who, tile in draws)
    assert not [t for t in history if t.startswith("PlayerDoesntClaim ") and t.split()[1] != "2"]
    assert (7, "Pause 0 0 to continue play") in out and (1, "StartPlay 0") in out
    assert table.active


def test_a_rejoin_must_name_a_seated_player_who_is_not_connected() -> None:
    table, _ = mid_hand()
    table.close(2)
    assert texts(table.receive(7, "Connect 1110 9 Intruder")) == [
        (7, "ConnectReply 1110 0 Can't find you in the resumed game")
    ]
    assert texts(table.receive(7, "Connect 1110 3 Robot3")) == [
        (7, "ConnectReply 1110 0 Your id is already connected elsewhere")
    ]
    assert texts(table.receive(7, "Connect 1110 0 Robot2"))[0] == (7, "ConnectReply 1110 2 ")  # by name


def test_without_id_required_a_stranger_takes_the_empty_seat() -> None:
    table, _ = mid_hand(no_id_required=True)
    table.close(3)
    assert texts(table.receive(7, "Connect 1110 0 Stranger"))[0] == (7, "ConnectReply 1110 3 ")


def test_request_reconnect_stops_play_and_the_client_connects_again_on_the_same_line() -> None:
    table, _ = mid_hand()
    out = texts(table.receive(4, "RequestReconnect"))
    assert (1, "StopPlay Player Robot4 requested reconnect - please wait...") in out
    assert out[-1] == (4, "Reconnect")
    assert not table.active
    assert texts(table.receive(4, "Connect 1110 4 Robot4"))[0] == (4, "ConnectReply 1110 4 ")
    assert table.active


def test_without_history_a_mid_hand_rejoin_ends_the_server() -> None:
    table, _ = mid_hand(nohist=True)
    table.close(2)
    out = texts(table.receive(7, "Connect 1110 2 Robot2"))
    assert (1, "Error 0 No history kept: resumption not supported") in out
    assert table.exit_status == 1


# ---------------------------------------------------------------- --end-on-disconnect / --exit-on-disconnect


def test_end_on_disconnect_during_a_hand_washes_it_out_and_ends_the_game_with_a_penalty() -> None:
    table, _ = mid_hand(end_on_disconnect=True, disconnect_penalties=(100, 50, 25))
    assert texts(table.close(2)) == [
        (1, "WashOut Lost a player"), (3, "WashOut Lost a player"), (4, "WashOut Lost a player"),
        (1, "Message 0 0 Lost connection to player 2 - ending game"),
        (3, "Message 0 0 Lost connection to player 2 - ending game"),
        (4, "Message 0 0 Lost connection to player 2 - ending game"),
        (1, "GameOver"), (3, "GameOver"), (4, "GameOver"),
    ]  # fmt: skip
    assert texts(table.open(9)) == [(9, "Error 0 Game shutting down; no reconnect allowed")]
    assert 9 in table.closing
    assert table.final_scores() == (
        "Game over. Final scores:\n"
        "    2 (Robot2              )   -100\n"
        "    3 (Robot3              )      0\n"
        "    4 (Robot4              )      0\n"
        "    1 (Robot1              )      0\n"
    )
    table.close(1)
    assert table.exit_status == 0


def test_end_on_disconnect_between_hands_ends_now_with_the_after_hand_penalty() -> None:
    table, _ = between_hands(end_on_disconnect=True, disconnect_penalties=(100, 50, 25))
    game = table.game
    assert game is not None
    scores = dict(game.scores)
    out = texts(table.close(3))
    assert (1, "Message 0 0 Lost connection to player 3 - game will end now") in out
    assert (1, "GameOver") in out
    final = table.final_scores()
    assert final is not None and f"    3 (Robot3              )  {scores[3] - 50:5d}" in final


def test_exit_on_disconnect_quits_and_save_on_exit_writes_a_whole_loadable_file() -> None:
    files: dict[str, str] = {}

    def saver(name: str, text: str) -> str:
        files[name or "game-default.mjs"] = text
        return name or "game-default.mjs"

    table, _ = mid_hand(exit_on_disconnect=True, save_on_exit=True)
    table.saver = saver
    assert (1, "StopPlay Lost connection to player 2quitting") in texts(table.close(2))
    assert table.exit_status == 0
    saved = parse_save(files["game-default.mjs"])
    assert saved.wall is not None and saved.completed_rounds == 0
    Table(TableSettings()).load(files["game-default.mjs"])


def test_after_game_over_the_first_disconnect_ends_the_server() -> None:
    table = table_for(SEED7)
    play_until(table, SEED7, lambda m: isinstance(m, C.GameOver))
    table.close(3)
    assert table.exit_status == 0
    assert (table.final_scores() or "").startswith("Game over. Final scores:\n")


# ---------------------------------------------------------------- saving and loading


def test_a_saved_game_loads_and_plays_on_exactly_as_the_original_table() -> None:
    files: dict[str, str] = {}
    table, rest = mid_hand()
    table.saver = lambda name, text: files.setdefault(name, text) and name
    table.receive(1, "SaveState midhand")
    loaded = Table(TableSettings(timeout=0))
    loaded.load(files["midhand.mjs"])
    assert loaded.game is not None and not loaded.active
    for connection in (1, 2, 3, 4):
        loaded.receive(connection, f"Connect 1110 0 Robot{connection}")  # matched by name
    for connection in (1, 2, 3, 4):
        loaded.receive(connection, "Ready")
    for connection in (1, 2, 3, 4):
        table.receive(connection, "Ready")  # no pause in the original table: these are ignored
    for entry in rest:
        assert entry.text is not None
        expected = texts(table.receive(entry.connection, entry.text))
        assert texts(loaded.receive(entry.connection, entry.text)) == expected, entry.text
        if any(text.startswith("Settlement ") or text.startswith("WashOut ") for _, text in expected):
            break
    else:
        raise AssertionError("the hand never ended")


def test_completed_rounds_are_saved_and_read_back() -> None:
    table, _ = mid_hand()
    table.saver = lambda name, _: name
    game = table.game
    assert game is not None
    game.completed_rounds = 2
    assert parse_save(table.save_text()).completed_rounds == 2
    loaded = Table(TableSettings())
    loaded.load(table.save_text())
    assert loaded.game is not None and loaded.game.completed_rounds == 2


@pytest.mark.parametrize(
    ("change", "error"),
    [
        (lambda t: t.replace("PlayerDiscards 1 ", "PlayerDiscards 1 X", 1), "line"),
        (lambda t: t.split("Wall ")[0].replace("Game ", "Gmae ", 1), "not a controller message"),
        (lambda t: t.replace("Player 2 Robot2\r\n", "", 1), "do not match"),
        (lambda t: t.replace("PlayerDraws 2 ", "PlayerDraws 3 ", 1), "does not follow"),
        (lambda t: "", "no Game line"),
    ],
    ids=["bad tile", "unknown message", "missing player", "draw out of turn", "empty"],
)
def test_a_corrupt_save_file_is_refused_with_the_reason(change: Callable[[str], str], error: str) -> None:
    table, _ = mid_hand()
    loaded = Table(TableSettings())
    with pytest.raises(LoadError, match=error):
        loaded.load(change(table.save_text()))
    assert loaded.game is None


def test_hand_history_files_are_the_originals_byte_for_byte() -> None:
    entries = read_entries(REFERENCE / "game-seed31-handhistory.log.gz")
    files: dict[str, str] = {}
    table = table_for(entries, saver=lambda name, text: files.setdefault(name, text) and name, hand_history=True)
    table.walls = SeededWalls(GlibcRandom(31), None, blank_first=False)  # the log's --seed: whole walls
    play_until(table, entries, lambda m: isinstance(m, C.Settlement) and len(files) == 2)
    for name in ("hand-01.mjs", "hand-02.mjs"):
        original = (REFERENCE / f"hand-history-seed31-{name}").read_bytes().decode("latin-1")
        assert files[name] == original
    assert parse_save(files["hand-02.mjs"]).game.hands_as_east == 1


# ---------------------------------------------------------------- passwords


def auth_table() -> Table:
    return Table(TableSettings(auth_basic={1: "secret", 2: "", 3: "x", 4: "y"}))


def test_a_password_is_asked_for_and_checked() -> None:
    table = auth_table()
    out = table.receive(1, "Connect 1110 0 Alice")
    assert texts(out) == [(1, "AuthReqd basic ")] and not out[0].logged
    assert texts(table.receive(1, "AuthInfo basic secret")) == [(1, "ConnectReply 1110 1 ")]


def test_a_wrong_password_is_refused_and_the_connection_closed() -> None:
    table = auth_table()
    table.receive(1, "Connect 1110 0 Alice")
    assert texts(table.receive(1, "AuthInfo basic guess")) == [(1, "ConnectReply 1110 0 Authentication failure")]
    assert 1 in table.closing and not table.players


def test_ids_not_listed_are_asked_for_a_password_and_refused_as_a_wrong_one_and_empty_passwords_need_none() -> None:
    table = auth_table()
    assert texts(table.receive(1, "Connect 1110 7 Mallory")) == [(1, "AuthReqd basic ")]
    assert texts(table.receive(1, "AuthInfo basic secret")) == [(1, "ConnectReply 1110 0 Authentication failure")]
    assert 1 in table.closing and table.auth_failures == [(1, 7)]
    assert texts(table.receive(2, "Connect 1110 2 Bob")) == [(2, "ConnectReply 1110 2 ")]


def test_an_unknown_id_and_a_wrong_password_get_the_same_answers() -> None:
    answers = []
    for connect in ("Connect 1110 7 Mallory", "Connect 1110 1 Mallory"):
        table = auth_table()
        answers.append(texts(table.receive(1, connect)) + texts(table.receive(1, "AuthInfo basic guess")))
    assert answers[0] == answers[1]


# ---------------------------------------------------------------- timers


def test_the_claim_timer_runs_for_an_open_discard_and_closes_it() -> None:
    table, _ = mid_hand(timeout=15)
    game = table.game
    assert game is not None
    game.options.set_value("Timeout", 15)
    timer = table.claim_timer()
    assert timer is not None and timer[1] == 15.0
    out = texts(table.timeout())
    assert [text for _, text in out if text.startswith("PlayerDoesntClaim ")]
    assert all(text.endswith(" 1") for _, text in out if text.startswith("PlayerDoesntClaim "))


def test_an_option_files_timeout_is_the_claim_timer_announced() -> None:
    """The original announces an option file's Timeout yet keeps timing claims by ``--timeout``
    (protocol.md §16 item 10, "Fix or keep"): ours times them by the value every player is told."""
    from_file = OptionEntry("Timeout", OptionType.NAT, 0, True, 30, "time limit for claims")
    table, _ = mid_hand(timeout=15, option_entries=(from_file,))
    game = table.game
    assert game is not None and game.options["Timeout"] == 30
    timer = table.claim_timer()
    assert timer is not None and timer[1] == 30.0


def test_no_claim_timer_without_a_timeout_or_while_suspended() -> None:
    table, _ = mid_hand()
    assert table.claim_timer() is None  # Timeout 0
    game = table.game
    assert game is not None
    game.options.set_value("Timeout", 15)
    table.close(2)
    assert table.claim_timer() is None


def test_pacing_is_the_larger_of_the_server_pause_and_the_players_delay_capped_at_five_seconds() -> None:
    table, _ = mid_hand(pause=3)
    assert table.pacing() == 0.3
    table.receive(1, "SetPlayerOption DelayTime 0 80 ")
    assert table.pacing() == 5.0
    table.close(1)
    assert table.pacing() == 0.3, "a player gone no longer slows the game down"


def test_load_state_before_the_first_deal_swaps_in_the_saved_game_and_everyone_rejoins() -> None:
    saved, _ = mid_hand()
    files = {"midhand.mjs": saved.save_text()}
    table = Table(TableSettings(timeout=0), loader=lambda name: files[name])
    for connection in (1, 2, 3, 4):
        table.receive(connection, f"Connect 1110 0 Robot{connection}")
    out = texts(table.receive(2, "LoadState midhand.mjs"))
    assert out[:4] == [(1, "Player 1 "), (2, "Player 1 "), (3, "Player 1 "), (4, "Player 1 ")]
    assert (2, "ConnectReply 1110 2 ") in out
    assert any(connection == 3 and text.startswith("NewHand ") for connection, text in out)
    assert table.active and table.game is not None and table.game.hands_started == 1


def test_load_state_errors() -> None:
    def missing(name: str) -> str:
        raise FileNotFoundError(name)

    table = Table(TableSettings(timeout=0), loader=missing)
    table.receive(1, "Connect 1110 0 Robot1")
    assert texts(table.receive(1, "LoadState")) == [(1, "Error 2 No game file specified in LoadState")]
    assert texts(table.receive(1, "LoadState nothere.mjs")) == [(1, "Error 3 Loading game state failed")]
    played, _ = mid_hand()
    played.loader = missing
    assert texts(played.receive(1, "LoadState x.mjs"))[0][1].endswith("Can't load game state when already playing")


def test_a_game_saved_between_hands_loads_with_the_hand_just_played_and_deals_on_correctly() -> None:
    table, _ = between_hands()
    loaded = Table(TableSettings(timeout=0))
    loaded.load(table.save_text())
    before, after = table.game, loaded.game
    assert before is not None and after is not None and not after.hand_in_progress
    assert after.scores == before.scores and after.seating == before.seating
    assert (after.last_winner, after.hands_as_east) == (before.last_winner, before.hands_as_east)
    assert after.round_ends_next == before.round_ends_next
