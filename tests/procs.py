"""The live processes of this machine, read from /proc: what tests check is left running."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path


def _live() -> Iterator[tuple[int, list[str]]]:
    """Each live process (zombies left out) and the fields of its stat line after its name."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rpartition(")")[2].split()
        if fields[0] != "Z":
            yield int(entry), fields


def children_of(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    return [process for process, fields in _live() if int(fields[1]) == pid]


def group_members(group: int) -> list[int]:
    """The processes of process group ``group`` (those orphaned by its leader's death included)."""
    return [process for process, fields in _live() if int(fields[2]) == group]
