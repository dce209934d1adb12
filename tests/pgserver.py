"""A throwaway PostgreSQL server for the lobby's tests, started from Debian's binaries.

``initdb`` makes a cluster in a temporary directory and ``pg_ctl`` starts it on a free
port of 127.0.0.1 (its socket in the same directory); PostgreSQL refuses to run as
root, so under root both run as ``nobody``, who owns the directory. The server is
stopped and the directory removed at the end of the test session.

Without PostgreSQL (``apt-get install postgresql``) these tests skip, except under
``MJ_REQUIRE_POSTGRES=1`` (set by ``.ci/run``), where they fail.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

#: The user the server runs as when the tests run as root.
UNPRIVILEGED = "nobody"


def postgres_bin() -> Path | None:
    """The newest installed PostgreSQL's binaries (``/usr/lib/postgresql/N/bin``), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]))
    return Path(found[-1]).parent if found else None


def require_postgres() -> Path:
    where = postgres_bin()
    if where is not None and os.access(where / "initdb", os.X_OK):
        return where
    message = "PostgreSQL is not installed (apt-get install postgresql)"
    if os.environ.get("MJ_REQUIRE_POSTGRES", "") not in ("", "0"):
        pytest.fail(f"{message}; MJ_REQUIRE_POSTGRES is set", pytrace=False)
    pytest.skip(message)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _run(command: list[str], as_user: bool) -> None:
    if as_user:
        command = ["runuser", "-u", UNPRIVILEGED, "--", *command]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed: {result.stderr.strip() or result.stdout.strip()}")


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A running server: the SQLAlchemy URL of its ``postgres`` database (user ``mj``, no password)."""
    bindir = require_postgres()
    as_user = os.geteuid() == 0
    home = Path(tempfile.mkdtemp(prefix="mj-pg-"))
    if as_user:
        shutil.chown(home, UNPRIVILEGED)
    data = home / "data"
    port = _free_port()
    started = False
    try:
        _run([str(bindir / "initdb"), "-D", str(data), "-U", "mj", "--auth=trust", "-E", "UTF8", "--no-sync"], as_user)
        settings = f"-p {port} -k {home} -c listen_addresses=127.0.0.1 -c fsync=off"
        _run([str(bindir / "pg_ctl"), "-D", str(data), "-o", settings, "-l", str(home / "log"), "-w", "start"], as_user)
        started = True
        yield f"postgresql+psycopg://mj@127.0.0.1:{port}/postgres"
    finally:
        if started:
            _run([str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"], as_user)
        shutil.rmtree(home, ignore_errors=True)


_databases = iter(range(1, 1_000_000))


def fresh_postgres_database(server_url: str) -> str:
    """A new empty database on the server; its URL."""
    import psycopg

    name = f"mj_test_{next(_databases)}"
    conninfo = server_url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(conninfo, autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}")
    return server_url.rsplit("/", 1)[0] + "/" + name


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database of each kind the lobby is tested on: a SQLite file, a PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'lobby.db'}"
    return fresh_postgres_database(request.getfixturevalue("postgres_server"))
