"""Shared test helpers.

``require_original()`` / the ``original`` marker: tests that need the original
Unix Mah-Jong 1.11 programs (Debian package ``mah-jong``) are skipped when they are
not installed, but FAIL instead when the environment variable
``MJ_REQUIRE_ORIGINAL=1`` is set (as in ``.ci/run``), so that CI cannot pass by
silently skipping them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest

from mj import original
from mj.server.robotgame import kill

ORIGINAL_SERVER = original.SERVER
ORIGINAL_PLAYER = original.PLAYER
ORIGINAL_XMJ = original.XMJ
ORIGINAL_PROGRAMS = (ORIGINAL_SERVER, ORIGINAL_PLAYER)

#: Our server, started as a program the way a user starts it.
OUR_SERVER = (sys.executable, "-m", "mj.server")


def original_required() -> bool:
    """True when missing original programs must fail the tests (CI)."""
    return os.environ.get("MJ_REQUIRE_ORIGINAL", "") not in ("", "0")


def require_original(*programs: str) -> None:
    """Skip the calling test unless the original programs are installed.

    ``programs`` defaults to mj-server and mj-player. Under
    ``MJ_REQUIRE_ORIGINAL=1`` a missing program fails the test instead.
    """
    missing = [p for p in programs or ORIGINAL_PROGRAMS if not os.access(p, os.X_OK)]
    if not missing:
        return
    message = f"original program(s) not installed: {', '.join(missing)} (apt-get install mah-jong)"
    if original_required():
        pytest.fail(f"{message}; MJ_REQUIRE_ORIGINAL is set", pytrace=False)
    pytest.skip(message)


@pytest.fixture
def original_programs() -> None:
    """Fixture form of ``require_original()`` for mj-server and mj-player."""
    require_original()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "original: needs the original mj-server/mj-player (skipped if absent, fails under MJ_REQUIRE_ORIGINAL=1)",
    )


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("original") is not None:
        require_original()


@pytest.fixture
def processes() -> Iterator[list[subprocess.Popen[bytes]]]:
    """Processes a test starts; all are killed by PID at the end, whatever happened (last started first)."""
    started: list[subprocess.Popen[bytes]] = []
    try:
        yield started
    finally:
        for process in reversed(started):
            kill(process)
