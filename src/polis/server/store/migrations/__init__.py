"""The store's schema migrations (Alembic): ``env.py`` and one file per revision in
``versions/``. :mod:`polis.server.store.migrate` runs them at start-up; how to add one is in
``versions/__init__.py``."""
