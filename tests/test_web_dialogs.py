"""The moves offered to a person are exactly those the rules allow now (mj.web.dialogs), from the seat's view alone."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import mj.web
from mj import tiles
from mj.protocol import pmsg as P
from mj.protocol.fields import ChowPosition
from mj.rules import registry
from mj.rules.ruleset import Ruleset
from mj.seatview import Pending, Phase, SeatView
from mj.web.dialogs import ActionError, Dialog, choose, current
from mj.web.seatlog import SeatLog


def seat(
    hand: str, pending: tuple[int, str] | None = None, rules: Ruleset = registry.DEFAULT
) -> tuple[SeatView, SeatLog]:
    """Player 1 sitting East (North, id 4, plays just before us), playing, holding ``hand``, under ``rules``."""
    view = SeatView(1, rules)
    view.seats = [1, 2, 3, 4]
    for pid in view.seats:
        view.player(pid)
    view.active = True
    view.phase = Phase.PLAYING
    view.concealed = tiles.parse_many(hand)
    view.me.concealed = len(view.concealed)
    if pending is not None:
        view.pending = Pending(pending[0], tiles.parse(pending[1]), 9)
    else:
        view.turn = 1
        view.last_drawn = view.concealed[-1]
    return view, SeatLog(view)


def enabled(dialog: Dialog | None) -> set[str]:
    assert dialog is not None
    return {b.id for b in dialog.buttons if b.enabled}


HAND = "2B 3B 5C 5C 5C 7D 7D EW EW RD RD GD GD"


def test_a_discard_from_the_player_on_the_left_may_be_chowed_and_only_that_one() -> None:
    view, log = seat(HAND, (4, "4B"))
    dialog = current(view, log)
    assert dialog is not None and dialog.kind == "claim" and dialog.default == "noclaim"
    assert enabled(dialog) == {"noclaim", "chow"}
    assert choose(dialog, "chow", None) == P.Chow(9, ChowPosition.UPPER)
    view, log = seat(HAND, (3, "4B"))  # West's discard: no chow
    assert enabled(current(view, log)) == {"noclaim"}


def test_pung_kong_and_mah_jong_need_the_tiles() -> None:
    view, log = seat(HAND, (2, "5C"))
    assert enabled(current(view, log)) == {"noclaim", "pung", "kong"}
    view, log = seat("2B 3B 4B 5C 5C 5C 7D 7D 7D EW EW RD RD", (2, "RD"))
    dialog = current(view, log)
    assert enabled(dialog) == {"noclaim", "pung", "mahjong"}
    assert choose(dialog, "mahjong", None) == P.MahJong(9)


def test_a_calling_player_may_only_claim_mah_jong() -> None:
    view, log = seat(HAND, (4, "5C"))
    view.me.calling = True
    assert enabled(current(view, log)) == {"noclaim"}


def test_in_our_turn_only_held_tiles_may_be_discarded_and_anything_else_is_refused() -> None:
    view, log = seat("2B 3B 5C 5C 5C 7D 7D EW EW RD RD GD GD 1F")
    dialog = current(view, log)
    assert dialog is not None and dialog.kind == "turn"
    assert dialog.select == "1F" and dialog.default == "declare"  # the drawn flower is declared first
    assert choose(dialog, "discard", "GD") == P.Discard(tiles.parse("GD"), False)
    with pytest.raises(ActionError, match="Calling is not possible now: no discard leaves your hand ready"):
        choose(dialog, "calling", "GD")  # first discard, concealed, but far from ready
    assert choose(dialog, "declare", "1F") == P.DeclareSpecial(tiles.parse("1F"))
    with pytest.raises(ActionError, match="Discard is not possible with 9D"):
        choose(dialog, "discard", "9D")
    with pytest.raises(ActionError, match="Discard is not possible with 1F"):
        choose(dialog, "discard", "1F")
    with pytest.raises(ActionError, match="select a tile first"):
        choose(dialog, "discard", None)
    with pytest.raises(ActionError, match="Mah Jong! is not possible now"):
        choose(dialog, "mahjong", None)
    with pytest.raises(ActionError, match="'pung' is not possible now"):
        choose(dialog, "pung", None)


def test_calling_takes_only_a_discard_that_leaves_the_hand_ready_and_says_so() -> None:
    """The server does not check an Original Call (protocol §7.12): the dialog offers it only with a ready hand."""
    view, log = seat("1B 2B 3B 5C 5C 5C 7D 7D 7D EW EW RD RD GD")
    dialog = current(view, log)
    assert dialog is not None
    calling = dialog.button("calling")
    assert calling is not None and set(calling.choices) == {"GD"}  # then waiting for EW or RD
    assert choose(dialog, "calling", "GD") == P.Discard(tiles.parse("GD"), True)
    assert choose(dialog, "discard", "2B") == P.Discard(tiles.parse("2B"), False)
    with pytest.raises(ActionError, match="Calling is not possible with 2B: calling needs a discard that leaves"):
        choose(dialog, "calling", "2B")
    view, log = seat("6B 7B 7B 8B 1C 2C 5C 7C 2D 2D 5D 8D SW GD")  # the audit's hand, far from ready
    dialog = current(view, log)
    assert dialog is not None
    calling = dialog.button("calling")
    assert calling is not None and not calling.enabled and "no discard leaves your hand ready" in calling.reason
    view.has_discarded = True  # only the first discard may call: then nothing to explain, the button is hidden
    view.changed()
    calling = (current(view, log) or dialog).button("calling")
    assert calling is not None and not calling.enabled and calling.reason == ""


def test_after_calling_a_refused_discard_says_only_the_drawn_tile_may_go() -> None:
    view, log = seat("1B 2B 3B 5C 5C 5C 7D 7D 7D EW EW RD RD 9C")
    view.me.calling = True
    view.has_discarded = True
    view.changed()
    dialog = current(view, log)
    assert dialog is not None
    assert choose(dialog, "discard", "9C") == P.Discard(tiles.parse("9C"), False)
    with pytest.raises(
        ActionError, match="Discard is not possible with 2B: after calling you may discard only the tile you"
    ):
        choose(dialog, "discard", "2B")


def reasons(dialog: Dialog | None) -> dict[str, str]:
    assert dialog is not None
    return {b.id: b.reason for b in dialog.buttons if not b.enabled}


def test_every_greyed_out_button_says_why() -> None:
    view, log = seat(HAND, (2, "5C"))  # South's 5C: we hold three, but may not chow from South
    assert reasons(current(view, log)) == {
        "chow": "only the next player may chow it",
        "mahjong": "it does not complete your hand",
    }
    view, log = seat(HAND, (4, "9D"))  # North (on our left) discards a tile we hold none of
    assert reasons(current(view, log)) == {
        "chow": "your tiles make no chow with it",
        "pung": "a pung needs two of it in your hand",
        "kong": "a kong needs three of it in your hand",
        "mahjong": "it does not complete your hand",
    }
    view, log = seat(HAND, (4, "5C"))
    view.me.calling = True
    assert reasons(current(view, log))["pung"] == "after calling you may claim a discard only for Mah Jong!"
    view, log = seat("2B 3B 5C 5C 5C 7D 7D EW EW RD RD GD GD 9C")
    why = reasons(current(view, log))
    assert why["kong"].startswith("no four of a kind") and why["mahjong"] == "your hand is not complete"
    assert why["declare"] == "" and "calling" in why["calling"]  # Declare is hidden: nothing to declare


def test_nothing_is_offered_out_of_turn() -> None:
    view, log = seat(HAND)
    view.turn = 2
    assert current(view, log) is None
    with pytest.raises(ActionError, match="not your move"):
        choose(None, "discard", "2B")


def test_the_gateway_takes_its_moves_from_the_rules_not_from_the_robot() -> None:
    """The seat view and the legal moves live where the robot and the gateway both reach them."""
    web = Path(mj.web.__file__).parent
    for source in sorted(web.glob("*.py")):
        for node in ast.walk(ast.parse(source.read_text())):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            names += [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            assert not any(n == "mj.robot" or n.startswith("mj.robot.") for n in names), (
                f"{source.name} imports {names}"
            )
