"""How long the server waits on Redis: never for long, since a Redis that hangs must not hold
up a move, a page or a stop (the store's epoch keeps the tables right meanwhile)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

WAIT = 2.0  # seconds given to a Redis round trip before carrying on without it


async def close(resource: Any) -> None:
    """Close a Redis client or pub/sub, waiting ``WAIT`` at most: redis-py's close can wait
    forever on its connection's closing (redis/redis-py#3941), and a goodbye that never
    comes would keep a listener from listening again, or a server from stopping."""
    with contextlib.suppress(Exception):
        async with asyncio.timeout(WAIT):
            await resource.aclose()
