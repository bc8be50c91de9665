"""One revision per file, chained by ``down_revision``; ids are fixed names (``0003_clocks``),
not Alembic's random ones, so revisions written side by side chain in a known order.

To change the schema: change the tables in :mod:`polis.server.store.schema`, then add a file here
(copy the newest one) with ``revision = "000N_what"``, ``down_revision`` the newest revision
before it, and ``upgrade()`` / ``downgrade()`` doing the same change with ``op`` (use
``op.batch_alter_table`` to alter or drop columns: SQLite rebuilds the table). New columns
need a ``server_default`` (or to be nullable): the rows of older releases get it.
tests/server/test_migrations.py checks that the migrations give exactly the tables of
:mod:`polis.server.store.schema`, and that the release fixtures upgrade with every game intact.
"""
