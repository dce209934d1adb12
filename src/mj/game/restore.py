"""Rebuilding a game from a save file by playing its hand history again (protocol.md §10.3).

The original's loader applies every saved message to a fresh game model with its rule
checks on. We get the same guarantee by turning each history item that a player
caused back into that player's intent and letting the engine play it: the items the
engine produces by itself (deals, draws, scores) must then come out exactly as saved,
so a tampered or inconsistent file is refused instead of loaded into a broken state.
"""

from __future__ import annotations

from mj.game.engine import Config, Game, WallSource
from mj.game.sends import IllegalMove
from mj.protocol import cmsg as C
from mj.protocol import pmsg as P
from mj.protocol.framing import WHITESPACE
from mj.quoting import quoted
from mj.rules.options import OptionError
from mj.savefile import SavedGame, SaveFileError
from mj.tiles import Tile


class _SavedWall:
    """The saved hand's wall and dice first, then the table's own walls for later hands."""

    def __init__(self, wall: tuple[Tile, ...] | None, first: C.CMsg | None, later: WallSource) -> None:
        self._first: tuple[list[Tile], int, int] | None = None
        if wall is not None and isinstance(first, C.NewHand):
            self._first = (list(wall), first.start_wall, first.start_stack)
        self._later = later

    def next_hand(self, flowers: bool) -> tuple[list[Tile], int, int]:
        first, self._first = self._first, None
        return first if first is not None else self._later.next_hand(flowers)


def _intent(item: C.CMsg) -> tuple[int, P.PMsg] | None:
    """The player's message that caused ``item``, or None for items the engine produces itself."""
    match item:
        case C.PlayerDeclaresSpecial(id=player, tile=tile):
            return player, P.DeclareSpecial(tile)
        case C.PlayerReady(id=player):
            return player, P.Ready()
        case C.Pause(requestor=player, reason=reason) if player:
            return player, P.RequestPause(reason)
        case C.PlayerDiscards(id=player, tile=tile, calling=calling):
            return player, P.Discard(tile, calling)
        case C.PlayerDoesntClaim(id=player, discard=serial, timeout=False):
            return player, P.NoClaim(serial)
        case C.PlayerClaimsPung(id=player, discard=serial):
            return player, P.Pung(serial)
        case C.PlayerPungs(id=player):
            return player, P.Pung(0)
        case C.PlayerClaimsKong(id=player, discard=serial):
            return player, P.Kong(serial)
        case C.PlayerClaimsChow(id=player, discard=serial, cpos=cpos):
            return player, P.Chow(serial, cpos)
        case C.PlayerClaimsMahJong(id=player, discard=serial):
            return player, P.MahJong(serial)
        case C.PlayerChows(id=player, cpos=cpos):
            return player, P.Chow(0, cpos)
        case C.PlayerPairs(id=player):
            return player, P.Pair()
        case C.PlayerSpecialSet(id=player):
            return player, P.SpecialSet()
        case C.PlayerFormsClosedPung(id=player, tile=tile):
            return player, P.FormClosedPung(tile)
        case C.PlayerFormsClosedChow(id=player, tile=tile):
            return player, P.FormClosedChow(tile)
        case C.PlayerFormsClosedPair(id=player, tile=tile):
            return player, P.FormClosedPair(tile)
        case C.PlayerFormsClosedSpecialSet(id=player):
            return player, P.FormClosedSpecialSet()
        case C.PlayerDeclaresClosedKong(id=player, tile=tile):
            return player, P.DeclareClosedKong(tile)
        case C.PlayerAddsToPung(id=player, tile=tile):
            return player, P.AddToPung(tile)
        case C.PlayerMahJongs(id=player):
            return player, P.MahJong(0)
        case C.PlayerShowsTiles(id=player):
            return player, P.ShowTiles()
        case C.WashOut():
            return 0, P.DeclareWashOut()
        case C.SwapTile(id=player, oldtile=old, newtile=new):
            return player, P.SwapTile(player, old, new)
    return None


def restore_game(saved: SavedGame, later_walls: WallSource, config: Config, *, keep_rounds: bool = True) -> Game:
    """The game a save file describes, with its hand in progress played up to where it was saved.

    ``keep_rounds=False`` ignores the saved count of completed rounds, as the original does.
    """
    options = config.rules.new_options()
    try:
        for entry in saved.options:
            options.apply_entry(entry)
    except OptionError as exc:
        raise SaveFileError(f"bad game option: {exc}") from None
    g = saved.game
    seating = [g.east, g.south, g.west, g.north]
    first = saved.history[0] if saved.history else None
    game = Game(seating, options, _SavedWall(saved.wall, first, later_walls), config=config, manager=g.manager)
    game.round_wind = g.round
    game.hands_as_east = g.hands_as_east
    game.firsteast = g.firsteast
    game.scores = dict(zip(seating, (g.east_score, g.south_score, g.west_score, g.north_score), strict=True))
    if keep_rounds and saved.completed_rounds is not None:
        game.completed_rounds = saved.completed_rounds
    if saved.wall is None:
        return game
    game.start_announcement(config.protocol)
    for player in seating:
        game.apply(player, P.Ready())
    game.after_draw, game.banker_hands = saved.after_draw, saved.banker_hands  # the saved hand has begun
    for number, item in enumerate(saved.history):
        if number >= len(game.history):
            _play(game, item, number)
            if _unheeded_pause(item, saved.history[number + 1 : number + 2]):
                game.pause = None
        if number >= len(game.history) or not _same(game.history[number], item):
            made = game.history[number].encode() if number < len(game.history) else "nothing"
            raise SaveFileError(
                f"history item {number + 1} ({quoted(item.encode())}) does not follow: the rules give {quoted(made)}"
            )
    return game


def _unheeded_pause(item: C.CMsg, following: tuple[C.CMsg, ...]) -> bool:
    """Whether ``item`` is a player's pause the saving server broadcast but never entered.

    The original does not pause on ``RequestPause`` (protocol.md §16 item 4): its saves go on
    with the next move, where ours would wait for every player's ``Ready``. The file is what
    was played, so the pause is lifted; one saved while paused (nothing follows) stays paused.
    """
    return (
        isinstance(item, C.Pause)
        and bool(item.requestor)
        and bool(following)
        and not isinstance(following[0], C.PlayerReady)
    )


def _same(made: C.CMsg, saved: C.CMsg) -> bool:
    """Equal as a reader sees them: the wire drops trailing white space (§1.3), e.g. a Settlement's."""
    return made.encode().rstrip(WHITESPACE) == saved.encode().rstrip(WHITESPACE)


def _play(game: Game, item: C.CMsg, number: int) -> None:
    if isinstance(item, C.PlayerDoesntClaim) and item.timeout:
        game.close_claim_window()
        return
    intent = _intent(item)
    if intent is None:
        raise SaveFileError(f"history item {number + 1} ({quoted(item.encode())}) is not something a player does")
    player, message = intent
    try:
        game.apply(player or game.east, message)
    except IllegalMove as exc:
        raise SaveFileError(f"history item {number + 1} ({quoted(item.encode())}) is illegal here: {exc}") from None
