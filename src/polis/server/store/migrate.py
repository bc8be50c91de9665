"""Bring a store's database to the newest schema at start-up (Alembic, :mod:`.migrations`).

Several server processes may start on one database at once: the upgrade runs in one
transaction that first takes a lock (a PostgreSQL advisory lock; SQLite's write lock, taken
by ``BEGIN IMMEDIATE``), so one process migrates and the others, once it has committed, find
the database at the head and do nothing. A failed upgrade rolls back whole (both databases
have transactional DDL): the database stays at the revision it had.
"""

from __future__ import annotations

from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Connection, Engine

#: The migrations, found through the installed package (not a path in a source tree).
SCRIPTS = "polis.server.store:migrations"
#: Where the revision a database is at is kept: prefixed like the tables, so a database
#: shared with another Alembic-managed application keeps the two apart.
VERSION_TABLE = "polis_alembic_version"
#: The PostgreSQL advisory lock held while migrating (any fixed number; "polis" in ASCII).
PG_LOCK = 0x706F6C6973


def config(connection: Connection | None = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", SCRIPTS)
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def head() -> str:
    """The newest revision this code knows."""
    found = ScriptDirectory.from_config(config()).get_current_head()
    assert found is not None
    return found


def current(conn: Connection) -> str | None:
    """The revision a database is at (None: not managed by migrations yet)."""
    context = MigrationContext.configure(conn, opts={"version_table": VERSION_TABLE})
    return context.get_current_revision()


def _migration_engine(url: str) -> Engine:
    """An engine whose transactions hold the database's write lock from their first statement.

    For SQLite the driver's own transaction handling is switched off (it would commit before
    each DDL statement) and ``BEGIN IMMEDIATE`` takes the write lock at once, so the check of
    the revision and the changes are one step no other process can split.
    """
    if not url.startswith("sqlite"):
        return create_engine(url, connect_args={"connect_timeout": 5})
    engine = create_engine(url, connect_args={"timeout": 30})

    @event.listens_for(engine, "connect")
    def _manual(dbapi_conn: Any, _record: Any) -> None:  # pragma: no cover - trivial
        dbapi_conn.isolation_level = None

    @event.listens_for(engine, "begin")
    def _immediate(conn: Connection) -> None:  # pragma: no cover - trivial
        conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def upgrade(url: str, target: str = "head") -> None:
    """Migrate the database at ``url`` (a normalised SQLAlchemy URL) to ``target``."""
    engine = _migration_engine(url)
    try:
        with engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": PG_LOCK})
            if current(conn) != head() or target != "head":
                command.upgrade(config(conn), target)
    finally:
        engine.dispose()
