"""What a live table holds after a whole game (issue 20): bots play every seat through their
pages, as in ``tests/web/message_sizes.py``, and the table is weighed at the end. Only the
table manager's own interface, so that the same figures come from older code:
``PYTHONPATH=src python -m tests.web.table_memory`` prints, for each game, the plays, how
many the engine still holds (its undo history), and bytes per play: of the engine's state
(its position and undo history), of the whole live table (the referee, the log, the pages'
last states; the store and the game's adapter, which every table shares, left out) and of
what the process kept (tracemalloc, after a first game has filled the process's caches)."""

from __future__ import annotations

import gc
import sys
import tempfile
import tracemalloc
import types
from pathlib import Path
from typing import Any

from gamenight.bots.registry import game_bots
from gamenight.web.protocol import TableIn
from gamenight.web.room import Connection
from gamenight.web.store.sql import SqlStore
from gamenight.web.tables import LiveTable, TableManager

from .test_room import Socket, run_alone

SHARED = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType)


def weight(root: object, leave_out: tuple[object, ...] = ()) -> int:
    """The bytes of ``root`` and of everything it reaches (``sys.getsizeof``), each object
    once; classes, modules, functions and ``leave_out`` (with what they reach) not."""
    seen = {id(o) for o in leave_out}
    stack, total = [root], 0
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, SHARED):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        stack.extend(gc.get_referents(obj))
    return total


async def whole_game(store: SqlStore, game: str, seed: int) -> tuple[LiveTable, int, int]:
    """A two-seat game that level-1 bots play through their pages (and a spectator's page)
    to its end; the table, and the bytes the process kept over it."""
    manager = TableManager(store)
    body = TableIn.model_validate({"game": game, "seats": [{"kind": "device"}] * 2, "seed": seed})
    table, seats = await manager.create(body)
    pages: dict[int | None, Connection] = {}
    sockets = []
    for seat in [0, 1, None]:
        sockets.append(Socket())
        pages[seat] = Connection(sockets[-1])  # type: ignore[arg-type]
        await manager.hello(table, pages[seat], [] if seat is None else [seats[seat]["token"]])
    bot = game_bots(game).bot("level1", seed)
    gc.collect()
    before = tracemalloc.get_traced_memory()[0]
    while (actor := table.referee.actor) is not None:
        action = str(bot.choose(table.state.view(actor)))
        await manager.act(table, actor, action, pages[actor], seen=table.referee.revision)
        for socket in sockets:
            socket.sent.clear()  # (what the pages were sent is not the server's to keep)
    gc.collect()
    kept = tracemalloc.get_traced_memory()[0] - before
    manager.close()
    return table, table.referee.version, kept


def figures(games: list[str]) -> str:
    lines = ["game       plays  held  state B/play  table B/play  kept B/play  state KB  table KB"]
    with tempfile.TemporaryDirectory(dir="/dev/shm" if Path("/dev/shm").is_dir() else None) as d:
        store = SqlStore(f"sqlite:///{Path(d) / 'memory.sqlite3'}")
        tracemalloc.start()
        for game in games:
            run_alone(whole_game(store, game, 1))  # the process's caches filled
            table, plays, kept = run_alone(whole_game(store, game, 2))
            referee: Any = table.referee
            state = weight(table.state)
            whole = weight(table, (referee.store, referee.game))
            lines.append(
                f"{game:9}  {plays:5}  {len(table.state.actions):4}  {state / plays:12.0f}"
                f"  {whole / plays:12.0f}  {kept / plays:11.0f}  {state / 1024:8.0f}"
                f"  {whole / 1024:8.0f}"
            )
        tracemalloc.stop()
    return "\n".join(lines)


if __name__ == "__main__":
    print(figures(sys.argv[1:] or ["centrix", "colorcity"]))
