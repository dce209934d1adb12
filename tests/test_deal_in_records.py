"""scripts/deal_in_records.py: each recorded discard is labelled with whom it dealt in to (no games played here)."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from conftest import load_script
from mj.protocol import cmsg as C
from mj.robot.games import GameReport, LogSummary
from mj.seatview import HandResult, Phase, SeatView
from mj.tiles import kind_index, parse, parse_many

ROOT = Path(__file__).resolve().parent.parent
ME = 1


@pytest.fixture(scope="module")
def records() -> ModuleType:
    return load_script("deal_in_records")  # it imports the tournament it wraps, beside it


def playing(concealed: str) -> SeatView:
    view = SeatView(my_id=ME)
    view.seats = [1, 2, 3, 4]
    for pid in view.seats:
        view.player(pid)
    view.phase = Phase.PLAYING
    view.active = True
    view.concealed = parse_many(concealed)
    view.hand_no = 1
    return view


def test_only_the_last_discard_of_a_hand_we_fed_is_labelled_a_deal_in(records: ModuleType) -> None:
    view = playing("1B 2B 3B 5C 9D NW")
    view.apply(C.PlayerDiscards(2, parse("9C"), 1, False))
    records.record(view, view.hand_counts(), view.unseen_counts(), parse("NW"))
    records.record(view, view.hand_counts(), view.unseen_counts(), parse("9D"))
    view.hand_no = 2
    records.record(view, view.hand_counts(), view.unseen_counts(), parse("5C"))
    view.results = [HandResult(1, 3, ME, {}), HandResult(2, 4, 2, {})]
    report = GameReport(7, True, "", 1.0, LogSummary(), view=view, our_id=ME)
    labelled = records.labelled([report])
    assert [(r["hand"], r["tile"], r["dealt_to"]) for r in labelled] == [
        (1, kind_index(parse("NW")), None),
        (1, kind_index(parse("9D")), 3),
        (2, kind_index(parse("5C")), None),  # player 2 fed player 4
    ]
    assert {r["seed"] for r in labelled} == {7}
    opponents = labelled[0]["opponents"]
    assert [o["pid"] for o in opponents] == [2, 3, 4] and opponents[0]["discards"] == 1


def test_a_compiled_robot_is_refused_with_one_line_rather_than_recorded_as_nothing(
    records: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(records, "compiled", lambda: ["mj.robot.levels"])
    assert records.main(["--records", str(tmp_path / "d.jsonl"), "--seeds", "1-1"]) == 2
    assert "mj.robot.levels is compiled" in capsys.readouterr().err
    assert not (tmp_path / "d.jsonl").exists()
