"""The IMS course of play (seed 003) in the engine: walls built by hand, every rule one test."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from mj import tiles
from mj.game.engine import Config, Game
from mj.game.restore import restore_game
from mj.game.sends import IllegalMove, Send
from mj.melds import pung
from mj.protocol import cmsg as C
from mj.protocol import pmsg as P
from mj.protocol.fields import ChowPosition
from mj.rules.classical.rules import CLASSICAL, DEAL_ORDER
from mj.rules.ims.rules import IMS
from mj.rules.options import GameOptions
from mj.savefile import completed_rounds_comment, format_save, hand_start_comment, parse_save
from mj.seatview import SeatView
from mj.tiles import BLANK, GlibcRandom, Tile

PLAYERS = (1, 2, 3, 4)
EAST, SOUTH, WEST, NORTH = PLAYERS


def t(text: str) -> list[Tile]:
    return tiles.parse_many(text)


class FixedWalls:
    """One wall per hand, as given, then shuffled-free fillers."""

    def __init__(self, walls: Sequence[list[Tile]]) -> None:
        self.walls = list(walls)

    def next_hand(self, flowers: bool) -> tuple[list[Tile], int, int]:
        return self.walls.pop(0), 1, 1


def wall(hands: Sequence[str], draws: str = "", loose: str = "") -> list[Tile]:
    """A full 144-tile wall dealing ``hands`` (East's 14 first), then ``draws`` from the front, ``loose`` from the back.

    The other tiles fill the middle, ordinary ones first, the flowers and seasons last.
    """
    dealt = [t(h) for h in hands]
    order: list[Tile] = []
    taken = [0, 0, 0, 0]
    for seat in DEAL_ORDER:
        order.append(dealt[seat][taken[seat]])
        taken[seat] += 1
    front = order + t(draws)
    back = list(reversed(t(loose)))
    rest = tiles.full_set(True)
    for tile in front + back:
        rest.remove(tile)
    ordinary = [x for x in rest if not tiles.is_special(x)]
    half = len(ordinary) // 2
    return front + ordinary[:half] + [x for x in rest if tiles.is_special(x)] + ordinary[half:] + back


class Table:
    """The engine with four seat views fed exactly what each seat is sent."""

    def __init__(self, walls: Sequence[list[Tile]], **options: int) -> None:
        opts: GameOptions = IMS.new_options()
        for name, value in options.items():
            opts.set_value(name, value)
        self.game = Game(list(PLAYERS), opts, FixedWalls(walls), config=Config(rules=IMS))
        self.views = {pid: SeatView(pid, IMS) for pid in PLAYERS}
        self.sent: dict[int, list[C.CMsg]] = {pid: [] for pid in PLAYERS}
        start: list[C.CMsg] = [self.game.game_message(1110)]
        start.extend(C.GameOption(0, entry) for entry in opts.entries())
        for view in self.views.values():
            for msg in start:
                view.apply(msg)
        self.deliver(self.game.start_announcement(1110))
        self.ready_all()

    def deliver(self, sends: list[Send]) -> None:
        for send in sends:
            for pid in send.to if send.to is not None else PLAYERS:
                self.views[pid].apply(send.message)
                self.sent[pid].append(send.message)

    def ready_all(self) -> None:
        """Every seat a pause waits for says Ready, until no pause waits (the hand has started)."""
        while waiting := [pid for pid in PLAYERS if any(isinstance(m, P.Ready) for m in self.views[pid].legal_moves())]:
            self.play(waiting[0], P.Ready())

    def pass_all(self, *pids: int) -> None:
        for pid in pids:
            self.play(pid, P.NoClaim(self.serial()))

    def play(self, pid: int, move: P.PMsg) -> list[C.CMsg]:
        """Play a move that must be among the seat's legal moves; the messages everybody was sent."""
        assert self.views[pid].allows(move), (
            f"{move.encode()} not in {[m.encode() for m in self.views[pid].legal_moves()]}"
        )
        sends = self.game.apply(pid, move)
        self.deliver(sends)
        return [s.message for s in sends]

    def moves(self, pid: int) -> list[str]:
        return [m.encode() for m in self.views[pid].legal_moves()]

    def serial(self) -> int:
        return self.game.serial


def test_a_random_player_is_chosen_to_be_the_dealer_and_the_others_follow_in_turn() -> None:
    """The seed's first dealer is drawn, not the first to join; the seat winds then go round the table
    (the order the players joined), from the table's seeded generator."""
    joined = [11, 12, 13, 14]
    drawn = {tuple(seats) for seed in range(40) if (seats := IMS.draw_seats(GlibcRandom(seed), joined)) is not None}
    assert drawn == {(11, 12, 13, 14), (12, 13, 14, 11), (13, 14, 11, 12), (14, 11, 12, 13)}
    assert IMS.draw_seats(GlibcRandom(5), joined) == IMS.draw_seats(GlibcRandom(5), joined)


def test_flowers_dealt_are_revealed_by_the_engine_and_replaced_from_the_wall() -> None:
    hands = [
        "1F 2B 3B 4B 5B 6B 7B 8B 9B 1C 2C 3C 4C 5C",
        "1S 2D 2D 3D 3D 6D 6D 8D 8D EW SW WW NW",
        "1D 1D 4D 4D 9D 9D 6C 6C 7C 7C 8C 8C GD",
        "2C 2C 3C 3C 4C 4C 5C 6C 7C 8C 9C WD WD",
    ]
    table = Table([wall(hands, loose="2F 4D")])
    seen = table.sent[WEST]
    declared = [(m.id, m.tile) for m in seen if isinstance(m, C.PlayerDeclaresSpecial) and m.tile != BLANK]
    assert declared == [(EAST, tiles.parse("1F")), (EAST, tiles.parse("2F")), (SOUTH, tiles.parse("1S"))]
    east = table.game.seats[0]
    assert sorted(east.specials) == sorted(t("1F 2F"))
    assert not any(tiles.is_special(x) for s in table.game.seats for x in s.concealed)
    # nobody declares anything: the first moves are East's, in turn
    assert table.views[EAST].legal_moves() and all(
        not isinstance(m, P.DeclareSpecial) for m in table.views[EAST].legal_moves()
    )


def test_a_flower_drawn_in_play_is_revealed_and_another_tile_drawn() -> None:
    hands = [
        "2B 3B 4B 5B 6B 7B 8B 9B 1C 2C 3C 4C 5C GD",
        "2D 2D 3D 3D 6D 6D 8D 8D EW SW WW NW 1B",
        "1D 1D 4D 4D 9D 9D 6C 6C 7C 7C 8C 8C GD",
        "2C 2C 3C 3C 4C 4C 5C 6C 7C 8C 9C WD WD",
    ]
    table = Table([wall(hands, draws="3F", loose="5D")])
    assert table.moves(SOUTH) == []  # nothing to do before East's discard
    table.play(EAST, P.Discard(tiles.parse("GD"), False))
    table.pass_all(SOUTH, WEST, NORTH)
    south = table.game.seats[1]
    assert south.specials == t("3F") and tiles.parse("5D") in south.concealed
    assert any(isinstance(m, C.PlayerDeclaresSpecial) and m.tile == tiles.parse("3F") for m in table.sent[NORTH])


def test_the_successor_may_connect_at_each_position_but_not_any_position_and_others_may_not_connect() -> None:
    hands = [
        "2B 3B 4B 5B 6B 7B 8B 9B 1C 2C 3C 4C 6C 5C",
        "4C 6C 7C 3C 2D 3D 6D 8D EW SW WW NW RD",
        "4C 6C 7C 3C 2D 3D 6D 8D EW SW WW NW GD",
        "1D 1D 4D 4D 9D 9D 8C 8C 9C 9C 5D 5D WD",
    ]
    table = Table([wall(hands)])
    table.play(EAST, P.Discard(tiles.parse("5C"), False))
    serial = table.serial()
    south = table.moves(SOUTH)
    assert south == [
        P.NoClaim(serial).encode(),
        *(P.Chow(serial, p).encode() for p in (ChowPosition.LOWER, ChowPosition.MIDDLE, ChowPosition.UPPER)),
    ]
    assert table.moves(WEST) == [P.NoClaim(serial).encode()]
    with pytest.raises(IllegalMove):
        table.game.apply(SOUTH, P.Chow(serial, ChowPosition.ANYPOS))
    with pytest.raises(IllegalMove):
        table.game.apply(WEST, P.Chow(serial, ChowPosition.LOWER))


def test_a_triplet_bid_beats_a_connection_bid() -> None:
    hands = [
        "2B 3B 4B 5B 6B 7B 8B 9B 1C 2C 3C 4C 6C 5C",
        "4C 6C 7C 3C 2D 3D 6D 8D EW SW WW NW RD",
        "5C 5C 7C 3C 2D 3D 6D 8D EW SW WW NW GD",
        "1D 1D 4D 4D 9D 9D 8C 8C 9C 9C 5D 5D WD",
    ]
    table = Table([wall(hands)])
    table.play(EAST, P.Discard(tiles.parse("5C"), False))
    serial = table.serial()
    table.play(SOUTH, P.Chow(serial, ChowPosition.MIDDLE))
    table.play(WEST, P.Pung(serial))
    sent = table.play(NORTH, P.NoClaim(serial))
    assert any(isinstance(m, C.PlayerPungs) and m.id == WEST for m in sent)
    assert any(isinstance(m, C.ClaimDenied) for m in sent)


def test_the_turn_a_connection_gives_allows_a_concealed_quadruplet() -> None:
    """ "Then, this player gets the next turn": the turn's [Quadruplet] from four concealed tiles included."""
    hands = [
        "2B 3B 5B 6B 7B 8B 9B 1C 2C 3C 4C 6C GD 4B",
        "1B 1B 1B 1B 2B 3B 6D 8D 2D EW SW RD WD",
        "3C 4C 1D 1D 3D 3D 4D 4D 9D 9D 7D 7D 5D",
        "6C 7C 5D 5D 5D 6D 6D 6D 8D 8D 8D 9D 9D",
    ]
    table = Table([wall(hands)])
    table.play(EAST, P.Discard(tiles.parse("4B"), False))
    table.play(SOUTH, P.Chow(table.serial(), ChowPosition.UPPER))
    table.pass_all(WEST, NORTH)
    assert P.DeclareClosedKong(tiles.parse("1B")).encode() in table.moves(SOUTH)
    table.play(SOUTH, P.DeclareClosedKong(tiles.parse("1B")))
    assert table.views[SOUTH].tiles_held == 14  # its replacement drawn
    assert [m.tile for m in table.sent[WEST] if isinstance(m, C.PlayerDeclaresClosedKong)] == [BLANK]


def test_the_turn_a_triplet_gives_allows_adding_the_fourth_tile_which_may_be_robbed() -> None:
    """The turn's other [Quadruplet]: a revealed triplet and a 4th tile of its kind in the hand."""
    hands = [
        "2B 3B 4B 5B 6B 7B 8B 9B 1C 2C 3C 4C 6C 5C",
        "1B 1B 2D 6D 8D EW SW WW NW RD RD GD WD",
        "5C 5C 5C 1D 1D 3D 3D 4D 4D 9D 9D 7D 7D",
        "6C 7C 5D 5D 5D 6D 6D 6D 8D 8D 8D 9D 9D",
    ]
    table = Table([wall(hands)])
    table.play(EAST, P.Discard(tiles.parse("5C"), False))
    table.play(SOUTH, P.NoClaim(table.serial()))
    table.play(WEST, P.Pung(table.serial()))
    table.play(NORTH, P.NoClaim(table.serial()))
    assert P.AddToPung(tiles.parse("5C")).encode() in table.moves(WEST)
    table.play(WEST, P.AddToPung(tiles.parse("5C")))
    assert table.views[NORTH].pending is not None  # the robbing window
    table.pass_all(NORTH, EAST, SOUTH)
    assert table.views[WEST].tiles_held == 14


def test_a_hand_a_claimed_connection_completes_may_not_go_out_in_its_turn() -> None:
    """The tile that completes the hand is the MahJong bid's, which beats the connection: not a self-drawn win after."""
    hands = [
        "2B 3B 4B 5B 6B 7B 8B 9B 1C 2C 3C 4C 6C 7C",
        "2B 3B 4B 5B 6B 7B 1D 1D 1D EW EW 8C 9C",
        "3C 4C 2D 3D 3D 4D 4D 9D 9D 7D 7D 5D 5D",
        "6C 8C 5D 5D 6D 6D 6D 8D 8D 8D 9D 9D WD",
    ]
    table = Table([wall(hands)])
    table.play(EAST, P.Discard(tiles.parse("7C"), False))
    serial = table.serial()
    assert P.MahJong(serial).encode() in table.moves(SOUTH)
    connect = next(m for m in table.views[SOUTH].legal_moves() if isinstance(m, P.Chow))
    table.play(SOUTH, connect)
    table.pass_all(WEST, NORTH)
    assert all(m.startswith("Discard") for m in table.moves(SOUTH))
    with pytest.raises(IllegalMove):
        table.game.apply(SOUTH, P.MahJong(0))


@pytest.mark.parametrize("multiple", [0, 1])
def test_mahjong_bids_on_one_discard_go_to_the_closest_successor_or_with_multiple_wins_to_all(multiple: int) -> None:
    hands = [
        "2B 3B 4B 5B 6B 7B 8B 9B 1C 2C 3C 4C 6C 5C",
        "1B 1B 2D 6D 8D EW SW WW NW RD RD GD WD",
        "3C 4C 1D 1D 1D 3D 3D 3D 4D 4D 4D 9D 9D",
        "6C 7C 5D 5D 5D 6D 6D 6D 8D 8D 8D 9D 9D",
    ]
    table = Table([wall(hands)], MultipleWins=multiple)
    table.play(EAST, P.Discard(tiles.parse("5C"), False))
    serial = table.serial()
    table.play(SOUTH, P.NoClaim(serial))
    table.play(WEST, P.MahJong(serial))
    sent = table.play(NORTH, P.MahJong(serial))
    winners = [m.id for m in sent if isinstance(m, C.PlayerMahJongs)]
    assert winners == ([WEST, NORTH] if multiple else [WEST])
    scores = [m for m in sent if isinstance(m, C.HandScore)]
    assert [m.id for m in scores] == winners
    settlement = next(m for m in sent if isinstance(m, C.Settlement))
    changes = (settlement.east, settlement.south, settlement.west, settlement.north)
    paid = {m.id: m.score for m in scores}
    # each winner is paid as fed: the feeder (East) pays the score, the others the bonus (0 here)
    assert changes == (-sum(paid.values()), 0, paid[WEST], paid.get(NORTH, 0))


@pytest.mark.parametrize(("multiple", "next_dealer"), [(0, SOUTH), (1, EAST)])
def test_the_dealer_stays_when_among_the_winners_and_otherwise_south_deals(multiple: int, next_dealer: int) -> None:
    """South's discard completes East's and West's hands: with Multiple Wins both win and the dealer stays;
    without, West alone (the closer successor) wins and the old South deals next."""
    hands = [
        "1B 2B 3B 4B 5B 6B 7B 8B 9B 1C 1C 1C 5D GD",
        "1D 1D 9D 9D EW SW WW NW RD RD WD 6D 8D",
        "2C 3C 4C 6C 7C 8C 2D 2D 2D 3D 4D 5D 5D",
        "3B 4B 6C 7C 3D 4D 6D 8D 9C 9C 9C 2C 3C",
    ]
    table = Table([wall(hands, draws="5D"), wall(hands)], MultipleWins=multiple)
    table.play(EAST, P.Discard(tiles.parse("GD"), False))
    table.pass_all(SOUTH, WEST, NORTH)
    table.play(SOUTH, P.Discard(tiles.parse("5D"), False))
    serial = table.serial()
    table.play(WEST, P.MahJong(serial))
    table.play(NORTH, P.NoClaim(serial))
    sent = table.play(EAST, P.MahJong(serial))
    assert [m.id for m in sent if isinstance(m, C.PlayerMahJongs)] == ([WEST, EAST] if multiple else [WEST])
    table.ready_all()
    assert table.game.east == next_dealer


def test_minimum_fan_two_keeps_a_poor_hand_from_going_out() -> None:
    hands = [
        "2B 3B 4B 5B 6B 7B 8B 9B 1C 2C 3C 4C 6C 5C",
        "1B 1B 2D 6D 8D EW SW WW NW RD RD GD WD",
        "3C 4C 1D 1D 1D 2D 3D 4D 5B 6B 7B 9B 9B",
        "6C 7C 5D 5D 5D 6D 6D 6D 8D 8D 8D 9D 9D",
    ]
    for minimum, west_may in ((0, True), (2, False)):
        table = Table([wall(hands)], MinimumFan=minimum)
        table.play(EAST, P.Discard(tiles.parse("5C"), False))
        serial = table.serial()
        assert (P.MahJong(serial).encode() in table.moves(WEST)) == west_may
        if not west_may:
            with pytest.raises(IllegalMove):
                table.game.apply(WEST, P.MahJong(serial))


def test_a_dealer_complete_with_the_replacement_of_a_dealt_flower_wins_on_a_flower() -> None:
    """The replacement is a loose tile, at the deal as in play: Win on Flower lifts the hand to Minimum Fan 2."""
    hands = [
        "1B 2B 3B 4C 5C 6C 9D 9D 9D 2B 3B 5D 5D 1F",
        "4C 6C 7C 3C 2D 3D 6D 8D EW SW WW NW RD",
        "5C 5C 7C 3C 2D 3D 6D 8D EW SW WW NW GD",
        "1D 1D 4D 4D 8C 8C 9C 9C 6D 7D 7B 7B WD",
    ]
    table = Table([wall(hands, loose="4B")], MinimumFan=2)
    assert "MahJong 0" in table.moves(EAST)
    score = next(m for m in table.play(EAST, P.MahJong(0)) if isinstance(m, C.HandScore))
    assert "Win on Flower" in score.explanation and "fan                    2" in score.explanation


def test_a_concealed_kong_stays_hidden_from_the_others_until_the_hand_ends() -> None:
    hands = [
        "2B 2B 2B 2B 6B 7B 8B 9B 1C 2C 3C 4C 6C GD",
        "1B 1B 2D 6D 8D EW SW WW NW RD RD 5C WD",
        "3C 4C 1D 1D 3D 3D 4D 4D 9D 9D 7D 7D 5D",
        "6C 7C 5D 5D 5D 6D 6D 6D 8D 8D 8D 9D 9D",
    ]
    table = Table([wall(hands, loose="GD")])
    table.play(EAST, P.DeclareClosedKong(tiles.parse("2B")))
    kongs = {pid: [m for m in table.sent[pid] if isinstance(m, C.PlayerDeclaresClosedKong)] for pid in PLAYERS}
    assert kongs[EAST][0].tile == tiles.parse("2B")
    assert all(kongs[pid][0].tile == BLANK for pid in (SOUTH, WEST, NORTH))
    assert table.views[SOUTH].pending is None  # no robbing window: East draws its loose tile at once
    assert table.views[EAST].tiles_held == 14
    table.game.info_tiles_wanted.add(SOUTH)
    table.play(EAST, P.Discard(tiles.parse("GD"), False))
    info = [m.text for m in table.sent[SOUTH] if isinstance(m, C.InfoTiles) and m.id == EAST]
    assert info and "2B" not in info[-1]
    revealed = [m for m in table.sent[SOUTH] if isinstance(m, C.PlayerRevealsConcealedKong)]
    assert revealed == []
    table.game.wall.live_end = table.game.wall.live_next + 13  # the wall is nearly spent: the hand is drawn
    table.game.wall.loose_next = table.game.wall.live_end - 1
    table.pass_all(SOUTH, WEST, NORTH)
    assert any(isinstance(m, C.WashOut) for m in table.sent[SOUTH])
    revealed = [m for m in table.sent[SOUTH] if isinstance(m, C.PlayerRevealsConcealedKong)]
    assert revealed == [C.PlayerRevealsConcealedKong(EAST, tiles.parse("2B"))]
    assert table.views[SOUTH].players[EAST].melds[0].tile == tiles.parse("2B")


def test_the_hand_is_drawn_when_fewer_than_fourteen_tiles_remain_and_the_dealer_stays() -> None:
    hands = [
        "2B 3B 4B 5B 6B 7B 8B 9B 1C 2C 3C 4C 6C GD",
        "1B 1B 2D 6D 8D EW SW WW NW RD RD 5C WD",
        "3C 4C 1D 1D 3D 3D 4D 4D 9D 9D 7D 7D 5D",
        "6C 7C 5D 5D 5D 6D 6D 6D 8D 8D 8D 9D 9D",
    ]
    table = Table([wall(hands), wall(hands)])
    game = table.game
    game.wall.live_end = game.wall.live_next + 14
    game.wall.loose_next = game.wall.live_end - 1
    table.play(EAST, P.Discard(tiles.parse("GD"), False))
    table.pass_all(SOUTH, WEST, NORTH)
    assert game.wall.tiles_left == 13 and not any(isinstance(m, C.WashOut) for m in table.sent[EAST])
    table.play(SOUTH, P.Discard(tiles.parse("WD"), False))
    table.pass_all(WEST, NORTH, EAST)
    assert any(isinstance(m, C.WashOut) for m in table.sent[EAST])
    table.ready_all()
    assert game.east == EAST and game.hands_started == 2


def test_below_fourteen_tiles_a_draw_ends_the_hand_but_a_flowers_replacement_is_still_drawn() -> None:
    """The seed puts the fourteen on the draw bid alone; a flower drawn is replaced "until he gets a normal tile"."""
    hands = [
        "2B 3B 4B 5B 6B 7B 8B 9B 1C 2C 3C 4C 6C GD",
        "1B 1B 2D 6D 8D EW SW WW NW RD RD 5C WD",
        "3C 4C 1D 1D 3D 3D 4D 4D 9D 9D 7D 7D 5D",
        "6C 7C 5D 5D 5D 6D 6D 6D 8D 8D 8D 9D 9D",
    ]
    table = Table([wall(hands, draws="3F")])
    game = table.game
    game.wall.live_end = game.wall.live_next + 14
    game.wall.loose_next = game.wall.live_end - 1
    table.play(EAST, P.Discard(tiles.parse("GD"), False))
    table.pass_all(SOUTH, WEST, NORTH)  # South draws the flower with 14 left, its replacement with 13
    assert not any(isinstance(m, C.WashOut) for m in table.sent[EAST])
    assert game.seats[1].specials == t("3F") and game.wall.tiles_left == 12
    table.play(SOUTH, P.Discard(tiles.parse("WD"), False))
    table.pass_all(WEST, NORTH, EAST)
    assert any(isinstance(m, C.WashOut) for m in table.sent[EAST])


def test_a_quadruplet_bid_below_fourteen_tiles_draws_its_replacement() -> None:
    """The seed lets the bids on a discard stand whatever the wall holds, and a quadruplet "draws another tile"."""
    hands = [
        "2B 3B 4B 5B 6B 7B 8B 9B 1C 2C 3C 4C 6C 1D",
        "1B 1B 2D 6D 8D EW SW WW NW RD RD 5C WD",
        "3C 4C 1D 1D 1D 3D 3D 4D 4D 9D 9D 7D 7D",
        "6C 7C 5D 5D 5D 6D 6D 6D 8D 8D 8D 9D 9D",
    ]
    table = Table([wall(hands)])
    game = table.game
    game.wall.live_end = game.wall.live_next + 13
    game.wall.loose_next = game.wall.live_end - 1
    table.play(EAST, P.Discard(tiles.parse("1D"), False))
    table.play(SOUTH, P.NoClaim(table.serial()))
    table.play(WEST, P.Kong(table.serial()))
    table.play(NORTH, P.NoClaim(table.serial()))
    assert not any(isinstance(m, C.WashOut) for m in table.sent[EAST])
    assert game.wall.tiles_left == 12 and table.views[WEST].tiles_held == 14
    table.play(WEST, P.Discard(tiles.parse("3C"), False))
    table.pass_all(NORTH, EAST, SOUTH)
    assert any(isinstance(m, C.WashOut) for m in table.sent[EAST])


def test_a_tile_added_to_a_triplet_may_be_robbed_and_the_robbed_player_pays_as_feeder() -> None:
    hands = [
        "1B 2B 3B 5B 7B 8B 9B 1C 2C 3C 4C 6C 9C EW",
        "4B 6B 1D 2D 3D 4D 5D 6D 7D 8D 9D NW NW",
        "5B 5B 1C 1C 9C 9C 5C 5C 7C 7C 3C 3C SW",
        "2D 2D 3D 4D 6D 8D EW SW WW RD RD GD WD",
    ]
    table = Table([wall(hands, draws="9B 2C EW 5B")])
    table.play(EAST, P.Discard(tiles.parse("5B"), False))
    table.play(SOUTH, P.NoClaim(table.serial()))  # South could go out, and draws instead
    table.play(WEST, P.Pung(table.serial()))
    table.play(NORTH, P.NoClaim(table.serial()))
    table.play(WEST, P.Discard(tiles.parse("SW"), False))
    table.pass_all(NORTH, EAST, SOUTH)
    table.play(NORTH, P.Discard(tiles.parse("9B"), False))
    table.pass_all(EAST, SOUTH, WEST)
    table.play(EAST, P.Discard(tiles.parse("2C"), False))
    table.pass_all(SOUTH, WEST, NORTH)
    table.play(SOUTH, P.Discard(tiles.parse("EW"), False))
    table.pass_all(WEST, NORTH, EAST)
    table.play(WEST, P.AddToPung(tiles.parse("5B")))
    serial = table.serial()
    assert table.moves(SOUTH) == [P.NoClaim(serial).encode(), P.MahJong(serial).encode()]
    assert table.moves(NORTH) == [P.NoClaim(serial).encode()]
    table.play(SOUTH, P.MahJong(serial))
    table.play(NORTH, P.NoClaim(serial))
    sent = table.play(EAST, P.NoClaim(serial))
    assert any(isinstance(m, C.PlayerRobsKong) and m.id == SOUTH for m in sent)
    score = next(m for m in sent if isinstance(m, C.HandScore))
    settlement = next(m for m in sent if isinstance(m, C.Settlement))
    # no flowers, no dealer: the bonus is 0, so only the robbed player pays
    assert (settlement.east, settlement.south, settlement.west, settlement.north) == (0, score.score, -score.score, 0)
    assert "Rob Quadruplet" in score.explanation


def test_each_legal_move_has_the_seeds_button_name() -> None:
    hands = ["2B 3B 4B 5B 6B 7B 8B 9B 1C 2C 3C 4C 6C 5C", "4C 6C 7C 3C 2D 3D 6D 8D EW SW WW NW RD",
             "5C 5C 7C 3C 2D 3D 6D 8D EW SW WW NW GD", "1D 1D 4D 4D 9D 9D 8C 8C 9C 9C 5D 5D WD"]  # fmt: skip
    table = Table([wall(hands)])
    button = IMS.move_names()
    assert button is not None
    assert {button(table.views[EAST], m) for m in table.views[EAST].legal_moves()} == {"Discard"}
    table.play(EAST, P.Discard(tiles.parse("5C"), False))
    names = {pid: [button(table.views[pid], m) for m in table.views[pid].legal_moves()] for pid in PLAYERS}
    assert names[SOUTH] == ["Draw", "Connect Lower", "Connect Middle", "Connect Upper"]
    assert names[WEST] == ["Pass", "Triplet"]
    assert names[NORTH] == ["Pass"]


@pytest.mark.parametrize(("minimum", "spoils"), [(0, False), (2, True)])
def test_under_a_minimum_fan_a_first_fanless_set_is_flagged_to_robots_as_spoiling_the_hand(
    minimum: int, spoils: bool
) -> None:
    hands = ["2B 3B 4B 5B 6B 7B 8B 9B 1C 2C 3C 4C 6C 5C", "4C 6C 7C 3C 2D 3D 6D 8D EW SW WW NW RD",
             "5C 5C 7C 3C 2D 3D 6D 8D EW SW WW NW GD", "1D 1D 4D 4D 9D 9D 8C 8C 9C 9C 5D 5D WD"]  # fmt: skip
    table = Table([wall(hands)], MinimumFan=minimum)
    west = table.views[WEST]
    assert IMS.exposing_spoils(west, tiles.parse("5C"), True) is spoils
    assert IMS.exposing_spoils(west, tiles.parse("5C"), False) is spoils
    # a dragon triplet, or a triplet of the seat's or the round's wind, brings its own fan
    assert not IMS.exposing_spoils(west, tiles.parse("GD"), True)
    assert not IMS.exposing_spoils(west, tiles.parse("WW"), True)
    assert not IMS.exposing_spoils(west, tiles.parse("EW"), True)
    assert IMS.exposing_spoils(west, tiles.parse("NW"), True) is spoils


def test_an_ims_hand_saved_with_revealed_flowers_and_a_hidden_kong_is_restored_by_its_history() -> None:
    hands = ["2B 2B 2B 2B 6B 7B 8B 9B 1C 2C 3C 4C 6C 1F", "1B 1B 2D 6D 8D EW SW WW NW RD RD 5C WD",
             "3C 4C 1D 1D 3D 3D 4D 4D 9D 9D 7D 7D 5D", "6C 7C 5D 5D 5D 6D 6D 6D 8D 8D 8D 9D 9D"]  # fmt: skip
    table = Table([wall(hands, loose="GD 2F GD")])
    table.play(EAST, P.DeclareClosedKong(tiles.parse("2B")))
    table.play(EAST, P.Discard(tiles.parse("GD"), False))
    game = table.game
    head: list[C.CMsg] = [C.Player(p, f"P{p}") for p in game.seating]
    head += [game.hand_start, completed_rounds_comment(0), hand_start_comment(game.after_draw, game.banker_hands)]
    head += [C.GameOption(0, e) for e in game.options.entries()]
    head.append(C.Wall(tiles.codes(game.hand_wall)))
    saved = parse_save(format_save([*head, *game.history]), IMS)
    again = restore_game(saved, FixedWalls([]), Config(rules=IMS))
    assert [m.encode() for m in again.history] == [m.encode() for m in game.history]
    assert again.seats[0].specials == t("1F 2F")


def test_ims_has_no_liability_for_dangerous_discards() -> None:
    dragons = [pung(tiles.parse(code), False) for code in ("RD", "WD")]
    shown = CLASSICAL.exposure(dragons)
    assert CLASSICAL.danger(tiles.parse("GD"), shown, 50, 0)  # classical: the third dragon is dangerous
    assert IMS.exposure(dragons) == frozenset()
    assert IMS.danger(tiles.parse("GD"), shown, 0, 3) == frozenset()
