"""Spectators and the replay see the figures behind a winner's score and the hand's payments (IMS, Beijing).

``ScoreFigure`` and ``Payment`` (docs/protocol-extension.md) are broadcast to every seat and
follow from the shown hands and the scores: a spectator of the table, one of a table another
process played, and the replay of the stored game are sent them, and the spectator's board
and the replay viewer show them at the end of a hand ("South pays East 8").
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lobby_games import recorded_game
from lobbyproc import Lobby
from mj.lobby import replayer
from mj.lobby.live import _public
from mj.lobby.models import LobbyTable
from mj.lobby.play import SENT, TablePlay
from mj.lobby.public import public_view
from mj.lobby.runner import robot_seeds, table_setup
from mj.lobby.store import Store
from mj.protocol import cmsg as C

#: The options of a short game of each rule system that sends figures.
OPTIONS: dict[str, dict[str, object]] = {"ims": {"NumRounds": 1}, "beijing": {}}
WINDS = ("East", "South", "West", "North")
#: How the pages name a total that does not read as its figure's name capitalized.
TOTALS = {"kongs": "Kong points"}


def robots_game(rules: str, seed: int) -> TablePlay:
    """Four robots at a table of ``rules`` (a short game), not yet played."""
    row = LobbyTable(id=1, rules=rules, options=json.dumps(OPTIONS[rules]), robots=4, level=1, seed=seed,
                     turn_timer=0, status="playing")  # fmt: skip
    play = TablePlay(table_setup(row))
    for connection, (name, robot_seed) in robot_seeds(row).items():
        play.add_robot(connection, name, robot_seed)
    return play


def _is_figure(line: str) -> bool:
    return line.startswith(("ScoreFigure ", "Payment "))


def _hands(lines: list[str]) -> list[list[str]]:
    """The lines of each hand, from its NewHand on."""
    hands: list[list[str]] = []
    for line in lines:
        if line.startswith("NewHand "):
            hands.append([])
        if hands:
            hands[-1].append(line)
    return hands


def test_the_figures_behind_a_score_and_each_payment_are_every_spectator_s_business() -> None:
    for message in (C.ScoreFigure(3, 3, "fan:Concealed Snake"), C.ScoreFigure(3, 8, "owes:East"), C.Payment(1, 3, 64)):
        assert public_view(message) is message
        assert _public(message.encode(), True) == message.encode()  # as a table another process played sends it


@pytest.mark.parametrize("rules", ["ims", "beijing"])
def test_a_spectator_of_an_ims_or_beijing_table_is_sent_every_score_figure_and_payment(rules: str) -> None:
    play = robots_game(rules, 7)
    logged: list[str] = []
    while play.queue:
        play.step(64)
        logged.extend(t for _, d, _, t in play.take_batch().moves if d == SENT and t is not None)
    sent = [line for line in logged if _is_figure(line)]
    assert any(line.startswith("ScoreFigure ") for line in sent) and any(line.startswith("Payment ") for line in sent)
    assert [line for line in play.public if _is_figure(line)] == sent
    for hand in _hands(play.public):  # each hand's, between the winner's HandScore and the Settlement
        figures = [i for i, line in enumerate(hand) if _is_figure(line)]
        if figures:
            assert hand[figures[0] - 1].startswith("HandScore ") and hand[figures[-1] + 1].startswith("Settlement ")


@pytest.mark.parametrize("rules", ["ims", "beijing"])
def test_the_replay_of_an_ims_or_beijing_game_shows_each_hand_s_figures_and_payments(
    rules: str, tmp_path: Path
) -> None:
    store = Store(f"sqlite:///{tmp_path / 'lobby.db'}")
    try:
        _table, game_id, play = recorded_game(store, rules, OPTIONS[rules], 9)
        game = store.game(game_id)
        assert game is not None
        played = _hands(play.public)
        shown = 0
        for hand in store.hands(game_id):
            lines = [frame["line"] for frame in replayer.hand_frames(store, game, hand.number)["frames"]]
            figures = [line for line in lines if _is_figure(line)]
            assert figures == [line for line in played[hand.number - 1] if _is_figure(line)]
            assert bool(figures) == (hand.winner is not None)
            shown += len(figures)
        assert shown
    finally:
        store.close()


# ---------------------------------------------------------------------- the pages, in Chromium


def _won_last_hand(store: Store, rules: str) -> tuple[int, int, TablePlay]:
    """A stored game whose last hand somebody won (what both pages show last), trying seed after seed."""
    for seed in range(1, 21):
        table, game, play = recorded_game(store, rules, OPTIONS[rules], seed)
        if store.hands(game)[-1].winner is not None:
            return table, game, play
    raise AssertionError(f"no {rules} game of seeds 1 to 20 ended on a won hand")


class _Ending:
    """What the pages must show of a game's last hand: each seat's wind, the winners' figures, the payments."""

    def __init__(self, sent: list[str]) -> None:
        names: dict[int, str] = {}
        order: list[int] = []
        east = 0
        self.figures: dict[int, list[tuple[str, int]]] = {}
        self.payments: list[C.Payment] = []
        for line in sent:
            message = C.decode(line)
            if isinstance(message, C.Player):
                names[message.id] = message.name
            elif isinstance(message, C.Game):
                order = [message.east, message.south, message.west, message.north]
            elif isinstance(message, C.NewHand):
                east, self.figures, self.payments = message.east, {}, []
            elif isinstance(message, C.ScoreFigure):
                self.figures.setdefault(message.id, []).append((message.name, message.value))
            elif isinstance(message, C.Payment):
                self.payments.append(message)
        seats = order[order.index(east) :] + order[: order.index(east)]
        self.wind = {player: WINDS[i] for i, player in enumerate(seats)}
        self.names = names

    def payment_line(self) -> str:
        return "Payments: " + ", ".join(
            f"{self.wind[p.payer]} pays {self.wind[p.payee]} {p.amount}" for p in self.payments
        )

    def check_winner(self, seat_text: str, rows: list[str], winner: int) -> None:
        """The winner's seat is named with its wind, spelt out as the payments spell it, and shows every figure:
        totals, elements, each payer's doubles."""
        wind, name = seat_text.split(" — ")[:2]
        assert wind == self.wind[winner] and name == self.names[winner], seat_text
        figures = self.figures[winner]
        owed = {name.split(":")[1]: value for name, value in figures if name.startswith("owes:")}
        for name, value in figures:
            kind, _, element = name.partition(":")
            if not element:
                total = TOTALS.get(kind, kind.capitalize())
                assert any(row.startswith(f"{total} {value}") for row in rows), (name, rows)
            elif kind == "owes":
                assert any(row.startswith(f"{element} owes {value}") for row in rows), (name, rows)
            elif kind == "for":
                seat, double = element.split(":")
                (row,) = [row for row in rows if row.startswith(f"{seat} owes {owed[seat]}")]
                assert double in row, (name, row)
            else:
                assert any(f"{element} {value}" in row for row in rows), (name, rows)


def _sees_the_ending(tab: Any, ending: _Ending) -> None:
    tab.locator("#board .payments").wait_for(timeout=60_000)
    assert tab.locator("#board .payments").inner_text() == ending.payment_line()
    for winner in ending.figures:
        seat = tab.locator("#board .seat", has_text=f" — {ending.names[winner]}")
        ending.check_winner(seat.inner_text(), seat.locator(".figure").all_inner_texts(), winner)
    assert tab.locator("#board .seat:has(.figure)").count() == len(ending.figures)  # the winners' only


def _screenshots(tab: Any, artifacts: Path, name: str) -> None:
    """The page as a spectator sees it on a small screen and a large one."""
    for width, height in ((800, 600), (1920, 1080)):
        tab.set_viewport_size({"width": width, "height": height})
        tab.screenshot(path=artifacts / f"{name}-{width}x{height}.png", full_page=True)


@pytest.mark.parametrize("rules", ["ims", "beijing"])
def test_the_watch_and_replay_pages_show_the_winner_s_figures_and_who_pays_whom(
    rules: str, start_lobby: Any, browser: Any, tmp_path: Path, artifacts: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'lobby.db'}"
    store = Store(url)
    try:
        table, game, _play = _won_last_hand(store, rules)
        hands = len(store.hands(game))
        logged = [move.text for move in store.moves(game) if move.direction == SENT and move.text is not None]
    finally:
        store.close()
    ending = _Ending(logged)  # read from what the table sent its players, not from what spectators are sent
    assert ending.figures and ending.payments
    lobby: Lobby = start_lobby(url)
    context = browser.new_context(viewport={"width": 1300, "height": 900})
    errors: list[str] = []
    try:
        tab = context.new_page()
        tab.on("pageerror", lambda exc: errors.append(str(exc)))
        tab.goto(f"{lobby.url}watch?table={table}")  # a finished table: every line, the last hand's shown
        tab.locator("#board .result", has_text="Game over").wait_for(timeout=60_000)
        _sees_the_ending(tab, ending)
        _screenshots(tab, artifacts, f"lobby-figures-{rules}-watch")
        tab.goto(f"{lobby.url}replay?game={game}")
        tab.locator("#board .seat").nth(3).wait_for()
        assert tab.locator("#board .payments").count() == 0  # the deal: nothing paid yet
        tab.locator("#hands button").nth(hands - 1).click()
        tab.locator("#position", has_text=f"hand {hands} of {hands}").wait_for()
        tab.locator("#slider").evaluate("(s) => { s.value = s.max; s.dispatchEvent(new Event('input')); }")
        _sees_the_ending(tab, ending)
        _screenshots(tab, artifacts, f"lobby-figures-{rules}-replay")
    finally:
        context.close()
    assert not errors, f"script errors in the pages: {errors}"
