"""What an open page costs the server, with and without permessage-deflate (issue 20):
``PYTHONPATH=src python -m tests.web.page_memory [PAGES]`` prints

- for a server process started as the benchmark's (gamenight.bench.serving's app on
  uvicorn, its options but permessage-deflate as given): its memory (VmRSS) above its idle
  baseline once PAGES tables (default 500, Centrix and Color City alternately) are made, and
  once each has one page open, no play — deflate on (as uvicorn offers it:
  websockets-sansio, window 2^12, memLevel 5) and off (``web.app.serving_options``);
- for the messages the pages at whole bot games are sent (tests/web/message_sizes.py): the
  bytes each would take on the wire and the compressor's CPU a message, for uvicorn's
  setting and for the others it could be given (a smaller window; no context kept between
  messages, so no memory held between them)."""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

from gamenight.bench import server as bench

from .message_sizes import games

SERVE = """
import sys, uvicorn
from gamenight.bench.serving import bench_app
from gamenight.web.app import serving_options
from gamenight.web.settings import Settings
settings = Settings.from_env()
options = {**serving_options(settings), "ws_per_message_deflate": sys.argv[2] == "on"}
uvicorn.run(bench_app(settings), host="127.0.0.1", port=int(sys.argv[1]), log_level="warning",
            **options)
"""


async def pages(deflate: str, count: int) -> dict[str, object]:
    folder = Path(tempfile.mkdtemp(prefix="gamenight-pages-"))
    env = {**os.environ, **bench.LIMITS, "GAMENIGHT_DATABASE_URL": f"sqlite:///{folder}/p.db"}
    port = bench.free_port()
    process = subprocess.Popen([sys.executable, "-c", SERVE, str(port), deflate], env=env)
    server = bench.Server(process, port)
    try:
        bench.wait_up(server)
        idle = server.rss_mb()
        tables = bench.Tables([server], random.Random(1))
        made = [await asyncio.to_thread(tables.new) for _ in range(count)]
        with_tables = server.rss_mb()
        figures = bench.Figures()
        opened = []
        for table, _, tokens, _ in made:
            opened += await bench.open_pages(tables, table, tokens, figures)
        await asyncio.sleep(1)
        with_pages = server.rss_mb()
        for page in opened:
            await page.close()
        return {
            "deflate": deflate,
            "extensions": ", ".join(sorted(figures.extensions)) or "none",
            "tables_mb": round(with_tables - idle, 1),
            "pages_mb": round(with_pages - with_tables, 1),
            "above_idle_mb": round(with_pages - idle, 1),
            "kb_per_page": round((with_pages - with_tables) * 1024 / count, 1),
        }
    finally:
        process.terminate()
        process.wait()


# (name, window bits, memLevel, whether the context is kept from one message to the next)
SETTINGS = [
    ("uvicorn's: window 2^12, memLevel 5, context kept", 12, 5, True),
    ("window 2^9, memLevel 1, context kept", 9, 1, True),
    ("window 2^15, memLevel 8, no context kept", 15, 8, False),
]


def wire() -> list[str]:
    texts = [
        [t.encode() for t in page] for _, received, _ in games([2, 4]) for page in received.values()
    ]
    count = sum(len(page) for page in texts)
    raw = sum(len(t) for page in texts for t in page)
    lines = [f"{count} messages of whole bot games, {raw / count:.0f} B each as JSON text"]
    for name, bits, level, kept in SETTINGS:
        sent, cpu = 0, 0.0
        for page in texts:
            compressor = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -bits, level)
            for text in page:
                if not kept:
                    compressor = zlib.compressobj(
                        zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -bits, level
                    )
                start = time.process_time()
                out = compressor.compress(text) + compressor.flush(zlib.Z_SYNC_FLUSH)
                cpu += time.process_time() - start
                sent += len(out) - 4  # (the flush's empty block is not sent, RFC 7692)
        lines.append(
            f"  {name}: {sent / count:.0f} B on the wire (÷{raw / sent:.1f}),"
            f" {cpu / count * 1e6:.0f} µs of CPU to compress a message"
        )
    return lines


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    for deflate in ("on", "off"):
        print(json.dumps(asyncio.run(pages(deflate, count))))
    print("\n".join(wire()))
