"""Figures for issue 16's social part, printed (not asserted):

    PYTHONPATH=src python -m tests.web.social_figures

- ``POST /api/tables/mine`` for a browser holding the most tables one request asks about
  (web.yours.MINE), each a Centrix game in play with many actions: the first time (every
  table loaded from the store and replayed, to know whose turn it is) and again (live);
- the size of its answer, and of a chat line at the longest;
- the sounds shipped.
"""

from __future__ import annotations

import json
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from pathlib import Path

from fastapi.testclient import TestClient

from gamenight.web.app import create_app
from gamenight.web.protocol import CHAT_CHARS
from gamenight.web.seats import hash_token, new_token
from gamenight.web.settings import Settings
from gamenight.web.store import NewTable
from gamenight.web.store.sql import SqlStore
from gamenight.web.yours import MINE

from .bodies import CENTRIX_BOTS
from .hosts import TEST_HOSTS


def main() -> None:
    with tempfile.TemporaryDirectory() as folder, ThreadPoolExecutor(1) as bots:
        app = create_app(
            Settings(f"sqlite:///{Path(folder) / 'figures.sqlite3'}", allowed_hosts=TEST_HOSTS),
            bots,
        )
        with TestClient(app) as client:
            manager = app.state.manager
            store: SqlStore = manager.store
            # A whole bots' game, played by the server itself …
            made = client.post("/api/tables", json=CENTRIX_BOTS).json()
            while client.get(f"/api/tables/{made['id']}").json()["status"] == "playing":
                time.sleep(0.05)
            played = store.sync.load(made["id"])
            assert played is not None
            # … and MINE tables in play on the way through it, each with a seat of ours.
            actions = played.actions[: len(played.actions) * 3 // 4]
            keys: dict[str, list[str]] = {}
            for _ in range(MINE):
                token = new_token()
                seats = [
                    {**seat, "kind": "human", "level": None, "token_hash": hash_token(token)}
                    for seat in played.seats
                ]
                table = store.sync.create(
                    NewTable(played.game, played.rules, played.seed, played.setup, seats)
                )
                for number, payload in enumerate(actions):
                    store.sync.append(
                        table.id,
                        number=number,
                        revision=number,
                        payload=payload,
                        status="playing",
                        outcome=None,
                    )
                keys[table.id] = [token]
            manager.evict(now=manager.clock() + 10**9)  # nothing live: every table is loaded
            body = {"tables": keys}
            started = time.perf_counter()
            cold = client.post("/api/tables/mine", json=body)
            cold_ms = (time.perf_counter() - started) * 1000
            started = time.perf_counter()
            warm = client.post("/api/tables/mine", json=body)
            warm_ms = (time.perf_counter() - started) * 1000
            answer = cold.json()
            assert len(answer["tables"]) == MINE, answer
            assert all(t["actor"] is not None for t in answer["tables"])
            assert warm.json() == answer
    line = {"type": "chat", "messages": [{"n": 999, "seat": 0, "text": "한" * CHAT_CHARS}]}
    print(f"POST /api/tables/mine, {MINE} tables in play of {len(actions)} actions each:")
    print(f"  first time (each loaded and replayed): {cold_ms:8.1f} ms")
    print(f"  again (live):                          {warm_ms:8.1f} ms")
    print(f"  answer: {len(cold.content):,} bytes ({len(cold.content) // MINE} a table)")
    size = len(json.dumps(line, ensure_ascii=False, separators=(",", ":")).encode())
    print(f"chat line at its longest ({CHAT_CHARS} Korean characters): {size} bytes")
    folder_ = resources.files("gamenight.web") / "static" / "sounds"
    for name in ("turn", "bump", "cube", "top"):
        print(f"sound {name}.wav: {len((folder_ / f'{name}.wav').read_bytes()):,} bytes")


if __name__ == "__main__":
    main()
