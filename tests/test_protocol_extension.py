"""mj's protocol extension (docs/protocol-extension.md): another rule system over the network.

mj's own clients announce the extension in ``Connect`` and are told the table's rules;
an original client, which cannot announce it, is refused at an IMS table with a clear
reason instead of being given a game it would misplay.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ORIGINAL_PLAYER, OUR_SERVER
from mj import tiles
from mj.protocol import cmsg as C
from mj.protocol.connect import EXTENDED_PROTOCOL_VERSION
from mj.replay import read_entries, replay
from mj.rules.registry import get
from mj.seatview import SeatView

REFUSAL = "This table plays the ims rules, which this client cannot play"


def start_server(workdir: Path, rules: str, *options: str) -> tuple[subprocess.Popen[bytes], str]:
    """Our server for the ``rules`` on a Unix socket in ``workdir``, logging to ``game.log`` there."""
    address = str(workdir / "mj.sock")
    server = subprocess.Popen(
        [*OUR_SERVER, "--rules", rules, "--server", address, "--logfile", str(workdir / "game.log"), *options],
        cwd=workdir,
        stdout=subprocess.PIPE,
    )
    assert server.stdout is not None
    assert server.stdout.readline().startswith(b"OK")
    return server, address


def start_ims_server(workdir: Path, *options: str) -> tuple[subprocess.Popen[bytes], str]:
    return start_server(workdir, "ims", *options)


def play_out(server: subprocess.Popen[bytes], robots: list[list[str]], workdir: Path, timeout: float) -> str:
    """Run our robots (their command-line arguments) against ``server`` until all have exited; the game's log.

    Whatever is still running when a robot fails is killed, so a failed test leaves no process behind.
    """
    players = [subprocess.Popen([sys.executable, "-m", "mj.robot", *arguments], cwd=workdir) for arguments in robots]
    try:
        for player in players:
            assert player.wait(timeout=timeout) == 0
        server.wait(timeout=30)
    finally:
        for process in (*players, server):
            if process.poll() is None:
                process.kill()
                process.wait()
    return (workdir / "game.log").read_text()


def exchange(address: str, line: str) -> str:
    with socket.socket(socket.AF_UNIX) as client:
        client.connect(address)
        client.sendall(line.encode() + b"\r\n")
        client.settimeout(5)
        received = b""
        deadline = time.monotonic() + 5
        while b"\r\n" not in received or (b"ConnectReply 1110 0" not in received and b"Rules" not in received):
            if time.monotonic() > deadline:
                break
            chunk = client.recv(4096)
            if not chunk:
                break
            received += chunk
        return received.decode()


def test_an_ims_table_refuses_a_client_without_the_extension_and_tells_ours_its_rules(tmp_path: Path) -> None:
    server, address = start_ims_server(tmp_path)
    try:
        refused = exchange(address, "Connect 1110 0 Old")
        assert refused.startswith("ConnectReply 1110 0 " + REFUSAL)
        accepted = exchange(address, f"Connect {EXTENDED_PROTOCOL_VERSION} 0 New")
        assert accepted.splitlines()[:2] == ["ConnectReply 1110 1 ", "Rules ims"]
    finally:
        server.kill()
        server.wait()


def test_the_original_mj_player_asked_to_join_an_ims_table_is_refused_with_the_reason(
    tmp_path: Path, original_programs: None
) -> None:
    server, address = start_ims_server(tmp_path)
    try:
        player = subprocess.run(
            [ORIGINAL_PLAYER, "--server", address, "--name", "Original"], capture_output=True, timeout=30
        )
        assert player.returncode != 0
    finally:
        server.kill()
        server.wait()
    log = (tmp_path / "game.log").read_text()
    assert f"ConnectReply 1110 0 {REFUSAL}" in log


def test_a_seat_view_told_the_rules_plays_by_them_and_reads_their_options() -> None:
    view = SeatView(1)
    assert view.rules.name == "classical"
    view.apply(C.Rules("ims"))
    assert view.rules is get("ims") and "MinimumFan" in view.options
    view.apply(C.Rules("no-such-rules"))  # an unknown name changes nothing
    assert view.rules is get("ims")


@pytest.mark.parametrize(
    "line",
    ["Rules ims", "Payment 1 2 16", "ScoreFigure 2 3 fan:One Mixed Suit", "PlayerRevealsConcealedKong 3 5B"],
)
def test_the_extension_messages_read_back_as_they_are_written(line: str) -> None:
    assert C.decode(line).encode() == line


def test_a_rejoining_player_is_not_shown_another_seats_hidden_concealed_kong() -> None:
    from mj.table import _as_seen_by

    kong = C.PlayerDeclaresClosedKong(2, tiles.parse("5B"), 7)
    assert _as_seen_by(kong, 3, True) == C.PlayerDeclaresClosedKong(2, tiles.BLANK, 7)
    assert _as_seen_by(kong, 2, True) == kong  # the owner sees its own
    assert _as_seen_by(kong, 3, False) == kong  # classical kongs are public


def test_our_robots_play_a_whole_ims_game_over_sockets_and_its_log_replays_identically(tmp_path: Path) -> None:
    options = tmp_path / "ims.opt"
    options.write_text("GameOption 0 NumRounds nat 0 1 1 number of rounds to play\n")
    server, address = start_ims_server(
        tmp_path, "--timeout", "0", "--exit-on-disconnect", "--option-file", str(options)
    )
    log = play_out(server, [["--server", address, "--name", f"R{n}"] for n in range(1, 5)], tmp_path, 120)
    assert " GameOver" in log and " Error " not in log
    assert log.count(">cnx1 Rules ims") == 1 and " Settlement " in log
    checked = replay(read_entries(tmp_path / "game.log"))
    assert checked.mismatch is None, checked.mismatch
