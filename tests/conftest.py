"""Shared test helpers.

``require_original()`` / the ``original`` marker: tests that need the original
Unix Mah-Jong 1.11 programs (Debian package ``mah-jong``) are skipped when they are
not installed, but FAIL instead when the environment variable
``MJ_REQUIRE_ORIGINAL=1`` is set (as in ``.ci/run``), so that CI cannot pass by
silently skipping them.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from mj import compiled, original
from mj.lobby.store import Store
from mj.server.robotgame import kill

ORIGINAL_SERVER = original.SERVER
ORIGINAL_PLAYER = original.PLAYER
ORIGINAL_XMJ = original.XMJ
ORIGINAL_PROGRAMS = (ORIGINAL_SERVER, ORIGINAL_PLAYER)

#: Our server, started as a program the way a user starts it.
OUR_SERVER = (sys.executable, "-m", "mj.server")
SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def load_script(name: str) -> ModuleType:
    """``scripts/<name>.py`` as the module ``name``, as it runs: the scripts it imports beside it are found.

    The module is registered in ``sys.modules`` before it runs, as its dataclasses need.
    """
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    sys.path.insert(0, str(SCRIPTS))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(SCRIPTS))
    return module


def strict_json(text: str) -> Any:
    """``text`` read as JSON proper: Python's reader takes NaN and Infinity, which JSON has not."""

    def refuse(constant: str) -> None:
        raise ValueError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)


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


def pytest_sessionstart(session: pytest.Session) -> None:
    """Stop before any test when a compiled module is older than its source: the tests would run old code."""
    old = compiled.stale()
    if old:
        pytest.exit(f"compiled modules older than their source: {', '.join(old)}; run `make compiled`", returncode=2)


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


# ---------------------------------------------------------------------- browser tests (the xmj web client)
# Playwright drives Debian's Chromium (``apt-get install chromium fonts-noto-cjk``; Playwright's
# own browser download is not used). Without /usr/bin/chromium the browser tests skip, except
# under MJ_REQUIRE_BROWSER=1 (set by .ci/run), where they fail, as MJ_REQUIRE_ORIGINAL does.

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
#: Screenshots of the browser tests (git-ignored).
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"


def require_browser() -> None:
    """Skip the calling test without Chromium and Playwright; fail instead under MJ_REQUIRE_BROWSER=1."""
    missing = []
    if not os.access(CHROMIUM, os.X_OK):
        missing.append(f"{CHROMIUM} (apt-get install chromium fonts-noto-cjk)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing.append("the playwright package (pip install -e '.[dev]')")
    if not missing:
        return
    message = f"browser tests need {' and '.join(missing)}"
    if os.environ.get("MJ_REQUIRE_BROWSER", "") not in ("", "0"):
        pytest.fail(f"{message}; MJ_REQUIRE_BROWSER is set", pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for a module's browser tests.

    Module-scoped: Playwright's sync API keeps an event loop running in the main thread
    while it lives, which would break ``asyncio.run`` in the test modules after it.
    """
    require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=list(CHROMIUM_ARGS))
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A fresh tab (its own storage) of the module's ``VIEWPORT`` (1400 x 900 unless it says), failing the test
    on any script error."""
    width, height = getattr(request.module, "VIEWPORT", (1400, 900))
    context = browser.new_context(viewport={"width": width, "height": height})
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    yield tab
    context.close()
    assert not errors, f"script errors in the page: {errors}"


def resize(page: Any, width: int, height: int) -> None:
    """Give the tab a new window size and wait until the page has laid itself out for it.

    The page fits its board in a resize handler; a fixed pause let a loaded machine measure the
    board mid-resize (at negative coordinates in a window 844 wide). Two animation frames after
    the window reports the new size, the handler has run and the layout has been drawn.
    """
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_function(
        "([w, h]) => window.innerWidth === w && window.innerHeight === h", arg=[width, height], timeout=10_000
    )
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")


@pytest.fixture
def artifacts() -> Path:
    """Where a browser test saves its screenshots."""
    folder = ARTIFACTS / "web"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


# ---------------------------------------------------------------------- the lobby (mj lobby)
# A throwaway PostgreSQL (skipped without it, failing under MJ_REQUIRE_POSTGRES=1) and the lobby as a program.
from lobbyproc import start_lobby  # noqa: E402, F401
from pgserver import database_url, postgres_server  # noqa: E402, F401


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    """A lobby store on SQLite in the test's folder (tests of one table's play, where the database does not matter)."""
    opened = Store(f"sqlite:///{tmp_path}/lobby.db")
    try:
        yield opened
    finally:
        opened.close()
