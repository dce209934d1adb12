"""Which moves the IMS rules allow a seat now: :func:`legal_moves`, from the seat's view alone.

The seed's buttons are the protocol's messages (docs/protocol-extension.md):

* in turn: [Discard] (``Discard``), [Quadruplet] from four concealed tiles
  (``DeclareClosedKong``) or added to a revealed triplet (``AddToPung``), [MahJong]
  (``MahJong 0``); the turn a claimed connection or triplet gives is a turn too ("Then,
  this player gets the next turn"), but without [MahJong]: a hand the claimed tile
  completed went out by the MahJong bid, which beats every other;
* on a discard: [Draw] for the discarder's successor and [Pass] for the others (both
  ``NoClaim``), [Connect] at each of the three positions for the successor only
  (``Chow`` with ``Lower``, ``Middle`` or ``Upper``), [Triplet] (``Pung``),
  [Quadruplet] (``Kong``), [MahJong] (``MahJong serial``);
* on a quadruplet added to a triplet: [Pass] or, to rob it, [MahJong];
* ``Ready`` while a server pause waits for this seat.

Going out needs a winning pattern with the table's Minimum Fan, which the rule
system weighs with the facts of the win (:meth:`IMSRules.goes_out`), exactly as the
engine checks it. Flowers are revealed by the engine and concealed quadruplets never
open a robbing window, so neither appears here.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Final

from mj import tiles
from mj.hand import counts
from mj.melds import KongOrigin, MeldKind
from mj.protocol import pmsg as P
from mj.protocol.fields import ChowPosition
from mj.rules.base import SeatHand, Win, WinSource
from mj.rules.classical.moves import chow_partners
from mj.rules.ims.scoring import completes, completing_kinds, declared_sets
from mj.seatview import Phase, SeatView
from mj.tiles import Tile

if TYPE_CHECKING:  # the rule system imports this module
    from mj.rules.ims.rules import IMSRules

#: The three positions of a connection, lowest first (IMS has no "any position" bid).
POSITIONS: Final = (ChowPosition.LOWER, ChowPosition.MIDDLE, ChowPosition.UPPER)
_ORDINARY: Final = frozenset(tiles.KINDS)
_SPECIALS: Final = frozenset(tiles.SPECIALS)
#: The discard of each kind (messages are immutable: made once, offered every turn).
_DISCARDS: Final[dict[Tile, P.PMsg]] = {t: P.Discard(t, False) for t in tiles.KINDS}


@lru_cache(maxsize=1024)
def _completing(concealed: tuple[Tile, ...], declared_sets: int) -> frozenset[int]:
    """:func:`~mj.rules.ims.scoring.completing_kinds` of a hand: each seat's, asked at every discard
    until its hand changes, is worked out once."""
    return completing_kinds(counts(concealed), declared_sets)


@lru_cache(maxsize=256)
def _no_claim(serial: int) -> P.PMsg:
    """[Draw] or [Pass] on discard ``serial``: asked of three seats at every discard, made once."""
    return P.NoClaim(serial)


def legal_moves(view: SeatView, rules: IMSRules) -> list[P.PMsg]:
    """Every move this seat may make now (see the module documentation)."""
    if not view.active or view.game_over or view.my_id == 0 or view.my_id not in view.seats:
        return []
    pending = view.pending
    found: list[P.PMsg] = []
    if pending is not None:
        if pending.who != view.my_id and view.phase is Phase.PLAYING:
            if pending.kong is None:
                found = _bids(view, rules, pending.tile, pending.serial, pending.who)
            elif pending.kong is KongOrigin.ANNEXED:
                found = [P.NoClaim(pending.serial)]
                if _goes_out(view, rules, pending.tile, WinSource.ROBBED_KONG, pending.who):
                    found.append(P.MahJong(pending.serial))
    elif view.phase is Phase.PLAYING and view.turn == view.my_id and not view.paused and view.tiles_held == 14:
        found = _turn(view, rules)
    if view.paused and view.my_id not in view.ready:
        return [P.Ready(), *found]
    return found


def _bids(view: SeatView, rules: IMSRules, tile: Tile, serial: int, discarder: int) -> list[P.PMsg]:
    found: list[P.PMsg] = [_no_claim(serial)]
    concealed = view.concealed
    if view.left_of(discarder):
        for position in POSITIONS:  # a loop, not a generator: this runs at every discard
            if chow_partners(concealed, tile, position) is not None:
                found.append(P.Chow(serial, position))
    held = concealed.count(tile)
    if held >= 2:
        found.append(P.Pung(serial))
        if held >= 3:
            found.append(P.Kong(serial))
    if _goes_out(view, rules, tile, WinSource.DISCARD, discarder):
        found.append(P.MahJong(serial))
    return found


def _turn(view: SeatView, rules: IMSRules) -> list[P.PMsg]:
    concealed = view.concealed
    if not _SPECIALS.isdisjoint(concealed):
        return []  # a flower just drawn: the server reveals it and a replacement is on its way
    ordinary = sorted(_ORDINARY.intersection(concealed))
    found: list[P.PMsg] = [_DISCARDS[t] for t in ordinary]
    held = counts(concealed)
    for t in ordinary:
        if held[tiles.kind_index(t)] == 4:
            found.append(P.DeclareClosedKong(t))
    melds = view.melds
    for meld in melds:
        tile = meld.tile
        if meld.kind is MeldKind.PUNG and not meld.concealed and tile in ordinary:
            found.append(P.AddToPung(tile))
    if view.after_claim:
        return found  # the claim's tile was the MahJong bid's to take
    drawn = view.last_drawn if view.last_drawn is not None else (concealed[-1] if concealed else None)
    if drawn is None or drawn not in concealed:
        return found
    # The hand before the draw was weighed at the discards before it: its waits are remembered.
    before = concealed[:-1] if concealed[-1] == drawn else _without(concealed, drawn)
    if tiles.kind_index(drawn) not in _completing(tuple(before), declared_sets(melds)):
        return found
    if _complete(view, rules, list(concealed), drawn, view.last_source, None):
        found.append(P.MahJong(0))
    return found


def _without(concealed: list[Tile], tile: Tile) -> list[Tile]:
    """``concealed`` less one ``tile`` (which it holds)."""
    rest = list(concealed)
    rest.remove(tile)
    return rest


def _goes_out(view: SeatView, rules: IMSRules, tile: Tile, source: WinSource, feeder: int) -> bool:
    """Whether the other player's ``tile`` (discarded or robbed) lets this seat go out."""
    if tile not in _ORDINARY:
        return False
    if tiles.kind_index(tile) not in _completing(tuple(view.concealed), declared_sets(view.melds)):
        return False  # the hand's waits, worked out once while it stays as it is
    return _complete(view, rules, [*view.concealed, tile], tile, source, view.seat_of(feeder))


def _complete(
    view: SeatView, rules: IMSRules, concealed: list[Tile], tile: Tile, source: WinSource, feeder: int | None
) -> bool:
    if not completes(view.melds, concealed):
        return False  # the quick test first (the rule system's is_mahjong): most hands are not complete
    seat = view.my_seat
    hand = SeatHand(tuple(view.melds), tuple(concealed), tuple(view.specials), view.own_wind, view.prevailing)
    win = Win(
        tile=tile,
        source=source,
        melds_before_win=len(view.melds),
        visible=(),
        last_tile=view.live_tiles == 0,
        heavens_blessing=False,
        earths_blessing=False,
        kong_upon_kong=False,
        original_call=False,
        hands_as_east=view.hands_as_east,
        winner_is_east=seat == 0,
        feeder=feeder,
    )
    return rules.goes_out(hand, win, view.options)
