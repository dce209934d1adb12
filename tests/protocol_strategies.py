"""Hypothesis strategies for protocol messages, driven by the messages' own field declarations."""

from __future__ import annotations

import string
from typing import Any

from hypothesis import strategies as st

from mj import tiles
from mj.protocol.fields import ChowPosition, Kind, PlayerOption, WireMessage
from mj.protocol.framing import WHITESPACE
from mj.rules.options import SCORE_CAP, OptionEntry, OptionType

words = st.text(string.ascii_letters + string.digits + string.punctuation, min_size=1, max_size=15)

# Free texts survive a trip except for trailing white space, which every reader strips.
texts = st.text(st.one_of(st.sampled_from(" \\\n\t"), st.characters(max_codepoint=255)), max_size=30).map(
    lambda text: text.rstrip(WHITESPACE)
)

_OPTION_VALUES: dict[OptionType, st.SearchStrategy[int | str]] = {
    OptionType.BOOL: st.integers(0, 1),
    OptionType.INT: st.integers(-(2**31), 2**31 - 1),
    OptionType.NAT: st.integers(0, 2**31 - 1),
    OptionType.SCORE: st.integers(0, SCORE_CAP),
    OptionType.STRING: st.text(string.ascii_letters, min_size=1, max_size=127),
}


@st.composite
def option_entries(draw: st.DrawFn) -> OptionEntry:
    kind = draw(st.sampled_from(OptionType))
    description = draw(st.text(string.ascii_letters + string.digits + ",. ", max_size=127))
    return OptionEntry(
        name=draw(words),
        type=kind,
        minprot=draw(st.integers(0, 2000)),
        enabled=draw(st.booleans()),
        value=draw(_OPTION_VALUES[kind]),
        description=description.strip(),
    )


FIELD_VALUES: dict[Kind, st.SearchStrategy[Any]] = {
    Kind.INT: st.integers(-(2**31), 2**31 - 1),
    Kind.BOOL: st.booleans(),
    Kind.TILE: st.sampled_from((tiles.BLANK, *tiles.ALL_TILES)),
    Kind.WIND: st.sampled_from((*tiles.WINDS, tiles.BLANK)),
    Kind.CHOW_POSITION: st.sampled_from(ChowPosition),
    Kind.PLAYER_OPTION: st.sampled_from(PlayerOption),
    Kind.WORD: words,
    Kind.OPTION_ENTRY: option_entries(),
    Kind.TEXT: texts,
}


def messages(cls: type[WireMessage]) -> st.SearchStrategy[WireMessage]:
    """Any well-formed instance of ``cls``."""
    return st.builds(cls, **{name: FIELD_VALUES[kind] for name, kind in cls.wire_fields})
