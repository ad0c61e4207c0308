"""What the pages at a table are sent over whole Centrix games that bots play for every seat
through their pages (and a spectator's page): each page's texts, in order. Only the table
manager's own interface, so that the same figures come from older code:
``PYTHONPATH=src python -m tests.web.message_sizes 2 4 6`` prints, for each player count,
the first message's size and the later ones' mean and largest (bytes)."""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from gamenight.bots.registry import game_bots
from gamenight.web.protocol import TableIn
from gamenight.web.room import Connection
from gamenight.web.store.sql import SqlStore
from gamenight.web.tables import TableManager

from .test_room import Socket, run_alone


async def play_game(
    store: SqlStore, players: int, seed: int, turns: int | None = None
) -> tuple[dict[str, list[str]], dict[str, dict[str, Any]]]:
    """A Centrix game whose every seat a level-1 bot plays through its page; each page's
    texts received, and the state each page should hold at the end."""
    manager = TableManager(store)
    body = TableIn.model_validate(
        {
            "game": "centrix",
            "seats": [{"kind": "device"}] * players,
            "seed": seed,
            "rules": {"max_turns": turns},
        }
    )
    table, seats = await manager.create(body)
    sockets: dict[str, Socket] = {}
    pages: dict[int | None, Connection] = {}
    for seat in [*range(players), None]:
        socket = Socket()
        pages[seat] = Connection(socket)  # type: ignore[arg-type]
        sockets[f"seat {seat}" if seat is not None else "spectator"] = socket
        tokens = [] if seat is None else [seats[seat]["token"]]
        await manager.hello(table, pages[seat], tokens)
    bot = game_bots("centrix").bot("level1", seed)
    while (actor := table.referee.actor) is not None:
        action = str(bot.choose(table.state.view(actor)))
        await manager.act(table, actor, action, pages[actor], seen=table.referee.revision)
    # A page that comes at the end: its first message holds the whole game's log.
    sockets["late spectator"] = Socket()
    pages[-1] = Connection(sockets["late spectator"])  # type: ignore[arg-type]
    await manager.hello(table, pages[-1], [])
    await asyncio.sleep(0.05)  # the writers send what is queued
    expected = {
        name: manager.state_message(table, [seat] if seat is not None and seat >= 0 else [])
        for name, seat in zip(sockets, pages, strict=True)
    }
    manager.close()
    return {name: s.sent for name, s in sockets.items()}, expected


# Two and three players play to the end; more, to a turn cap (the store's writes take time).
TURNS = {2: None, 3: 40, 4: 30, 5: 30, 6: 30}


def games(players: list[int]) -> list[tuple[int, dict[str, list[str]], dict[str, Any]]]:
    # (In memory: the store's writes would take most of the time.)
    with tempfile.TemporaryDirectory(
        dir="/dev/shm" if Path("/dev/shm").is_dir() else None
    ) as folder:
        store = SqlStore(f"sqlite:///{Path(folder) / 'wire.sqlite3'}")
        out = []
        for n in players:
            texts, expected = run_alone(play_game(store, n, 100 + n, TURNS.get(n)))
            out.append((n, texts, expected))
        return out


def is_state(text: str) -> bool:
    """Whether ``text`` is a ``state`` or a ``change`` (the messages that carry the table)."""
    return text.startswith(('{"type":"state"', '{"type":"change"'))


def figures(players: list[int]) -> str:
    lines = ["players  plays  first(B)  first at the end(B)  later mean(B)  later max(B)  later"]
    for n, received, expected in games(players):
        firsts, later = [], []
        for name, texts in received.items():
            sizes = [len(t.encode()) for t in texts if is_state(t)]
            if name != "late spectator":
                firsts.append(sizes[0])
                later += sizes[1:]
        end = len(next(t for t in received["late spectator"] if is_state(t)).encode())
        lines.append(
            f"{n:7}  {expected['spectator']['version']:5}  {max(firsts):8}  {end:19}"
            f"  {statistics.mean(later):13.0f}  {max(later):12}  {len(later):5}"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    print(figures([int(a) for a in sys.argv[1:]] or [2, 3, 4, 5, 6]))
