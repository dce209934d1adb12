"""The browser gateway under the Beijing rules (seed 004): the seed's calls, the wild tiles, each payer's doubles.

What the seat may do is the rules' answer (``view.legal_moves()``); the gateway names
each move as the Beijing rule system says (:meth:`BeijingRules.move_names`) and
marks the wild tiles the indicator names.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mj import tiles
from mj.protocol import cmsg as C
from mj.protocol import pmsg as P
from mj.protocol.fields import ChowPosition
from mj.rules.base import SeatHand, Win, WinSource
from mj.rules.beijing.rules import BEIJING
from mj.seatview import SeatView
from mj.server.cli import read_option_file
from mj.web import app, snapshot
from mj.web.dialogs import ActionError, Dialog, choose, current
from mj.web.seatlog import Announcement, SeatLog
from test_web import Xmj, browser_tab, run, running_xmj
from test_web_dialogs import seat as seat_under

HAND = "2B 3B 5C 5C 7D 7D EW EW RD RD GD GD 9D"
#: Nine bamboos in a row, a pair of East Wind and a pair of 5 Characters: 5C wins it (a pung), as does EW.
READY = "1B 2B 3B 4B 5B 6B 7B 8B 9B EW EW 5C 5C"


def seat(hand: str, pending: tuple[int, str] | None = None, indicator: str = "NW") -> tuple[SeatView, SeatLog]:
    """Player 1 sitting East at a Beijing table (North, id 4, plays just before us), holding ``hand``.

    ``indicator`` is the tile turned up (North Wind by default: East Wind is wild).
    """
    view, log = seat_under(hand, pending, BEIJING)
    feed(view, log, C.WildIndicator(tiles.parse(indicator)))
    for pid, name in zip(view.seats, ("Me", "Bo", "Cy", "Di"), strict=True):
        view.player(pid).name = name
    return view, log


def feed(view: SeatView, log: SeatLog, *messages: C.CMsg) -> None:
    for msg in messages:
        view.apply(msg)
        log.apply(msg)


def labels(dialog: Dialog | None) -> dict[str, bool]:
    assert dialog is not None
    return {b.label: b.enabled for b in dialog.buttons}


def test_the_discarder_s_successor_is_offered_pass_the_three_chows_pung_kong_and_hu() -> None:
    view, log = seat(HAND, pending=(4, "4B"))
    dialog = current(view, log)
    assert labels(dialog) == {
        "Pass": True,
        "Chow Lower": False,
        "Chow Middle": False,
        "Chow Upper": True,
        "Pung": False,
        "Kong": False,
        "Hu": False,
    }
    assert dialog is not None and dialog.default == "pass" and dialog.tile == "4B"
    assert choose(dialog, "chow-upper", None) == P.Chow(9, ChowPosition.UPPER)
    assert dialog.button("chow-upper").shows == ("2B", "3B", "4B")  # type: ignore[union-attr]
    # the calls keep their initials; the button letting the tile go yields its p to Pung
    assert {b.label: b.key for b in dialog.buttons} == {
        "Pass": "a", "Chow Lower": "l", "Chow Middle": "m", "Chow Upper": "u", "Pung": "p", "Kong": "k", "Hu": "h",
    }  # fmt: skip


def test_the_other_players_are_not_shown_the_chows_which_only_the_successor_may_make() -> None:
    view, log = seat(HAND, pending=(3, "7D"))
    assert labels(current(view, log)) == {"Pass": True, "Pung": True, "Kong": False, "Hu": False}


def test_no_open_set_of_a_wild_tile_is_offered() -> None:
    # 4C turned up: 5C is wild; a pair of 5C may not make an open pung with a discarded 5C
    view, log = seat(HAND, pending=(3, "5C"), indicator="4C")
    assert labels(current(view, log)) == {"Pass": True, "Pung": False, "Kong": False, "Hu": False}
    view, log = seat(HAND, pending=(3, "5C"), indicator="NW")
    assert labels(current(view, log))["Pung"]


def test_a_discarded_wild_is_never_offered_for_hu_even_at_its_face_value() -> None:
    view, log = seat(READY, pending=(3, "5C"), indicator="RD")  # Green Dragon wild: none held
    assert labels(current(view, log))["Hu"]
    view, log = seat(READY, pending=(3, "5C"), indicator="4C")
    dialog = current(view, log)
    assert not labels(dialog)["Hu"]
    with pytest.raises(ActionError, match="Hu is not possible now"):
        choose(dialog, "hu", None)


def test_in_turn_discard_kong_and_hu_with_discard_by_default_never_preselecting_a_wild_and_a_warning() -> None:
    # 9D turned up: 1D is wild, and just drawn
    view, log = seat("2B 3B 5C 5C 5C 5C 7D EW EW RD RD GD GD 1D", indicator="9D")
    dialog = current(view, log)
    assert labels(dialog) == {"Discard": True, "Kong": True, "Hu": False}
    assert dialog is not None and dialog.default == "discard" and dialog.select == "GD"
    assert dialog.text == "Throwing away a wild tile (1D) loses your right to win this hand."
    # cut at the tile, which the page names in words as it names every tile ("1 Circle")
    assert dialog.to_json()["parts"] == ["Throwing away a wild tile (", "1D", ") loses your right to win this hand."]
    assert choose(dialog, "discard", "1D") == P.Discard(tiles.parse("1D"), False)  # allowed: the hand then dies
    assert choose(dialog, "kong", "5C") == P.DeclareClosedKong(tiles.parse("5C"))
    view, log = seat("2B 3B 5C 5C 5C 5C 7D EW EW RD RD GD GD 1D", indicator="RD")  # Green Dragon wild
    dialog = current(view, log)
    assert dialog is not None and dialog.select == "1D"
    assert "wild" in dialog.text  # GD is held
    view, log = seat("2B 3B 5C 5C 5C 5C 7D EW EW RD RD GD GD 1D", indicator="8C")  # 9C wild: none held
    assert current(view, log).text == ""  # type: ignore[union-attr]


def test_a_double_click_does_not_throw_away_a_wild_and_a_hand_that_did_is_said_to_be_dead() -> None:
    view, log = seat("2B 3B 5C 5C 5C 5C 7D EW EW RD RD GD GD 1D", indicator="9D")  # 1D wild
    dialog = current(view, log)
    assert dialog is not None and dialog.guarded == ("1D",)  # the page asks for the button instead
    assert not snapshot.build(view, log, dialog, {})["players"][0]["dead"]
    feed(view, log, C.PlayerDiscards(1, tiles.parse("1D"), 9, False))
    feed(view, log, C.PlayerDraws(2, tiles.BLANK), C.PlayerDiscards(2, tiles.parse("9B"), 10, False))
    claim = current(view, log)
    assert claim is not None and claim.kind == "claim" and "can no longer win" in claim.text
    feed(view, log, C.PlayerDraws(3, tiles.BLANK), C.PlayerDiscards(3, tiles.parse("9B"), 11, False))
    feed(view, log, C.PlayerDraws(4, tiles.BLANK), C.PlayerDiscards(4, tiles.parse("9B"), 12, False))
    feed(view, log, C.PlayerDraws(1, tiles.parse("1D")))
    dialog = current(view, log)
    assert dialog is not None and dialog.kind == "turn" and dialog.guarded == ()  # nothing left to lose
    assert dialog.text == "You threw away a wild tile: you can no longer win this hand."
    players = snapshot.build(view, log, dialog, {})["players"]
    assert [p["dead"] for p in players] == [True, False, False, False]


def test_the_snapshot_shows_the_indicator_and_marks_the_wild_tiles_only_under_a_system_with_wilds() -> None:
    view, log = seat(HAND, indicator="WD")  # White wraps to Red
    state = snapshot.build(view, log, None, {})
    assert (state["wall"]["indicator"], state["wall"]["wild"]) == ("WD", "RD")
    assert state["marks"] == {"RD": ["wild"]}
    assert any("WD is turned up: RD is wild this hand" in m["text"] for m in state["moves"])
    classical, classical_log = seat_under(HAND)
    state = snapshot.build(classical, classical_log, None, {})
    assert (state["wall"]["indicator"], state["wall"]["wild"], state["marks"]) == (None, None, {})


def test_the_indicator_comes_off_the_head_of_the_wall_the_page_draws() -> None:
    _, log = seat(HAND)
    assert log.live_drawn == 1


def test_hu_is_announced_and_logged_in_the_seed_s_word() -> None:
    view, log = seat(HAND, pending=(4, "4B"))
    view.hand_no = 3
    feed(view, log, C.PlayerClaimsMahJong(2, 9))
    assert Announcement(3, 2, "Hu!") in log.drain()  # taken off the table when hand 4 begins
    assert snapshot.build(view, log, None, {})["game"]["mahjong"] == "Hu!"


def test_a_discard_is_called_for_in_the_seed_s_words_not_bid_for_as_at_an_ims_table() -> None:
    view, log = seat(HAND, pending=(4, "4B"))
    dialog = current(view, log)
    assert dialog is not None and dialog.title == "Call for the discard"
    feed(view, log, C.PlayerClaimsPung(3, 9), C.PlayerClaimsMahJong(2, 9))
    said = [line.text for line in log.moves]
    assert said[-2:] == ["Cy (West) calls Pung", "Bo (South) calls Hu"], said


def test_the_scoring_window_shows_what_each_payer_owes_and_for_which_doubles() -> None:
    # West (id 3) wins North's 9D with a closed straight hand; East (id 1) is the banker
    view, log = seat(HAND, indicator="EW")
    concealed = tiles.parse_many("2B 3B 4B 4C 5C 6C 7D 8D 9D 3D 4D 5D EW EW")
    hand = SeatHand((), tuple(concealed), (), tiles.WINDS[2], tiles.EAST_WIND, tiles.parse("EW"))
    win = Win(tiles.parse("9D"), WinSource.DISCARD, 0, (0,) * 34, False, False, False, False, False, 0, False, 3)
    result = BEIJING.score(hand, win, view.options, True)
    settled = BEIJING.settle_wins([(2, result, win)], view.options)
    feed(
        view,
        log,
        C.HandScore(3, result.score, result.text),
        *(C.ScoreFigure(3, value, name) for name, value in result.figures),
        *(C.Payment(view.seats[p.payer], view.seats[p.payee], p.amount) for p in settled.payments),
        C.Settlement(*settled.changes, settled.text),
    )
    scoring = snapshot.build(view, log, None, {})["scoring"]
    winner = next(row for row in scoring["players"] if row["id"] == 3)
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
    assert sorted(scoring["payments"], key=lambda p: p["payer"]) == [
        {"payer": "Bo", "payee": "Cy", "amount": 4},
        {"payer": "Di", "payee": "Cy", "amount": 8},
        {"payer": "Me", "payee": "Cy", "amount": 8},
    ]


def test_a_payer_figure_naming_no_seat_of_the_hand_is_left_out_and_changes_nothing_else() -> None:
    view, log = seat(HAND)
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


def test_the_new_game_panel_offers_beijing_with_all_its_table_options_and_writes_them_for_the_server() -> None:
    systems = {s["name"]: s for s in app._rule_systems()}
    offered: dict[str, Any] = {o["name"]: o["value"] for o in systems["beijing"]["options"]}
    assert {"Unit", "HeavenlyWin", "VoidSuit", "DiscPaysAll", "NoWinAfterPass", "WallEnd"} <= set(offered)
    assert offered["Unit"] == 1 and offered["VoidSuit"] == 0  # every variation off by default
    chosen = {**offered, "Unit": 2, "VoidSuit": True, "WallEnd": 2}  # the panel sends every option
    path = app._option_file(BEIJING, chosen)
    assert path is not None
    try:
        written = {line.split()[2]: line.split()[6] for line in path.read_text().splitlines()}
        read_back = {entry.name: entry.value for entry in read_option_file(path, BEIJING)}
    finally:
        path.unlink()
    assert len(written) == len(offered)
    assert (written["Unit"], written["VoidSuit"], written["WallEnd"], written["AtMostOnce"]) == ("2", "1", "2", "0")
    # the server takes every option the panel wrote, under the name the panel offered
    assert set(read_back) == set(offered) and read_back["VoidSuit"] == 1 and read_back["WallEnd"] == 2
    with pytest.raises(app.RequestError, match="Unit"):
        app._option_file(BEIJING, {"Unit": 3})


def save_a_beijing_game(folder: Path) -> dict[str, Any]:
    """A Beijing game saved as ``beijing.mjs`` in ``folder`` while the table waits on our claim; what it showed."""
    saved: dict[str, Any] = {}

    async def play_and_save(xmj: Xmj) -> None:
        async with browser_tab(xmj.base, xmj.token) as tab:
            # saved while the table waits for our answer to a discard, so nothing moves meanwhile
            await tab.play_until(
                lambda s: s["wall"]["indicator"] is not None and (s["dialog"] or {}).get("kind") == "claim"
            )
            await tab.send({"type": "save", "filename": "beijing"})
            state = await tab.until(lambda s: any(n.startswith("Game saved as beijing.mjs") for n in s["notices"]))
            saved.update(wall=state["wall"], marks=state["marks"], discards=[p["discards"] for p in state["players"]])

    with running_xmj("--timeout", "0", "--seed", "6", "--exit-on-disconnect", cwd=folder,
                     options=("--rules", "beijing", "--level", "1")) as xmj:  # fmt: skip
        run(play_and_save(xmj))
    return saved


def test_a_beijing_game_saved_from_the_page_resumes_with_its_indicator_and_wilds(tmp_path: Path) -> None:
    saved = save_a_beijing_game(tmp_path)

    async def resume(xmj: Xmj) -> None:
        async with browser_tab(xmj.base, xmj.token) as tab:
            await tab.receive()
            await tab.send({"type": "resume", "file": "beijing.mjs", "name": "Alice", "timeout": 0, "rules": "beijing"})
            state = await tab.until(lambda s: s["game"]["active"] and s["game"]["phase"] == "playing", 30)
            assert [p["discards"] for p in state["players"]] == saved["discards"]
            assert (state["wall"]["indicator"], state["wall"]["wild"]) == (
                saved["wall"]["indicator"],
                saved["wall"]["wild"],
            )
            assert state["marks"] == saved["marks"] != {}
            assert state["wall"]["live"] == saved["wall"]["live"]

    with running_xmj("--timeout", "0", cwd=tmp_path) as xmj:  # a classical xmj: the page says which rules
        run(resume(xmj))


def test_the_move_log_cuts_each_line_at_its_tiles_for_the_page_to_name_them_as_the_dialogs_do() -> None:
    view, log = seat(HAND, indicator="WD")
    turned = next(m for m in snapshot.build(view, log, None, {})["moves"] if "turned up" in m["text"])
    assert turned["parts"] == ["", "WD", " is turned up: ", "RD", " is wild this hand"]
    assert "".join(turned["parts"]) == turned["text"] == "WD is turned up: RD is wild this hand"
    # a name that looks like a tile, or holds the mark the log cuts at, stays a name
    view.player(2).name = "7C\x1f4B"
    feed(view, log, C.PlayerDiscards(2, tiles.parse("4B"), 9, False))
    discard = snapshot.build(view, log, None, {})["moves"][-1]
    assert discard["parts"] == ["7C4B (South) discards ", "4B", ""], discard
    assert discard["text"] == "7C4B (South) discards 4B"
    feed(view, log, C.HandScore(2, 12, ""))
    assert "parts" not in snapshot.build(view, log, None, {})["moves"][-1], "a line naming no tile is text only"
