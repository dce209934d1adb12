"""Which moves Chinese Classical allows a seat now (protocol.md §7-§8): :func:`legal_moves`, and its facts.

:func:`legal_moves` answers from a seat's view alone, as protocol messages: the
robot chooses among them, the browser gateway offers them as buttons, and the
random-move simulation (:mod:`mj.simulate`) plays them and checks that the engine
accepts each one. The engine checks the moves it receives with the predicates
below (:func:`chow_partners`, :func:`may_rob`, :func:`may_discard`,
:func:`may_call`, :func:`may_add_to_pung`, :func:`closed_set`), the same ones this
module builds the legal moves from, so each fact of the rules is written once and
the engine keeps the original's error texts for what it refuses.

The facts: pung and kong claims need two or three matching tiles and are closed
to a calling player; chows take only suited tiles from the player on the left;
mah-jong needs a complete hand (seven pairs only with the SevenPairs option); a
concealed kong may be robbed only for Thirteen Unique Wonders; specials and
concealed kongs only after a draw (not right after claiming a discard), while the
pung just claimed may at once become a kong (protocol 1110); a calling player
discards the tile just drawn; Original Call only with the first discard of a
fully concealed hand; after a mah-jong the winner declares only sets that leave
the hand completable, the losers any set they hold.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Final

from mj import hand, tiles
from mj.melds import KongOrigin, Meld, MeldKind, chow, pair, pung, special
from mj.protocol import pmsg as P
from mj.protocol.fields import ChowPosition
from mj.rules.ruleset import Ruleset
from mj.seatview import CHOW_OFFSET, Phase, SeatView
from mj.tiles import BLANK, Tile

#: The ordinary kinds: of the tile codes a hand holds, all but flowers, seasons and the blank.
ORDINARY: Final = frozenset(tiles.KINDS)
#: The positions of a chow, lowest first (``AnyPos`` leaves the choice for later).
POSITIONS: Final = (ChowPosition.LOWER, ChowPosition.MIDDLE, ChowPosition.UPPER)
#: The flowers and seasons.
_SPECIAL_CODES: Final = frozenset(tiles.SPECIALS)
#: Protocol 1110 lets the pung just claimed become a kong at once.
ADD_TO_CLAIMED_PUNG_FROM: Final = 1110


# -- the facts, shared with the engine


def chow_partners(held: Sequence[Tile], tile: Tile, cpos: ChowPosition) -> tuple[Tile, Tile] | None:
    """The two tiles of ``held`` that make a chow with ``tile`` placed at ``cpos``, or None."""
    # By identity, not CHOW_OFFSET: hashing an Enum member runs Python code.
    offset = 0 if cpos is ChowPosition.LOWER else 1 if cpos is ChowPosition.MIDDLE else 2
    low = tile - offset
    if not 1 <= low % 10 <= 7 or not tiles.is_suited(tile) or tile % 10 <= offset:
        return None  # not a suit, or the chow would leave it
    first = low if offset else low + 1
    second = low + 2 if offset < 2 else low + 1
    if first in held and second in held:
        return first, second
    return None


def may_rob(origin: KongOrigin, melds: Sequence[Meld], concealed: Sequence[Tile], tile: Tile) -> bool:
    """Whether a kong being made with ``tile`` may be robbed (a concealed one only for Thirteen Wonders).

    Whether the hand goes out with ``tile`` is asked separately (:meth:`ClassicalRules.is_mahjong`).
    """
    if origin is not KongOrigin.CONCEALED:
        return True
    return not melds and hand.is_thirteen_wonders([*concealed, tile])


def may_discard(tile: Tile, calling: bool, last_drawn: Tile | None, after_claim: bool) -> bool:
    """Whether a calling player may discard ``tile`` (anybody else may discard any ordinary tile held)."""
    return not calling or (last_drawn is not None and tile == last_drawn and not after_claim)


def may_call(calling: bool, has_discarded: bool, held: int) -> bool:
    """Whether a discard may declare an Original Call: the first discard, with 14 tiles concealed."""
    return not calling and not has_discarded and held == 14


def may_add_to_pung(tile: Tile, after_claim: bool, just_punged: Tile | None, protocol: int) -> bool:
    """Whether an exposed pung of ``tile`` may become a kong now: after a draw, or the pung just claimed."""
    return not after_claim or (protocol >= ADD_TO_CLAIMED_PUNG_FROM and just_punged == tile)


def closed_set(kind: MeldKind, tile: Tile, held: Sequence[Tile]) -> list[Tile] | None:
    """The tiles of ``held`` a concealed pung, chow (``tile`` its lowest) or pair of ``tile`` uses, or None."""
    if kind is MeldKind.CHOW:
        ok = tiles.is_suited(tile) and tile % 10 <= 7 and tile in held and tile + 1 in held and tile + 2 in held
        return [tile, tile + 1, tile + 2] if ok else None
    count = 3 if kind is MeldKind.PUNG else 2
    return [tile] * count if held.count(tile) >= count else None


# -- the legal moves of a view


def legal_moves(view: SeatView, rules: Ruleset) -> list[P.PMsg]:
    """Every move this seat may make now; ``rules`` (classical, or a system built on it) says what completes a hand."""
    if not view.active or view.game_over or view.my_id == 0 or view.my_id not in view.seats:
        return []
    pending = view.pending
    found: list[P.PMsg]
    if view.chow_choice is not None:
        found = _chow_choice(view, view.chow_choice, rules)
    elif pending is not None:
        if pending.who == view.my_id:
            found = []
        elif pending.kong is not None:
            found = _rob(view, pending.tile, pending.serial, pending.kong)
        else:
            found = _claims(view, pending.tile, pending.serial, pending.who)
    elif view.phase is Phase.DECLARING:
        found = _declaring(view)
    elif view.phase is Phase.PLAYING:
        found = _turn(view, rules) if view.turn == view.my_id and not view.paused and view.tiles_held == 14 else []
    elif view.phase is Phase.MAHJONGING:
        found = _winner(view, rules) if view.winner == view.my_id else _loser(view)
    else:
        found = []
    if view.paused and view.my_id not in view.ready:
        # A pause stops discards (the turn offers none while it lasts), not the rest.
        return [P.Ready(), *found]
    return found


def _ordinary(view: SeatView) -> list[Tile]:
    return [t for t in view.concealed if t in ORDINARY]


def _goes_out_with(view: SeatView, tile: Tile) -> bool:
    """Whether the discard ``tile`` completes the hand: one of its waits (the view remembers them)."""
    return tile in ORDINARY and tiles.kind_index(tile) in view.waits()


def _claims(view: SeatView, tile: Tile, serial: int, discarder: int) -> list[P.PMsg]:
    found: list[P.PMsg] = [_no_claim(serial)]
    if not view.me.calling:
        if view.left_of(discarder):
            chows = len(found)
            for position in POSITIONS:
                if chow_partners(view.concealed, tile, position) is not None:
                    found.append(_chow(serial, position))
            if len(found) > chows:
                found.append(_chow(serial, ChowPosition.ANYPOS))
        held = view.concealed.count(tile)
        if held >= 2:
            found.append(_pung(serial))
            if held >= 3:
                found.append(_kong(serial))
    if _goes_out_with(view, tile):
        found.append(_mahjong(serial))
    return found


def _rob(view: SeatView, tile: Tile, serial: int, origin: KongOrigin) -> list[P.PMsg]:
    found: list[P.PMsg] = [_no_claim(serial)]
    if may_rob(origin, view.melds, view.concealed, tile) and _goes_out_with(view, tile):
        found.append(_mahjong(serial))
    return found


def _chow_choice(view: SeatView, tile: Tile, rules: Ruleset) -> list[P.PMsg]:
    """A chow claimed ``AnyPos`` was granted: which chow (after a mah-jong, only one that finishes)."""
    if view.phase is Phase.MAHJONGING:
        return [P.Chow(0, p) for p in _finishing_chows(view, tile, rules)]
    serial = view.pending.serial if view.pending is not None else 0
    return [P.Chow(serial, p) for p in POSITIONS if chow_partners(view.concealed, tile, p) is not None]


def _declaring(view: SeatView) -> list[P.PMsg]:
    """Specials and concealed kongs at the start of the hand, in this seat's declaring turn (§7.3)."""
    if view.declarer != view.my_seat or view.tiles_held != (14 if view.my_seat == 0 else 13):
        return []
    found: list[P.PMsg] = [_special(t) for t in _specials(view)]
    found.extend(_closed_kong(t) for t in _four_of_a_kind(view))
    found.append(_special(BLANK))
    return found


def _turn(view: SeatView, rules: Ruleset) -> list[P.PMsg]:
    me = view.me
    ordinary = sorted(ORDINARY.intersection(view.concealed))
    if me.calling:
        found: list[P.PMsg] = [_DISCARD[t] for t in ordinary if may_discard(t, True, view.last_drawn, view.after_claim)]
    else:  # may_discard: anything held
        found = [_DISCARD[t] for t in ordinary]
    held = len(view.concealed)
    if held == 14 and may_call(me.calling, view.has_discarded, held):
        found.extend(_CALLING_DISCARD[t] for t in ordinary)
    if not view.after_claim:
        found.extend(_special(t) for t in _specials(view))
        found.extend(_closed_kong(t) for t in _four_of_a_kind(view))
    melds = view.melds
    just_punged = melds[-1].tile if view.after_claim and melds and melds[-1].kind is MeldKind.PUNG else None
    for meld in melds:
        tile = meld.tile
        exposed_pung = meld.kind is MeldKind.PUNG and not meld.concealed and tile in ordinary
        if exposed_pung and may_add_to_pung(tile, view.after_claim, just_punged, view.protocol):
            found.append(_add_to_pung(tile))
    if rules.is_mahjong(view.melds, view.concealed, view.options):
        found.append(P.MahJong(0))
    return found


def _winner(view: SeatView, rules: Ruleset) -> list[P.PMsg]:
    """After going out: how the claimed tile is used, then the concealed sets (§7.10)."""
    pending = view.winner_pending
    concealed = view.concealed
    melds = view.melds
    found: list[P.PMsg] = []
    if pending is not None:
        if concealed.count(pending) >= 2 and _fits(
            rules, view, [*melds, pung(pending, False)], _without(concealed, pending, pending)
        ):
            found.append(P.Pung(0))
        if pending in concealed and _fits(rules, view, [*melds, pair(pending, False)], _without(concealed, pending)):
            found.append(P.Pair())
        positions = _finishing_chows(view, pending, rules)
        found.extend(P.Chow(0, p) for p in positions)
        if positions:
            found.append(P.Chow(0, ChowPosition.ANYPOS))
        full = [*concealed, pending]
        if hand.is_thirteen_wonders(full) and _fits(rules, view, [*melds, special(tuple(full), False)], []):
            found.append(P.SpecialSet())
        return found
    if view.winner_scored or not concealed:
        return []
    for kind, make in _CLOSED:
        for tile in sorted(set(_ordinary(view))):
            used = closed_set(kind, tile, concealed)
            if used is not None and _fits(rules, view, [*melds, _closed_meld(kind, tile)], _without(concealed, *used)):
                found.append(make(tile))
    if hand.is_thirteen_wonders(concealed):
        found.append(P.FormClosedSpecialSet())
    return found


def _loser(view: SeatView) -> list[P.PMsg]:
    """Another player went out: form any concealed set held, or show the tiles."""
    me = view.me
    if me.shown is not None or me.hand_score is not None or not view.concealed:
        return []
    found: list[P.PMsg] = []
    for kind, make in _CLOSED:
        found.extend(make(t) for t in sorted(set(_ordinary(view))) if closed_set(kind, t, view.concealed) is not None)
    found.append(P.ShowTiles())
    return found


def _finishing_chows(view: SeatView, tile: Tile, rules: Ruleset) -> list[ChowPosition]:
    found = []
    for position in POSITIONS:
        partners = chow_partners(view.concealed, tile, position)
        if partners is not None:
            low = tile - CHOW_OFFSET[position]
            if _fits(rules, view, [*view.melds, chow(low, False)], _without(view.concealed, *partners)):
                found.append(position)
    return found


def _fits(rules: Ruleset, view: SeatView, melds: list[Meld], rest: list[Tile]) -> bool:
    """Whether the winner could still complete the hand after declaring ``melds``, keeping ``rest`` concealed."""
    return rules.can_finish(melds, rest, view.options)


def _without(held: Sequence[Tile], *used: Tile) -> list[Tile]:
    rest = list(held)
    for tile in used:
        rest.remove(tile)
    return rest


def _specials(view: SeatView) -> list[Tile]:
    """The flowers and seasons held, in the order received (most hands: none, found at C speed)."""
    concealed = view.concealed
    if _SPECIAL_CODES.isdisjoint(concealed):
        return []
    return [t for t in concealed if t in _SPECIAL_CODES]


def _four_of_a_kind(view: SeatView) -> list[Tile]:
    concealed = view.concealed
    if len(concealed) - len(set(concealed)) < 3:
        return []  # four of a kind repeats a tile three times (most hands: told at C speed)
    ordinary = _ordinary(view)
    return sorted(t for t in set(ordinary) if ordinary.count(t) == 4)


def _closed_meld(kind: MeldKind, tile: Tile) -> Meld:
    if kind is MeldKind.PUNG:
        return pung(tile, True)
    if kind is MeldKind.CHOW:
        return chow(tile, True)
    return pair(tile, True)


# Moves are immutable: the ones offered again and again are made once each (serials
# start again at every hand, so these caches stay small).


@cache
def _no_claim(serial: int) -> P.NoClaim:
    return P.NoClaim(serial)


@cache
def _chow(serial: int, position: ChowPosition) -> P.Chow:
    return P.Chow(serial, position)


@cache
def _pung(serial: int) -> P.Pung:
    return P.Pung(serial)


@cache
def _kong(serial: int) -> P.Kong:
    return P.Kong(serial)


@cache
def _mahjong(serial: int) -> P.MahJong:
    return P.MahJong(serial)


@cache
def _special(tile: Tile) -> P.DeclareSpecial:
    return P.DeclareSpecial(tile)


@cache
def _closed_kong(tile: Tile) -> P.DeclareClosedKong:
    return P.DeclareClosedKong(tile)


@cache
def _add_to_pung(tile: Tile) -> P.AddToPung:
    return P.AddToPung(tile)


def _form_pung(tile: Tile) -> P.PMsg:
    return P.FormClosedPung(tile)


def _form_chow(tile: Tile) -> P.PMsg:
    return P.FormClosedChow(tile)


def _form_pair(tile: Tile) -> P.PMsg:
    return P.FormClosedPair(tile)


_CLOSED: Final = ((MeldKind.PUNG, _form_pung), (MeldKind.CHOW, _form_chow), (MeldKind.PAIR, _form_pair))
#: The discards of each kind, plain and declaring an Original Call, made once.
_DISCARD: Final = {t: P.Discard(t, False) for t in tiles.KINDS}
_CALLING_DISCARD: Final = {t: P.Discard(t, True) for t in tiles.KINDS}
