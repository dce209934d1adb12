"""A Beijing game saved and loaded keeps what its Upstairs doubles depend on (issue 20).

Whether the hand before was drawn and how many hands the banker has dealt in a row
are not in the original's save format (its Game line says neither); a Beijing save
keeps them in a comment the original's loader ignores, and a classical save stays
the original's.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

import pytest

from mj.arena.exchange import exchange
from mj.arena.players import parse_player
from mj.arena.tally import GameTally
from mj.robot.agent import Robot
from mj.rules.beijing.rules import BEIJING
from mj.table import LoadError, Table, TableSettings
from test_input_files import assert_refused, run_server


def test_a_beijing_save_loads_with_the_last_hand_drawn_and_the_banker_run_kept_at_every_hand() -> None:
    checked: list[tuple[bool, int]] = []

    def at_each_deal(at: Table) -> None:
        game = at.game
        if game is None or game.hands_started == hands_seen[0]:
            return
        hands_seen[0] = game.hands_started
        loaded = Table(TableSettings(rules=BEIJING))
        loaded.load(at.save_text())
        assert loaded.game is not None
        kept = (loaded.game.after_draw, loaded.game.banker_hands)
        assert kept == (game.after_draw, game.banker_hands), f"hand {game.hands_started}"
        checked.append(kept)

    # whole games from successive seeds until both facts have been carried over a save
    for seed in range(1, 21):
        hands_seen = [0]
        table = Table(TableSettings(timeout=0, seed=seed, rules=BEIJING))
        table.journal = at_each_deal
        robots = [Robot(parse_player("level=3,generic=1").strategy(seed)) for _ in range(4)]  # they draw more hands
        tally = GameTally()
        exchange(table, robots, [f"Robot{n}" for n in range(1, 5)], tally, None)
        assert tally.game_over
        if any(after_draw for after_draw, _ in checked) and any(run >= 2 for _, run in checked):
            break
    assert any(after_draw for after_draw, _ in checked), "no hand after a drawn one in 20 games"
    assert any(run >= 2 for _, run in checked), "no banker stayed twice in 20 games"


def test_a_classical_save_says_nothing_of_the_hand_before() -> None:
    table = Table(TableSettings(timeout=0, seed=7))
    texts: list[str] = []

    def at_each_deal(at: Table) -> None:
        if at.game is not None and at.game.hands_started > len(texts):
            texts.append(at.save_text())

    table.journal = at_each_deal
    robots = [Robot(parse_player("default").strategy(7)) for _ in range(4)]
    exchange(table, robots, [f"Robot{n}" for n in range(1, 5)], GameTally(), None)
    assert len(texts) >= 16 and not any("AfterDraw" in text for text in texts)


class _Saved(Exception):
    """Stops the game once it has been saved."""


@functools.cache
def _beijing_save_in_its_second_hand() -> str:
    saved: list[str] = []

    def save_once(at: Table) -> None:
        if at.game is not None and at.game.hands_started >= 2 and len(at.game.history) > 20:
            saved.append(at.save_text())
            raise _Saved

    table = Table(TableSettings(timeout=0, seed=3, rules=BEIJING))
    table.journal = save_once
    robots = [Robot(parse_player("default").strategy(3)) for _ in range(4)]
    with pytest.raises(_Saved):
        exchange(table, robots, [f"Robot{n}" for n in range(1, 5)], GameTally(), None)
    return saved[0]


@pytest.mark.parametrize(
    "damaged",
    ["AfterDraw 7 BankerHands 0", "AfterDraw 1 BankerHands -5", "AfterDraw x BankerHands y", "AfterDraw 1",
     "AfterDraw 1 BankerHands 99999999999999999999"],
)  # fmt: skip
def test_a_damaged_hand_start_comment_is_refused_not_read_as_no_draw_and_no_run(damaged: str) -> None:
    text = _beijing_save_in_its_second_hand()
    written = next(line for line in text.split("\r\n") if line.startswith("# AfterDraw "))
    whole = Table(TableSettings(rules=BEIJING))
    whole.load(text.replace(written, "# AfterDraw 1 BankerHands 2"))
    assert whole.game is not None and (whole.game.after_draw, whole.game.banker_hands) == (True, 2), "the guard"
    with pytest.raises(LoadError, match=r"line \d+: expected '# AfterDraw 0\|1 BankerHands N'"):
        Table(TableSettings(rules=BEIJING)).load(text.replace(written, f"# {damaged}"))


def _hand_start_line(text: str) -> str:
    return next(line for line in text.split("\r\n") if line.startswith("# AfterDraw "))


@pytest.mark.parametrize(
    "misspelt", ["AfterDraws 1 BankerHands 2", "afterdraw 1 BankerHands 2", "AftrDraw 1 BankerHands 2"]
)
def test_a_misspelt_hand_start_comment_is_refused_not_ignored_and_nothing_is_loaded(misspelt: str) -> None:
    """Read as free text it would be ignored, and the hand scored as if the one before were won and the
    banker new."""
    text = _beijing_save_in_its_second_hand()
    table = Table(TableSettings(rules=BEIJING))
    word = misspelt.split()[0]
    with pytest.raises(LoadError, match=rf"^line \d+: unknown comment keyword '{word}' \(did you mean AfterDraw\?\)$"):
        table.load(text.replace(_hand_start_line(text), f"# {misspelt}"))
    assert table.game is None and not table.players, "nothing was loaded"


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (
            lambda text: text.replace(_hand_start_line(text) + "\r\n", ""),
            r"no '# AfterDraw 0\|1 BankerHands N' comment",
        ),
        (lambda text: text.replace("# CompletedRounds", "# was CompletedRounds"), r"no '# CompletedRounds N' comment"),
    ],
    ids=["AfterDraw deleted", "CompletedRounds made free text"],
)
def test_a_beijing_save_without_a_comment_it_always_has_is_refused_in_one_line_with_status_2(
    change: Callable[[str], str], reason: str, tmp_path: Path
) -> None:
    """The original cannot write a Beijing save, so no garbage comment of its stands in for the count."""
    text = _beijing_save_in_its_second_hand()
    changed = change(text)
    assert changed != text, "precondition: the change applies"
    (tmp_path / "bad.mjs").write_bytes(changed.encode("latin-1"))
    assert_refused(run_server(tmp_path, "--rules", "beijing", "--load-game", "bad.mjs"), reason)
