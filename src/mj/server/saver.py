"""Save files (``SaveState``, ``--save-on-exit``, ``--hand-history``) in the server's directory.

The table decides what to save and under which requested name; this module only
chooses default names and writes files. Writes are atomic (a temporary file in
the same directory, then :func:`os.replace`): a crash or a full disk mid-write
leaves either the old file or the new one, never a truncated save that
``--load-game`` would later choke on.
"""

from __future__ import annotations

import contextlib
import datetime
import os
import sys
from pathlib import Path

from mj.protocol.framing import ENCODING
from mj.server.diskqueue import Write
from mj.table import Saver

#: Default names are ``game-YYYY-MM-DD-N.mjs`` with N the first free digit (protocol.md §10.1).
_DEFAULT_SLOTS = range(10)


def default_name(directory: Path, today: datetime.date | None = None) -> str:
    """``game-<date>-N.mjs`` for the first N of 0..9 not taken; 9 (overwritten) when all are."""
    day = (today or datetime.date.today()).isoformat()
    for n in _DEFAULT_SLOTS:
        name = f"game-{day}-{n}.mjs"
        if not (directory / name).exists():
            return name
    return f"game-{day}-{_DEFAULT_SLOTS[-1]}.mjs"


def _current_umask() -> int:
    """The process umask (only readable by setting it), for the mode the original gives saves."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_atomically(path: Path, data: bytes, mode: int) -> None:
    """Replace ``path`` by a file holding ``data``, never leaving a partial file under that name.

    The temporary file is named after the process (saves of one server never overlap),
    not by :mod:`tempfile`, whose import (with :mod:`random` and :mod:`shutil`) would
    cost every server's start-up more than all its saves.
    """
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL
    try:
        fd = os.open(temp, flags, mode)
    except FileExistsError:  # left by a crashed process that had the same pid
        os.unlink(temp)
        fd = os.open(temp, flags, mode)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def make_saver(directory: Path, write: Write = write_atomically) -> Saver:
    """The table's :data:`~mj.table.Saver` writing into ``directory`` (the server's working directory).

    Files get mode 0666 less the umask, as the original's ``fopen`` gives them (it
    asked for 0777; nothing here is executable). ``mj-server`` passes the ``write``
    of a :class:`~mj.server.diskqueue.DiskQueue`, which writes later, in its thread:
    a directory we may not write into is then refused at once, and a write that
    fails later is reported on standard error.
    """
    mode = 0o666 & ~_current_umask()

    def save(requested: str, text: str) -> str | None:
        name = requested or default_name(directory)
        if not name or "/" in name or "\0" in name or name in (".", ".."):
            print(f"+W+ refusing to save under the name {name!r}", file=sys.stderr)
            return None
        if not os.access(directory, os.W_OK):
            print(f"+W+ unable to save state to {name}: directory {directory} is not writable", file=sys.stderr)
            return None
        try:
            write(directory / name, text.encode(ENCODING, errors="replace"), mode)
        except OSError as exc:
            print(f"+W+ unable to save state to {name}: {exc}", file=sys.stderr)
            return None
        return name

    return save
