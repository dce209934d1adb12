"""Bad input quoted in a one-line error: enough of it to recognise, never all of it.

A file or a client can send a line of a megabyte; the error that refuses it must
still be one readable line, so every message that quotes what it refuses cuts the
quote here.
"""

from __future__ import annotations

from typing import Final

#: The most characters of a bad input an error quotes.
QUOTE_LIMIT: Final = 60


def quoted(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` as ``repr`` shows it, cut to ``limit`` characters, saying how long it was when cut."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"
