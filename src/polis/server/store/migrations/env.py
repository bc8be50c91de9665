"""Alembic's environment: migrations run on the connection :mod:`polis.server.store.migrate` hands
over (inside its transaction and lock), or, from the ``alembic`` command line, on
``-x url=...``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from polis.server.store.migrate import VERSION_TABLE
from polis.server.store.schema import Base


def run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        version_table=VERSION_TABLE,
        # SQLite alters a table by copying it: Alembic's batch mode does that
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


def main() -> None:
    given = context.config.attributes.get("connection")
    if given is not None:
        run(given)
        return
    from polis.server.store.games import normalise_url

    url = context.get_x_argument(as_dictionary=True).get("url")
    if not url:
        raise SystemExit("give the database: alembic -x url=sqlite:///path ...")
    engine = create_engine(normalise_url(url))
    with engine.begin() as conn:
        run(conn)
    engine.dispose()


main()
