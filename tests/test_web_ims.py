"""The browser gateway under the IMS rules: the seed's buttons, its scoring window, its words in the move log.

What the seat may do is still the rules' answer (``view.legal_moves()``); the gateway
names each move as the rule system says (:meth:`~mj.rules.ruleset.Ruleset.move_names`).
"""

from __future__ import annotations

import pytest

from mj import tiles
from mj.melds import KongOrigin, Meld, kong
from mj.protocol import cmsg as C
from mj.protocol import pmsg as P
from mj.protocol.fields import ChowPosition
from mj.rules import registry
from mj.rules.ims.rules import IMS
from mj.seatview import Pending, Phase, SeatView
from mj.web import app, snapshot
from mj.web.dialogs import ActionError, Dialog, choose, current
from mj.web.seatlog import Announcement, SeatLog
from test_web_dialogs import seat as seat_under


def seat(hand: str, pending: tuple[int, str] | None = None) -> tuple[SeatView, SeatLog]:
    """Player 1 sitting East at an IMS table (North, id 4, plays just before us), holding ``hand``."""
    return seat_under(hand, pending, IMS)


def labels(dialog: Dialog | None) -> dict[str, bool]:
    assert dialog is not None
    return {b.label: b.enabled for b in dialog.buttons}


HAND = "2B 3B 5C 5C 5C 7D 7D EW EW RD RD GD GD"


def test_the_successor_bids_draw_connect_at_three_positions_triplet_quadruplet_or_mahjong() -> None:
    view, log = seat(HAND, pending=(4, "4B"))
    dialog = current(view, log)
    assert labels(dialog) == {
        "Draw": True,
        "Connect Lower": False,
        "Connect Middle": False,
        "Connect Upper": True,
        "Triplet": False,
        "Quadruplet": False,
        "MahJong": False,
    }
    assert dialog is not None and dialog.default == "draw" and dialog.tile == "4B"
    assert choose(dialog, "draw", None) == P.NoClaim(9)
    assert choose(dialog, "connect-upper", None) == P.Chow(9, ChowPosition.UPPER)
    assert dialog.button("connect-upper").shows == ("2B", "3B", "4B")  # type: ignore[union-attr]
    with pytest.raises(ActionError):
        choose(dialog, "connect-lower", None)


def test_the_other_players_bid_pass_triplet_quadruplet_or_mahjong() -> None:
    view, log = seat(HAND, pending=(3, "5C"))
    dialog = current(view, log)
    assert labels(dialog) == {"Pass": True, "Triplet": True, "Quadruplet": True, "MahJong": False}
    assert dialog is not None and dialog.default == "pass"
    assert choose(dialog, "triplet", None) == P.Pung(9)
    assert choose(dialog, "quadruplet", None) == P.Kong(9)
    with pytest.raises(ActionError, match="not possible now"):
        choose(dialog, "draw", None)


def test_in_turn_discard_takes_a_held_tile_and_quadruplet_the_four_held() -> None:
    view, log = seat("2B 3B 5C 5C 5C 5C 7D EW EW RD RD GD GD 9D")
    dialog = current(view, log)
    assert labels(dialog) == {"Discard": True, "Quadruplet": True, "MahJong": False}
    assert dialog is not None and dialog.default == "discard" and dialog.select == "9D"
    assert choose(dialog, "discard", "9D") == P.Discard(tiles.parse("9D"), False)
    assert choose(dialog, "quadruplet", "5C") == P.DeclareClosedKong(tiles.parse("5C"))
    with pytest.raises(ActionError, match="not possible with"):
        choose(dialog, "quadruplet", "2B")


def test_a_complete_hand_in_turn_offers_mahjong() -> None:
    view, log = seat("1B 2B 3B 4C 5C 6C 7D 8D 9D EW EW EW RD RD")
    dialog = current(view, log)
    assert labels(dialog)["MahJong"]
    assert choose(dialog, "mahjong", None) == P.MahJong(0)


@pytest.mark.parametrize(("rules", "set_name"), [("ims", "quadruplet"), ("beijing", "kong"), ("classical", "kong")])
def test_a_kong_that_may_be_robbed_is_named_in_the_rule_system_s_word(rules: str, set_name: str) -> None:
    """The page says "Robot2 (South) makes a quadruplet of 5 Bamboo: rob it?" at an IMS table, as its title
    asks "Rob the quadruplet?" (it said kong, a word IMS never uses)."""
    view, log = seat_under("1B 2B 3B 4C 5C 6C 7D 8D 9D RD RD 4B 6B", None, registry.get(rules))
    view.turn = 2
    view.pending = Pending(2, tiles.parse("5B"), 9, KongOrigin.ANNEXED)
    dialog = current(view, log)
    assert dialog is not None and dialog.kind == "rob"
    assert dialog.to_json()["set_name"] == set_name and dialog.title == f"Rob the {set_name}?"


@pytest.mark.parametrize(
    ("rules", "declares_hands", "reveals_flowers"),
    [("ims", False, True), ("beijing", False, True), ("classical", True, False)],
)
def test_the_snapshot_says_whether_hands_and_flowers_are_declared_for_the_playing_preferences(
    rules: str, declares_hands: bool, reveals_flowers: bool
) -> None:
    """The page offers to declare losing and winning hands only where the rules have a declaring phase,
    and flowers only where their holders declare them: the rule system's own course says which."""
    view, log = seat_under(HAND, None, registry.get(rules))
    course = snapshot.build(view, log, None, {})["game"]["course"]
    assert course == {"declares_hands": declares_hands, "reveals_flowers": reveals_flowers}


def test_the_classical_dialogs_keep_the_manual_s_names() -> None:
    view = SeatView(1)
    view.seats = [1, 2, 3, 4]
    for pid in view.seats:
        view.player(pid)
    view.active, view.phase = True, Phase.PLAYING
    view.concealed = tiles.parse_many(HAND)
    view.pending = Pending(4, tiles.parse("4B"), 9)
    log = SeatLog(view)
    assert snapshot.build(view, log, None, {})["game"]["mahjong"] == "Mah Jong!"
    assert labels(current(view, log)) == {
        "No claim": True,
        "Chow": True,
        "Pung": False,
        "Kong": False,
        "Mah Jong!": False,
    }


def feed(view: SeatView, log: SeatLog, *messages: C.CMsg) -> None:
    for msg in messages:
        view.apply(msg)
        log.apply(msg)


def test_the_scoring_window_shows_each_winner_s_fan_elements_fan_bonus_score_and_every_payment() -> None:
    view, log = seat(HAND, pending=(4, "4B"))
    for pid, name in zip(view.seats, ("Me", "Bo", "Cy", "Di"), strict=True):
        view.player(pid).name = name
    view.player(3).melds.append(tiles_kong_hidden())
    feed(
        view,
        log,
        C.PlayerRevealsConcealedKong(3, tiles.parse("RD")),
        C.HandScore(2, 24, "Concealed Snake 3\nDealer 5"),
        C.ScoreFigure(2, 3, "fan"),
        C.ScoreFigure(2, 4, "bonus"),
        C.ScoreFigure(2, 3, "fan:Concealed Snake"),
        C.ScoreFigure(2, 4, "bonus:Flowers"),
        C.Payment(4, 2, 24),
        C.Payment(1, 2, 4),
        C.Payment(3, 2, 4),
        C.Settlement(-4, 32, -4, -24, "payments"),
    )
    assert view.score_figures[2] == [("fan", 3), ("bonus", 4), ("fan:Concealed Snake", 3), ("bonus:Flowers", 4)]
    assert view.payments == [(4, 2, 24), (1, 2, 4), (3, 2, 4)]
    scoring = snapshot.build(view, log, None, {})["scoring"]
    winner = next(row for row in scoring["players"] if row["id"] == 2)
    assert winner["score"] == 24
    assert winner["figures"] == {
        "totals": {"fan": 3, "bonus": 4},
        "elements": [
            {"kind": "fan", "name": "Concealed Snake", "value": 3},
            {"kind": "bonus", "name": "Flowers", "value": 4},
        ],
    }
    assert all(row["figures"] is None for row in scoring["players"] if row["id"] != 2)
    assert scoring["payments"] == [
        {"payer": "Di", "payee": "Bo", "amount": 24},
        {"payer": "Me", "payee": "Bo", "amount": 4},
        {"payer": "Cy", "payee": "Bo", "amount": 4},
    ]
    assert scoring["revealed"] == [{"name": "Cy", "tile": "RD"}]
    assert view.player(3).melds[0].tile == tiles.parse("RD")


def tiles_kong_hidden() -> Meld:
    """A concealed quadruplet as the other seats see it until the hand ends: four blanks."""
    return kong(tiles.BLANK, KongOrigin.CONCEALED)


def test_the_move_log_and_the_claim_announcements_use_the_seed_s_words() -> None:
    view, log = seat(HAND, pending=(4, "4B"))
    feed(view, log, C.PlayerClaimsPung(2, 9), C.PlayerPungs(2, tiles.parse("4B")))
    assert Announcement(0, 2, "Triplet!") in log.drain()
    lines = [m.text for m in log.moves]
    assert any(line.endswith("bids Triplet") for line in lines), lines
    assert any("makes a Triplet of 4B" in line for line in lines), lines
    assert not any("ung" in line for line in lines), lines
    assert snapshot.build(view, log, None, {})["game"]["mahjong"] == "MahJong!"


def test_a_new_local_game_s_table_options_are_checked_and_written_for_the_server() -> None:
    path = app._option_file(IMS, {"CountFlowers": False, "MinimumFan": 2, "MultipleWins": True})
    assert path is not None
    try:
        lines = path.read_text().splitlines()
    finally:
        path.unlink()
    assert [[*line.split()[:3], line.split()[6]] for line in lines] == [
        ["GameOption", "0", "CountFlowers", "0"],
        ["GameOption", "0", "MinimumFan", "2"],
        ["GameOption", "0", "MultipleWins", "1"],
    ]
    assert app._option_file(IMS, None) is None


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"MinimumFan": 3}, "MinimumFan must be 0 or 2"),
        ({"Flowers": True}, "no table option 'Flowers'"),
        ({"MinimumFan": "two"}, "wants a number"),
        (["MinimumFan"], "an object"),
    ],
)
def test_a_bad_table_option_is_refused_in_one_line(options: object, message: str) -> None:
    with pytest.raises(app.RequestError, match=message):
        app._option_file(IMS, options)


def test_the_new_game_panel_is_offered_each_rule_system_with_its_own_table_options() -> None:
    systems = {s["name"]: s for s in app._rule_systems()}
    assert systems["classical"]["options"] == []
    assert [o["name"] for o in systems["ims"]["options"]] == ["CountFlowers", "MultipleWins", "MinimumFan"]
    assert app._rules("ims", registry.DEFAULT) is IMS
    with pytest.raises(app.RequestError, match="unknown rule system"):
        app._rules("mahjongg", registry.DEFAULT)
