"""Reading a file that a command line or a page names: regular files only, and only so much of them.

A path given to the server may name anything: a FIFO (an ordinary ``open`` blocks until
a writer comes, so the server would never listen), ``/dev/zero`` (a read never ends
and memory fills), or a huge file. Opening without blocking and asking the open
descriptor (not the path, which could be swapped meanwhile) what it is refuses all of
these at once; reading one byte past the cap tells a file that grew after ``fstat``.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Final

#: A save file holds one hand from its start: some tens of kilobytes (a journal as well).
SAVE_FILE_CAP: Final = 1024 * 1024
#: Option and wall files are a few lines.
SMALL_FILE_CAP: Final = 64 * 1024


class InputFileError(OSError):
    """A file that is not read: missing, unreadable, not a regular file, or too big; ``str()`` says which."""


def read_capped(path: Path, cap: int) -> bytes:
    """The bytes of the regular file ``path``, of at most ``cap`` bytes; :class:`InputFileError` otherwise."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise InputFileError(f"{path}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise InputFileError(f"{path}: not a regular file")
        if info.st_size > cap:
            raise InputFileError(f"{path}: too big ({info.st_size} bytes; at most {cap} are read)")
        chunks: list[bytes] = []
        size = 0
        while size <= cap:
            chunk = os.read(fd, cap + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > cap:
            raise InputFileError(f"{path}: too big (more than {cap} bytes)")
        return b"".join(chunks)
    except InputFileError:
        raise
    except OSError as exc:
        raise InputFileError(f"{path}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
