"""The moves the rules allow this seat now, as the manual's dialogs (buttons that map to messages).

The browser holds no rules, so everything it may ask for is decided here, from the
seat's view alone, with the helpers the robot uses (:mod:`mj.robot.moves`,
:mod:`mj.robot.declare`). Each dialog of ``xmj`` ("USING THE XMJ PROGRAM" in the
manual) becomes a :class:`Dialog`: buttons with the manual's names and underlined
letters, and for each button the exact protocol message every allowed choice
sends. A button that needs a tile (Discard, Kong, the declarations after a
mah-jong) lists the tiles it accepts; a disabled button has no choices.

What the browser sends back is looked up in the dialog it was offered
(:func:`choose`), so an illegal or stale request is refused with a clear text and
never reaches the server.

The dialogs, in the order a hand meets them: Ready (a pause), Declare / Kong /
Finish (specials at the start of the hand), Discard / Calling / Declare / Kong /
Mah Jong! (our turn), No claim / Chow / Pung / Kong / Mah Jong! (a discard, with
the claim timeout), the chow position when a chow was claimed without one, robbing
a kong (No claim / Mah Jong!), and Eyes / Chow / Pung / Special Hand / Finished
after a mah-jong.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Final

from mj import tiles
from mj.melds import KongOrigin, MeldKind
from mj.protocol import pmsg as P
from mj.protocol.fields import ChowPosition
from mj.robot import declare, moves
from mj.robot.agent import declaration_message
from mj.robot.strategy import Declaration, Step
from mj.robot.view import Phase, SeatView
from mj.tiles import BLANK, Tile
from mj.web.seatlog import SeatLog

#: The key of :attr:`Button.choices` for a button that needs no tile.
NO_TILE: Final = ""

_POSITIONS: Final = (ChowPosition.LOWER, ChowPosition.MIDDLE, ChowPosition.UPPER)


class ActionError(ValueError):
    """A request from the browser that the current dialog does not offer; ``str()`` says why."""


@dataclass(frozen=True, slots=True)
class Button:
    """One button: ``key`` is its underlined letter; ``choices`` maps a tile code (or "") to its message."""

    id: str
    label: str
    key: str
    choices: Mapping[str, P.PMsg] = field(default_factory=dict)
    needs_tile: bool = False
    #: Tiles to draw on the button (the chows offered by the chow-position dialog).
    shows: tuple[str, ...] = ()

    @property
    def enabled(self) -> bool:
        return bool(self.choices)

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "label": self.label,
            "key": self.key,
            "enabled": self.enabled,
            "tiles": sorted(self.choices) if self.needs_tile else None,
            "shows": list(self.shows),
        }


@dataclass(frozen=True, slots=True)
class Dialog:
    """What the person is asked now. ``tile`` is the tile being claimed or robbed."""

    kind: str
    title: str
    buttons: tuple[Button, ...]
    default: str | None = None
    #: The tile to preselect in the hand (the manual's "sensible tile").
    select: str | None = None
    tile: str | None = None
    #: The discarder (claims) or konger (robbing).
    player: int = 0
    #: Claim time limit in seconds (0: none) and what is left of it.
    timeout: float = 0.0
    remaining: float = 0.0
    text: str = ""
    #: Changes whenever the decision point does, so a click on an old dialog can be told apart.
    number: int = 0

    def button(self, button_id: str) -> Button | None:
        return next((b for b in self.buttons if b.id == button_id), None)

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "title": self.title,
            "text": self.text,
            "buttons": [b.to_json() for b in self.buttons],
            "default": self.default,
            "select": self.select,
            "tile": self.tile,
            "player": self.player,
            "timeout": self.timeout,
            "remaining": round(self.remaining, 2),
            "number": self.number,
        }


def choose(dialog: Dialog | None, button_id: object, tile: object) -> P.PMsg:
    """The message for pressing ``button_id`` (with ``tile`` selected); :class:`ActionError` if not offered."""
    if dialog is None:
        raise ActionError("nothing to do now: it is not your move")
    if not isinstance(button_id, str):
        raise ActionError("the action must name a button")
    button = dialog.button(button_id)
    if button is None:
        raise ActionError(f"{button_id!r} is not possible now ({dialog.title})")
    if not button.enabled:
        raise ActionError(f"{button.label} is not possible now")
    if not button.needs_tile:
        return button.choices[NO_TILE]
    if not isinstance(tile, str) or not tile:
        raise ActionError(f"{button.label}: select a tile first")
    message = button.choices.get(tile)
    if message is None:
        raise ActionError(f"{button.label} is not possible with {tile}")
    return message


def decision_point(view: SeatView, log: SeatLog) -> Hashable:
    """Everything the current dialog depends on: once the person has answered, the same point asks nothing."""
    me = view.me
    return (
        view.hand_no,
        view.phase,
        view.declarer,
        view.turn,
        tuple(view.concealed),
        len(view.melds),
        view.pending,
        view.paused,
        view.my_id in view.ready,
        view.active,
        view.winner_pending,
        me.shown is not None,
        me.hand_score,
        view.game_over,
        log.chow_choice,
    )


def current(view: SeatView, log: SeatLog, now: float | None = None, number: int = 0) -> Dialog | None:
    """The dialog for this seat now (numbered ``number``), or None when it has nothing to do."""
    dialog = _current(view, log, now)
    return replace(dialog, number=number) if dialog is not None else None


def _current(view: SeatView, log: SeatLog, now: float | None) -> Dialog | None:
    if not view.active or view.game_over or view.my_id == 0 or view.my_seat < 0:
        return None
    if log.chow_choice is not None:
        return _chow_position(view, log.chow_choice)
    if view.paused and view.my_id not in view.ready:
        return _ready(log)
    pending = view.pending
    if pending is not None and pending.who != view.my_id:
        if log.answered_pending():
            return None
        elapsed = (time.monotonic() if now is None else now) - log.claim_opened
        if pending.kong is not None:
            return _rob(view, pending.tile, pending.serial, pending.who, pending.kong is KongOrigin.CONCEALED)
        return _claim(view, pending.tile, pending.serial, pending.who, elapsed)
    if pending is not None:
        return None
    if view.phase is Phase.DECLARING:
        return _declaring(view)
    if view.phase is Phase.PLAYING:
        return _turn(view, log)
    if view.phase is Phase.MAHJONGING:
        return _winner(view) if view.winner == view.my_id else _loser(view)
    return None


def unrobbable(view: SeatView, log: SeatLog) -> P.PMsg | None:
    """The ``NoClaim`` owed for a kong this seat cannot rob (xmj answers these itself, §15)."""
    pending = view.pending
    if pending is None or pending.kong is None or pending.who == view.my_id or not view.active:
        return None
    if log.answered_pending() or moves.can_rob(view, pending.tile, pending.kong is KongOrigin.CONCEALED):
        return None
    return P.NoClaim(pending.serial)


# -- the dialogs


def _ready(log: SeatLog) -> Dialog:
    reason = log.pause_reason or "to continue"
    return Dialog("ready", f"Ready {reason}", (Button("ready", "Ready", "r", {NO_TILE: P.Ready()}),), "ready")


def _claim(view: SeatView, tile: Tile, serial: int, discarder: int, elapsed: float) -> Dialog:
    calling = view.me.calling
    chow_choices: dict[str, P.PMsg] = {}
    if view.left_of(discarder) and not calling:
        positions = moves.chow_positions(view, tile)
        if positions:
            chow_choices[NO_TILE] = P.Chow(serial, positions[0] if len(positions) == 1 else ChowPosition.ANYPOS)
    held = moves.held(view, tile)
    buttons = (
        Button("noclaim", "No claim", "n", {NO_TILE: P.NoClaim(serial)}),
        Button("chow", "Chow", "c", chow_choices),
        Button("pung", "Pung", "p", {NO_TILE: P.Pung(serial)} if held >= 2 and not calling else {}),
        Button("kong", "Kong", "k", {NO_TILE: P.Kong(serial)} if held >= 3 and not calling else {}),
        Button("mahjong", "Mah Jong!", "m", {NO_TILE: P.MahJong(serial)} if moves.can_go_out(view, tile) else {}),
    )
    timeout = float(view.options["Timeout"])
    remaining = max(0.0, timeout - elapsed) if timeout else 0.0
    return Dialog(
        "claim",
        "Claim the discard?",
        buttons,
        "noclaim",
        tile=tiles.code(tile),
        player=discarder,
        timeout=timeout,
        remaining=remaining,
    )


def _rob(view: SeatView, tile: Tile, serial: int, konger: int, concealed: bool) -> Dialog:
    can = moves.can_rob(view, tile, concealed)
    buttons = (
        Button("noclaim", "No claim", "n", {NO_TILE: P.NoClaim(serial)}),
        Button("mahjong", "Mah Jong!", "m", {NO_TILE: P.MahJong(serial)} if can else {}),
    )
    return Dialog("rob", "Rob the kong?", buttons, "noclaim", tile=tiles.code(tile), player=konger)


def _chow_position(view: SeatView, tile: Tile) -> Dialog:
    if view.phase is Phase.MAHJONGING:
        serial = 0
        positions = sorted(
            {p[0].position for p in declare.winning_plans(view) if p and p[0].step is Step.USE_CHOW and p[0].position},
            key=_POSITIONS.index,
        )
    else:
        serial = view.last_discard.serial if view.last_discard is not None else 0
        positions = moves.chow_positions(view, tile)
    buttons = []
    for position in _POSITIONS:
        shown = tuple(tiles.code(t) for t in sorted((tile, *moves.chow_partners(tile, position))))
        ok = position in positions
        label = position.value
        buttons.append(
            Button(f"chow-{label.lower()}", label, label[0].lower(), {NO_TILE: P.Chow(serial, position)} if ok else {},
                   shows=shown if ok else ())
        )  # fmt: skip
    default = next((b.id for b in buttons if b.enabled), None)
    return Dialog("chowpos", "Which chow?", tuple(buttons), default, tile=tiles.code(tile))


def _declaring(view: SeatView) -> Dialog | None:
    """Specials and concealed kongs at the start of the hand, in this seat's declaring turn (§7.3)."""
    if view.declarer != view.my_seat or view.tiles_held != (14 if view.my_seat == 0 else 13):
        return None
    specials = moves.specials_held(view)
    kongs = moves.closed_kongs(view)
    buttons = (
        Button("declare", "Declare", "d", _tile_choices(specials, P.DeclareSpecial), needs_tile=True),
        Button("kong", "Kong", "k", _tile_choices(kongs, P.DeclareClosedKong), needs_tile=True),
        Button("finish", "Finish", "f", {NO_TILE: P.DeclareSpecial(BLANK)}),
    )
    # preselect what the default button takes, so that Enter declares it at once
    first = specials[-1] if specials else (kongs[0] if kongs else None)
    select = tiles.code(first) if first is not None else None
    return Dialog("declaring", "Declare specials", buttons, "declare" if specials else "finish", select=select)


def _turn(view: SeatView, log: SeatLog) -> Dialog | None:
    if view.turn != view.my_id or view.paused or view.tiles_held != 14:
        return None
    me = view.me
    ordinary = moves.ordinary(view)
    if me.calling and view.last_drawn is not None and not view.after_claim:
        discardable = [view.last_drawn] if view.last_drawn in ordinary else []
    else:
        discardable = ordinary
    may_call = not me.calling and log.my_discards == 0 and not view.melds and len(view.concealed) == 14
    specials = [] if view.after_claim else moves.specials_held(view)
    kongs: dict[str, P.PMsg] = {}
    kongs.update(_tile_choices(moves.closed_kongs(view), P.DeclareClosedKong))
    kongs.update(_tile_choices(_additions(view), P.AddToPung))
    buttons = (
        Button("discard", "Discard", "d", _tile_choices(discardable, lambda t: P.Discard(t, False)), needs_tile=True),
        Button("calling", "Calling", "c", _tile_choices(discardable, lambda t: P.Discard(t, True)) if may_call else {},
               needs_tile=True),
        Button("declare", "Declare", "e", _tile_choices(specials, P.DeclareSpecial), needs_tile=True),
        Button("kong", "Kong", "k", kongs, needs_tile=True),
        Button("mahjong", "Mah Jong!", "m", {NO_TILE: P.MahJong(0)} if moves.can_go_out(view) else {}),
    )  # fmt: skip
    drawn = view.last_drawn
    if drawn is not None and drawn in view.concealed:
        select: Tile | None = drawn
    elif ordinary:
        select = ordinary[-1]
    else:
        select = None
    default = "declare" if select is not None and tiles.is_special(select) else "discard"
    return Dialog("turn", "Your turn", buttons, default, select=tiles.code(select) if select is not None else None)


def _additions(view: SeatView) -> list[Tile]:
    """Tiles that turn an exposed pung into a kong now: after a draw, or (1110) the pung just claimed."""
    if not view.after_claim:
        return moves.pung_additions(view)
    melds = view.melds
    if melds and melds[-1].kind is MeldKind.PUNG and not melds[-1].concealed and view.protocol >= 1110:
        tile = melds[-1].tile
        return [tile] if tile in moves.ordinary(view) else []
    return []


def _winner(view: SeatView) -> Dialog | None:
    """After going out: how the claimed tile is used, then the concealed sets (§7.10)."""
    if view.winner_pending is None and not moves.ordinary(view):
        return None
    plans = declare.winning_plans(view)
    firsts = [p[0] for p in plans if p]
    by_button: dict[str, dict[str, P.PMsg]] = {"pair": {}, "chow": {}, "pung": {}, "special": {}}
    chow_positions: set[ChowPosition] = set()
    for step in firsts:
        button = _STEP_BUTTON[step.step]
        if step.step is Step.USE_CHOW:
            if step.position is not None:
                chow_positions.add(step.position)
            continue
        key = NO_TILE if step.step in _NO_TILE_STEPS else tiles.code(step.tile)
        by_button[button].setdefault(key, declaration_message(step))
    if chow_positions:
        position = next(iter(chow_positions)) if len(chow_positions) == 1 else ChowPosition.ANYPOS
        by_button["chow"][NO_TILE] = P.Chow(0, position)
    pending = view.winner_pending is not None
    buttons = (
        Button("pair", "Eyes", "e", by_button["pair"], needs_tile=not pending),
        Button("chow", "Chow", "c", by_button["chow"], needs_tile=not pending),
        Button("pung", "Pung", "p", by_button["pung"], needs_tile=not pending),
        Button("special", "Special Hand", "s", by_button["special"]),
    )
    best = firsts[0] if firsts else None
    default = _STEP_BUTTON[best.step] if best is not None else None
    select = tiles.code(best.tile) if best is not None and best.tile != BLANK and not pending else None
    title = "Declare the winning tile" if pending else "Declare your concealed sets"
    text = "" if firsts else "No way to complete the hand was found."
    return Dialog("winner", title, buttons, default, select=select, text=text,
                  tile=tiles.code(view.winner_pending) if view.winner_pending is not None else None)  # fmt: skip


def _loser(view: SeatView) -> Dialog | None:
    """Another player went out: form concealed sets if wished, then Finished shows the rest."""
    me = view.me
    if me.shown is not None or me.hand_score is not None or not view.concealed:
        return None
    held = moves.ordinary(view)
    kinds = sorted(set(held))
    pungs = [t for t in kinds if held.count(t) >= 3]
    pairs = [t for t in kinds if held.count(t) >= 2]
    chows = [t for t in kinds if tiles.is_suited(t) and tiles.rank(t) <= 7 and t + 1 in held and t + 2 in held]
    buttons = (
        Button("pair", "Eyes", "e", _tile_choices(pairs, P.FormClosedPair), needs_tile=True),
        Button("chow", "Chow", "c", _tile_choices(chows, P.FormClosedChow), needs_tile=True),
        Button("pung", "Pung", "p", _tile_choices(pungs, P.FormClosedPung), needs_tile=True),
        Button("show", "Finished", "f", {NO_TILE: P.ShowTiles()}),
    )
    plan = declare.losing_plan(view)
    first = plan[0] if plan else Declaration(Step.SHOW)
    default = _STEP_BUTTON[first.step]
    select = tiles.code(first.tile) if first.tile != BLANK else (tiles.code(held[0]) if held else None)
    return Dialog("loser", "Declare your concealed sets", buttons, default, select=select)


_STEP_BUTTON: Final = {
    Step.USE_PAIR: "pair",
    Step.PAIR: "pair",
    Step.USE_CHOW: "chow",
    Step.CHOW: "chow",
    Step.USE_PUNG: "pung",
    Step.PUNG: "pung",
    Step.USE_SPECIAL: "special",
    Step.SPECIAL: "special",
    Step.SHOW: "show",
}
_NO_TILE_STEPS: Final = frozenset((Step.USE_PAIR, Step.USE_PUNG, Step.USE_SPECIAL, Step.SPECIAL, Step.SHOW))


def _tile_choices(candidates: Iterable[Tile], make: Callable[[Tile], P.PMsg]) -> dict[str, P.PMsg]:
    return {tiles.code(t): make(t) for t in candidates}
