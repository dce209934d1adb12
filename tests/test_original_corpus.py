"""The corpus of games recorded with the original programs (tests/data/original).

Each ``seed<N>-<optname>.log.gz`` is the ``--logfile`` of one complete game of four
original robots on the original server, recorded by
``scripts/record_original_games.py`` (``optname`` = an option file in
tests/data/options, or ``default``).
"""

from __future__ import annotations

import gzip
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import load_script, require_original

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "data" / "original"
OPTIONS = ROOT / "tests" / "data" / "options"
SCRIPT = ROOT / "scripts" / "record_original_games.py"

GAMES = sorted(CORPUS.glob("*.log.gz"))
NAME_RE = re.compile(r"^seed(?P<seed>[1-9][0-9]*)-(?P<opt>[a-z0-9-]+)\.log\.gz$")
OPTION_RE = re.compile(r"^GameOption 0 (?P<name>\w+) (?P<type>\w+) \d+ [01] (?P<value>\S+) ")

# protocol.md §5.1 defaults as seen by clients of a game created with --timeout 0
# (Timeout takes the command-line value, DeadWall16 is forced to 0 at creation).
DEFAULTS = {
    "Timeout": "0",
    "TimeoutGrace": "5",
    "ScoreLimit": "1000",
    "NoLimit": "0",
    "MahJongScore": "20",
    "SevenPairs": "0",
    "SevenPairsVal": "20",
    "Flowers": "1",
    "FlowersLoose": "0",
    "FlowersOwnEach": "0",
    "FlowersOwnBoth": "10000",
    "FlowersBouquet": "10000",
    "DeadWall": "1",
    "DeadWall16": "0",
    "ConcealedFully": "10000",
    "ConcealedAlmost": "0",
    "LosersPurity": "0",
    "KongHas3Types": "0",
    "EastDoubles": "1",
    "LosersSettle": "1",
    "DiscDoubles": "0",
    "ShowOnWashout": "0",
    "NumRounds": "4",
    "End": "1",
}

# Messages whose order in the log is fixed by the game itself (not by the timing of
# the robots' answers): the course of play. During the declarations after a
# mah-jong the losers act concurrently, so those messages are compared as a multiset.
PLAY_RE = re.compile(
    r"^>cnx\d ((NewHand|PlayerDraws|PlayerDrawsLoose|PlayerDeclaresSpecial|PlayerDiscards"
    r"|PlayerPungs|PlayerChows|PlayerKongs|PlayerDeclaresClosedKong|PlayerAddsToPung"
    r"|PlayerRobsKong|PlayerMahJongs|WashOut|Settlement|GameOver)\b.*)"
)
DECLARE_RE = re.compile(r"^>cnx\d ((PlayerPairs|PlayerFormsClosed\w+|PlayerShowsTiles|HandScore)\b.*)")


def read_log(path: Path) -> list[str]:
    return gzip.decompress(path.read_bytes()).decode("latin-1").splitlines()


def initial_options(lines: list[str]) -> dict[str, str]:
    """The option values sent to cnx1 right after its Game line."""
    start = next(i for i, line in enumerate(lines) if line.startswith(">cnx1 Game "))
    options: dict[str, str] = {}
    for line in lines[start + 1 :]:
        if not line.startswith(">cnx1 GameOption "):
            break
        m = OPTION_RE.match(line[len(">cnx1 ") :])
        assert m, line
        options[m["name"]] = m["value"]
        if m["name"] == "End":
            break
    return options


def option_file_values(path: Path) -> dict[str, str]:
    values: dict[str, str] = {}
    for line in path.read_text().splitlines():
        m = OPTION_RE.match(line)
        assert m, f"{path.name}: bad line {line!r}"
        values[m["name"]] = m["value"]
    return values


def course(lines: list[str]) -> tuple[list[str], list[str]]:
    """(play messages in order, sorted declaration-phase messages) of a game log."""
    play = [m[1] for m in map(PLAY_RE.match, lines) if m]
    declare = sorted(m[1] for m in map(DECLARE_RE.match, lines) if m)
    return play, declare


def test_corpus_is_large_enough() -> None:
    assert len(GAMES) >= 50
    used = {NAME_RE.match(p.name)["opt"] for p in GAMES}  # type: ignore[index]
    option_files = {p.stem for p in OPTIONS.glob("*.opt")}
    assert option_files, "no option files"
    # every option file and the default options are each used by several games
    assert used == option_files | {"default"}
    for opt in used:
        assert sum(p.name.endswith(f"-{opt}.log.gz") for p in GAMES) >= 5, opt


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name.removesuffix(".log.gz"))
def test_game_is_complete(path: Path) -> None:
    m = NAME_RE.match(path.name)
    assert m, path.name
    lines = read_log(path)
    assert lines[0].startswith("<cnx1 Connect ")
    for k in range(1, 5):
        assert f">cnx{k} ConnectReply 1110 {k} " in lines
    gameover = [i for i, line in enumerate(lines) if re.match(r">cnx\d GameOver$", line)]
    assert len(gameover) == 1, "exactly one GameOver"
    # after GameOver only the final pause and the disconnections
    tail = lines[gameover[0] + 1 :]
    assert tail and all(re.match(r">cnx\d Pause |<cnx\d \(null\)", line) for line in tail), tail
    assert any(line.startswith(">cnx") and " Settlement " in line for line in lines)

    options = initial_options(lines)
    assert list(options) == list(DEFAULTS)
    expected = dict(DEFAULTS)
    if m["opt"] != "default":
        expected.update(option_file_values(OPTIONS / f"{m['opt']}.opt"))
    assert options == expected


def test_every_option_is_switched_somewhere() -> None:
    switched: set[str] = set()
    for path in GAMES:
        options = initial_options(read_log(path))
        switched |= {name for name, value in options.items() if value != DEFAULTS[name]}
    assert switched == set(DEFAULTS) - {"End"}


def test_option_files_are_well_formed() -> None:
    for path in sorted(OPTIONS.glob("*.opt")):
        values = option_file_values(path)
        assert values, path.name
        assert set(values) <= set(DEFAULTS) - {"End"}, path.name
        assert all(values[name] != DEFAULTS[name] for name in values), path.name


def test_parse_seeds() -> None:
    script = load_script("record_original_games")
    assert script.parse_seeds("3,1-2,2") == [1, 2, 3]
    with pytest.raises(ValueError):
        script.parse_seeds("0")
    with pytest.raises(ValueError):
        script.parse_seeds("5-4")


SHORT_GAME = CORPUS / "seed1081-settlement-variants-1round.log.gz"


def test_record_one_game_with_the_original_programs(tmp_path: Path) -> None:
    """Record one short game again: the tool works and reproduces the corpus game."""
    require_original()
    result = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--seeds",
            "1081",
            "--options",
            str(OPTIONS / "settlement-variants-1round.opt"),
            "--out",
            str(tmp_path),
            "--jobs",
            "1",
            "--timeout",
            "60",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    recorded = tmp_path / SHORT_GAME.name
    lines = read_log(recorded)
    assert any(re.match(r">cnx\d GameOver$", line) for line in lines)
    assert initial_options(lines)["NumRounds"] == "1"
    # the robots' play is deterministic for a given seed (only the interleaving of
    # answers in the log may differ): the game's course matches the corpus game
    assert course(lines) == course(read_log(SHORT_GAME))
