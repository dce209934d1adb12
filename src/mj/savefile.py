"""The ``.mjs`` save file (protocol.md §10.2): a game as the controller messages that rebuild it.

A save is written with the wire's framing, so multi-line score texts survive, and
read back with the same decoder; every line must decode as a controller message.
The original writes garbage in its ``# CompletedRounds`` comment and never reads it
back; we write the number and read it back (§16 item 7): the original's garbage never
begins with the word, and a comment that does but holds no count is damage, refused.

The option list is whole or the file is refused: every save, the original's too, lists
all the options of its rules and ends the list with ``End``, and a journal cut inside
the list would otherwise resume with the defaults in place of what was played.

A save of a rule system the original cannot play (IMS, Beijing) adds one more comment,
``# AfterDraw 1 BankerHands 3``: whether the hand before the saved one was drawn and
how many hands its banker had dealt in a row before it, which the Game line does not
say and Beijing's Upstairs doubles depend on. Classical saves stay the original's: one
that has the comment is refused (another system's save, loaded without its ``--rules``).

Neither comment may go missing, astray or twice without a word, since the game would
resume in another state. A comment shaped as ours (a word, alone or before a number) whose
word is close to one of ours but not it (``# AfterDraws 1``, ``# Completedrounds 2``)
is refused as a misspelling; other comments are free text and pass, the original's
garbage among them (the bytes of a stale pointer, no word of ours). Each of ours is
written once in a file, which holds one hand at most (a journal is rewritten whole when
a hand begins): a second is refused, since which one holds is not known. A missing comment
is refused where the file shows that its writer wrote one and its rules read it:
``# CompletedRounds`` in a file whose hand is not over (only hand histories and the
original's second save of a finished hand go without; in a classical file the original's
garbage comment after the Game line stands in for it), ``# AfterDraw`` in every dealt hand
of rules that read it (:attr:`~mj.rules.ruleset.Ruleset.reads_hand_start`). IMS saves
write it too but IMS never reads it: its saves from before the comment existed load, the
hand begun as after a won hand with a new banker. A ``# CompletedRounds`` deleted from a
finished hand cannot be told from a hand history, and is not refused.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from mj import tiles
from mj.protocol import cmsg as C
from mj.protocol.fields import ProtocolError
from mj.protocol.framing import ENCODING, LineDecoder, encode_line
from mj.quoting import quoted
from mj.rules.classical.rules import needs_extension
from mj.rules.options import END, DescriptionBuffer, GameOptions, OptionEntry, OptionError
from mj.tiles import Tile

if TYPE_CHECKING:  # the rule systems are not needed to read a classical save
    from mj.rules.ruleset import Ruleset

_COMPLETED_WORD: Final = "CompletedRounds"
_COMPLETED = re.compile(r"CompletedRounds\s+(\d+)\s*$")
_HAND_START_WORD: Final = "AfterDraw"
_HAND_START = re.compile(r"AfterDraw\s+([01])\s+BankerHands\s+(\d{1,9})\s*$")
#: The words our comments begin with, each the start of one comment's text.
_KEYWORDS: Final = (_COMPLETED_WORD, _HAND_START_WORD)
#: A comment's first word: ours when it is one of :data:`_KEYWORDS`, whatever follows.
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*")
#: A comment shaped as ours: a word, alone or followed by a number. 40 letters is far beyond any word
#: as like one of ours as :data:`_LIKENESS` asks (at most 22 letters for the longest, 15).
_KEYWORD_SHAPE = re.compile(r"([A-Za-z][A-Za-z0-9]{0,39})(?:\s+[-+]?\d.*)?", re.DOTALL)
#: How like one of our words (difflib's ratio, case aside) a comment's word must be to be taken for a
#: misspelling of it: a slip of a letter or two, or of case, is; a free-text word such as "After" or
#: "Completed" (0.71, 0.75) is not.
_LIKENESS: Final = 0.8

#: The missing options a refusal names, of a list that may lack all of them.
_NAMED: Final = 3
#: Player ids are C ints in the original's clients.
MAX_PLAYER_ID: Final = 2**31 - 1
#: Far beyond any game's score (a no-limit game of 100 rounds included), far below 20 digits.
MAX_SCORE: Final = 10**12
#: East's consecutive wins: the deal passes after the 13th (engine's rule).
MAX_HANDS_AS_EAST: Final = 13


class SaveFileError(ValueError):
    """A save file that cannot be loaded; the message says which line and why."""


@dataclass(frozen=True, slots=True)
class SavedGame:
    """What a save file holds: seated players, the game's state, options, and the hand so far."""

    players: tuple[C.Player, ...]
    game: C.Game
    options: tuple[OptionEntry, ...]
    completed_rounds: int | None
    wall: tuple[Tile, ...] | None
    history: tuple[C.CMsg, ...]
    #: The hand before the saved one was drawn (``# AfterDraw``; classical saves never say).
    after_draw: bool = False
    #: Hands the saved hand's banker had dealt in a row before it (``# BankerHands``).
    banker_hands: int = 0


def format_save(messages: Sequence[C.CMsg]) -> str:
    """The file text of ``messages``, framed exactly as on the wire."""
    return "".join(encode_line(m.encode()).decode(ENCODING) for m in messages)


def completed_rounds_comment(rounds: int) -> C.Comment:
    return C.Comment(f"CompletedRounds {rounds:6d}")


def hand_start_comment(after_draw: bool, banker_hands: int) -> C.Comment:
    """The comment of a non-classical save that keeps what the saved hand began after (module documentation)."""
    return C.Comment(f"AfterDraw {int(after_draw)} BankerHands {banker_hands}")


def parse_save(text: str, rules: Ruleset | None = None) -> SavedGame:
    """Read a save file of a game under ``rules`` (default classical).

    Raise :class:`SaveFileError` naming the first bad line.
    """
    decoder = LineDecoder(max_line=len(text) + 2)
    lines = decoder.feed(text.encode(ENCODING, errors="replace"))  # a last line without its newline: cut off
    players: list[C.Player] = []
    game: C.Game | None = None
    options: list[OptionEntry] = []
    completed: int | None = None
    hand_start: tuple[bool, int] | None = None
    #: The line of each of our comments read so far: a save has each once.
    seen: dict[str, int] = {}
    extended = rules is not None and needs_extension(rules)
    #: A comment other than ours between the Game line and the options, where the original writes its garbage.
    stand_in = False
    wall: tuple[Tile, ...] | None = None
    history: list[C.CMsg] = []
    game_options = rules.new_options() if rules is not None else GameOptions()
    descriptions = DescriptionBuffer()
    for number, line in enumerate(lines, 1):
        if not line:
            continue
        try:
            message = C.decode(line)
        except ProtocolError as exc:
            raise SaveFileError(f"line {number}: not a controller message ({exc}): {quoted(line)}") from None
        if isinstance(message, C.Comment):
            text = message.text.strip()
            keyword = _keyword(text, number)
            if keyword == _HAND_START_WORD and not extended:
                raise SaveFileError(
                    f"line {number}: '# {keyword}' in a save of the {rules.name if rules else 'classical'} rules: "
                    "only saves of rules the original cannot play have it"
                )
            if keyword is not None and seen.setdefault(keyword, number) != number:
                raise SaveFileError(
                    f"line {number}: a second '# {keyword}' comment (the first is line {seen[keyword]}): "
                    "a save has one, so which holds is not known"
                )
            if keyword == _COMPLETED_WORD:
                completed = _completed_rounds(text, number)
            elif keyword == _HAND_START_WORD:
                hand_start = _hand_start(text, number)
            elif game is not None and not options:
                stand_in = True
        elif isinstance(message, C.Player) and game is None:
            players.append(message)
        elif isinstance(message, C.Game) and game is None:
            game = message
        elif isinstance(message, C.GameOption) and wall is None and not history:
            entry = descriptions.fill(message.entry)
            try:
                game_options.check_entry(entry)
            except OptionError as exc:
                raise SaveFileError(f"line {number}: game option {entry.name}: {exc}") from None
            options.append(entry)
        elif isinstance(message, C.Wall) and wall is None:
            try:
                wall = tuple(tiles.parse(code) for code in message.tiles.split())
            except ValueError as exc:
                raise SaveFileError(f"line {number}: bad tile in the wall: {exc}") from None
        elif game is not None and wall is not None:
            history.append(message)
        else:
            raise SaveFileError(f"line {number}: {message.keyword} is out of place in a save file")
    if game is None:
        raise SaveFileError("no Game line: not a save file")
    seated = {game.east, game.south, game.west, game.north}
    if len(seated) != 4 or {p.id for p in players} != seated or len(players) != 4:
        raise SaveFileError("the Player lines do not match the four seats of the Game line")
    _check_option_list(options, game_options)
    for entry in options:
        game_options.apply_entry(entry)
    _check_game(game, game_options, completed)
    _check_comments(completed, hand_start, stand_in, wall, history, rules, extended)
    if wall is not None:
        flowers = rules.flowers(game_options) if rules is not None else game_options.flag("Flowers")
        problem = tiles.wall_problem(wall, flowers)
        if problem is not None:
            raise SaveFileError(f"Wall line: {problem}")
        if not history or not isinstance(history[0], C.NewHand):
            raise SaveFileError("the hand history must start with NewHand")
    return SavedGame(tuple(players), game, tuple(options), completed, wall, tuple(history), *(hand_start or (False, 0)))


def _keyword(text: str, number: int) -> str | None:
    """Which of our comments ``text`` is, or ``None`` for free text; one shaped as ours whose word is close to
    one of ours is refused, since ignoring it would resume the game in another state."""
    first = _WORD.match(text)
    if first is not None and first.group() in _KEYWORDS:  # the original's garbage comment never begins so
        return first.group()
    shaped = _KEYWORD_SHAPE.fullmatch(text)
    if shaped is None:
        return None
    word = shaped.group(1)
    lower = {keyword.lower(): keyword for keyword in _KEYWORDS}
    close = difflib.get_close_matches(word.lower(), lower, n=1, cutoff=_LIKENESS)
    if close:
        raise SaveFileError(f"line {number}: unknown comment keyword {quoted(word)} (did you mean {lower[close[0]]}?)")
    return None


def _completed_rounds(text: str, number: int) -> int:
    """The rounds a ``# CompletedRounds N`` comment says were played; a damaged one is refused, since the
    game would otherwise go on for rounds it has already played."""
    found = _COMPLETED.match(text)
    if found is None:
        raise SaveFileError(f"line {number}: the completed rounds must be a whole number, 0 or more: {quoted(text)}")
    digits = found.group(1).lstrip("0") or "0"
    return int(digits) if len(digits) <= 9 else 10**9  # checked against NumRounds by _check_game


def _hand_start(text: str, number: int) -> tuple[bool, int]:
    """What a ``# AfterDraw A BankerHands B`` comment says; a damaged one is refused, since reading it as
    0 and 0 would lose Beijing's Upstairs doubles without a word."""
    found = _HAND_START.match(text)
    if found is None:
        raise SaveFileError(f"line {number}: expected '# AfterDraw 0|1 BankerHands N', not {quoted(text)}")
    return found.group(1) == "1", int(found.group(2))


def _check_comments(
    completed: int | None,
    hand_start: tuple[bool, int] | None,
    stand_in: bool,
    wall: tuple[Tile, ...] | None,
    history: Sequence[C.CMsg],
    rules: Ruleset | None,
    extended: bool,
) -> None:
    """Refuse a file without a comment that its writer wrote and its rules read (module documentation):
    resumed without it, the game would play rounds already played, or lose Beijing's Upstairs doubles,
    without a word."""
    over = any(isinstance(item, C.Settlement | C.WashOut) for item in history)
    if completed is None and not over and (extended or not stand_in):
        raise SaveFileError(
            "no '# CompletedRounds N' comment, which every save of a game in progress has after its Game line: "
            "the file is damaged, so the rounds already played are not known"
        )
    if rules is not None and rules.reads_hand_start and wall is not None and hand_start is None:
        raise SaveFileError(
            "no '# AfterDraw 0|1 BankerHands N' comment, which every save of these rules has with its hand: "
            "the file is damaged, so what the hand began after is not known"
        )


def _check_option_list(options: Sequence[OptionEntry], schema: GameOptions) -> None:
    """A save lists every option of its rules, ``End`` last (§10.2); a list cut short (a damaged journal) would
    resume with defaults in place of the missing values, so a different game: refused."""
    written = {entry.name for entry in options}
    missing = [entry.name for entry in schema.entries() if entry.name not in written]
    if END in missing:
        raise SaveFileError(
            "the option list has no End line: the file is cut short or damaged, so the game's options are not known"
        )
    if missing:
        named = ", ".join(missing[:_NAMED]) + (f" and {len(missing) - _NAMED} more" if len(missing) > _NAMED else "")
        raise SaveFileError(
            f"the option list lacks {named}: the file is damaged or of other rules, so the game's options are not known"
        )


def _check_game(game: C.Game, options: GameOptions, completed: int | None) -> None:
    """The Game line's fields within what the rules can make (:class:`SaveFileError` naming the first that is not)."""
    seats = (game.east, game.south, game.west, game.north)
    if not all(1 <= player <= MAX_PLAYER_ID for player in seats):
        raise SaveFileError(f"Game line: player ids must be between 1 and {MAX_PLAYER_ID}")
    if game.round not in tiles.WINDS:
        raise SaveFileError("Game line: the round is not a wind (E, S, W or N)")
    if game.firsteast not in seats:
        raise SaveFileError(f"Game line: the first East ({game.firsteast}) is not one of the seated players")
    if game.manager not in (0, -1, *seats):
        raise SaveFileError(f"Game line: the manager ({game.manager}) is not 0, -1 or a seated player")
    if not 0 <= game.hands_as_east <= MAX_HANDS_AS_EAST:
        raise SaveFileError(f"Game line: East's hands ({game.hands_as_east}) must be between 0 and {MAX_HANDS_AS_EAST}")
    scores = (game.east_score, game.south_score, game.west_score, game.north_score)
    if not all(abs(score) <= MAX_SCORE for score in scores):
        raise SaveFileError(f"Game line: a score is beyond {MAX_SCORE} (in either direction)")
    rounds = options["NumRounds"] if "NumRounds" in options else 1  # noqa: SIM401 (GameOptions has no get): a system without it plays one
    if completed is not None and not 0 <= completed < rounds:
        raise SaveFileError(f"CompletedRounds ({completed}) must be below the game's NumRounds ({rounds})")
