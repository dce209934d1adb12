"""The browser gateway under the Beijing rules (seed 004): the seed's calls, the wild tiles, each payer's doubles.

What the seat may do is the rules' answer (``view.legal_moves()``); the gateway names
each move as the Beijing rule system says (:mod:`mj.rules.beijing.names`).
"""

from __future__ import annotations

from typing import Any

from mj.calculator import parse_request
from mj.protocol import cmsg as C
from mj.rules.beijing import options as opt
from mj.rules.beijing.figures import payer_doubles
from mj.rules.beijing.scoring import SEAT_NAMES, score
from mj.rules.ims.rules import IMS
from mj.seatview import SeatView
from mj.web import snapshot
from mj.web.seatlog import SeatLog
from test_web_dialogs import seat as seat_under

#: West (id 3) wins North's 9D; East Wind turned up, so South Wind is wild and the hand holds none.
WIN: dict[str, Any] = {
    "rules": "beijing",
    "seat": "W",
    "round": "E",
    "concealed": "2B 3B 4B 4C 5C 6C 7D 8D 9D 3D 4D 5D EW EW",
    "winning_tile": "9D",
    "how": "discard",
    "discarder": "N",
    "wild_indicator": "EW",
}


def feed(view: SeatView, log: SeatLog, *messages: C.CMsg) -> None:
    for msg in messages:
        view.apply(msg)
        log.apply(msg)


def named_table() -> tuple[SeatView, SeatLog]:
    """Player 1 sitting East (ids 1-4 East to North), every player named."""
    view, log = seat_under("2B 3B 5C 5C 5C 7D 7D EW EW RD RD GD GD", None, IMS)
    for pid, name in zip(view.seats, ("Me", "Bo", "Cy", "Di"), strict=True):
        view.player(pid).name = name
    return view, log


def test_the_scoring_window_shows_what_each_payer_owes_and_for_which_doubles() -> None:
    request = parse_request(WIN)
    scored = score(request.hand, opt.DEFAULTS, request.wild_indicator or 0)
    view, log = named_table()
    feed(
        view,
        log,
        C.HandScore(3, scored.total, scored.text),
        C.ScoreFigure(3, scored.doubles, "doubles"),
        *(C.ScoreFigure(3, n, f"double:{name}") for name, n in scored.shared),
        *(C.ScoreFigure(3, p.amount, f"owes:{SEAT_NAMES[p.payer]}") for p in scored.payers),
        *(C.ScoreFigure(3, value, name) for name, value in payer_doubles(scored)),
        *(C.Payment(view.seats[p.payer], 3, p.amount) for p in scored.payers),
        C.Settlement(-8, -4, 20, -8, "payments"),
    )
    winner = next(row for row in snapshot.build(view, log, None, {})["scoring"]["players"] if row["id"] == 3)
    # Closed and Straight for every payer; Banker for East alone, Own Tile for North (the discarder) alone.
    assert winner["figures"]["totals"] == {"doubles": 2}
    assert winner["figures"]["elements"] == [
        {"kind": "double", "name": "Closed", "value": 1},
        {"kind": "double", "name": "Straight", "value": 1},
    ]
    assert winner["figures"]["payers"] == [
        {"name": "Me", "wind": "E", "amount": 8, "doubles": [
            {"name": "Banker", "value": 1}, {"name": "Closed", "value": 1}, {"name": "Straight", "value": 1}]},
        {"name": "Bo", "wind": "S", "amount": 4, "doubles": [
            {"name": "Closed", "value": 1}, {"name": "Straight", "value": 1}]},
        {"name": "Di", "wind": "N", "amount": 8, "doubles": [
            {"name": "Closed", "value": 1}, {"name": "Own Tile", "value": 1}, {"name": "Straight", "value": 1}]},
    ]  # fmt: skip
    assert winner["score"] == 20


def test_a_payer_figure_naming_a_seat_the_hand_lacks_is_left_out_and_changes_nothing_else() -> None:
    view, log = named_table()
    feed(
        view,
        log,
        C.HandScore(3, 4, "Closed 1 dbl"),
        C.ScoreFigure(3, 4, "owes:Centre"),
        C.ScoreFigure(3, 1, "for:Centre:Banker"),
        C.ScoreFigure(3, 1, "for:South"),
        C.ScoreFigure(3, 4, "owes:South:Banker"),
        C.ScoreFigure(3, 4, "owes:South"),
        C.Settlement(0, -4, 4, 0, "payments"),
    )
    winner = next(row for row in snapshot.build(view, log, None, {})["scoring"]["players"] if row["id"] == 3)
    assert winner["figures"]["payers"] == [{"name": "Bo", "wind": "S", "amount": 4, "doubles": []}]
