"""``mj score`` for Chinese Classical: the existing scorer and settlement, on a hand given alone.

The hand becomes the classical scorer's ``SeatHand`` and ``Win``: the exposed sets
first, as declared in play (an exposed kong is taken as claimed), then the concealed
tiles as the winner would declare them, the set holding a fed tile exposed, as the
original makes it. Every reading is scored and the best kept. The table is unknown,
so only the winner's own exposed sets count as visible ("filling the only place"),
and there is no Original Call, kong upon kong or run of East's wins. A loose tile
replaces a kong's draw, or a flower's with FlowersLoose: without it a flower is replaced
from the live wall, so a loose-tile win with no kong is won from the wall (seed 001).

The losers' hands are unknown: they are scored 0, so the settlement is what the
winner collects (East pays and receives double with EastDoubles, the discarder pays
double with DiscDoubles, and losers settling among themselves are even).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

from mj import hand as analysis
from mj.calculator.outcome import Element, InputError, Outcome
from mj.hand.complete import thirteen_wonders_counts
from mj.melds import Meld, MeldKind, chow, pair, pung, special
from mj.rules.base import HandScore, SeatHand, Win, WinSource
from mj.rules.classical.scoring import score_hand
from mj.rules.classical.settlement import settle
from mj.rules.options import END, OPTION_TABLE, GameOptions, OptionError, OptionType
from mj.rules.winhand import EAST, HOW_OF, How, WinningHand
from mj.tiles import KINDS, NUM_KINDS, kind_index

_SOURCES: Final = {how: source for source, how in HOW_OF.items()}
_TYPES: Final = {entry.name: entry.type for entry in OPTION_TABLE if entry.name != END}


def game_options(given: Mapping[str, object]) -> GameOptions:
    """The defaults with ``given`` applied, checked as ``SetGameOption`` checks them."""
    options = GameOptions()
    for name, value in given.items():
        kind = _TYPES.get(name)
        if kind is None:
            raise InputError(f"unknown classical option {name!r}")
        if kind is OptionType.BOOL and not (isinstance(value, bool) or value in (0, 1)):
            raise InputError(f"option {name} must be true or false, not {value!r}")
        if kind is not OptionType.BOOL and (isinstance(value, bool) or not isinstance(value, int)):
            raise InputError(f"option {name} must be a whole number, not {value!r}")
        assert isinstance(value, int)
        try:
            entry = options.set_from_text(name, str(int(value)))
        except OptionError as exc:
            raise InputError(f"option {name}: {exc}") from None
        options.set_value(name, entry.value)
    return options


def calculate(hand: WinningHand, given: Mapping[str, object]) -> Outcome:
    """Score ``hand`` with the classical scorer and settle it against losers scoring 0."""
    options = game_options(given)
    if hand.flowers and not options.flag("Flowers"):
        raise InputError("flowers are given but the Flowers option is off")
    win = _win(hand, options)
    best: HandScore | None = None
    for melds in readings(hand, options.flag("SevenPairs")):
        seat_hand = SeatHand(melds, (), hand.flowers, hand.seat_wind, hand.prevailing_wind)
        scored = score_hand(seat_hand, win, options)
        if best is None or scored.score > best.score:
            best = scored
    if best is None:
        reason = "not a complete hand: the tiles make neither 4 sets and a pair nor Thirteen Unique Wonders"
        if not hand.exposed and all(n % 2 == 0 for n in analysis.counts(hand.concealed)):
            reason += " (seven pairs needs the SevenPairs option)"
        return Outcome(False, reason, None, (), (), None, f"not allowed: {reason}")
    scores = [0, 0, 0, 0]
    scores[hand.seat] = best.score
    discarder = hand.discarder if hand.how is How.DISCARD else None
    settlement = settle(scores, hand.seat, discarder, None, options)
    text = f"{best.text}\n\n{settlement.text.rstrip()}"
    return Outcome(True, "", best.score, (), elements(best), settlement.changes, text)


def _win(hand: WinningHand, options: GameOptions) -> Win:
    visible = [0] * NUM_KINDS
    for meld in hand.exposed:
        if not meld.concealed:
            for tile in meld.tiles:
                visible[kind_index(tile)] += 1
    source = _SOURCES[hand.how]
    kong = any(meld.kind is MeldKind.KONG for meld in hand.exposed)
    if source is WinSource.LOOSE and not kong and not options.flag("FlowersLoose"):
        # A flower's replacement comes from the live wall unless FlowersLoose: the hand is won from the wall.
        source = WinSource.WALL
    # The blessings are won before anything was claimed: East's dealt hand (with its own
    # concealed kongs and their loose tiles), or East's first discard.
    unclaimed = all(meld.concealed for meld in hand.exposed)
    return Win(
        tile=hand.winning_tile,
        source=source,
        melds_before_win=len(hand.exposed),
        visible=tuple(visible),
        last_tile=hand.last_tile,
        heavens_blessing=hand.first_turn and unclaimed and hand.seat == EAST and not hand.how.fed,
        earths_blessing=hand.first_turn and not hand.exposed and hand.how is How.DISCARD and hand.discarder == EAST,
        kong_upon_kong=False,
        original_call=False,
        hands_as_east=0,
        winner_is_east=hand.seat == EAST,
    )


def readings(hand: WinningHand, seven_pairs: bool) -> list[tuple[Meld, ...]]:
    """Every way the winner could declare the hand, exposed sets first, in formation order."""
    declared = tuple(hand.exposed)
    fed = hand.how.fed
    found: list[tuple[Meld, ...]] = []
    for reading in analysis.decompositions(list(hand.concealed), len(declared)):
        formed = [
            *(pung(t, True) for t in reading.pungs),
            *(chow(t, True) for t in reading.chows),
            pair(reading.pair, True),
        ]
        found.extend(declared + sets for sets in _with_winning_set(formed, hand))
    held = analysis.counts(hand.concealed)
    if not declared and thirteen_wonders_counts(held):
        found.append((special(tuple(hand.concealed), not fed),))
    if not declared and seven_pairs and all(n % 2 == 0 for n in held):
        pairs = [pair(KINDS[i], True) for i, n in enumerate(held) for _ in range(n // 2)]
        found.extend(_with_winning_set(pairs, hand))
    return found


def _with_winning_set(formed: list[Meld], hand: WinningHand) -> list[tuple[Meld, ...]]:
    """The sets formed at mah-jong, one choice per set the winning tile can be in: that set first, exposed if fed."""
    choices = []
    seen = set()
    for i, meld in enumerate(formed):
        if hand.winning_tile in meld.tiles and (meld.kind, meld.tile) not in seen:
            seen.add((meld.kind, meld.tile))
            first = Meld(meld.kind, meld.tile, False) if hand.how.fed else meld
            choices.append((first, *formed[:i], *formed[i + 1 :]))
    return choices


#: The start of the line telling the points doubled past the limit: a total, not an element.
_OVER_LIMIT: Final = "score:"
#: A line of the classical score text naming an element: label, value, (reason).
_LINE: Final = re.compile(r"^(?P<label>.*?) +(?P<value>\d+)(?P<dbl> dbl)? \((?P<reason>.*)\)$")


def elements(scored: HandScore) -> tuple[Element, ...]:
    """The elements of a classical score text: each line with a reason, in the original's words (the line of
    points doubled past the limit aside: a total)."""
    found = []
    for line in scored.text.splitlines():
        match = _LINE.match(line)
        if match is None or line.startswith(_OVER_LIMIT):
            continue
        label, value, reason = match["label"], int(match["value"]), match["reason"]
        if match["dbl"]:
            worth = f"{value} dbl"
        elif "Limit" in label:
            worth = f"{label.strip()} {value}"
        else:
            worth = f"{value} pts"
        found.append(Element(reason, worth))
    return tuple(found)
