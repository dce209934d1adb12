"""Which moves the Beijing rules allow a seat now: :func:`legal_moves`, from the seat's view alone.

The seed's calls are the protocol's messages (docs/protocol-extension.md):

* in turn: [Discard] any tile (a wild too: the hand is then dead, and plays on),
  [Kong] from four concealed tiles (``DeclareClosedKong``) or added to an open pung
  (``AddToPung``), [Hu] (``MahJong 0``); in the turn a chow or pung gave, only the discard;
* on a discard: [Pass] (``NoClaim``), [Chow] at each position for the player on the
  discarder's right only, [Pung], [Kong], [Hu] (``MahJong serial``);
* on a kong that may be robbed: [Pass] or [Hu];
* ``Ready`` while a server pause waits for this seat.

A set with a wild tile in it is never offered, nor a second chow or pung under
AtMostOnce: :meth:`~mj.rules.beijing.rules.BeijingRules.forbids` says so, the engine
checking with the same answer. Going out is
:meth:`~mj.rules.beijing.rules.BeijingRules.goes_out`, asked with the facts the view
knows (its own discards, the tiles it let pass), as the engine asks it with its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from mj import tiles
from mj.hand.wild import is_complete
from mj.melds import KongOrigin, MeldKind
from mj.protocol import pmsg as P
from mj.protocol.fields import ChowPosition
from mj.rules.base import SeatHand, Win, WinSource
from mj.rules.classical.moves import chow_partners
from mj.seatview import Phase, SeatView
from mj.tiles import Tile, kind_index

if TYPE_CHECKING:  # the rule system imports this module
    from mj.rules.beijing.rules import BeijingRules

POSITIONS: Final = (ChowPosition.LOWER, ChowPosition.MIDDLE, ChowPosition.UPPER)
_ORDINARY: Final = frozenset(tiles.KINDS)


def legal_moves(view: SeatView, rules: BeijingRules) -> list[P.PMsg]:
    """Every move this seat may make now (see the module documentation)."""
    if not view.active or view.game_over or view.my_id == 0 or view.my_id not in view.seats:
        return []
    pending = view.pending
    found: list[P.PMsg] = []
    if pending is not None:
        if pending.who != view.my_id and view.phase is Phase.PLAYING:
            if pending.kong is None:
                found = _claims(view, rules, pending.tile, pending.serial, pending.who)
            elif pending.kong is not KongOrigin.CLAIMED:
                found = [P.NoClaim(pending.serial)]
                if _goes_out(view, rules, pending.tile, WinSource.ROBBED_KONG, pending.who, pending.kong):
                    found.append(P.MahJong(pending.serial))
    elif view.phase is Phase.PLAYING and view.turn == view.my_id and not view.paused and view.tiles_held == 14:
        found = _turn(view, rules)
    if view.paused and view.my_id not in view.ready:
        return [P.Ready(), *found]
    return found


def seat_hand(view: SeatView, concealed: tuple[Tile, ...]) -> SeatHand:
    """The view's own hand holding ``concealed``, with the table's indicator."""
    return SeatHand(tuple(view.melds), concealed, (), view.own_wind, view.prevailing, view.indicator)


def _claims(view: SeatView, rules: BeijingRules, tile: Tile, serial: int, discarder: int) -> list[P.PMsg]:
    found: list[P.PMsg] = [P.NoClaim(serial)]
    candidates: list[P.PMsg] = []
    if view.left_of(discarder):
        candidates.extend(P.Chow(serial, p) for p in POSITIONS if chow_partners(view.concealed, tile, p) is not None)
    held = view.concealed.count(tile)
    if held >= 2:
        candidates.append(P.Pung(serial))
        if held >= 3:
            candidates.append(P.Kong(serial))
    if candidates:
        hand = seat_hand(view, tuple(view.concealed))
        found.extend(move for move in candidates if not rules.forbids(move, tile, hand, view.options))
    if _goes_out(view, rules, tile, WinSource.DISCARD, discarder, None):
        found.append(P.MahJong(serial))
    return found


def _turn(view: SeatView, rules: BeijingRules) -> list[P.PMsg]:
    concealed = view.concealed
    kinds = sorted(_ORDINARY.intersection(concealed))
    found: list[P.PMsg] = [P.Discard(t, False) for t in kinds]
    if view.after_claim:
        return found
    sets: list[P.PMsg] = [P.DeclareClosedKong(t) for t in kinds if concealed.count(t) == 4]
    sets.extend(
        P.AddToPung(m.tile) for m in view.melds if m.kind is MeldKind.PUNG and not m.concealed and m.tile in kinds
    )
    if sets:
        hand = seat_hand(view, tuple(concealed))
        found.extend(move for move in sets if not rules.forbids(move, _set_tile(move), hand, view.options))
    drawn = view.last_drawn if view.last_drawn is not None else (concealed[-1] if concealed else None)
    if drawn is not None and _complete(view, rules, view.hand_counts(), drawn, view.last_source, None, None):
        found.append(P.MahJong(0))
    return found


def _set_tile(move: P.PMsg) -> Tile:
    assert isinstance(move, P.DeclareClosedKong | P.AddToPung)
    return move.tile


def _goes_out(
    view: SeatView, rules: BeijingRules, tile: Tile, source: WinSource, feeder: int, robbed: KongOrigin | None
) -> bool:
    """Whether the other player's ``tile`` (discarded, or robbed from a kong) lets this seat go out."""
    if tile not in _ORDINARY:
        return False
    held = view.hand_counts()
    held[kind_index(tile)] += 1
    return _complete(view, rules, held, tile, source, view.seat_of(feeder), robbed)


def _complete(
    view: SeatView,
    rules: BeijingRules,
    held: list[int],
    tile: Tile,
    source: WinSource,
    feeder: int | None,
    robbed: KongOrigin | None,
) -> bool:
    """Whether the hand whose counts are ``held`` (``tile`` among them) goes out; the cheap test of
    completeness first, since a legal move list is asked for at every discard."""
    indicator = view.indicator
    wild = rules.wild_of(indicator) if indicator is not None else None
    if wild is None or not is_complete(held, kind_index(wild), view.declared_sets):
        return False
    concealed = (*view.concealed, tile) if source in (WinSource.DISCARD, WinSource.ROBBED_KONG) else view.concealed
    seat = view.my_seat
    win = Win(
        tile=tile,
        source=source,
        melds_before_win=len(view.melds),
        visible=(),
        last_tile=False,
        heavens_blessing=False,
        earths_blessing=False,
        kong_upon_kong=False,
        original_call=False,
        hands_as_east=view.hands_as_east,
        winner_is_east=seat == 0,
        feeder=feeder,
        robbed=robbed,
        discards=tuple(view.discards_of(view.my_id)),
        passed=view.passed(),
    )
    return rules.goes_out(seat_hand(view, tuple(concealed)), win, view.options)
