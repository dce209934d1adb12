"""The field kinds of protocol messages and the one codec that every message shares.

Messages (:mod:`mj.protocol.cmsg`, :mod:`mj.protocol.pmsg`) only declare their fields,
in wire order, as dataclass annotations; from those declarations each class gets its
constructor and writer the first time the class is used, written out as Python and
compiled once for all the messages of the same shape (:func:`_compile_methods`), and
one reader serves all (:func:`read_fields`).
The rules for writing and reading each kind (protocol.md §1.4) live in exactly one
place, :data:`_ENCODERS` and :data:`_DECODERS`, and no message parses itself.

Reading imitates the original's generated C decoder, ``sscanf`` field by field,
because clients and logs depend on its leniency (``NoClaim 1 extra junk`` is a
NoClaim). It is stricter in one way the original should have been: a missing field
is a :class:`ProtocolError` instead of an undefined value (§1.4, §16 item 1).
"""

from __future__ import annotations

import builtins
import dataclasses
import functools
import re
import string
import sys
import types
from collections.abc import Callable
from enum import Enum
from typing import Annotated, Any, ClassVar, Final, TypeVar, dataclass_transform, get_origin

from mj import tiles
from mj.protocol.framing import WHITESPACE
from mj.quoting import quoted
from mj.rules.options import OptionEntry, OptionError, parse_entry


class ProtocolError(ValueError):
    """A line that is not a message; the server answers ``Error <seq> Protocol error`` (§1.5)."""


class ChowPosition(Enum):
    """Where the claimed tile sits in a chow (§2.4); the values are the wire words."""

    LOWER = "Lower"
    MIDDLE = "Middle"
    UPPER = "Upper"
    ANYPOS = "AnyPos"


class PlayerOption(Enum):
    """The per-connection options of ``SetPlayerOption`` (§2.7); the values are the wire names.

    Any other name reads as :attr:`UNKNOWN` rather than failing, so that the server can
    answer ``Unknown option`` like the original.
    """

    INFO_TILES = "InfoTiles"
    DELAY_TIME = "DelayTime"
    LOCAL_TIMEOUTS = "LocalTimeouts"
    UNKNOWN = "Unknown"


class Kind(Enum):
    """How a field is written and read (the type column of the table in §1.4)."""

    INT = "int"
    BOOL = "bool"
    TILE = "tile"
    WIND = "wind"
    CHOW_POSITION = "ChowPosition"
    PLAYER_OPTION = "PlayerOption"
    WORD = "word"
    OPTION_ENTRY = "GameOptionEntry"
    TEXT = "string"


#: A tile written as its two-character code (``--`` for :data:`mj.tiles.BLANK`).
TileCode = Annotated[tiles.Tile, Kind.TILE]
#: A wind tile (EAST_WIND..NORTH_WIND) written as one letter; BLANK stands for ``?``.
Wind = Annotated[tiles.Tile, Kind.WIND]
#: A token of at most 15 non-blank characters (auth types, option names).
Word = Annotated[str, Kind.WORD]

#: Field types that need no annotation because the Python type says it all.
_PLAIN_KINDS: Final[dict[object, Kind]] = {
    int: Kind.INT,
    bool: Kind.BOOL,
    str: Kind.TEXT,
    ChowPosition: Kind.CHOW_POSITION,
    PlayerOption: Kind.PLAYER_OPTION,
    OptionEntry: Kind.OPTION_ENTRY,
}
#: Kinds that run to the end of the line and so can only be the last field.
_FINAL_KINDS: Final = frozenset((Kind.TEXT, Kind.OPTION_ENTRY))

#: Keywords are runs of these (the controller side also allows ``#``, §1.4).
KEYWORD_CHARS: Final = string.ascii_letters + string.digits

_WIND_LETTERS: Final = {
    tiles.EAST_WIND: "E",
    tiles.SOUTH_WIND: "S",
    tiles.WEST_WIND: "W",
    tiles.NORTH_WIND: "N",
}
_LETTER_WINDS: Final = {letter: wind for wind, letter in _WIND_LETTERS.items()}
_CHOW_WORDS: Final = {
    **{p.value: p for p in ChowPosition},
    "l": ChowPosition.LOWER,
    "m": ChowPosition.MIDDLE,
    "u": ChowPosition.UPPER,
    "a": ChowPosition.ANYPOS,
}
_OPTION_NAMES: Final = {o.value: o for o in PlayerOption if o is not PlayerOption.UNKNOWN}
#: First characters a text must be protected from: the reader would skip white
#: space and eat one backslash. The original escapes only space and backslash (and so
#: loses a leading tab or newline); escaping all white space reads back the same on
#: the original and keeps every text intact.
_TEXT_ESCAPED: Final = frozenset(WHITESPACE + "\\")

_WS: Final = f"[{re.escape(WHITESPACE)}]*"
_NONBLANK: Final = f"[^{re.escape(WHITESPACE)}]"


def _token(width: int) -> str:
    """``sscanf("%<width>s")``: up to ``width`` non-blank characters after any white space."""
    return f"{_WS}({_NONBLANK}{{1,{width}}}){_WS}"


def _to_bool(text: str) -> bool:
    value = int(text)
    if value not in (0, 1):
        raise ValueError(f"expected 0 or 1, not {value}")
    return value == 1


def _to_wind(letter: str) -> tiles.Tile:
    return _LETTER_WINDS.get(letter, tiles.BLANK)


def _to_chow_position(word: str) -> ChowPosition:
    try:
        return _CHOW_WORDS[word]
    except KeyError:
        raise ValueError(f"not a chow position: {word!r}") from None


def _to_player_option(name: str) -> PlayerOption:
    return _OPTION_NAMES.get(name, PlayerOption.UNKNOWN)


def _to_option_entry(text: str) -> OptionEntry:
    try:
        return parse_entry(text)
    except OptionError as exc:
        raise ValueError(f"bad game option entry: {exc}") from None


@dataclasses.dataclass(frozen=True, slots=True)
class _Syntax:
    """How one kind of field is read, as the C decoder's ``sscanf`` reads it."""

    #: A regular expression with one group, the field's text; it also swallows the white
    #: space after the field, as the C decoder does.
    pattern: str
    #: The value of that text; :class:`ValueError` (with the reason) if it has none.
    convert: Callable[[str], Any]
    #: What is expected, for the error when the pattern does not match.
    what: str

    def read(self, line: str, pos: int) -> tuple[Any, int]:
        """The field's value at ``pos`` and where the next field starts (:class:`ProtocolError` if none)."""
        match = re.compile(self.pattern, re.DOTALL).match(line, pos)
        if match is None:
            raise ProtocolError(
                f"missing {self.what}" if pos >= len(line) else f"expected {self.what} at {quoted(line[pos:], 20)}"
            )
        try:
            return self.convert(match[1]), match.end()
        except ValueError as exc:
            raise ProtocolError(str(exc)) from None


_INT: Final = f"{_WS}([+-]?[0-9]+){_WS}"
_DECODERS: Final[dict[Kind, _Syntax]] = {
    Kind.INT: _Syntax(_INT, int, "an integer"),
    Kind.BOOL: _Syntax(_INT, _to_bool, "0 or 1"),
    Kind.TILE: _Syntax(_token(2), tiles.parse, "a tile code"),
    Kind.WIND: _Syntax(f"(.){_WS}", _to_wind, "a wind letter"),
    Kind.CHOW_POSITION: _Syntax(_token(31), _to_chow_position, "a chow position"),
    Kind.PLAYER_OPTION: _Syntax(_token(31), _to_player_option, "a player option name"),
    Kind.WORD: _Syntax(_token(15), str, "a word"),
    Kind.OPTION_ENTRY: _Syntax("(.*)", _to_option_entry, "a game option entry"),
    # one leading backslash protects what follows (see _TEXT_ESCAPED) and is dropped
    Kind.TEXT: _Syntax(r"\\?(.*)", str, "a text"),
}


def _write_text(text: str) -> str:
    return "\\" + text if text[:1] in _TEXT_ESCAPED else text


#: How each kind is written: a replacement field of an f-string, ``%s`` standing for
#: the value; the names it calls are those of :data:`_ENCODER_NAMES`.
_ENCODERS: Final[dict[Kind, str]] = {
    Kind.INT: "{%s!s}",
    Kind.BOOL: "{'1' if %s else '0'}",
    Kind.TILE: "{_tile_code(%s)}",
    Kind.WIND: "{_wind_letter(%s, '?')}",
    Kind.CHOW_POSITION: "{%s.value}",
    Kind.PLAYER_OPTION: "{%s.value}",
    Kind.WORD: "{%s!s}",
    Kind.OPTION_ENTRY: "{%s.encode()}",
    Kind.TEXT: "{_write_text(%s)}",
}
_ENCODER_NAMES: Final[dict[str, object]] = {
    "_tile_code": tiles.code,
    "_wind_letter": _WIND_LETTERS.get,
    "_write_text": _write_text,
}


class WireMessage:
    """What controller and player messages have in common: a keyword and typed fields.

    Subclasses are made with :func:`message`: their annotations, in wire order, are
    the fields; :func:`install_codecs` fills in the class variables below, and the
    methods a frozen dataclass would have are here or written out per class on first
    use (see :func:`message` for why).
    """

    __slots__ = ()

    #: The message name on the wire (the class name, except for ``#``).
    keyword: ClassVar[str]
    #: Other names the original's decoder accepts for this message (§1.4).
    aliases: ClassVar[tuple[str, ...]] = ()
    #: ``(attribute, kind)`` per field, in wire order.
    wire_fields: ClassVar[tuple[tuple[str, Kind], ...]]
    # Declared so that the type checker accepts message classes in dataclasses.fields().
    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]

    # These three stand in until the class's own are compiled, on first use (_compile_methods).

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        _compile_methods(type(self))
        self.__init__(*args, **kwargs)  # type: ignore[misc]  # the class's own, just compiled

    def encode(self) -> str:
        """The message text without line terminator, before framing (§1.4)."""
        _compile_methods(type(self))
        return self.encode()

    def _values(self) -> tuple[Any, ...]:
        """The field values in order."""
        _compile_methods(type(self))
        return self._values()

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, WireMessage)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(
            f"{name}={value!r}" for (name, _), value in zip(self.wire_fields, self._values(), strict=True)
        )
        return f"{type(self).__name__}({fields})"

    def __setattr__(self, name: str, value: object) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")

    def __getstate__(self) -> tuple[Any, ...]:
        return self._values()

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        for (name, _), value in zip(self.wire_fields, state, strict=True):
            object.__setattr__(self, name, value)


M = TypeVar("M", bound="WireMessage")


@dataclass_transform(frozen_default=True)
def message(cls: type[M]) -> type[M]:
    """Declare a message class: to users and the type checker, ``@dataclass(frozen=True, slots=True)``.

    ``dataclasses`` compiles half a dozen methods for each frozen class, one at a
    time, and there are some ninety messages: every program that speaks the protocol
    paid some 60 ms for that at start-up. Here ``dataclasses`` only makes the slots;
    :class:`WireMessage` has the methods that need nothing of a particular class, and
    :func:`_compile_methods` the rest, for each class the first time it is used (a
    game uses about a third of the messages).
    """
    return dataclasses.dataclass(slots=True, init=False, repr=False, eq=False)(cls)


def _kind_of(hint: object) -> Kind:
    if get_origin(hint) is Annotated:
        return next(m for m in getattr(hint, "__metadata__", ()) if isinstance(m, Kind))
    return _PLAIN_KINDS[hint]


def _field_type(cls: type[WireMessage], annotation: object) -> object:
    """The type an annotation names: field annotations are plain names (``int``, ``TileCode``).

    Looking the name up in the message's module is all ``typing.get_type_hints`` would
    do here, at a small part of its cost, which every program pays at start-up.
    """
    if not isinstance(annotation, str):
        return annotation
    namespace = vars(sys.modules[cls.__module__])
    found = namespace.get(annotation, getattr(builtins, annotation, None))
    if found is None:
        raise TypeError(f"{cls.__name__}: field type {annotation!r} is not a name known in {cls.__module__}")
    return found


def install_codecs(cls: type[WireMessage]) -> None:
    annotations = cls.__annotations__
    spec = tuple((field.name, _kind_of(_field_type(cls, annotations[field.name]))) for field in dataclasses.fields(cls))
    if any(kind in _FINAL_KINDS for _, kind in spec[:-1]):
        raise TypeError(f"{cls.__name__}: only the last field may run to the end of the line")
    cls.keyword = cls.__dict__.get("keyword", cls.__name__)
    cls.wire_fields = spec


def read_fields(cls: type[M], line: str, pos: int) -> M:
    """The message of class ``cls`` whose fields start at ``pos``, read one after the other as the C decoder reads them.

    Reading is rare enough to be a plain loop: the tables remember the lines they read
    (:meth:`mj.protocol.messagetable.MessageTable.decode`).
    """
    values = []
    for name, kind in cls.wire_fields:
        try:
            value, pos = _DECODERS[kind].read(line, pos)
        except ProtocolError as exc:
            raise ProtocolError(f"{name}: {exc}") from None
        values.append(value)
    return cls(*values)


#: The classes whose methods are compiled.
_COMPILED: Final[set[type[Any]]] = set()


def _compile_methods(cls: type[WireMessage]) -> None:
    """Install ``__init__`` (keyword and positional, defaults as declared), ``_values`` and ``encode`` in ``cls`` once.

    Written out per class, they run several times faster than loops over the fields
    would (the server builds and writes a few thousand messages per game).
    Compiling Python is what costs, though, so the code is compiled once per shape
    (:func:`_template`) and each class gets a copy with its own names: its fields'
    names stand in for the placeholders, and the functions' globals hold what is the
    class's own (its keyword and slots).
    """
    if cls in _COMPILED:
        return
    _COMPILED.add(cls)
    names = tuple(name for name, _ in cls.wire_fields)
    kinds = tuple(kind for _, kind in cls.wire_fields)
    namespace: dict[str, Any] = {"_kw": cls.keyword, **_ENCODER_NAMES}
    defaults = []
    for index, field in enumerate(dataclasses.fields(cls)):
        if field.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{field.name}: messages take plain defaults only")
        if field.default is not dataclasses.MISSING:
            defaults.append(field.default)
        # The field's slot is set through its descriptor, past the frozen __setattr__:
        # half the cost of object.__setattr__, which looks the name up first. The
        # server and the robots build a few hundred messages per hand.
        slot = getattr(cls, field.name)
        assert isinstance(slot, types.MemberDescriptorType), f"{cls.__name__}.{field.name} is not a slot"
        namespace[f"_s{index}"] = slot.__set__
    label = f"<message {cls.__module__}.{cls.__qualname__}>"
    for method, shape in (("__init__", len(names)), ("_values", len(names)), ("encode", kinds)):
        template = _template(method, shape)
        code = template.replace(
            co_varnames=tuple(_named(name, names) for name in template.co_varnames),
            co_names=tuple(_named(name, names) for name in template.co_names),
            co_qualname=f"{cls.__qualname__}.{method}",
            co_filename=label,
        )
        argdefs = tuple(defaults) if method == "__init__" and defaults else None
        type.__setattr__(cls, method, types.FunctionType(code, namespace, method, argdefs))


def _named(placeholder: str, names: tuple[str, ...]) -> str:
    """The field name that a template's placeholder ``_f<index>`` stands for; other names as they are."""
    index = placeholder[2:]
    return names[int(index)] if placeholder.startswith("_f") and index.isdigit() else placeholder


@functools.cache
def _template(method: str, shape: int | tuple[Kind, ...]) -> types.CodeType:
    """The code of ``method`` for the messages of one shape, with ``_f0``, ``_f1``... for their
    fields' names: the shape is the number of fields, except for ``encode``, which writes
    each field by its kind and so takes the kinds."""
    fields = [f"_f{index}" for index in range(shape if isinstance(shape, int) else len(shape))]
    source = _encoder_source(fields, shape) if isinstance(shape, tuple) else _SOURCES[method](fields)
    namespace: dict[str, Any] = {}
    exec(compile(source, f"<message {method} template>", "exec"), namespace)
    code: types.CodeType = namespace[method].__code__
    return code


def _init_source(fields: list[str]) -> str:
    body = "".join(f"\n    _s{index}(self, {name})" for index, name in enumerate(fields)) or "\n    pass"
    return f"def __init__({', '.join(['self', *fields])}):{body}"


def _values_source(fields: list[str]) -> str:
    return f"def _values(self):\n    return ({''.join(f'self.{name}, ' for name in fields)})"


def _encoder_source(fields: list[str], kinds: tuple[Kind, ...]) -> str:
    """``encode``: one f-string, the keyword and each field's :data:`_ENCODERS` entry."""
    text = " ".join(["{_kw}", *(_ENCODERS[kind] % f"self.{name}" for name, kind in zip(fields, kinds, strict=True))])
    return f"def encode(self):\n    return f{text!r}"


#: The source of each method whose template depends only on the number of fields.
_SOURCES: Final[dict[str, Callable[[list[str]], str]]] = {
    "__init__": _init_source,
    "_values": _values_source,
}
