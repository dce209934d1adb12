"""A Beijing game saved and loaded keeps what its Upstairs doubles depend on (issue 20).

Whether the hand before was drawn and how many hands the banker has dealt in a row
are not in the original's save format (its Game line says neither); a Beijing save
keeps them in a comment the original's loader ignores, and a classical save stays
the original's. IMS saves carry the comment too, but IMS never reads it: an IMS save
written before the comment existed loads.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Final

import pytest

from mj.arena.exchange import exchange
from mj.arena.players import parse_player
from mj.arena.tally import GameTally
from mj.game.engine import Game
from mj.robot.agent import Robot
from mj.rules.base import HandScore, SeatHand, Settlement, Win
from mj.rules.beijing.rules import BEIJING
from mj.rules.ims.rules import IMS, IMSRules
from mj.rules.options import GameOptions
from mj.rules.ruleset import Ruleset
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


def _save_mid_hand(rules: Ruleset, seed: int, wanted: Callable[[Game], bool]) -> str:
    """The save of the first hand of a robots' game that is ``wanted``, 20 moves into it."""
    saved: list[str] = []

    def save_once(at: Table) -> None:
        if at.game is not None and wanted(at.game) and len(at.game.history) > 20:
            saved.append(at.save_text())
            raise _Saved

    table = Table(TableSettings(timeout=0, seed=seed, rules=rules))
    table.journal = save_once
    robots = [Robot(parse_player("default").strategy(seed)) for _ in range(4)]
    with pytest.raises(_Saved):
        exchange(table, robots, [f"Robot{n}" for n in range(1, 5)], GameTally(), None)
    return saved[0]


@functools.cache
def _beijing_save_in_its_second_hand() -> str:
    return _save_mid_hand(BEIJING, 3, lambda game: game.hands_started >= 2)


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


def _again_before(keyword: str, prefix: str) -> Callable[[str], str]:
    """The save with a second ``# keyword`` comment, of other values than the first's, before its first line
    that starts with ``prefix``."""
    again = {"AfterDraw": "AfterDraw 1 BankerHands 3", "CompletedRounds": "CompletedRounds      1"}[keyword]
    return lambda text: text.replace(f"\r\n{prefix}", f"\r\n# {again}\r\n{prefix}", 1)


@pytest.mark.parametrize(
    ("keyword", "first", "prefix", "second"),
    [
        ("AfterDraw", 7, "GameOption ", 8),
        ("AfterDraw", 7, "PlayerDeclaresSpecial ", r"\d+"),
        ("CompletedRounds", 6, "# ", 7),
    ],
    ids=["AfterDraw again in the head", "AfterDraw again in the hand", "CompletedRounds twice"],
)
def test_a_save_with_one_of_its_comments_twice_is_refused_in_one_line_naming_both(
    keyword: str, first: int, prefix: str, second: int | str, tmp_path: Path
) -> None:
    """Every save has each once (a file holds one hand, a journal is rewritten when a hand begins), and
    which of two holds is not known: the last one winning would resume a game in another state."""
    text = _beijing_save_in_its_second_hand()
    changed = _again_before(keyword, prefix)(text)
    assert changed.count(f"# {keyword} ") == 2, "precondition: the second comment is in"
    (tmp_path / "bad.mjs").write_bytes(changed.encode("latin-1"))
    assert_refused(
        run_server(tmp_path, "--rules", "beijing", "--load-game", "bad.mjs"),
        rf"line {second}: a second '# {keyword}' comment \(the first is line {first}\): a save has one, so which holds",
    )


def test_a_beijing_save_loaded_as_classical_is_refused_at_its_hand_start_comment_naming_its_rules(
    tmp_path: Path,
) -> None:
    """A classical save never has the comment (the original never writes it, nor do we), so a file that has
    it is another system's; the refusal names which, by its options."""
    (tmp_path / "beijing.mjs").write_bytes(_beijing_save_in_its_second_hand().encode("latin-1"))
    assert_refused(
        run_server(tmp_path, "--load-game", "beijing.mjs"),
        r"line 7: '# AfterDraw' in a save of the classical rules: only saves of rules the original cannot play "
        r"have it \(its options are those of the beijing rules: try --rules beijing\)$",
    )


@functools.cache
def _ims_save_of_a_banker_s_second_hand() -> str:
    return _save_mid_hand(IMS, 1, lambda game: game.banker_hands >= 1)


def test_an_ims_save_without_its_hand_start_comment_loads_as_after_a_won_hand_with_a_new_banker() -> None:
    """IMS journals written before the comment existed: IMS never reads what it says, so they resume."""
    text = _ims_save_of_a_banker_s_second_hand()
    whole = Table(TableSettings(rules=IMS))
    whole.load(text)
    assert whole.game is not None and whole.game.banker_hands >= 1, "precondition: the comment says something"
    old = Table(TableSettings(rules=IMS))
    old.load(text.replace(_hand_start_line(text) + "\r\n", ""))
    assert old.game is not None and (old.game.after_draw, old.game.banker_hands) == (False, 0)
    assert [m.encode() for m in old.game.history] == [m.encode() for m in whole.game.history], "the hand replays"


#: What a hand may have begun after, besides a won hand with a new banker: a drawn one, a banker's run.
_OTHER_STARTS: Final = ((True, 0), (False, 3), (True, 5))


def _begun_otherwise(win: Win) -> list[Win]:
    return [dataclasses.replace(win, after_draw=draw, banker_hands=run) for draw, run in _OTHER_STARTS]


class _IMSAnsweringAlikeAfterAnyHand(IMSRules):
    """IMS, asked again at every win with the hand begun otherwise: the answers must not change."""

    wins_checked = 0

    def goes_out(self, hand: SeatHand, win: Win, options: GameOptions) -> bool:
        answer = super().goes_out(hand, win, options)
        for other in _begun_otherwise(win):
            assert super().goes_out(hand, other, options) == answer
        return answer

    def score(self, hand: SeatHand, win: Win | None, options: GameOptions, special_scores: bool) -> HandScore:
        result = super().score(hand, win, options, special_scores)
        for other in _begun_otherwise(win) if win is not None else []:
            assert super().score(hand, other, options, special_scores) == result
        return result

    def settle_wins(self, wins: Sequence[tuple[int, HandScore, Win]], options: GameOptions) -> Settlement:
        settled = super().settle_wins(wins, options)
        for n in range(len(_OTHER_STARTS)):
            assert super().settle_wins([(s, r, _begun_otherwise(w)[n]) for s, r, w in wins], options) == settled
        self.wins_checked += 1
        return settled


def test_ims_never_reads_what_a_hand_began_after_so_its_saves_need_not_say_it() -> None:
    """The guard of ``reads_hand_start`` being false for IMS: in a whole game of robots, every win goes out,
    scores and settles alike whether the hand before was drawn or the banker had stayed."""
    assert not IMS.reads_hand_start and BEIJING.reads_hand_start
    rules = _IMSAnsweringAlikeAfterAnyHand()
    table = Table(TableSettings(timeout=0, seed=1, rules=rules))
    tally = GameTally()
    exchange(table, [Robot(parse_player("default").strategy(1)) for _ in range(4)], list("ABCD"), tally, None)
    assert tally.game_over and rules.wins_checked >= 10
