"""Shared fixtures: an app serving every registered game (the toy "counting" game of
tests/toygame.py included) with a throw-away SQLite file; for the browser tests a real
server process and Debian's chromium, one of each per module.

Every server these tests make checks its traffic against the wire contract
(``POLIS_CHECK_WIRE=1``, :mod:`polis.server.wire.check`): set here, before any server
exists, so the apps and hubs made in this process check (and fail the test on a mismatch,
below), and the ``polis serve`` processes started from here inherit it.

An HTTP request of these servers waits up to ``POLIS_HTTP_PATIENCE`` (10 s here, 1.5 s by
default) for a store that is slow, not down: two test workers and their browsers and servers
on two cores slow a SQLite commit past 1.5 s now and then, and the answer would be a 503
the test did not ask for. So every config here is made with ``ServerConfig.from_env``,
which reads it (a bare ``ServerConfig()`` has 1.5 s: a PostgreSQL test failed on it under
load); the tests of that limit make their app with the default."""

from __future__ import annotations

import contextlib
import os
import shutil
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

os.environ["POLIS_CHECK_WIRE"] = "1"
os.environ.setdefault("POLIS_HTTP_PATIENCE", "10")

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from polis.core.registry import games
from polis.server import create_app
from polis.server.wire import check

from .browser_helpers import CHROMIUM, CHROMIUM_ARGS, FrameLog, ServerProcess
from .services import Postgres, Redis, postgres, redis

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine


@pytest.fixture(autouse=True, scope="session")
def quick_password_hashes() -> Iterator[None]:
    """argon2id with the lowest cost in this process's tests (the server's own parameters
    cost ~0.2 s of CPU a hash, a third of the account tests' time); a test of the real
    parameters asks for them (test_accounts). Servers started as processes keep theirs."""
    from argon2 import PasswordHasher

    from polis.server.accounts import passwords

    real = passwords.HASHER
    passwords.HASHER = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    yield
    passwords.HASHER = real


@pytest.fixture(autouse=True)
def wire_kept() -> Iterator[None]:
    """Fail the test when a server in this process sent, published or heard a message that
    breaks the wire contract (even one whose error a background task swallowed)."""
    check.VIOLATIONS.clear()
    logs = len(FrameLog.made)
    yield
    broken = list(check.VIOLATIONS)
    check.VIOLATIONS.clear()
    for frames in FrameLog.made[logs:]:
        broken += frames.problems()
    del FrameLog.made[logs:]
    assert not broken, "\n\n".join(broken)


def make_app(db_url: str) -> FastAPI:
    assert "counting" in games(), "tests/conftest.py registers the toy game"
    return create_app(db_url, games=games().values(), bot_delay=0.0)


#: The store tests' databases: SQLite, and PostgreSQL when POLIS_TEST_PG_URL names a server
#: (marked ``cluster``: ``make check`` stays the same wherever it runs).
DB_PARAMS: list[Any] = ["sqlite"] + (
    [pytest.param("postgresql", marks=pytest.mark.cluster)]
    if os.environ.get("POLIS_TEST_PG_URL")
    else []
)


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite store migrated to the newest revision, made once per test process (by the
    code under test): a test's :func:`db_url` starts as a copy of it, where migrating a new
    file for each of some 300 tests cost 0.1-0.5 s apiece."""
    import sqlite3

    from polis.server.store.games import Store

    path = tmp_path_factory.mktemp("migrated") / "polis.db"
    Store(f"sqlite:///{path}").close()
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.execute("PRAGMA journal_mode=DELETE")  # one file to copy (the store sets WAL)
    return path


@pytest.fixture
def db_url(empty_db_url: str, migrated_sqlite: Path) -> str:
    """The test's store, ready: on SQLite a copy of :func:`migrated_sqlite`, on PostgreSQL
    an empty database (migrated when the first store opens it)."""
    if empty_db_url.startswith("sqlite:///"):
        shutil.copyfile(migrated_sqlite, empty_db_url.removeprefix("sqlite:///"))
    return empty_db_url


@pytest.fixture(params=DB_PARAMS)
def empty_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database of the test's own (SQLite: a file not yet made), for the tests of
    migrations and of stores that older releases wrote."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'polis.db'}"
        return
    # A database of its own for each test: tests run in parallel workers.
    from sqlalchemy import create_engine, make_url, text

    from polis.server.store.games import normalise_url

    base = make_url(normalise_url(os.environ["POLIS_TEST_PG_URL"]))
    name = f"polis_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        drop_database(admin, name)
        admin.dispose()


def drop_database(admin: Engine, name: str) -> None:
    """Drop a test's database. FORCE ends the sessions the test left open, but PostgreSQL
    refuses it while an autovacuum worker is busy there (a process the test role may not
    signal; seen after the store tests' many writes): then wait for the worker and retry,
    for up to 10 s (the last try's error goes through)."""
    from sqlalchemy import text
    from sqlalchemy.exc import ProgrammingError

    drop = text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    for _ in range(40):
        try:
            with admin.connect() as conn:
                conn.execute(drop)
            return
        except ProgrammingError as exc:
            if "pg_signal_backend" not in str(exc):
                raise
            time.sleep(0.25)
    with admin.connect() as conn:
        conn.execute(drop)


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(make_app(db_url)) as c:
        yield c


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives a real chromium through Playwright")


#: Fixtures that start a server of their own (PostgreSQL, Redis): a test using one is
#: ``cluster`` (CONTRIBUTING.md, "Running the tests").
CLUSTER_FIXTURES = {"pg", "bus"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Refuse to run when a test starts PostgreSQL or Redis through a fixture and is not marked
    ``cluster``: ``make check`` would start servers and outgrow its two minutes."""
    unmarked = [
        item.nodeid
        for item in items
        if CLUSTER_FIXTURES & set(getattr(item, "fixturenames", ()))
        and item.get_closest_marker("cluster") is None
    ]
    if unmarked:
        raise pytest.UsageError(
            "mark these tests cluster (they start a server):\n" + "\n".join(unmarked)
        )


@pytest.fixture(scope="module")
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    """A real ``polis serve`` on a SQLite file of its own, one per browser test module."""
    folder = tmp_path_factory.mktemp(request.module.__name__.rsplit(".", 1)[-1])
    srv = ServerProcess(f"sqlite:///{folder / 'polis.db'}")
    srv.start()
    yield srv
    srv.kill()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's chromium driven by Playwright, one per browser test module."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where browser tests save their screenshots: $POLIS_SCREENSHOTS, else a temporary
    folder (look at them: a test can pass on a screen nobody could use)."""
    folder = os.environ.get("POLIS_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="module")
def pg() -> Iterator[Postgres]:
    """A throw-away PostgreSQL server for a module's multi-process tests (test_faults has a
    fresh one per test: it kills it)."""
    with postgres() as server:
        yield server


@pytest.fixture(scope="module")
def bus() -> Iterator[Redis]:
    """A throw-away Redis for a module's multi-process tests."""
    with redis() as server:
        yield server
