"""Tile identities, their two-character codes, tile sets and walls.

Tiles are plain ``int`` values equal to Unix Mah-Jong's internal tile numbers
(protocol.md §2.1): sorting by value is the original's display and wall order, and
the arithmetic stays cheap on the hot paths (hand analysis works on count vectors
indexed by :func:`kind_index`).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Final

from mj.inputfile import SMALL_FILE_CAP, read_capped
from mj.quoting import quoted

Tile = int

BLANK: Final = 0
BAMBOO: Final = 10
CHARACTER: Final = 20
CIRCLE: Final = 30
WIND: Final = 40
DRAGON: Final = 50
FLOWER: Final = 60
SEASON: Final = 70

EAST_WIND: Final = 41
SOUTH_WIND: Final = 42
WEST_WIND: Final = 43
NORTH_WIND: Final = 44
RED_DRAGON: Final = 51
WHITE_DRAGON: Final = 52
GREEN_DRAGON: Final = 53

SUITS: Final = (BAMBOO, CHARACTER, CIRCLE)
_SUIT_LETTER: Final = {BAMBOO: "B", CHARACTER: "C", CIRCLE: "D", FLOWER: "F", SEASON: "S"}
_HONOUR_CODES: Final = {
    EAST_WIND: "EW",
    SOUTH_WIND: "SW",
    WEST_WIND: "WW",
    NORTH_WIND: "NW",
    RED_DRAGON: "RD",
    WHITE_DRAGON: "WD",
    GREEN_DRAGON: "GD",
}

#: The 34 ordinary tile kinds in the original's order (B, C, D, winds, dragons).
KINDS: Final[tuple[Tile, ...]] = (
    *[s + n for s in SUITS for n in range(1, 10)],
    EAST_WIND,
    SOUTH_WIND,
    WEST_WIND,
    NORTH_WIND,
    RED_DRAGON,
    WHITE_DRAGON,
    GREEN_DRAGON,
)
#: Flowers 1F-4F then seasons 1S-4S, one copy each.
SPECIALS: Final[tuple[Tile, ...]] = (
    *[FLOWER + n for n in range(1, 5)],
    *[SEASON + n for n in range(1, 5)],
)
ALL_TILES: Final = (*KINDS, *SPECIALS)
NUM_KINDS: Final = 34

_KIND_INDEX: Final = {t: i for i, t in enumerate(KINDS)}
_CODE: Final[dict[Tile, str]] = {
    BLANK: "--",
    **{t: f"{t % 10}{_SUIT_LETTER[t - t % 10]}" for t in KINDS if t < WIND},
    **_HONOUR_CODES,
    **{t: f"{t % 10}{_SUIT_LETTER[t - t % 10]}" for t in SPECIALS},
}
_FROM_CODE: Final = {code: t for t, code in _CODE.items()}

GREEN_TILES: Final = frozenset((BAMBOO + 2, BAMBOO + 3, BAMBOO + 4, BAMBOO + 6, BAMBOO + 8, GREEN_DRAGON))
WINDS: Final = (EAST_WIND, SOUTH_WIND, WEST_WIND, NORTH_WIND)
DRAGONS: Final = (RED_DRAGON, WHITE_DRAGON, GREEN_DRAGON)


class TileError(ValueError):
    """A string that is not one of the protocol's tile codes."""


def code(tile: Tile) -> str:
    """The two-character protocol code of ``tile`` (``XX`` for invalid values, as the original)."""
    return _CODE.get(tile, "XX")


def parse(text: str) -> Tile:
    """The tile whose code is exactly ``text`` (case-sensitive, as on the wire)."""
    try:
        return _FROM_CODE[text]
    except KeyError:
        raise TileError(f"not a tile code: {quoted(text, 10)}") from None


def codes(tiles: Iterable[Tile]) -> str:
    return " ".join(code(t) for t in tiles)


def parse_many(text: str) -> list[Tile]:
    return [parse(word) for word in text.split()]


def suit(tile: Tile) -> int:
    """The tile's family: BAMBOO, CHARACTER, CIRCLE, WIND, DRAGON, FLOWER or SEASON."""
    return tile - tile % 10


def rank(tile: Tile) -> int:
    return tile % 10


def is_suited(tile: Tile) -> bool:
    return BAMBOO < tile < WIND


def is_honour(tile: Tile) -> bool:
    return WIND < tile < FLOWER


def is_terminal(tile: Tile) -> bool:
    return is_suited(tile) and tile % 10 in (1, 9)


def is_major(tile: Tile) -> bool:
    """Honours and terminals: the "majors" of the scoring rules."""
    return is_honour(tile) or is_terminal(tile)


def is_special(tile: Tile) -> bool:
    """Flowers and seasons, which are declared rather than played."""
    return tile > FLOWER


def is_wind(tile: Tile) -> bool:
    return WIND < tile < DRAGON


def is_dragon(tile: Tile) -> bool:
    return DRAGON < tile < FLOWER


def kind_index(tile: Tile) -> int:
    """Position 0..33 of an ordinary tile in count vectors."""
    return _KIND_INDEX[tile]


def is_valid(tile: Tile) -> bool:
    return tile in _CODE and tile != BLANK


def full_set(flowers: bool) -> list[Tile]:
    """The tiles of a game in the original's canonical order (four of each kind, then specials)."""
    tiles = [t for t in KINDS for _ in range(4)]
    if flowers:
        tiles.extend(SPECIALS)
    return tiles


def wall_size(flowers: bool) -> int:
    return 144 if flowers else 136


class GlibcRandom:
    """glibc's ``srand``/``rand`` (the TYPE_3 additive feedback generator).

    The original server draws walls, dice and random seats from the C library's
    generator, so reproducing ``--seed N`` games exactly means reproducing it
    (protocol.md §13).
    """

    __slots__ = ("_i", "_r")

    def __init__(self, seed: int) -> None:
        seed &= 0xFFFFFFFF
        if seed == 0:
            seed = 1
        r = [0] * 34
        r[0] = seed - (1 << 32) if seed >= 1 << 31 else seed
        for i in range(1, 31):
            hi, lo = divmod(r[i - 1], 127773) if r[i - 1] >= 0 else _c_divmod(r[i - 1], 127773)
            word = 16807 * lo - 2836 * hi
            if word < 0:
                word += 2147483647
            r[i] = word
        for i in range(31, 34):
            r[i] = r[i - 31]
        state = [x & 0xFFFFFFFF for x in r]
        for i in range(34, 344):
            state.append((state[i - 31] + state[i - 3]) & 0xFFFFFFFF)
        self._r = state[-34:]
        self._i = 0

    def rand(self) -> int:
        """The next value in 0..2**31-1, as glibc's ``rand()``."""
        r = self._r
        i = self._i
        value = (r[(i + 3) % 34] + r[(i + 31) % 34]) & 0xFFFFFFFF
        r[i] = value
        self._i = (i + 1) % 34
        return value >> 1

    def index(self, top: int) -> int:
        """A number in 0..top, drawn the way the original's ``rand_index`` does."""
        return int((top + 1.0) * self.rand() / 2147483648.0)


#: The length of a :class:`KeyedRandom` key at least, in bytes (256 bits: no search finds it).
KEY_BYTES: Final = 32


class KeyedRandom:
    """Draws that only a secret key determines: SHA-256 of the key and a counter, in 32-bit words.

    The original's generator has 2**32 seeds, so a player who knows her own dealt tiles can
    try every seed until one deals them, and then knows every wall of the game. A table played
    by people who must not see each other's tiles (the lobby's) deals from a 256-bit key
    instead; the same key deals the same walls, so the table can be played again from its record.
    """

    __slots__ = ("_block", "_counter", "_key", "_offset")

    def __init__(self, key: bytes) -> None:
        if len(key) < KEY_BYTES:
            raise ValueError(f"a wall key is at least {KEY_BYTES} bytes, not {len(key)}")
        self._key = key
        self._counter = 0
        self._block = b""
        self._offset = 0

    def _word(self) -> int:
        if self._offset == len(self._block):
            self._block = hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
            self._offset = 0
        word = int.from_bytes(self._block[self._offset : self._offset + 4], "big")
        self._offset += 4
        return word

    def index(self, top: int) -> int:
        """A number in 0..top, each equally likely (words past the last whole multiple of top+1 are drawn again)."""
        span = top + 1
        limit = (1 << 32) - (1 << 32) % span
        while True:
            word = self._word()
            if word < limit:
                return word % span


#: Where walls and dice are drawn from: the original's generator (``--seed N``), or a secret key.
WallRandom = GlibcRandom | KeyedRandom


def _c_divmod(a: int, b: int) -> tuple[int, int]:
    """Division truncating toward zero, as C's ``/`` and ``%`` on signed ints."""
    q = abs(a) // b
    if a < 0:
        q = -q
    return q, a - q * b


def shuffled_wall(rng: WallRandom, flowers: bool) -> list[Tile]:
    """A wall (index 0 = first tile dealt) shuffled as the original server shuffles it."""
    tiles = full_set(flowers)
    wall: list[Tile] = []
    left = len(tiles)
    while left > 0:
        j = 0 if left == 1 else rng.index(left - 1)
        wall.append(tiles[j])
        left -= 1
        tiles[j] = tiles[left]
    return wall


def dice(rng: WallRandom, previous_wall_size: int) -> tuple[int, int]:
    """The cosmetic ``(start_wall, start_stack)`` of ``NewHand``.

    ``previous_wall_size`` is the size of the wall of the previous hand set up by the
    same server process, 0 for its first: the original's quirk, kept so that
    ``NewHand`` lines of seeded games match (protocol.md §13).
    """
    half = (previous_wall_size // 4) // 2
    w = (1 + rng.index(5)) + (1 + rng.index(5))
    s = w + (1 + rng.index(5)) + (1 + rng.index(5)) + 1
    if s > half:
        s -= half
        w += 1
    return (w - 1) % 4, s - 1


def random_seating(rng: GlibcRandom, players: Sequence[int]) -> list[int]:
    """Seat order E,S,W,N drawn from the connection-ordered ``players`` (``--random-seats``)."""
    remaining = list(players)
    seats: list[int] = []
    for i in range(4):
        seats.append(remaining.pop(rng.index(3 - i)))
    return seats


class WallFileError(ValueError):
    """A wall file that does not hold exactly one wall of valid tile codes."""


def wall_problem(wall: Sequence[Tile], flowers: bool) -> str | None:
    """Why ``wall`` cannot be a wall of a game with(out) flowers, or None if it can.

    A wall is the tile set in some order: each tile as often as in :func:`full_set`.
    An all-blank wall of that size is also accepted: the original deals one as the
    first hand of a ``--wallfile`` game, so its saves hold one (§12.3).
    """
    size = wall_size(flowers)
    if len(wall) != size:
        return f"the wall has {len(wall)} tiles, the tile set has {size}"
    if all(t == BLANK for t in wall):
        return None
    expected = Counter(full_set(flowers))
    found = Counter(wall)
    for tile in sorted(expected.keys() | found.keys()):
        if found[tile] != expected[tile]:
            return f"the wall has {found[tile]} of {code(tile)}, the tile set has {expected[tile]}"
    return None


def read_wall_file(path: Path, size: int) -> list[Tile]:
    """The fixed wall of ``--wallfile``: whitespace-separated codes in draw order, a whole tile set."""
    words = read_capped(path, SMALL_FILE_CAP).decode("ascii", errors="replace").split()
    if len(words) != size:
        raise WallFileError(f"{path}: wall file has {len(words)} tiles, the wall needs {size}")
    try:
        wall = [parse(w) for w in words]
    except TileError as exc:
        raise WallFileError(f"{path}: {exc}") from None
    problem = wall_problem(wall, size == wall_size(True))
    if problem is not None:
        raise WallFileError(f"{path}: {problem}")
    return wall
