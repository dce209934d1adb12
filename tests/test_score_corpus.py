"""``mj score`` on every winning hand of the recorded original games, given as a person would type it.

Each game of ``tests/data/reference``, ``tests/data/original`` and ``tests/data/stacked`` is
replayed through our table (which scores it byte for byte as the original did,
``tests/test_replay.py``); every winner's hand, as it stood when it went out, becomes the JSON
input of score-json.md, and the calculator must give the score the original server gave. The
input holds no table, so two differences are allowed and pinned: "filling the only place"
earned because the other waits lay on the table, and a robot that declared a poorer arrangement
of its tiles than the best one, which the calculator takes.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from mj import replay, tiles
from mj.calculator import calculate, parse_request
from mj.calculator.classical import elements, readings
from mj.calculator.outcome import Element
from mj.melds import Meld, MeldKind
from mj.rules.base import HandScore, SeatHand, Win
from mj.rules.classical.scoring import score_hand
from mj.rules.options import GameOptions
from mj.rules.winhand import HOW_OF, SEAT_LETTERS, SET_NAME
from playaudit import SCHEMAS, exposed_set
from test_scoring import REFERENCE_LOGS

DATA = Path(__file__).parent / "data"
#: The original's games: the evidence logs (scripted limit hands among them), the seeded games
#: of its robots, and theirs on walls stacked toward the limit hands.
GAMES = [
    *(DATA / "reference" / name for name in REFERENCE_LOGS),
    *sorted(DATA.glob("original/*.log.gz")),
    *sorted(DATA.glob("stacked/*.log.gz")),
]


@dataclass(frozen=True)
class Winner:
    game: str
    hand: SeatHand
    win: Win
    options: GameOptions
    logged: HandScore


def winners_of(game: Path, monkeypatch: pytest.MonkeyPatch) -> list[Winner]:
    """Every winner's hand the table scored while replaying ``game``."""
    found: list[Winner] = []

    def recording(hand: SeatHand, win: Win | None, options: GameOptions, special_scores: bool = True) -> HandScore:
        result = score_hand(hand, win, options, special_scores)
        if win is not None and special_scores:
            found.append(Winner(game.name, hand, win, options, result))
        return result

    with monkeypatch.context() as patch:
        patch.setattr("mj.rules.classical.rules.score_hand", recording)
        assert replay.replay(replay.read_entries(game)).mismatch is None
    return found


def expressible(winner: Winner) -> bool:
    """Whether the JSON input can say everything the table knew that scores (score-json.md's fields)."""
    win = winner.win
    blank = win.tile == tiles.BLANK or any(tiles.BLANK in meld.tiles for meld in winner.hand.melds)
    return not (blank or win.kong_upon_kong or win.original_call or win.hands_as_east >= 12)


def as_input(winner: Winner) -> dict[str, Any]:
    """The hand as score-json.md's input: the sets exposed before the win, every other tile concealed."""
    hand, win = winner.hand, winner.win
    exposed: list[dict[str, Any]] = []
    concealed = list(hand.concealed)
    for n, meld in enumerate(hand.melds):
        if n < win.melds_before_win and meld.kind in SET_NAME:
            exposed.append(exposed_set(meld))
        else:
            concealed += meld.tiles
    data: dict[str, Any] = {
        "rules": "classical",
        "options": {name: winner.options[name] for name in SCHEMAS["classical"]},
        "seat": SEAT_LETTERS[tiles.WINDS.index(hand.own_wind)],
        "round": SEAT_LETTERS[tiles.WINDS.index(hand.prevailing_wind)],
        "exposed": exposed,
        "concealed": tiles.codes(concealed),
        "winning_tile": tiles.code(win.tile),
        "how": HOW_OF[win.source].value,
        "flowers": [tiles.code(t) for t in hand.specials],
        "first_turn": win.heavens_blessing or win.earths_blessing,
        "last_tile": win.last_tile,
    }
    if win.feeder is not None and HOW_OF[win.source].fed:
        data["discarder"] = SEAT_LETTERS[win.feeder]
    return data


def reasons(found: Iterable[Element]) -> Counter[str]:
    return Counter(element.name for element in found)


def arrangement(melds: tuple[Meld, ...] | list[Meld]) -> Counter[tuple[MeldKind, int]]:
    return Counter((m.kind, m.tile) for m in melds)


@pytest.fixture(scope="module")
def winners() -> list[Winner]:
    with pytest.MonkeyPatch.context() as monkeypatch:
        return [w for game in GAMES for w in winners_of(game, monkeypatch)]


def test_the_games_give_over_a_thousand_winning_hands_to_check_limit_hands_among_them(winners: list[Winner]) -> None:
    assert len(GAMES) >= 80
    checked = [w for w in winners if expressible(w)]
    assert len(checked) >= 1000
    limits = {reason for w in checked for reason in reasons(elements(w.logged)) if reason[0].isupper()}
    stacked = {"All Honours", "Buried Treasure", "Concealed Clear Suit", "Heads and Tails", "Three Great Scholars"}
    assert stacked | {"Wriggling Snake", "Thirteen Unique Wonders"} <= limits


def test_the_calculator_scores_each_winning_hand_as_the_original_server_did(winners: list[Winner]) -> None:
    outcomes: Counter[str] = Counter()
    for winner in filter(expressible, winners):
        data = as_input(winner)
        request = parse_request(json.loads(json.dumps(data)))
        outcome = calculate(request)
        logged = winner.logged
        where = f"{winner.game}: {json.dumps(data)}\noriginal:\n{logged.text}\nmj score:\n{outcome.text}"
        assert outcome.allowed, where
        if outcome.score == logged.score:
            outcomes["same"] += 1
        elif outcome.score is not None and outcome.score < logged.score:
            # The other waits were all on the table, which the input does not show.
            missing = reasons(elements(logged)) - reasons(outcome.elements)
            assert missing == Counter({"filling the only place": 1}), where
            outcomes["only place"] += 1
        else:
            # The robot declared a poorer arrangement; the calculator weighed it and took a better one.
            weighed = [arrangement(r) for r in readings(request.hand, winner.options.flag("SevenPairs"))]
            assert arrangement(winner.hand.melds) in weighed, where
            outcomes["better arrangement"] += 1
    assert outcomes["same"] >= 0.98 * sum(outcomes.values()), outcomes
