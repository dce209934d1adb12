"""`mj arena`: in-process tournaments between robots, in the duplicate format, reproducible, replayable.

Games are kept short (one round, ``NumRounds=1``) and few (one seed, its four
rotations) so the whole file runs in a few seconds.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from conftest import require_original, strict_json
from mj import arena, compiled
from mj.arena.game import GameSetup, joining_order, play
from mj.arena.players import PlayerSpec, SpecError, parse_player
from mj.arena.plot import check_plot_path
from mj.arena.report import format_result
from mj.cli import main
from mj.replay import read_entries, replay
from mj.robot.levels import DEFAULT_LEVEL
from mj.robot.personality import Personality
from mj.rules.ims.rules import IMS

SHORT = ("NumRounds=1",)
PLAYERS = ("level=1", "level=2", "level=3,hiddenness=0.5", "chowness=-1,name=NoChow")


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("arena-logs")


#: Options that change how walls are dealt and hands end, read from an option file as mj-server reads it.
OPTION_FILE = Path(__file__).parent / "data" / "options" / "dead-wall-16-flowers-loose.opt"


@pytest.fixture(scope="module")
def result(logs: Path) -> arena.ArenaResult:
    """One seed's four rotations between four different robots, logged, on one process."""
    options = arena.game_options(OPTION_FILE, SHORT)
    return arena.run(PLAYERS, games=4, seed=7, jobs=1, options=options, log_dir=logs)


# ---------------------------------------------------------------------- player specifications


def test_a_specification_gives_level_and_strategy_options() -> None:
    spec = parse_player("level=2,chowness=0.5,hiddenness=0.2")
    assert spec == PlayerSpec(2, Personality(chowness=(0.5,), hiddenness=(0.2,)))


def test_lists_are_written_as_mj_player_takes_them() -> None:
    spec = parse_player("chowness=0,-0.9,0.5,level=3,suitness=1,name=Switcher")
    assert spec == PlayerSpec(3, Personality(chowness=(0.0, -0.9, 0.5), suitness=(1.0,)), "Switcher")


@pytest.mark.parametrize("text", ["", "default", f"level={DEFAULT_LEVEL}"])
def test_default_robot(text: str) -> None:
    assert parse_player(text) == PlayerSpec()


@pytest.mark.parametrize(
    "text", ["level=1", "level=2,chowness=0.5,hiddenness=0.2", "level=3,chowness=0,-0.9,hysteresis=2.5,name=X"]
)
def test_a_specification_prints_as_it_reads(text: str) -> None:
    assert str(parse_player(text)) == text
    assert parse_player(str(parse_player(text))) == parse_player(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("level=7", "unknown robot level 7"),
        ("level=two", "level: 'two' is not a number"),
        ("chowness=2", "chowness: 2 is outside -1..1"),
        ("hiddenness=-0.1", "hiddenness: -0.1 is outside 0..1"),
        ("majorness=0,0,0,0,0,0", "majorness: at most 5 values"),
        ("colour=red", "unknown key 'colour'"),
        ("level=1,2", "expected KEY=VALUE, got '2'"),
        ("level=1,level=2", "level given twice"),
        ("name=", "name must not be empty"),
    ],
)
def test_a_bad_specification_says_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(SpecError, match=re.escape(message)):
        parse_player(text)


# ---------------------------------------------------------------------- errors before any game


def _one_line_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run ``mj`` expecting status 2 and exactly one line on stderr, which is returned."""
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("mj arena: error: ")
    return lines[0].removeprefix("mj arena: error: ")


def test_a_bad_player_stops_the_command_before_any_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    logs = tmp_path / "logs"
    argv = ["arena", "--log", str(logs), "level=1", "level=1", "level=9", "level=1"]
    assert _one_line_error(argv, capsys) == "player 3 ('level=9'): unknown robot level 9 (choose from 1, 2, 3)"
    assert not logs.exists()


@pytest.mark.parametrize("players", [3, 5])
def test_a_table_short_of_or_beyond_four_players_stops_the_command(
    players: int, capsys: pytest.CaptureFixture[str]
) -> None:
    error = _one_line_error(["arena", *["level=1"] * players], capsys)
    assert error == f"a table takes 4 players, not {players}"


def test_an_option_out_of_range_stops_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    error = _one_line_error(["arena", "level=1", "level=1", "level=1", "hiddenness=1.5"], capsys)
    assert error == "player 4 ('hiddenness=1.5'): hiddenness: 1.5 is outside 0..1"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("GameOption 0 NumRounds nat 0 1 3 number of rounds to play\r\n", "Number of rounds must be 1, 2 or"),
        ("GameOption 0 Colours nat 0 1 3 paint the tiles\r\n", "unknown option Colours"),
        ("GameOption 0 Flowers nat 0 1 0 play using flowers\r\n", "type clash for option Flowers"),
        ("SetGameOption NoLimit 1\r\n", ":1: cannot decode"),
    ],
)
def test_a_bad_option_file_stops_the_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, message: str
) -> None:
    options = tmp_path / "bad.opt"
    options.write_text(content, encoding="latin-1", newline="")
    error = _one_line_error(["arena", "--option-file", str(options), *["level=1"] * 4], capsys)
    assert message in error and str(options) in error


def test_a_missing_option_file_stops_the_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    error = _one_line_error(["arena", "--option-file", str(tmp_path / "none.opt"), *["level=1"] * 4], capsys)
    assert error.startswith(f"cannot read option file {tmp_path / 'none.opt'}")


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("NumRounds=3", "option 'NumRounds=3': Number of rounds must be 1, 2 or a multiple of 4"),
        ("Colours=3", "option 'Colours=3': Trying to set unknown option"),
        ("NoLimit", "option 'NoLimit': expected NAME=VALUE"),
        ("End=0", "option 'End=0': End marks the end of the protocol's option list; it is not an option to set"),
        ("NoLimit=maybe", "option 'NoLimit=maybe': No boolean value found for option (true, false, 1 or 0)"),
    ],
)
def test_a_bad_game_option_stops_the_command(option: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert _one_line_error(["arena", "--option", option, *["level=1"] * 4], capsys) == message


@pytest.mark.parametrize(("word", "value"), [("true", 1), ("False", 0), ("1", 1), ("0", 0)])
def test_a_bool_option_is_given_as_true_or_false_or_as_1_or_0(word: str, value: int) -> None:
    """As the docs list the values, and as the lobby and ``mj score`` take them (JSON's true and false)."""
    (entry,) = arena.game_options(settings=[f"CountFlowers={word}"], rules=IMS)
    assert (entry.name, entry.value) == ("CountFlowers", value)


def test_an_option_given_twice_is_played_and_reported_with_its_last_value() -> None:
    options = arena.game_options(OPTION_FILE, ["NumRounds=2", "FlowersLoose=0", "NumRounds=1"])
    assert [(e.name, e.value) for e in options] == [
        ("DeadWall16", 1),
        ("FlowersLoose", 0),
        ("ShowOnWashout", 1),
        ("NumRounds", 1),
    ]


def test_the_end_of_an_option_files_list_is_no_option_played(tmp_path: Path) -> None:
    listed = tmp_path / "listed.opt"
    listed.write_bytes(OPTION_FILE.read_bytes() + b"GameOption 0 End bool 0 1 1 end of option list\r\n")
    assert [e.name for e in arena.game_options(listed)] == [e.name for e in arena.game_options(OPTION_FILE)]


def test_games_come_in_fours(capsys: pytest.CaptureFixture[str]) -> None:
    error = _one_line_error(["arena", "--games", "6", *["level=1"] * 4], capsys)
    assert error == "games must be a positive multiple of 4 (each seed is played in 4 rotations)"


# ---------------------------------------------------------------------- the duplicate format


def test_every_player_sits_in_every_seat_once_per_seed() -> None:
    orders = [joining_order(rotation) for rotation in range(4)]
    assert orders[0] == (0, 1, 2, 3)
    for place in range(4):
        assert sorted(order[place] for order in orders) == [0, 1, 2, 3]


def test_identical_players_play_one_game_seen_from_each_seat() -> None:
    """With four identical robots the rotations of a seed differ only in who sits where: no luck is left."""
    same = arena.run(["level=1"] * 4, games=4, seed=3, jobs=1, options=arena.game_options(settings=SHORT))
    first = [p.final_score for p in same.games[0].players]
    for game in same.games:
        assert [p.final_score for p in game.players] == [first[(i + game.rotation) % 4] for i in range(4)]
    assert all(p.figures == same.players[0].figures for p in same.players)
    assert same.players[0].figures.final_score.mean == 0
    assert [d.estimate.mean for d in same.differences] == [0] * 6


def test_each_player_is_compared_with_each_listed_before_it_seed_by_seed() -> None:
    two_seeds = arena.run(PLAYERS, games=8, seed=7, jobs=2, options=arena.game_options(settings=SHORT))
    names = [p.name for p in two_seeds.players]
    pairs = [(d.player, d.against) for d in two_seeds.differences]
    assert pairs == [(names[i], names[j]) for i in range(4) for j in range(i)]
    for d in two_seeds.differences:
        i, j = names.index(d.player), names.index(d.against)
        per_seed = [
            sum(g.players[i].final_score - g.players[j].final_score for g in two_seeds.games if g.seed == seed) / 4
            for seed in (7, 8)
        ]
        assert d.estimate.n == 2
        assert d.estimate.mean == pytest.approx(sum(per_seed) / 2)
        assert d.estimate.mean == pytest.approx(
            two_seeds.players[i].figures.final_score.mean - two_seeds.players[j].figures.final_score.mean
        )
        assert d.estimate.low < d.estimate.mean < d.estimate.high or per_seed[0] == per_seed[1]


def test_a_tournament_counts_every_game_for_every_player(result: arena.ArenaResult) -> None:
    assert [(g.seed, g.rotation) for g in result.games] == [(7, 0), (7, 1), (7, 2), (7, 3)]
    for game in result.games:
        assert sum(p.final_score for p in game.players) == 0
        assert sum(p.wins for p in game.players) <= game.hands
        assert game.refusals == (0, 0, 0, 0)
    hands = sum(g.hands for g in result.games)
    assert result.throughput.hands == hands and result.throughput.games == 4
    for index, player in enumerate(result.players):
        figures = player.figures
        assert (figures.games, figures.hands) == (4, hands)
        wins = sum(g.players[index].wins for g in result.games)
        assert figures.win_rate.mean == wins / hands
        assert figures.final_score.mean == sum(g.players[index].final_score for g in result.games) / 4
    assert [p.name for p in result.players] == ["P1", "P2", "P3", "NoChow"]


def test_the_report_has_a_row_per_player_and_the_throughput(result: arena.ArenaResult) -> None:
    lines = format_result(result).splitlines()
    assert lines[:4] == [
        "P1      level=1",
        "P2      level=2",
        "P3      level=3,hiddenness=0.5",
        f"NoChow  level={DEFAULT_LEVEL},chowness=-1,name=NoChow",
    ]
    options = "DeadWall16=1, FlowersLoose=1, ShowOnWashout=1, NumRounds=1"
    assert lines[4] == f"4 games: seeds 7-7, each in 4 rotations; options: {options}"
    assert lines[5].split()[:3] == ["player", "games", "hands"]
    assert [line.split()[0] for line in lines[6:10]] == ["P1", "P2", "P3", "NoChow"]
    assert lines[10] == "final score per game, paired by seed (the same deals from the same seats):"
    assert [line.split()[:3] for line in lines[11:17]] == [
        ["P2", "-", "P1"],
        ["P3", "-", "P1"],
        ["P3", "-", "P2"],
        ["NoChow", "-", "P1"],
        ["NoChow", "-", "P2"],
        ["NoChow", "-", "P3"],
    ]
    assert all(line.endswith(" [n/a]") for line in lines[11:17]), "one seed: a difference but no interval"
    assert re.fullmatch(
        r"\d+ hands in .* s \(1 job\), .* CPU-seconds: .* hands per wall-second, .* per CPU-second", lines[17]
    )


# ---------------------------------------------------------------------- the same engine as the server, and determinism


def test_arena_games_pass_mj_replay(result: arena.ArenaResult, logs: Path) -> None:
    for game in result.games:
        checked = replay(read_entries(logs / f"seed{game.seed}-rotation{game.rotation}.log"))
        assert checked.mismatch is None, checked.mismatch
        assert checked.hands == game.hands


def test_the_same_seeds_and_players_give_the_same_results_with_any_jobs(result: arena.ArenaResult) -> None:
    again = arena.run(PLAYERS, games=4, seed=7, jobs=2, options=result.options)
    assert again.throughput.jobs == 2
    assert again.games == result.games
    assert again.players == result.players


# ---------------------------------------------------------------------- the command


def test_the_command_prints_json_and_draws_the_scores(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plot = tmp_path / "scores.png"
    argv = ["arena", "--games", "4", "--seed", "7", "--jobs", "1", "--option", "NumRounds=1", "--json"]
    assert main([*argv, "--plot", str(plot), *PLAYERS]) == 0
    data = strict_json(capsys.readouterr().out)
    assert [p["name"] for p in data["players"]] == ["P1", "P2", "P3", "NoChow"]
    assert set(data["players"][0]) >= {"spec", "games", "hands", "win_rate", "self_drawn_share", "deal_in_rate"}
    assert set(data["players"][0]["final_score"]) == {"mean", "low", "high", "n"}
    assert [(d["player"], d["against"]) for d in data["differences"][:2]] == [("P2", "P1"), ("P3", "P1")]
    assert set(data["differences"][0]["final_score"]) == {"mean", "low", "high", "n"}
    one_seed = data["differences"][0]["final_score"]  # a difference by seed, of one seed: no interval
    assert one_seed["n"] == 1 and one_seed["low"] is None and one_seed["high"] is None
    assert [g["rotation"] for g in data["games"]] == [0, 1, 2, 3]
    assert data["throughput"]["hands_per_cpu_second"] > 0
    assert plot.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_a_plot_that_cannot_be_written_stops_the_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    error = _one_line_error(["arena", "--plot", str(tmp_path / "no" / "scores.png"), *["level=1"] * 4], capsys)
    assert error == f"--plot {tmp_path / 'no' / 'scores.png'}: no directory {tmp_path / 'no'}"


@pytest.mark.parametrize(
    ("place", "reason"),
    [("folder.png", "not a regular file"), ("fifo.png", "not a regular file"), ("/proc/x.png", "cannot write it")],
)
def test_a_plot_in_place_of_a_folder_or_where_nothing_can_be_written_stops_the_command_before_any_game(
    place: str, reason: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "folder.png").mkdir()
    os.mkfifo(tmp_path / "fifo.png")
    plot = tmp_path / place
    error = _one_line_error(["arena", "--games", "4", "--plot", str(plot), *["level=1"] * 4], capsys)
    assert error.startswith(f"--plot {plot}: {reason}"), error


def test_checking_the_plot_leaves_no_file_and_keeps_an_old_one(tmp_path: Path) -> None:
    check_plot_path(tmp_path / "new.png")
    assert not (tmp_path / "new.png").exists()
    (tmp_path / "old.png").write_bytes(b"old")
    check_plot_path(tmp_path / "old.png")
    assert (tmp_path / "old.png").read_bytes() == b"old"


# ---------------------------------------------------------------------- mj bench arena


def test_bench_arena_prints_both_systems_hands_per_cpu_second(capsys: pytest.CaptureFixture[str]) -> None:
    require_original()
    assert main(["bench", "arena", "--seeds", "1001"]) == 0
    build, _title, header, *lines = capsys.readouterr().out.splitlines()
    assert build == compiled.describe()
    assert " ".join(header.split()) == "seed ours hands ours CPU s original hands original CPU s"
    seed, total = (line.split() for line in lines[0:2])
    assert seed[0] == "1001" and total[0] == "total" and seed[1:] == total[1:]
    rotations = sum(play(GameSetup(1001, rotation, (PlayerSpec(),) * 4)).hands for rotation in range(4))
    assert int(seed[1]) == rotations, "ours: the four games of the seed, seats rotated"
    assert int(seed[3]) == 21, "the original's game of seed 1001 has 21 hands (tests/data/original/)"
    assert lines[2].startswith("ours (mj arena, in-process): ") and lines[3].startswith("original (mj-server + 4 mj")
    ours, theirs = (float(line.split(": ")[1].removesuffix(" hands per CPU-second")) for line in lines[2:4])
    assert ours == pytest.approx(int(seed[1]) / float(seed[2]), rel=0.01)
    assert theirs == pytest.approx(int(seed[3]) / float(seed[4]), rel=0.01)
    # ours and theirs are printed to 0.1: their ratio is only that close to the printed one.
    assert float(lines[4].removeprefix("ours / original: ")) == pytest.approx(ours / theirs, rel=0.01)
