"""The store's schema migrations (Alembic), run by ``SqlStore`` when it opens a database."""
