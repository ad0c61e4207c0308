"""The flick pools (gamenight.colorcity.pool) live as long as their process: each test that
starts one stops it, so that no worker process outlives the test (tests/web/test_bots.py
counts this process's spawned children as the bots' workers)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from gamenight.colorcity import pool


@pytest.fixture(autouse=True)
def no_pool_left() -> Iterator[None]:
    yield
    pool.shutdown()
