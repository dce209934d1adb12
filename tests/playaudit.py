"""Play against ``mj score``: every hand robots win in a game, scored again by the calculator.

A game is played in-process as ``mj arena`` plays it (the server's table, four robots),
with one more :class:`~mj.seatview.SeatView` per seat that only watches: it knows what
the seat's client knows, no more. When a seat goes out, its view is written as
score-json.md's input (the seat and round, the sets it had declared, its concealed
tiles with the winning tile, how the tile came and from whom, its flowers, the wild
indicator, the first turn as the seed defines it, the last tile as the table does (the
live wall empty, on a discard too: classical doubles the last discard), the table's
options); at the hand's ``Settlement`` the calculator's score and payments for each
winner must be the table's ``HandScore`` and, summed over the winners, the
``Settlement``. The two things the input cannot carry are worked out from the course
of the game, as docs/rules-beijing.md defines them: an upstairs hand pays double, and a
busted banker pays each other player the agreed points. Classical scores the losers'
hands too and they pay each other, which the calculator leaves out: there the
``HandScore`` text must name the calculator's elements, and what the winner collects from
each loser (or from the one who let off a cannon, for all) is the calculator's payments.
A classical score may also rest on what the input has no field for (the tiles on the
table, an Original Call, a kong upon a kong, an annexed kong with KongHas3Types): such a
difference is counted as explained, by the elements it adds (:func:`_unsaid`).

Going out is checked the other way too: at every position where a seat's tiles could
go out (its turn with a drawn tile, another's discard, a kong that may be robbed), the
rule system's legal moves offer the win exactly when the calculator allows the hand,
save where the history the input lacks forbids it (:meth:`_Game.history`).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from mj import tiles
from mj.arena.exchange import exchange
from mj.arena.players import parse_player
from mj.arena.tally import GameTally
from mj.calculator import Element, Outcome, calculate, classical, parse_request
from mj.hand import counts
from mj.hand.wild import is_complete
from mj.melds import KongOrigin, Meld, MeldKind
from mj.protocol import cmsg as C
from mj.protocol import pmsg as P
from mj.robot.agent import Robot
from mj.rules import registry
from mj.rules.base import HandScore, WinSource
from mj.rules.beijing import options as beijing_options
from mj.rules.beijing.moves import seat_hand
from mj.rules.beijing.rules import completes_flush
from mj.rules.classical.rules import EAST_WINS_AT_MOST
from mj.rules.classical.settlement import SEAT_NAMES
from mj.rules.ims import options as ims_options
from mj.rules.ims.scoring import completes
from mj.rules.options import END, OPTION_TABLE, OptionEntry
from mj.rules.winhand import HOW_OF, SEAT_LETTERS, SET_NAME
from mj.seatview import Phase, SeatView
from mj.table import Table, TableSettings

#: Each rule system's table options that the calculator takes, by name.
SCHEMAS: Final = {
    "classical": tuple(entry.name for entry in OPTION_TABLE if entry.name != END),
    "ims": tuple(spec.name for spec in ims_options.SCHEMA),
    "beijing": tuple(spec.name for spec in beijing_options.SCHEMA),
}
_SEAT: Final = "|".join(re.escape(name) for name in SEAT_NAMES)
#: One loser's payment to the winner in a classical settlement's text.
_PAYS: Final = re.compile(rf"(?P<payer>{_SEAT}) pays (?:{_SEAT})(?: \(for (?P<loser>{_SEAT})\))? +(?P<amount>\d+)")
#: What a classical settlement's text says of a loser who pays for all (protocol.md §9.8), and the course's element.
CANNON: Final = "let off a cannon"
#: The element of the one hand that may rob a closed kong, by rule system (IMS hides closed kongs: none is robbed).
ROBS_CLOSED_KONG: Final = {"classical": "Thirteen Unique Wonders", "beijing": "Flush"}
#: A bound on the messages of one game (the table sends about four for each move): a game that goes on past it is
#: a fault, not a long game.
MAX_MESSAGES: Final = 800_000


@dataclass
class Audit:
    """What one or more games gave: hands compared, and every disagreement found (empty when play and
    the calculator agree)."""

    hands: int = 0
    wins: int = 0
    positions: int = 0
    #: Positions where play and the calculator agree that the hand may not go out.
    refused: int = 0
    #: Positions where play refused what the calculator allows, by the history that explains it.
    explained: Counter[str] = field(default_factory=Counter)
    #: Elements of the winning hands, and the course's own (Upstairs, Busted Banker, Multiple Wins, a cannon), by name.
    elements: Counter[str] = field(default_factory=Counter)
    disagreements: list[str] = field(default_factory=list)

    def add(self, other: Audit) -> None:
        self.hands += other.hands
        self.wins += other.wins
        self.positions += other.positions
        self.refused += other.refused
        self.explained.update(other.explained)
        self.elements.update(other.elements)
        self.disagreements.extend(other.disagreements)


@dataclass
class _Hand:
    """The course of the current hand as the watchers saw it."""

    #: Each winner's id, its hand as input, and the elements the table may add that the input cannot say
    #: (:func:`_unsaid`).
    wins: list[tuple[int, dict[str, Any], frozenset[str]]] = field(default_factory=list)
    scores: dict[int, int] = field(default_factory=dict)
    explanations: dict[int, str] = field(default_factory=dict)
    figures: dict[int, list[tuple[str, int]]] = field(default_factory=dict)
    #: The first discards in table order (seat, tile), while no set has been made.
    opening: list[tuple[int, str]] = field(default_factory=list)
    set_made: bool = False
    upstairs: bool = False


class _Game:
    """One game's watchers and the comparisons made as its messages pass."""

    def __init__(self, rules: str, watchers: list[SeatView], audit: Audit) -> None:
        self.rules = rules
        self.watchers = watchers
        self.audit = audit
        self.hand = _Hand()
        self.after_draw = False
        self.banker: int | None = None
        self.banker_hands = 0
        self.checked: list[object] = [None] * 4
        self.messages = 0

    @property
    def view(self) -> SeatView:
        return self.watchers[0]

    def table_options(self) -> dict[str, int]:
        return {name: self.view.options[name] for name in SCHEMAS[self.rules]}

    def watch(self, seat: int, message: C.CMsg, logged: bool) -> None:
        """One message the table sent to ``seat`` (:func:`mj.arena.exchange.exchange`)."""
        self.messages += 1
        assert self.messages <= MAX_MESSAGES, f"{self.rules}: no end after {MAX_MESSAGES} messages"
        watcher = self.watchers[seat]
        changed = watcher.apply(message)
        own = isinstance(message, C.PlayerMahJongs | C.PlayerRobsKong) and message.id == watcher.my_id
        if own:
            self.hand.wins.append((watcher.my_id, self.as_input(watcher), _unsaid(watcher)))
        elif changed and watcher.phase is Phase.PLAYING:
            self.check_position(seat, watcher)
        if logged:
            self.observe(message)

    def observe(self, message: C.CMsg) -> None:
        """A broadcast (seen once): the hand's course, its scores and its settlement."""
        hand = self.hand
        match message:
            case C.NewHand(east=east):
                self.banker_hands = self.banker_hands + 1 if east == self.banker else 0
                self.banker = east
                table = self.table_options()
                upstairs = table.get(beijing_options.UPSTAIRS, 0) and self.after_draw
                upstairs = upstairs or (table.get(beijing_options.UPSTAIRS_BANKER, 0) and self.banker_hands >= 3)
                self.hand = _Hand(upstairs=bool(upstairs))
                self.checked = [None] * 4
            case C.PlayerDiscards(id=pid, tile=tile) if not hand.set_made and len(hand.opening) < 4:
                hand.opening.append((self.view.seat_of(pid), tiles.code(tile)))
            case C.PlayerPungs() | C.PlayerKongs() | C.PlayerChows() | C.PlayerDeclaresClosedKong():
                hand.set_made = hand.set_made or len(hand.opening) < 4
            case C.HandScore(id=pid, score=score, explanation=explanation):
                hand.scores[pid] = score
                hand.explanations[pid] = explanation
            case C.ScoreFigure(id=pid, name=name, value=value):
                hand.figures.setdefault(pid, []).append((name, value))
            case C.WashOut():
                self.audit.hands += 1
                self.after_draw = True
            case C.Settlement():
                self.audit.hands += 1
                self.after_draw = False
                self.settle((message.east, message.south, message.west, message.north), message.explanation)

    def as_input(self, view: SeatView) -> dict[str, Any]:
        """The winner's hand as score-json.md's input, from what its seat knows at the moment it goes out."""
        source = view.win_source
        assert source is not None
        fed = HOW_OF[source].fed
        tile = view.win_tile if view.win_tile != tiles.BLANK else view.concealed[-1]
        data = self.hand_input(view, tile, source, view.fed_by if fed else None)
        # The seed's first turn: the banker's dealt hand before any discard, or the banker's first discard.
        discards = [record.who for record in view.timeline]
        data["first_turn"] = (view.my_seat == 0 and not fed and not discards) or (
            source is WinSource.DISCARD and discards == [view.east]
        )
        data["last_tile"] = view.live_tiles == 0
        return data

    def hand_input(self, view: SeatView, tile: tiles.Tile, source: WinSource, feeder: int | None) -> dict[str, Any]:
        """The seat's hand going out on ``tile`` come by ``source`` (from ``feeder``), as score-json.md's input."""
        concealed = list(view.concealed) if feeder is None else [*view.concealed, tile]
        data: dict[str, Any] = {
            "rules": self.rules,
            "options": self.table_options(),
            "seat": SEAT_LETTERS[view.my_seat],
            "round": SEAT_LETTERS[tiles.WINDS.index(view.prevailing)],
            "exposed": [exposed_set(meld) for meld in view.melds],
            "concealed": tiles.codes(concealed),
            "winning_tile": tiles.code(tile),
            "how": HOW_OF[source].value,
            "flowers": [tiles.code(t) for t in view.specials],
        }
        if feeder is not None:
            data["discarder"] = SEAT_LETTERS[view.seat_of(feeder)]
        if view.indicator is not None:
            data["wild_indicator"] = tiles.code(view.indicator)
        return data

    def settle(self, changes: tuple[int, int, int, int], explanation: str) -> None:
        """The table's settlement against the calculator's, winner by winner."""
        hand = self.hand
        if self.view.course.declares_hands and hand.wins:
            # The losers' hands score too and they pay each other, which the calculator leaves out (it scores them
            # 0): what the one winner collects from each loser is compared, as the settlement's text tells it.
            changes = _collected(explanation, self.view.seat_of(hand.wins[0][0]))
            if CANNON in explanation:
                self.audit.elements[CANNON] += 1
        expected = [0, 0, 0, 0]
        comparable = True
        for pid, data, unsaid in hand.wins:
            self.audit.wins += 1
            outcome = _score(data)
            table = f"{hand.scores.get(pid)} {hand.figures.get(pid)}\n{hand.explanations.get(pid)}"
            where = f"{json.dumps(data)}\ntable: {table}\nmj score:\n{outcome.text}"
            if not outcome.allowed or outcome.payments is None or outcome.score is None:
                self.audit.disagreements.append(f"the table let a hand go out that mj score refuses: {where}")
                continue
            self.audit.elements.update(e.name for e in outcome.elements)
            factor = 2 if hand.upstairs else 1
            score, explanation = hand.scores.get(pid, 0), hand.explanations.get(pid, "")
            # Classical's score text names each element in the calculator's words: an equal sum is not enough.
            named = self.rules != "classical" or Counter(_elements(explanation)) == Counter(outcome.elements)
            if score != outcome.score * factor or not named:
                why = _unsaid_difference(explanation, outcome, unsaid)
                if why:
                    # Scored on what the table knew and the input cannot say: its settlement is not the calculator's.
                    self.audit.explained[why] += 1
                    comparable = comparable and score == outcome.score * factor
                else:
                    self.audit.disagreements.append(f"score {score} against {outcome.score}: {where}")
            figures = dict(outcome.figures)
            told = dict(hand.figures.get(pid, []))
            if any(told.get(name) != value for name, value in figures.items() if name != "doubles" or factor == 1):
                self.audit.disagreements.append(f"figures {told} against {figures}: {where}")
            for i in range(4):
                expected[i] += outcome.payments[i] * factor
        opening = hand.opening
        busted = self.table_options().get(beijing_options.BUSTED_BANKER, 0)
        if busted and hand.wins and [s for s, _ in opening] == [0, 1, 2, 3] and len({t for _, t in opening}) == 1:
            points = self.table_options()[beijing_options.BUSTED_POINTS]
            expected = [expected[0] - 3 * points, *(e + points for e in expected[1:])]
            self.audit.elements["Busted Banker"] += 1
        if hand.upstairs and hand.wins:
            self.audit.elements["Upstairs"] += 1
        if len(hand.wins) > 1:
            self.audit.elements["Multiple Wins"] += 1
        if comparable and tuple(expected) != changes:
            wins = "\n".join(json.dumps(data) for _, data, _ in hand.wins)
            self.audit.disagreements.append(f"settlement {changes} against {tuple(expected)}:\n{wins}")

    def check_position(self, seat: int, view: SeatView) -> None:
        """Where the seat's tiles could go out now, play offers the win exactly when the calculator allows it."""
        candidate = _candidate(view)
        if candidate is None or candidate[0] == self.checked[seat]:
            return
        key, tile, source, feeder = candidate
        self.checked[seat] = key
        concealed = list(view.concealed) if feeder is None else [*view.concealed, tile]
        wild = view.wild
        if wild is None and not completes(view.melds, concealed):
            return  # not a winning pattern: nothing to weigh
        if wild is not None and not is_complete(counts(concealed), tiles.kind_index(wild), view.declared_sets):
            return  # not complete even with the wilds
        data = self.hand_input(view, tile, source, feeder)
        outcome = _score(data)
        self.audit.positions += 1
        offered = any(isinstance(move, P.MahJong) for move in view.legal_moves())
        if offered == outcome.allowed:
            self.audit.refused += not offered
            return
        history = self.history(view, source, outcome) if outcome.allowed else ""
        if history:
            self.audit.explained[history] += 1
            return
        said = "offers" if offered else "refuses"
        self.audit.disagreements.append(f"play {said} a win mj score answers {outcome.to_json()}: {json.dumps(data)}")

    def history(self, view: SeatView, source: WinSource, outcome: Outcome) -> str:
        """Which fact of the hand's history, not in the input, forbids a win the calculator allows ("": none).

        A closed kong robbed for anything but the one hand that may rob it (:data:`ROBS_CLOSED_KONG`; Beijing's
        Flush must be one the robbed tile completes);
        Beijing's: a wild thrown away (a dead hand); with NoWinAfterPass, a tile let pass since the seat's
        last turn (or the last pung or kong) that would have let it win on a discard.
        """
        pending = view.pending
        wild = view.wild
        closed = pending is not None and pending.kong is KongOrigin.CONCEALED and source is WinSource.ROBBED_KONG
        if closed and ROBS_CLOSED_KONG[self.rules] not in {e.name for e in outcome.elements}:
            return "robbing a closed kong"
        if closed and wild is not None and pending is not None:
            robbing = seat_hand(view, (*view.concealed, pending.tile))
            if not completes_flush(robbing, wild, pending.tile):
                return "robbing a closed kong"  # the hand's Flush is another suit's: the tile completes no run of it
        if wild is None:
            return ""
        if wild in view.discards_of(view.my_id):
            return "dead hand"
        if pending is not None and view.options.flag(beijing_options.NO_WIN_AFTER_PASS):
            for passed in set(view.passed()):
                if _score(self.hand_input(view, passed, WinSource.DISCARD, pending.who)).allowed:
                    return "passed a winning tile"
        return ""


def exposed_set(meld: Meld) -> dict[str, Any]:
    """One exposed set as score-json.md's input writes it."""
    item: dict[str, Any] = {"set": SET_NAME[meld.kind], "tile": tiles.code(meld.tile)}
    if meld.kind is MeldKind.KONG and meld.kong_origin is KongOrigin.CONCEALED:
        item["concealed"] = True
    return item


def _unsaid(view: SeatView) -> frozenset[str]:
    """The classical elements the table may give the seat going out now and its hand as input cannot earn, as
    score-json.md has no field for what they rest on: the tiles seen on the table ("filling the only place" where
    the other waits all lie there), an Original Call, a kong upon a kong (a loose tile), East's run of wins, and
    with KongHas3Types a kong added to an exposed pung (the input's exposed kong is a claimed one)."""
    unsaid = set()
    if max(view.visible_counts()) >= 4:
        unsaid.add("filling the only place")
    if view.players[view.my_id].calling:
        unsaid.add("completing Original Call")
    if view.win_source is WinSource.LOOSE:
        unsaid.add("Kong upon Kong")
    if view.my_seat == 0 and view.hands_as_east == EAST_WINS_AT_MOST - 1:
        unsaid.add("East's 13th consecutive win")
    if "KongHas3Types" in view.options and view.options.flag("KongHas3Types"):
        for meld in view.melds:
            if meld.kong_origin is KongOrigin.ANNEXED:
                unsaid.add(f"annexed kong of {'majors' if tiles.is_major(meld.tile) else 'minors'}")
    return frozenset(unsaid)


def _unsaid_difference(explanation: str, outcome: Outcome, unsaid: frozenset[str]) -> str:
    """The elements, unsaid in the input (:func:`_unsaid`), that explain the table's score of a hand against the
    calculator's ("": none do).

    The table's elements beyond the calculator's must all be unsaid ones; the calculator's beyond the table's
    none, unless the table's hand is a limit hand (its text then shows the limits alone) or holds an annexed
    kong (where the calculator's claimed kong counted as concealed).
    """
    table = _elements(explanation)
    added = Counter(e.name for e in table) - Counter(e.name for e in outcome.elements)
    dropped = Counter(e.name for e in outcome.elements) - Counter(e.name for e in table)
    if not added or not set(added) <= unsaid:
        return ""
    limit = any("Limit" in e.value for e in table)
    if dropped and not limit and not any(name.startswith("annexed kong") for name in added):
        return ""
    return ", ".join(sorted(added))


def _elements(explanation: str) -> tuple[Element, ...]:
    """The elements of a classical table's score text, in the calculator's words."""
    return classical.elements(HandScore(0, explanation))


def _collected(explanation: str, winner: int) -> tuple[int, int, int, int]:
    """What the winner collected from each loser (as negative changes, the winner's gain positive), read from the
    classical settlement's text (protocol.md §9.9): its lines up to the winner's GAINS, one for each loser,
    ``<payer> pays <winner> [(for <loser>)] <amount>`` (a cannoneer pays for the others)."""
    collected = [0, 0, 0, 0]
    for line in explanation.splitlines():
        if line.startswith(f"{SEAT_NAMES[winner]} GAINS"):
            break
        match = _PAYS.fullmatch(line)
        if match is None and (not line or line.endswith(CANNON)):
            continue
        assert match is not None, f"not a payment to the winner: {line!r}"
        loser = SEAT_NAMES.index(match["loser"] or match["payer"])
        collected[loser] -= int(match["amount"])
        collected[winner] += int(match["amount"])
    return collected[0], collected[1], collected[2], collected[3]


def _score(data: dict[str, Any]) -> Outcome:
    return calculate(parse_request(json.loads(json.dumps(data))))


def _candidate(view: SeatView) -> tuple[object, tiles.Tile, WinSource, int | None] | None:
    """(a key, the tile, how it came, its feeder) where the seat could go out now; None where it cannot."""
    pending = view.pending
    if pending is not None:
        if pending.who == view.my_id:
            return None
        source = WinSource.DISCARD if pending.kong is None else WinSource.ROBBED_KONG
        return (view.hand_no, pending.serial, source), pending.tile, source, pending.who
    if view.turn != view.my_id or view.after_claim or view.tiles_held != 14 or not view.concealed:
        return None
    if view.paused:
        return None  # the pause to start play: the dealer moves once everybody is ready
    if any(tiles.is_special(t) for t in view.concealed):
        return None  # a flower on its way to being revealed and replaced
    tile = view.last_drawn if view.last_drawn is not None else view.concealed[-1]
    return (view.hand_no, tuple(view.concealed), len(view.melds)), tile, view.last_source, None


def play(rules: str, seed: int, settings: Mapping[str, int], players: tuple[str, ...] = ("default",) * 4) -> Audit:
    """Play one game of robots under ``rules`` with the table options ``settings`` and audit it."""
    ruleset = registry.get(rules)
    options = ruleset.new_options()
    entries: list[OptionEntry] = [options.set_from_text(name, str(value)) for name, value in settings.items()]
    table = Table(TableSettings(timeout=0, seed=seed, option_entries=tuple(entries), rules=ruleset))
    robots = [Robot(parse_player(p).strategy(seed), SeatView(rules=ruleset)) for p in players]
    audit = Audit()
    game = _Game(rules, [SeatView(rules=ruleset) for _ in range(4)], audit)
    tally = GameTally()
    exchange(table, robots, [f"Robot{k + 1}" for k in range(4)], tally, None, game.watch)
    assert tally.game_over, f"{rules} seed {seed}: play stopped before the game's end"
    return audit
