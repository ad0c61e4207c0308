"""Databases of their own for tests, on the PostgreSQL the development machine and CI run
(127.0.0.1:5432, user postgres, trust)."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg

ADMIN = "postgresql://postgres@127.0.0.1:5432/test"


@contextmanager
def postgres_database(prefix: str) -> Iterator[str]:
    """A new, empty database (its name starts with ``prefix``), dropped at the end."""
    name = f"{prefix}{secrets.token_hex(4)}"
    with psycopg.connect(ADMIN, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
    finally:
        with psycopg.connect(ADMIN, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE {name} WITH (FORCE)")
