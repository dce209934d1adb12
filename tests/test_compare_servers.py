"""scripts/compare_servers.py: the same robot games on the original server and on ours; stacked walls."""

from __future__ import annotations

import gzip
import random
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from conftest import load_script, require_original
from mj import tiles
from mj.hand.counting import counts
from mj.hand.distance import shanten
from mj.stackedwall import EAST_FOURTEENTH, ORPHANS, dealt_places, heavens_blessing, stacked_wall

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def compare() -> ModuleType:
    return load_script("compare_servers")


def dealt(wall: list[tiles.Tile], seat: int) -> list[tiles.Tile]:
    return [wall[place] for place in dealt_places(seat)]


@pytest.mark.parametrize("flowers", [True, False])
def test_a_stacked_wall_is_the_whole_tile_set_and_the_same_for_the_same_seed(flowers: bool) -> None:
    for seed in range(1, 60):
        wall = stacked_wall(seed, flowers)
        assert tiles.wall_problem(wall, flowers) is None, seed
        assert not heavens_blessing(wall), "the original's stale tile (§16 item 9) is left out"
        assert wall == stacked_wall(seed, flowers)
    assert stacked_wall(1, flowers) != stacked_wall(2, flowers)


def test_the_original_deals_each_seat_the_tiles_at_its_dealt_places() -> None:
    """Hand 2 of seed 24's recorded game (hand 1 is blank): each player's first 13 draws, as the original sent them."""
    text = gzip.decompress((ROOT / "tests" / "data" / "stacked" / "seed24-default.log.gz").read_bytes()).decode()
    lines = text.split("\r\n")
    starts = [n for n, line in enumerate(lines) if " NewHand " in line]
    draws: dict[str, list[str]] = {}
    for line in lines[starts[1] : starts[2]]:
        if " PlayerDraws " in line:
            _, _, player, tile = line.split(" ")
            draws.setdefault(player, []).append(tile)
    wall = stacked_wall(24, True)
    expected = sorted(sorted(tiles.code(t) for t in dealt(wall, seat)) for seat in range(4))
    assert sorted(sorted(got[:13]) for got in draws.values()) == expected
    east = lines[starts[1]].split(" ")[2]  # NewHand <East's id> ...
    assert draws[east][:14] == [tiles.code(wall[place]) for place in (*dealt_places(0), EAST_FOURTEENTH)]


def test_a_stacked_deal_is_far_nearer_ready_than_a_shuffled_one() -> None:
    """Steps from ready of a standard hand (the thirteen orphans and the nine gates count as far)."""

    def steps(wall: list[tiles.Tile]) -> list[int]:
        hands = [[t for t in dealt(wall, seat) if not tiles.is_special(t)] for seat in range(4)]
        return [shanten(counts(hand)) + (13 - len(hand)) for hand in hands]

    rng = random.Random(7)
    stacked = [s for seed in range(1, 101) for s in steps(stacked_wall(seed, True))]
    shuffled = [s for _ in range(100) for s in steps(rng.sample(tiles.full_set(True), 144))]
    assert sum(s <= 3 for s in stacked) >= 0.9 * len(stacked)
    assert sum(s <= 3 for s in shuffled) <= 0.25 * len(shuffled)


def test_the_rare_hands_are_stacked_too() -> None:
    orphans = set(ORPHANS)
    thirteen = 0
    for seed in range(1, 201):
        wall = stacked_wall(seed, False)
        thirteen += sum(len(set(dealt(wall, seat)) & orphans) >= 10 for seat in range(4))
    assert thirteen >= 5


def test_stacked_games_are_the_same_on_both_servers_even_one_that_never_ends(
    compare: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seed 4's wall washes out again and again after a few hands: it is compared over the hands both played."""
    require_original()
    assert compare.main(["--seeds", "4,9-11", "--stacked", "--jobs", "2", "--timeout", "8"]) == 0
    out = capsys.readouterr().out
    assert "seed 9: identical (" in out and "seed 11: identical (" in out
    # compared over the hands both finished, or whole where the original robots stalled alike on the way
    assert "seed 4: identical over " in out or "seed 4: identical, but neither game ended in 8 s" in out
    assert "neither game ended in 8 s" in out
    assert "4/4 games identical" in out


def test_the_blank_first_hand_is_settled_as_the_original_settles_it_when_the_discarder_pays_double(
    compare: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    """East's blank Heaven's Blessing counts as won on a discard nobody supplied: DiscDoubles doubles nobody."""
    require_original()
    options = ROOT / "tests" / "data" / "options" / "settlement-variants-1round.opt"
    assert compare.main(["--seeds", "171-172", "--stacked", "--jobs", "2", "--option-file", str(options)]) == 0
    assert "2/2 games identical" in capsys.readouterr().out


def test_a_game_where_an_original_robot_stalls_is_the_same_stall_on_both_servers(
    compare: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seed 116's hand 2 deals an original robot the thirteen orphans, which it declares wrongly and then waits."""
    require_original()
    options = ROOT / "tests" / "data" / "options" / "dead-wall-16-flowers-loose.opt"
    arguments = ["--seeds", "116", "--stacked", "--timeout", "4", "--option-file", str(options)]
    assert compare.main(arguments) == 0
    assert "seed 116: identical, but neither game ended in 4 s (the robots stalled alike)" in capsys.readouterr().out


def test_an_option_file_with_a_disabled_option_and_blank_descriptions_is_announced_as_the_original_does(
    compare: ModuleType, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A disabled option is played but not listed; a line without a description takes the last one given."""
    require_original()
    options = tmp_path / "quirks.opt"
    options.write_text(
        "GameOption 0 NumRounds nat 0 1 1 one round\n"
        "GameOption 0 ScoreLimit nat 0 1 500 \n"
        "GameOption 0 Flowers bool 1020 0 0 play using flowers and seasons\n"
        "GameOption 0 DiscDoubles bool 0 0 1\n"
    )
    assert compare.main(["--seeds", "9211", "--option-file", str(options)]) == 0
    assert "1/1 games identical" in capsys.readouterr().out


def test_original_robots_play_the_strategy_options_given_to_each(
    compare: ModuleType, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Robot 1 never chows at chowness -1 (it may still form one going out); the others, on the default, do."""
    require_original()
    arguments = ["--seeds", "9501", "--strategy", "1:chowness=-1", "--keep", str(tmp_path)]
    assert compare.main(arguments) == 0
    assert "seed 9501: identical (" in capsys.readouterr().out
    log = (tmp_path / "seed9501-original.log").read_bytes().decode("latin-1")
    chows = {line.split(" ")[2] for line in log.split("\r\n") if line.startswith(">") and " PlayerChows " in line}
    assert "1" not in chows and chows, chows


def test_strategies_drawn_from_the_seed_are_the_same_every_run_and_within_the_original_s_ranges(
    compare: ModuleType,
) -> None:
    args = compare.argparse.Namespace(strategies="random", strategy=[compare.parse_strategy("3:hysteresis=0")])
    drawn = [compare.strategies_for(seed, args) for seed in range(1, 41)]
    assert drawn == [compare.strategies_for(seed, args) for seed in range(1, 41)]
    assert all(robots[2]["hysteresis"] == "0" and "hysteresis" not in robots[0] for robots in drawn)
    for name, (low, high) in compare.RANGES.items():
        values = {float(robots[n][name]) for robots in drawn for n in range(4)}
        assert min(values) == low and max(values) == high, name


@pytest.mark.parametrize(
    ("strategy", "error"),
    [
        ("5:chowness=1", "the robot is 1 to 4 or all, not '5'"),
        ("all:chowness=2", "--chowness: 2 is outside -1..1"),
        ("all:boldness=1", "the option is one of chowness, hiddenness, majorness, suitness, hysteresis"),
        ("all=chowness:1", "expected ROBOT:NAME=VALUES"),
        ("2:suitness=0,0,0,0,0,1", "--suitness: at most 5 values, got 6"),
    ],
)
def test_a_bad_strategy_option_is_refused_before_any_game(
    compare: ModuleType, capsys: pytest.CaptureFixture[str], strategy: str, error: str
) -> None:
    with pytest.raises(SystemExit) as exit:
        compare.main(["--seeds", "1", "--strategy", strategy])
    assert exit.value.code == 2
    assert error in capsys.readouterr().err


def test_a_game_of_robots_that_never_go_out_is_compared_over_the_hands_both_servers_finished(
    compare: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    """At majorness 1 the original robots throw every minor tile and never go out: every hand washes out."""
    require_original()
    assert compare.main(["--seeds", "9531", "--strategy", "all:majorness=1", "--timeout", "2"]) == 0
    out = capsys.readouterr().out
    assert "seed 9531: identical over " in out and " hands; neither game ended in 2 s (original" in out


def test_a_game_only_the_original_ends_in_time_says_ours_was_slow_and_where_the_two_still_agree(
    compare: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    """A slow server is told from a stalled or diverging one by the hands it did finish."""
    require_original()
    slow = f"{sys.executable} -m mj.server --pause 1"  # a tenth of a second between tile movements
    assert compare.main(["--seeds", "1", "--timeout", "5", "--ours", slow]) == 1
    out = capsys.readouterr().out
    assert re.search(
        r"seed 1: our server failed: its game did not end in 5 s where the original's did; "
        r"(identical over the \d+ hands? it finished|it finished no hand)",
        out,
    ), out
