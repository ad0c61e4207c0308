"""The store's schema migrations (Alembic), run by ``Store`` when it opens a database."""
