"""The state messages (issue 16, contract A): a page's first is the whole table, every later
one only what changed, rebuilt by the page exactly, and none of those over 4 KB, over whole
Centrix games played by bots for every seat, 2 to 6 players, wild cards included.

``python -m tests.web.test_wire`` prints the figures (first message, later ones: mean, max)."""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from gamenight.bots.registry import game_bots
from gamenight.web.protocol import CHANGE_LIMIT, TableIn, diff, patch
from gamenight.web.room import Connection
from gamenight.web.storage import Store
from gamenight.web.tables import TableManager

from .test_room import Socket, run_alone


def test_a_diff_patches_back_to_the_new_message() -> None:
    old = {"a": 1, "log": [1, 2], "view": {"x": [1], "y": "same", "gone": 0}, "list": [1, 2]}
    new = {"a": 2, "log": [1, 2, 3], "view": {"x": [2], "y": "same"}, "list": [2], "new": None}
    changes = diff(old, new)
    assert changes == {
        "a": ["=", 2],
        "log": ["+", [3]],
        "view": ["~", {"x": ["=", [2]], "gone": ["-"]}],
        "list": ["=", [2]],
        "new": ["=", None],
    }
    assert patch(old, changes) == new
    assert old["log"] == [1, 2]  # untouched
    assert diff(new, new) == {}


async def play_game(
    store: Store, players: int, seed: int, turns: int | None = None
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
    table, seats = manager.create(body)
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
    await asyncio.sleep(0.05)  # the writers send what is queued
    expected = {
        name: manager.state_message(table, [] if seat is None else [seat])
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
        store = Store(f"sqlite:///{Path(folder) / 'wire.sqlite3'}")
        out = []
        for n in players:
            texts, expected = run_alone(play_game(store, n, 100 + n, TURNS.get(n)))
            out.append((n, texts, expected))
        return out


def rebuilt(texts: list[str]) -> dict[str, Any]:
    """The state a page holds after ``texts``, rebuilt as table.js does."""
    shown: dict[str, Any] = {}
    for text in texts:
        message = json.loads(text)
        if message["type"] == "state":
            shown = message
        elif message["type"] == "change":
            shown = patch(shown, message["diff"])
    return shown


@pytest.fixture(scope="module")
def played() -> list[tuple[int, dict[str, list[str]], dict[str, Any]]]:
    return games([2, 3, 4, 5, 6])


def test_every_message_after_the_first_is_a_small_change(
    played: list[tuple[int, dict[str, list[str]], dict[str, Any]]],
) -> None:
    wild_played = 0
    for players, received, _ in played:
        for page, texts in received.items():
            states = [t for t in texts if json.loads(t)["type"] in ("state", "change")]
            assert json.loads(states[0])["type"] == "state", page
            assert "svg" not in json.loads(states[0])["view"]
            for text in states[1:]:
                assert json.loads(text)["type"] == "change", (players, page)
                size = len(text.encode())
                assert size <= CHANGE_LIMIT, f"{players} players, {page}: {size} bytes"
            wild_played += sum('"card":"S"' in t or '"card":"A"' in t for t in states[1:])
    assert wild_played  # the wild cards were played, and their plays listed


def test_a_page_rebuilds_the_table_exactly_from_its_changes(
    played: list[tuple[int, dict[str, list[str]], dict[str, Any]]],
) -> None:
    for _, received, expected in played:
        for page, texts in received.items():
            assert rebuilt(texts) == json.loads(json.dumps(expected[page])), page
            log = expected[page]["view"]["log"]
            assert expected[page]["view"]["outcome"] is not None
            assert log[-1] == expected[page]["last"]  # the last play, with its effects


def figures(players: list[int]) -> str:
    lines = ["players  first(B)  later mean(B)  later max(B)  messages"]
    for n, received, _ in games(players):
        firsts, later = [], []
        for texts in received.values():
            sizes = [len(t.encode()) for t in texts if '"type":"state"' in t or '"change"' in t]
            firsts.append(sizes[0])
            later += sizes[1:]
        lines.append(
            f"{n:7}  {max(firsts):8}  {statistics.mean(later):13.0f}  {max(later):12}"
            f"  {len(later):8}"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    print(figures([int(a) for a in sys.argv[1:]] or [2, 3, 4, 5, 6]))
