"""Color City's state messages: the city as data, each change a few kilobytes, the log as
data without raw floats. ``python -m tests.web.test_city_messages`` prints the sizes over
whole bot games (the figures of issue 16)."""

from __future__ import annotations

import json
from typing import Any

from gamenight.bots.registry import game_bots
from gamenight.colorcity import ColorCityState, Gang
from gamenight.colorcity.frame import aim
from gamenight.web.games import SeatSpec, get_game

GAME = get_game("colorcity")
CHANGE_MOST = 4096  # bytes of JSON in a message after the first (issue 16)


def message(state: Any, seat: int | None, version: int) -> dict[str, Any]:
    """A state message with the keys and values TableManager.state_message gives."""
    actor = GAME.actor(state)
    seats = [] if seat is None else [seat]
    return {
        "type": "state",
        "table": "Tq3xK9aB",
        "version": version,
        "revision": version,
        "seats": seats,
        "active": seat,
        "actor": actor,
        "names": ["Player 1", "Player 2"],
        "kinds": ["bot", "bot"],
        "online": [0, 1],
        "view": GAME.view(state, seat),
        "last": GAME.last(state),
        "can_undo": False,
    }


def change(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """What a change message carries (issue 16, contract A): the keys that changed, into the
    view; a list that only grew as its new items."""
    out: dict[str, Any] = {}
    for key, value in after.items():
        old = before.get(key)
        if value == old:
            continue
        if isinstance(value, dict) and isinstance(old, dict):
            out[key] = change(old, value)
        elif isinstance(value, list) and isinstance(old, list) and value[: len(old)] == old:
            out[key] = value[len(old) :]
        else:
            out[key] = value
    return out


def size(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False).encode())


def bot_game(seed: int, level: int = 3) -> tuple[list[int], list[int], list[Any]]:
    """A whole game between two bots: the sizes of every seat's and a spectator's first
    messages, of their change messages, and the final logs."""
    specs = [SeatSpec("bot", "a", level=level), SeatSpec("bot", "b", level=level)]
    state, _ = GAME.new(specs, 0, {}, seed)
    bots = game_bots("colorcity")
    watchers: list[int | None] = [0, 1, None]
    sent = {seat: message(state, seat, 0) for seat in watchers}
    firsts = [size(m) for m in sent.values()]
    changes: list[int] = []
    version = 0
    while (seat := GAME.actor(state)) is not None:
        text = str(bots.bot(f"level{level}", seed + version).choose(state.view(seat)))
        GAME.act(state, text)
        version += 1
        for watcher in watchers:
            now = message(state, watcher, version)
            changes.append(size(change(sent[watcher], now)))
            firsts.append(size(now))
            sent[watcher] = now
    return firsts, changes, sent[None]["view"]["log"]


def floats(value: Any) -> list[float]:
    if isinstance(value, float):
        return [value]
    if isinstance(value, dict):
        return [f for v in value.values() for f in floats(v)]
    if isinstance(value, list):
        return [f for v in value for f in floats(v)]
    return []


def test_every_change_of_a_bot_game_is_a_few_kilobytes() -> None:
    for seed in (1,):
        _firsts, changes, log = bot_game(seed)
        assert max(changes) <= CHANGE_MOST, (seed, max(changes))
        assert log, "the game was played"
        # The log as data: whole numbers and words, no raw floats.
        assert not floats(log)


def test_the_view_is_data_not_svg() -> None:
    specs = [SeatSpec("human", "a", skill="exact"), SeatSpec("human", "b", skill="exact")]
    state, _ = GAME.new(specs, 0, {}, 4)
    GAME.act(state, "0 0 1.3 0")
    view = GAME.view(state, 0)
    assert "svg" not in view
    assert "<svg" not in json.dumps(view)
    last = GAME.last(state)
    assert last is not None
    poses = last["flight"]["poses"]
    assert len(poses) >= 2
    assert all(isinstance(v, int) for p in poses for v in p)
    assert poses[-1] == view["stop"]
    assert view["trail"][-1] == view["stop"][:2]
    assert not floats(view["log"])
    assert not floats(last)


def test_the_log_tells_what_a_pitch_covered_and_took() -> None:
    specs = [SeatSpec("human", "a", skill="exact"), SeatSpec("human", "b", skill="exact")]
    state, _ = GAME.new(specs, 0, {}, 4)
    assert isinstance(state, ColorCityState)
    table = state.table
    e5 = table.parse_square("e5")
    GAME.act(state, str(aim(table, Gang.GREEN, *table.square_centre(e5))))
    GAME.act(state, "pass")
    green = GAME.view(state, None)["log"]
    assert "e5" in green[0]["covered"]
    assert green[0]["lost"] == []
    assert green[0]["seat"] == 0
    assert len(green[0]["notation"].split()) == 4
    assert green[1] == {"seat": 0, "notation": "pass"}
    GAME.act(state, str(aim(table, Gang.PURPLE, *table.square_centre(e5))))
    log = GAME.view(state, None)["log"]
    assert log[:2] == green, "an entry never changes once written"
    assert "e5" in log[2]["covered"]
    assert "e5" in log[2]["lost"]
    assert set(log[2]["lost"]) <= set(green[0]["covered"])
    assert GAME.last(state) == {**log[2], "flight": GAME.last(state)["flight"]}  # type: ignore[index]


if __name__ == "__main__":
    for seed in (1, 2, 3):
        firsts, changes, log = bot_game(seed)
        print(
            f"seed {seed}: {len(changes) // 3} actions; whole messages {min(firsts)}–{max(firsts)}"
            f" bytes; change messages max {max(changes)}, mean {sum(changes) // len(changes)}"
        )
        # Green's clicks had a person played its seat: a pitch each turn and, asked on every
        # turn, a power answer each; asked once, one answer in all.
        mine = [e for e in log if (e["seat"] if isinstance(e, dict) else None) == 0]
        pitches = sum("covered" in e for e in mine)
        answers = len(mine) - pitches
        print(
            f"  Green: {pitches} pitches, asked about the power {answers} times:"
            f" {pitches + answers} clicks asked every turn, {pitches + min(answers, 1)} asked once"
        )
