"""Spectators see only what is public: over whole games, nothing of a hand in progress that not every player sees.

The property is checked against the table's own deliveries, not against the
spectator filter's list of message kinds: every line a spectator is sent during a
hand must have been sent, that very moment, alike to all four players, or to the
three who did not draw a tile (or declare a kong the rules hide), with the tile hidden. No concealed tile is sent to
more than its holder, so none can reach a spectator before the hand ends.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from mj import tiles
from mj.lobby.live import _public
from mj.lobby.play import SENT, TablePlay
from mj.lobby.public import hides_concealed_kongs, public_view
from mj.protocol import cmsg as C
from mj.rules.beijing.rules import BEIJING
from mj.rules.classical.rules import CLASSICAL
from mj.rules.ims.rules import IMS
from mj.table import Delivery
from test_lobby_figures import robots_game
from test_lobby_play import _new_game

#: The messages a table may send the other seats with the tile hidden: a draw, a kong the rules hide.
HIDING = (C.PlayerDraws, C.PlayerDrawsLoose, C.PlayerDeclaresClosedKong)


def _watched_game(
    seed: int, rules: str = "classical"
) -> tuple[TablePlay, list[tuple[list[str], list[Delivery]]], list[str]]:
    """A whole game; each table event's new public lines with all of its deliveries; the logged lines."""
    play = _new_game(seed) if rules == "classical" else robots_game(rules, seed)
    events: list[tuple[list[str], list[Delivery]]] = []
    route = play._route

    def spy(deliveries: Iterable[Delivery]) -> None:
        deliveries = list(deliveries)
        before = len(play.public)
        route(deliveries)
        events.append((play.public[before:], deliveries))

    play._route = spy  # type: ignore[method-assign]
    logged: list[str] = []
    while play.queue:
        play.step(64)
        logged.extend(t for _, d, _, t in play.take_batch().moves if d == SENT and t is not None)
    assert play.game_over
    return play, events, logged


@pytest.mark.parametrize(("rules", "seed"), [("classical", 1), ("classical", 2), ("classical", 5), ("ims", 3),
                                             ("beijing", 3)])  # fmt: skip
def test_a_spectator_is_sent_nothing_of_a_hand_in_progress_that_not_every_player_is_sent(rules: str, seed: int) -> None:
    _play, events, _logged = _watched_game(seed, rules)
    in_hand = False
    checked = 0
    for lines, deliveries in events:
        sent_to: dict[str, set[int]] = {}
        for delivery in deliveries:
            sent_to.setdefault(delivery.message.encode(), set()).add(delivery.connection)
        for line in lines:
            message = C.decode(line)
            if isinstance(message, C.NewHand):
                in_hand = True
            if in_hand:
                receivers = sent_to.get(line, set())
                hidden = isinstance(message, HIDING) and message.tile == tiles.BLANK
                assert len(receivers) == 4 or (hidden and len(receivers) == 3), (line, receivers)
                checked += 1
            if isinstance(message, C.Settlement | C.WashOut):
                in_hand = False
    assert checked > 500


def test_a_spectator_sees_every_hand_draw_discard_and_settlement_of_the_game() -> None:
    play, _events, logged = _watched_game(4)
    public = [C.decode(line) for line in play.public]
    assert sum(isinstance(m, C.NewHand) for m in public) == play.hands
    for kind in ("PlayerDiscards", "Settlement", "PlayerMahJongs", "HandScore", "GameOver"):
        assert [line for line in play.public if line.startswith(kind + " ") or line == kind] == [
            line for line in logged if line.startswith(kind + " ") or line == kind
        ]
    draws = [m for m in public if isinstance(m, C.PlayerDraws | C.PlayerDrawsLoose)]
    assert draws and all(m.tile == tiles.BLANK for m in draws)
    assert len(draws) == sum(line.startswith("PlayerDraws") for line in logged)


def _concealed_kongs(logged: list[str]) -> list[C.CMsg]:
    return [C.decode(line) for line in logged if line.startswith("PlayerDeclaresClosedKong ")]


def test_a_spectator_of_an_ims_table_sees_a_concealed_kong_blank_until_the_hand_ends_and_reveals_it() -> None:
    # The first short game with a concealed kong: which seed gives one depends on how the robots play.
    play, logged = next(
        (play, logged)
        for play, _, logged in (_watched_game(seed, "ims") for seed in range(1, 60))
        if _concealed_kongs(logged)
    )
    kongs = _concealed_kongs(logged)
    assert all(isinstance(k, C.PlayerDeclaresClosedKong) and k.tile != tiles.BLANK for k in kongs)
    for kong in kongs:  # the table logs the owner's copy; a spectator is sent the other seats' one
        assert isinstance(kong, C.PlayerDeclaresClosedKong)
        hidden = C.PlayerDeclaresClosedKong(kong.id, tiles.BLANK, kong.discard).encode()
        assert _public(kong.encode(), hides_concealed_kongs(IMS)) == hidden  # from the record, in another process
        at = play.public.index(hidden)
        revealed = play.public.index(C.PlayerRevealsConcealedKong(kong.id, kong.tile).encode(), at)
        assert not any(line.startswith("NewHand ") for line in play.public[at:revealed])
    assert not any(line.startswith("PlayerDeclaresClosedKong ") and " -- " not in line for line in play.public)


def test_a_concealed_kong_is_public_where_the_rule_system_shows_it_to_everybody() -> None:
    assert not hides_concealed_kongs(CLASSICAL) and not hides_concealed_kongs(BEIJING) and hides_concealed_kongs(IMS)
    kong = C.PlayerDeclaresClosedKong(2, tiles.parse("WD"), 43)
    assert public_view(kong) is kong and _public(kong.encode(), False) == kong.encode()
