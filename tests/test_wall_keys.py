"""Walls people play come from a secret key, not from a seed a player could find by trying every one.

The original's generator deals from one of 2**32 seeds, and the original's server seeds it from
the clock: a player who knows her own dealt tiles finds the seed by trying them all (in minutes;
among the seconds around the server's start, at once), and with it every wall of the game. A
lobby table deals from a 256-bit key (:class:`mj.tiles.KeyedRandom`), kept with the table and shown
by no answer; ``mj-server`` without ``--seed`` deals from a key of its own.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from lobby_games import recorded_game
from mj.lobby import replayer
from mj.lobby.models import LobbyTable
from mj.lobby.store import Store
from mj.logfile import parse_log
from mj.protocol import cmsg as C
from mj.protocol.framing import ENCODING
from mj.server.robotgame import play_robot_game
from mj.tiles import BLANK, KEY_BYTES, GlibcRandom, KeyedRandom, full_set, shuffled_wall

OUR_SERVER = (sys.executable, "-m", "mj.server")
OUR_PLAYER = str(Path(sys.executable).parent / "mj-player")


def test_a_key_deals_each_number_equally_often_and_the_same_key_the_same_walls() -> None:
    draws = KeyedRandom(bytes(KEY_BYTES))
    counts = Counter(draws.index(2) for _ in range(30_000))
    assert sorted(counts) == [0, 1, 2]
    assert all(9_500 < n < 10_500 for n in counts.values()), counts
    again = [shuffled_wall(KeyedRandom(b"k" * KEY_BYTES), flowers=True) for _ in range(2)]
    assert again[0] == again[1] and sorted(again[0]) == sorted(full_set(True))
    assert shuffled_wall(KeyedRandom(b"j" * KEY_BYTES), flowers=True) != again[0]


def test_a_key_shorter_than_256_bits_is_refused() -> None:
    with pytest.raises(ValueError, match="a wall key is at least 32 bytes, not 4"):
        KeyedRandom(b"1234")


def test_a_lobby_table_deals_from_its_own_secret_key_which_no_answer_shows(
    start_lobby: Any, database_url: str, tmp_path: Path
) -> None:
    lobby = start_lobby(database_url)
    status, made = lobby.call("POST", "/api/tables", {"options": {"NumRounds": 1}, "robots": 4, "level": 1})
    assert status == 201, made
    game = lobby.wait_for(made["table"], lambda t: t["status"] == "finished")["game"]
    record = lobby.get(f"/api/games/{game}")
    first_hand = lobby.get(f"/api/games/{game}/hands/1")
    # the seed the finished game's record shows does not deal its walls: a table dealing from it deals others
    seeded = Store(f"sqlite:///{tmp_path / 'seeded.db'}")
    try:
        _, seeded_game, _ = recorded_game(seeded, "classical", {"NumRounds": 1}, record["seed"])
        found = seeded.game(seeded_game)
        assert found is not None
        assert replayer.hand_frames(seeded, found, 1)["frames"] != first_hand["frames"]
    finally:
        seeded.close()
    store = Store(database_url)
    try:
        with store.session() as s:
            key = s.scalars(select(LobbyTable.wall_key).where(LobbyTable.id == made["table"])).one()
    finally:
        store.close()
    assert key is not None and len(bytes.fromhex(key)) == KEY_BYTES
    answers = [
        lobby.call("GET", path)[1]
        for path in ("/api/tables", f"/api/tables/{made['table']}", f"/api/games/{game}/log", "/api/games")
    ]
    assert all(key not in str(answer) for answer in [record, first_hand, *answers])


def test_mj_server_without_a_seed_deals_walls_that_no_seed_from_the_clock_deals(tmp_path: Path) -> None:
    """The original seeds its generator from the clock at start: a player who knows roughly when the server
    started finds the seed among a few thousand against her own dealt tiles, and knows every wall of the game."""
    started = int(time.time())
    dealt = _first_dealt(tmp_path / "unseeded")
    clock = range(started - 300, int(time.time()) + 300)
    assert [seed for seed in clock if shuffled_wall(GlibcRandom(seed), flowers=True)[:DEALT] == dealt] == []
    # the search finds a seed that deals the walls: --seed N still deals the original's
    seeded = _first_dealt(tmp_path / "seeded", "--seed", str(started))
    assert [seed for seed in clock if shuffled_wall(GlibcRandom(seed), flowers=True)[:DEALT] == seeded] == [started]


#: The tiles of a wall compared: more than enough to tell apart every seed searched.
DEALT = 20


def _first_dealt(folder: Path, *extra: str) -> list[int]:
    """The first :data:`DEALT` tiles of the wall of the first hand that ``mj-server`` (with ``extra``) deals."""
    folder.mkdir()
    options = folder / "one-round.opt"
    options.write_text("GameOption 0 NumRounds nat 0 1 1 number of rounds to play\n")
    command = [*OUR_SERVER, "--server", "127.0.0.1:0", "--timeout", "0", "--exit-on-disconnect",
               "--logfile", "game.log", "--option-file", str(options), *extra]  # fmt: skip
    run = play_robot_game(command, folder, folder / "game.log", player=OUR_PLAYER)
    assert run.ok, run.message
    sent = (e.text for e in parse_log(run.log.decode(ENCODING)) if e.direction == ">" and e.text)
    draws = (C.decode(text) for text in sent if text.startswith("PlayerDraws "))
    dealt = [d.tile for d in draws if isinstance(d, C.PlayerDraws) and d.tile != BLANK][:DEALT]
    assert len(dealt) == DEALT
    return dealt
