"""The moves the rules allow this seat now, as the manual's dialogs (buttons that map to messages).

The browser holds no rules, and neither does this module: what the seat may do is
its rule system's answer, :meth:`~mj.seatview.SeatView.legal_moves` (the same the
robot chooses among and the engine checks against). This module only presents
those moves: each dialog of ``xmj`` ("USING THE XMJ PROGRAM" in the manual) becomes
a :class:`Dialog`: buttons with the manual's names and underlined letters, and for
each button the exact protocol message every allowed choice sends. A button that
needs a tile (Discard, Kong, the declarations after a mah-jong) lists the tiles it
accepts; a disabled button has no choices.

What the browser sends back is looked up in the dialog it was offered
(:func:`choose`), so an illegal or stale request is refused with a clear text and
never reaches the server.

The dialogs, in the order a hand meets them: Ready (a pause), Declare / Kong /
Finish (specials at the start of the hand), Discard / Calling / Declare / Kong /
Mah Jong! (our turn), No claim / Chow / Pung / Kong / Mah Jong! (a discard, with
the claim timeout), the chow position when a chow was claimed without one, robbing
a kong (No claim / Mah Jong!), and Eyes / Chow / Pung / Special Hand / Finished
after a mah-jong.

A rule system that names its own moves (:meth:`~mj.rules.ruleset.Ruleset.move_names`:
IMS's [Draw], [Connect], [Triplet]...; Beijing's [Chow], [Pung], [Kong], [Hu]) is offered them
by those names instead, in three dialogs: the bid on a discard, robbing a kong, and the turn.
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from mj import tiles
from mj.hand import wait_indices
from mj.protocol import pmsg as P
from mj.protocol.fields import ChowPosition
from mj.rules.beijing import wilds
from mj.rules.naming import MoveNames
from mj.seatview import Phase, SeatView, chow_partners
from mj.tiles import BLANK, Tile
from mj.web.seatlog import SeatLog, cut_at_tiles, marked

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
    #: Why the button cannot be pressed: when disabled, or (taking a tile) with the tiles it does not take.
    reason: str = ""

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
            "reason": self.reason,
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
    #: ``text`` cut at the tiles it names (:func:`~mj.web.seatlog.cut_at_tiles`), for the page to name them.
    parts: tuple[str, ...] = ()
    #: Changes whenever the decision point does, so a click on an old dialog can be told apart.
    number: int = 0
    #: Tiles a double click does not discard: throwing one away needs the button (a wild: it kills the hand).
    guarded: tuple[str, ...] = ()
    #: The set being made, in the rule system's word (robbing: "kong", IMS's "quadruplet"); "" for none.
    set_name: str = ""

    def button(self, button_id: str) -> Button | None:
        return next((b for b in self.buttons if b.id == button_id), None)

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "title": self.title,
            "text": self.text,
            "parts": list(self.parts),
            "buttons": [b.to_json() for b in self.buttons],
            "default": self.default,
            "select": self.select,
            "tile": self.tile,
            "player": self.player,
            "timeout": self.timeout,
            "remaining": round(self.remaining, 2),
            "number": self.number,
            "guarded": list(self.guarded),
            "set_name": self.set_name,
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
        raise ActionError(f"{button.label} is not possible now{_because(button)}")
    if not button.needs_tile:
        return button.choices[NO_TILE]
    if not isinstance(tile, str) or not tile:
        raise ActionError(f"{button.label}: select a tile first")
    message = button.choices.get(tile)
    if message is None:
        raise ActionError(f"{button.label} is not possible with {tile}{_because(button)}")
    return message


def _because(button: Button) -> str:
    return f": {button.reason}" if button.reason else ""


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
        view.chow_choice,
    )


def current(view: SeatView, log: SeatLog, now: float | None = None, number: int = 0) -> Dialog | None:
    """The dialog for this seat now (numbered ``number``), or None when it has nothing to do."""
    dialog = _current(view, log, now)
    return replace(dialog, number=number) if dialog is not None else None


def _current(view: SeatView, log: SeatLog, now: float | None) -> Dialog | None:
    if not view.active or view.game_over or view.my_id == 0 or view.my_seat < 0:
        return None
    if view.chow_choice is not None:
        return _chow_position(view, view.chow_choice)
    if view.paused and view.my_id not in view.ready:
        return _ready(log)
    names = view.rules.move_names()
    if names is not None:
        return _named(view, log, now, names)
    pending = view.pending
    if pending is not None and pending.who != view.my_id:
        if log.answered_pending():
            return None
        elapsed = (time.monotonic() if now is None else now) - log.claim_opened
        if pending.kong is not None:
            return _rob(view, pending.tile, pending.serial, pending.who)
        return _claim(view, pending.tile, pending.serial, pending.who, elapsed)
    if pending is not None:
        return None
    if view.phase is Phase.DECLARING:
        return _declaring(view)
    if view.phase is Phase.PLAYING:
        return _turn(view)
    if view.phase is Phase.MAHJONGING:
        return _winner(view) if view.winner == view.my_id else _loser(view)
    return None


def unrobbable(view: SeatView, log: SeatLog) -> P.PMsg | None:
    """The ``NoClaim`` owed for a kong this seat cannot rob (xmj answers these itself, §15)."""
    pending = view.pending
    if pending is None or pending.kong is None or pending.who == view.my_id or not view.active:
        return None
    if log.answered_pending() or P.MahJong(pending.serial) in view.legal_moves():
        return None
    return P.NoClaim(pending.serial)


# -- the dialogs


def _ready(log: SeatLog) -> Dialog:
    reason = log.pause_reason or "to continue"
    return Dialog("ready", f"Ready {reason}", (Button("ready", "Ready", "r", {NO_TILE: P.Ready()}),), "ready")


def _claim(view: SeatView, tile: Tile, serial: int, discarder: int, elapsed: float) -> Dialog:
    legal = view.legal_moves()
    positions = _chows(legal)
    chow_choices: dict[str, P.PMsg] = {}
    if positions:
        chow_choices[NO_TILE] = P.Chow(serial, positions[0] if len(positions) == 1 else ChowPosition.ANYPOS)
    buttons = _explained(
        (
            Button("noclaim", "No claim", "n", {NO_TILE: P.NoClaim(serial)}),
            Button("chow", "Chow", "c", chow_choices),
            Button("pung", "Pung", "p", _offered(legal, P.Pung(serial))),
            Button("kong", "Kong", "k", _offered(legal, P.Kong(serial))),
            Button("mahjong", "Mah Jong!", "m", _offered(legal, P.MahJong(serial))),
        ),
        _claim_reasons(view, tile, discarder),
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


def _rob(view: SeatView, tile: Tile, serial: int, konger: int) -> Dialog:
    buttons = _explained(
        (
            Button("noclaim", "No claim", "n", {NO_TILE: P.NoClaim(serial)}),
            Button("mahjong", "Mah Jong!", "m", _offered(view.legal_moves(), P.MahJong(serial))),
        ),
        {"mahjong": _NOT_COMPLETED},
    )
    return Dialog("rob", "Rob the kong?", buttons, "noclaim", tile=tiles.code(tile), player=konger, set_name="kong")


def _chow_position(view: SeatView, tile: Tile) -> Dialog:
    chows = {m.cpos: m for m in view.legal_moves() if isinstance(m, P.Chow) and m.cpos is not ChowPosition.ANYPOS}
    buttons = []
    for position in _POSITIONS:
        shown = tuple(tiles.code(t) for t in sorted((tile, *chow_partners(tile, position))))
        move = chows.get(position)
        label = position.value
        buttons.append(
            Button(f"chow-{label.lower()}", label, label[0].lower(), {NO_TILE: move} if move is not None else {},
                   shows=shown if move is not None else ())
        )  # fmt: skip
    default = next((b.id for b in buttons if b.enabled), None)
    reasons = {b.id: f"your tiles make no chow {b.label.lower()} with it" for b in buttons}
    return Dialog("chowpos", "Which chow?", _explained(buttons, reasons), default, tile=tiles.code(tile))


def _declaring(view: SeatView) -> Dialog | None:
    """Specials and concealed kongs at the start of the hand, in this seat's declaring turn (§7.3)."""
    legal = view.legal_moves()
    if not legal:
        return None
    specials = [m.tile for m in legal if isinstance(m, P.DeclareSpecial) and m.tile != BLANK]
    kongs = [m.tile for m in legal if isinstance(m, P.DeclareClosedKong)]
    buttons = (
        Button("declare", "Declare", "d", _by_tile(legal, P.DeclareSpecial, specials), needs_tile=True),
        Button("kong", "Kong", "k", _by_tile(legal, P.DeclareClosedKong), needs_tile=True),
        Button("finish", "Finish", "f", _offered(legal, P.DeclareSpecial(BLANK))),
    )
    # preselect what the default button takes, so that Enter declares it at once
    first = specials[-1] if specials else (kongs[0] if kongs else None)
    select = tiles.code(first) if first is not None else None
    return Dialog("declaring", "Declare specials", buttons, "declare" if specials else "finish", select=select)


def _turn(view: SeatView) -> Dialog | None:
    legal = view.legal_moves()
    if not legal:
        return None
    discards = {tiles.code(m.tile): m for m in legal if isinstance(m, P.Discard) and not m.calling}
    # The server does not check that a calling hand is ready (protocol §7.12): only discards that leave it so.
    offered_calls = [m for m in legal if isinstance(m, P.Discard) and m.calling]
    calls = {tiles.code(m.tile): m for m in offered_calls if _ready_after(view, m.tile)}
    why_call = _CALLING_WHY if calls else _NO_CALL_WHY if offered_calls else ""
    why_discard = "after calling you may discard only the tile you drew" if view.me.calling else ""
    specials = [m.tile for m in legal if isinstance(m, P.DeclareSpecial)]
    kongs = {**_by_tile(legal, P.DeclareClosedKong), **_by_tile(legal, P.AddToPung)}
    buttons = _explained(
        (
            Button("discard", "Discard", "d", discards, needs_tile=True, reason=why_discard),
            Button("calling", "Calling", "c", calls, needs_tile=True, reason=why_call),
            Button("declare", "Declare", "e", _by_tile(legal, P.DeclareSpecial, specials), needs_tile=True),
            Button("kong", "Kong", "k", kongs, needs_tile=True),
            Button("mahjong", "Mah Jong!", "m", _offered(legal, P.MahJong(0))),
        ),
        _TURN_WHY,
    )
    drawn = view.last_drawn
    ordinary = [t for t in view.concealed if not tiles.is_special(t)]
    if drawn is not None and drawn in view.concealed:
        select: Tile | None = drawn
    elif ordinary:
        select = ordinary[-1]
    else:
        select = None
    default = "declare" if select is not None and tiles.is_special(select) else "discard"
    return Dialog("turn", "Your turn", buttons, default, select=tiles.code(select) if select is not None else None)


#: Why Calling does not take a tile, or any (it is offered only with the first discard).
_CALLING_WHY: Final = "calling needs a discard that leaves your hand ready (waiting for one tile)"
_NO_CALL_WHY: Final = "no discard leaves your hand ready (waiting for one tile), which calling needs"


def _ready_after(view: SeatView, tile: Tile) -> bool:
    """Whether the concealed hand waits for a tile once ``tile`` is discarded (:func:`~mj.hand.wait_indices`)."""
    vector = view.hand_counts()
    vector[tiles.kind_index(tile)] -= 1
    return bool(wait_indices(vector, view.declared_sets, view.seven_pairs))


#: Why a button of the turn is greyed out. The dialogs say what the legal moves (the rules) left out.
_TURN_WHY: Final = {
    "kong": "no four of a kind in your hand, and no tile of it to add to an exposed pung",
    "mahjong": "your hand is not complete",
}
_NOT_COMPLETED: Final = "it does not complete your hand"
#: Why a set cannot be declared after a mah-jong.
_SETS_WHY: Final = {
    "pair": "no pair left among your concealed tiles",
    "chow": "no chow left among your concealed tiles",
    "pung": "no pung left among your concealed tiles",
    "special": "your tiles are not a special hand",
    "show": "declare your sets first",
}


def _claim_reasons(view: SeatView, tile: Tile, discarder: int) -> dict[str, str]:
    """Why a claim on the discard ``tile`` is greyed out, from the seat's own tiles and place."""
    if view.me.calling:
        calling = "after calling you may claim a discard only for Mah Jong!"
        return {"chow": calling, "pung": calling, "kong": calling, "mahjong": _NOT_COMPLETED}
    held = view.concealed.count(tile)
    return {
        "chow": "your tiles make no chow with it" if view.left_of(discarder) else "only the next player may chow it",
        "pung": "a pung needs two of it in your hand" if held < 2 else "a pung of it is not allowed now",
        "kong": "a kong needs three of it in your hand" if held < 3 else "a kong of it is not allowed now",
        "mahjong": _NOT_COMPLETED,
    }


def _explained(buttons: Iterable[Button], reasons: Mapping[str, str]) -> tuple[Button, ...]:
    """``buttons``, each greyed-out one named in ``reasons`` with its reason (one that has a reason keeps it)."""
    return tuple(
        replace(b, reason=reasons[b.id]) if not b.enabled and not b.reason and b.id in reasons else b for b in buttons
    )


def _winner(view: SeatView) -> Dialog | None:
    """After going out: how the claimed tile is used, then the concealed sets (§7.10)."""
    legal = view.legal_moves()
    if not legal:
        return None
    pending = view.winner_pending is not None
    by_button: dict[str, dict[str, P.PMsg]]
    if pending:
        positions = _chows(legal)
        by_button = {
            "pair": _offered(legal, P.Pair()),
            "chow": {NO_TILE: P.Chow(0, positions[0] if len(positions) == 1 else ChowPosition.ANYPOS)}
            if positions
            else {},
            "pung": _offered(legal, P.Pung(0)),
            "special": _offered(legal, P.SpecialSet()),
        }
    else:
        by_button = {
            "pair": _by_tile(legal, P.FormClosedPair),
            "chow": _by_tile(legal, P.FormClosedChow),
            "pung": _by_tile(legal, P.FormClosedPung),
            "special": _offered(legal, P.FormClosedSpecialSet()),
        }
    buttons = _explained(
        (
            Button("pair", "Eyes", "e", by_button["pair"], needs_tile=not pending),
            Button("chow", "Chow", "c", by_button["chow"], needs_tile=not pending),
            Button("pung", "Pung", "p", by_button["pung"], needs_tile=not pending),
            Button("special", "Special Hand", "s", by_button["special"]),
        ),
        _SETS_WHY,
    )
    # The sets that use the most tiles first: a special hand, then pungs, chows, the eyes.
    default = next((b for b in ("special", "pung", "chow", "pair") if by_button[b]), None)
    select = None
    if default is not None and not pending and default != "special":
        select = next(iter(by_button[default]))
    title = "Declare the winning tile" if pending else "Declare your concealed sets"
    text = "" if default is not None else "No way to complete the hand was found."
    return Dialog("winner", title, buttons, default, select=select, text=text,
                  tile=tiles.code(view.winner_pending) if view.winner_pending is not None else None)  # fmt: skip


def _loser(view: SeatView) -> Dialog | None:
    """Another player went out: form concealed sets if wished, then Finished shows the rest."""
    legal = view.legal_moves()
    if not legal:
        return None
    pungs = _by_tile(legal, P.FormClosedPung)
    buttons = _explained(
        (
            Button("pair", "Eyes", "e", _by_tile(legal, P.FormClosedPair), needs_tile=True),
            Button("chow", "Chow", "c", _by_tile(legal, P.FormClosedChow), needs_tile=True),
            Button("pung", "Pung", "p", pungs, needs_tile=True),
            Button("show", "Finished", "f", _offered(legal, P.ShowTiles())),
        ),
        _SETS_WHY,
    )
    # A concealed pung scores; the rest is shown.
    held = [t for t in view.concealed if not tiles.is_special(t)]
    select = next(iter(pungs)) if pungs else (tiles.code(held[0]) if held else None)
    return Dialog("loser", "Declare your concealed sets", buttons, "pung" if pungs else "show", select=select)


# -- the dialogs of a rule system that names its moves

#: Underlined letters where the rule below would pick another (IMS's connections, as its players know them).
_KEYS: Final = {"Connect Lower": "l", "Connect Middle": "i", "Connect Upper": "u"}
#: The moves a button offers by tile of the hand.
_BY_TILE: Final = (P.Discard, P.DeclareClosedKong, P.AddToPung)


def _named(view: SeatView, log: SeatLog, now: float | None, names: MoveNames) -> Dialog | None:
    """The named moves: a bid on a discard, robbing a kong, or the turn (with [Discard] by default).

    Each dialog shows the buttons of every move of its kind, in the protocol's order,
    named by the rule system and greyed out when not legal now: the layout is the
    names of those moves, so it needs no list of any system's words. The chows are
    shown only to the discarder's successor, the one player who may ever chow.
    """
    legal = view.legal_moves()
    if not legal:
        return None
    choices: dict[str, dict[str, P.PMsg]] = {}
    for move in legal:
        key = tiles.code(move.tile) if isinstance(move, _BY_TILE) else NO_TILE
        choices.setdefault(names(view, move), {})[key] = move
    pending = view.pending
    if pending is not None and pending.who != view.my_id:
        if log.answered_pending():
            return None
        tile = tiles.code(pending.tile)
        serial = pending.serial
        letting_go = names(view, P.NoClaim(serial))
        if pending.kong is not None:
            layout = _layout(view, names, [P.NoClaim(serial), P.MahJong(serial)])
            set_name = names(view, P.AddToPung(pending.tile)).lower()
            return Dialog("rob", f"Rob the {set_name}?", _named_buttons(layout, choices, view, pending.tile),
                          _button_id(letting_go), tile=tile, player=pending.who, set_name=set_name)  # fmt: skip
        chows = [P.Chow(serial, p) for p in _POSITIONS] if view.left_of(pending.who) else []
        layout = _layout(view, names, [P.NoClaim(serial), *chows, P.Pung(serial), P.Kong(serial), P.MahJong(serial)])
        timeout = float(view.options["Timeout"])
        elapsed = (time.monotonic() if now is None else now) - log.claim_opened
        return Dialog("claim", names.claim_title, _named_buttons(layout, choices, view, pending.tile),
                      _button_id(letting_go), tile=tile, player=pending.who, timeout=timeout,
                      remaining=max(0.0, timeout - elapsed) if timeout else 0.0,
                      text=DEAD_HAND if dead_hand(view, view.my_id) else "")  # fmt: skip
    discard = names(view, P.Discard(BLANK, False))
    if pending is not None or discard not in choices:
        return None
    # the tile just drawn, else the last one: never a wild while another tile may go (throwing one kills the hand)
    wild = view.wild
    keep = tiles.code(wild) if wild is not None else None
    drawn = view.last_drawn
    select = tiles.code(drawn) if drawn is not None and tiles.code(drawn) in choices[discard] else None
    if select is None or select == keep:
        select = next((c for c in reversed(choices[discard]) if c != keep), None) or next(reversed(choices[discard]))
    layout = _layout(view, names, [P.Discard(BLANK, False), P.DeclareClosedKong(BLANK), P.MahJong(0)])
    buttons = _named_buttons(layout, choices, view, None, discard)
    guarded: tuple[str, ...] = ()
    parts: tuple[str, ...] = ()
    if dead_hand(view, view.my_id):
        text = DEAD_HAND
    elif wild is not None and keep in choices[discard]:
        text, parts = cut_at_tiles(f"Throwing away a wild tile ({marked(wild)}) loses your right to win this hand.")
        guarded = (tiles.code(wild),)
    else:
        text = ""
    return Dialog("turn", "Your turn", buttons, _button_id(discard), select=select, text=text, parts=parts,
                  guarded=guarded)  # fmt: skip


#: What a player who threw away a wild tile is told for the rest of the hand.
DEAD_HAND: Final = "You threw away a wild tile: you can no longer win this hand."


def dead_hand(view: SeatView, pid: int) -> bool:
    """Whether ``pid`` threw away a wild tile this hand, which loses the right to win it (Beijing's dead hand)."""
    return wilds.dead_hand(view.wild, view.discards_of(pid))


def _layout(view: SeatView, names: MoveNames, moves: Iterable[P.PMsg]) -> list[str]:
    """The names of ``moves``, in order, each once."""
    return list(dict.fromkeys(names(view, move) for move in moves))


def _named_buttons(
    layout: Sequence[str],
    choices: Mapping[str, Mapping[str, P.PMsg]],
    view: SeatView,
    tile: Tile | None,
    discard: str | None = None,
) -> tuple[Button, ...]:
    keys = _underlined(layout)
    buttons = []
    for name in layout:
        offered = choices.get(name, {})
        move = offered.get(NO_TILE)
        shows: tuple[str, ...] = ()
        if isinstance(move, P.Chow) and tile is not None:
            shows = tuple(tiles.code(t) for t in sorted((tile, *chow_partners(tile, move.cpos))))
        needs_tile = (bool(offered) and NO_TILE not in offered) or name == discard
        reason = "" if offered else "your tiles do not allow it now"
        buttons.append(Button(_button_id(name), name, keys[name], offered, needs_tile, shows, reason))
    return tuple(buttons)


def _underlined(layout: Sequence[str]) -> dict[str, str]:
    """A different letter for each button: the first letter of its name's last word, else the next free one.

    Letters go to the buttons from the last to the first, so that the calls keep
    their initials and the first button (the one letting a tile go) yields: a Beijing
    bid has [Pung] p and [Pass] a.
    """
    taken: dict[str, str] = {}
    for name in reversed(layout):
        words = name.lower().split()
        wanted = [_KEYS[name]] if name in _KEYS else []
        wanted += [w[0] for w in reversed(words)] + [c for c in name.lower() if c.isalpha()]
        taken[name] = next((c for c in wanted if c not in taken.values()), "")
    return taken


def _button_id(name: str) -> str:
    return name.lower().replace(" ", "-")


def _chows(legal: Iterable[P.PMsg]) -> list[ChowPosition]:
    """The positions of the chows among the legal moves, lowest first."""
    found = {m.cpos for m in legal if isinstance(m, P.Chow)}
    return [p for p in _POSITIONS if p in found]


def _offered(legal: list[P.PMsg], move: P.PMsg) -> dict[str, P.PMsg]:
    """A button's choices for a move without a tile: the move, if legal."""
    return {NO_TILE: move} if move in legal else {}


#: The moves that name a tile of the hand, which a button offers by tile.
_TILE_MOVES: Final = (P.DeclareSpecial, P.DeclareClosedKong, P.AddToPung, P.FormClosedPung, P.FormClosedChow,
                      P.FormClosedPair)  # fmt: skip


def _by_tile(legal: Iterable[P.PMsg], kind: type[P.PMsg], only: Iterable[Tile] | None = None) -> dict[str, P.PMsg]:
    """A button's choices for the legal moves of one kind, by tile code (``only`` those tiles, if given)."""
    wanted = set(only) if only is not None else None
    return {
        tiles.code(m.tile): m
        for m in legal
        if type(m) is kind and isinstance(m, _TILE_MOVES) and m.tile != BLANK and (wanted is None or m.tile in wanted)
    }
