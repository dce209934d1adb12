"""Beijing over the network and in the arena: the protocol extension carries it, every log replays identically.

Original clients asking for a Beijing table are refused as at an IMS table; mj's own
clients are told ``Rules beijing``, see the indicator as ``WildIndicator`` and play
through their legal moves.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from beijing_hand import EAST, WEST, Hand
from mj import arena, tiles
from mj.protocol import cmsg as C
from mj.protocol import pmsg as P
from mj.protocol.connect import EXTENDED_PROTOCOL_VERSION
from mj.replay import read_entries, replay
from mj.rules.registry import get
from mj.savefile import completed_rounds_comment, format_save, hand_start_comment
from mj.seatview import SeatView
from test_beijing_rules import KONG_WEST
from test_protocol_extension import exchange, play_out, start_server

REFUSAL = "This table plays the beijing rules, which this client cannot play"


def start_beijing_server(workdir: Path, *options: str) -> tuple[subprocess.Popen[bytes], str]:
    return start_server(workdir, "beijing", *options)


def test_a_beijing_table_refuses_a_client_without_the_extension_and_tells_ours_its_rules(tmp_path: Path) -> None:
    server, address = start_beijing_server(tmp_path)
    try:
        refused = exchange(address, "Connect 1110 0 Old")
        assert refused.startswith("ConnectReply 1110 0 " + REFUSAL)
        accepted = exchange(address, f"Connect {EXTENDED_PROTOCOL_VERSION} 0 New")
        assert accepted.splitlines()[:2] == ["ConnectReply 1110 1 ", "Rules beijing"]
    finally:
        server.kill()
        server.wait()


def test_the_wild_indicator_message_reads_back_as_written_and_a_view_keeps_it() -> None:
    line = "WildIndicator 9B"
    assert C.decode(line).encode() == line
    view = SeatView(1)
    assert view.wild is None
    view.apply(C.Rules("beijing"))
    assert view.rules is get("beijing") and "WallEnd" in view.options
    view.apply(C.decode(line))
    assert view.indicator == tiles.parse("9B") and view.wild == tiles.parse("1B")


def test_our_robots_play_a_whole_beijing_game_over_sockets_and_its_log_replays_identically(tmp_path: Path) -> None:
    server, address = start_beijing_server(tmp_path, "--timeout", "0", "--exit-on-disconnect", "--seed", "5")
    log = play_out(server, [["--server", address, "--name", f"R{n}"] for n in range(1, 5)], tmp_path, 180)
    assert " GameOver" in log and " Error " not in log
    assert log.count(">cnx1 Rules beijing") == 1 and " WildIndicator " in log and " Settlement " in log
    checked = replay(read_entries(tmp_path / "game.log"))
    assert checked.mismatch is None, checked.mismatch


def test_robots_play_beijing_games_in_the_arena_without_a_refused_move_and_each_log_replays_identically(
    tmp_path: Path,
) -> None:
    result = arena.run(["default"] * 4, games=4, seed=2, jobs=1, log_dir=tmp_path, rules="beijing")
    assert sum(game.hands for game in result.games) > 0
    assert all(not any(game.refusals) for game in result.games), [game.refusals for game in result.games]
    for game in result.games:
        log = tmp_path / f"seed{game.seed}-rotation{game.rotation}.log"
        assert "Rules beijing" in log.read_text()
        checked = replay(read_entries(log))
        assert checked.mismatch is None, checked.mismatch
        assert checked.hands == game.hands


def test_a_beijing_game_resumed_from_a_save_mid_hand_is_played_out_and_its_log_replays_identically(
    tmp_path: Path,
) -> None:
    hand = Hand(KONG_WEST)
    hand.play(WEST, P.Kong(hand.discard(EAST, "3D")))
    hand.pass_all(WEST)
    hand.turn(WEST, "NW")
    game = hand.game
    head: list[C.CMsg] = [C.Player(p, f"P{p}") for p in game.seating]
    head += [game.hand_start, completed_rounds_comment(0), hand_start_comment(game.after_draw, game.banker_hands)]
    head += [C.GameOption(0, e) for e in game.options.entries()]
    head.append(C.Wall(tiles.codes(game.hand_wall)))
    (tmp_path / "saved.mjs").write_text(format_save([*head, *game.history]))
    server, address = start_beijing_server(
        tmp_path, "--load-game", str(tmp_path / "saved.mjs"), "--timeout", "0", "--exit-on-disconnect"
    )
    robots = [["--server", address, "--id", str(n), "--name", f"P{n}"] for n in range(1, 5)]
    log = play_out(server, robots, tmp_path, 180)
    assert " GameOver" in log and " Error " not in log
    checked = replay(read_entries(tmp_path / "game.log"))
    assert checked.mismatch is None, checked.mismatch
