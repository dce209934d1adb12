"""Files a command line names for the server to write: regular files, never one that blocks or is not a file.

The counterpart of :mod:`mj.inputfile`. Opening a FIFO to append blocks until a
reader comes (the server would never listen), and a journal, rewritten by renaming
a new file over its name, would silently put a regular file in the place of a FIFO
or a device (``/dev/null`` itself, for root). So the log is opened without blocking
and the open descriptor (not the path) is asked what it is; the journal's path must
be a regular file or not exist yet. The null device is a log's one exception: it
never blocks, and ``mj bench fuzz`` logs there to pay for logging without keeping it.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import BinaryIO


class OutputFileError(OSError):
    """A path refused for writing because of what it names; ``str()`` says why."""


def open_appending(path: Path) -> BinaryIO:
    """``path`` opened to append (created if missing): a regular file or the null device; else :class:`OutputFileError`.

    Other failures (a missing directory, no permission) are the :class:`OSError` of ``open``.
    """
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags, 0o666)
    except OSError as exc:
        if exc.errno in (errno.ENXIO, errno.EISDIR):  # a FIFO nobody reads, a socket; a directory
            raise OutputFileError(f"{path}: not a regular file") from None
        raise
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) and not _is_null_device(info):
            raise OutputFileError(f"{path}: not a regular file")
        os.set_blocking(fd, True)  # a regular file's writes never wait: non-blocking was only for the open
        return os.fdopen(fd, "ab")
    except BaseException:
        os.close(fd)
        raise


def check_replaceable(path: Path) -> None:
    """:class:`OutputFileError` unless ``path`` is a regular file or names nothing yet (a file to be replaced whole)."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return
    if not stat.S_ISREG(info.st_mode):
        raise OutputFileError(f"{path}: not a regular file")


def check_writable(path: Path) -> None:
    """:class:`OutputFileError` unless a file can be written at ``path``: checked before a long run, not after it.

    The file is opened to append, which writes nothing: a directory, a FIFO, a place that
    cannot be written (``/proc``, a read-only folder) are refused now, where the write would
    fail after the whole run; a file the check created is removed.
    """
    if not path.parent.is_dir():
        raise OutputFileError(f"{path}: no directory {path.parent}")
    existed = path.exists()
    try:
        check_replaceable(path)
        open_appending(path).close()
    except OutputFileError:
        raise
    except OSError as exc:
        raise OutputFileError(f"{path}: cannot write it: {exc.strerror or exc}") from None
    if not existed:
        path.unlink(missing_ok=True)


def _is_null_device(info: os.stat_result) -> bool:
    if not stat.S_ISCHR(info.st_mode):
        return False
    try:
        null = os.stat(os.devnull)
    except OSError:
        return False
    return stat.S_ISCHR(null.st_mode) and info.st_rdev == null.st_rdev
