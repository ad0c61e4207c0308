"""How long one step of a table's replay takes: replaying the record up to the step (as the
server once did for every request) against stepping back the marks that one replay of the
whole game makes (web.replays).

    python -m gamenight.bench.replays [--seed N]
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from gamenight.web.games import SeatSpec, get_game
from gamenight.web.replays import mark, step_view


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m gamenight.bench.replays")
    parser.add_argument("--seed", type=int, default=7, help="the deal of the game replayed")
    seed = parser.parse_args(argv).seed
    game = get_game("centrix")
    specs = [SeatSpec("bot", f"Bot {i + 1}", 1) for i in range(4)]
    state, setup = game.new(specs, 0, {}, seed)
    seats = [
        {"name": s.name, "kind": "bot", "role": game.role(state, i)} for i, s in enumerate(specs)
    ]
    actions: list[Any] = []
    while (seat := game.actor(state)) is not None:  # four level-1 bots, to the end
        payload, _ = game.act(state, game.bot_action(state.view(seat), 1, len(actions)))
        actions.append(payload)
    rules = game.rules_of(state)
    steps = range(0, len(actions) + 1, max(1, len(actions) // 50))

    start = time.perf_counter()
    for step in steps:
        game.view(game.replay(rules, seed, setup, seats, actions[:step]), None)
    replayed = (time.perf_counter() - start) / len(steps)

    start = time.perf_counter()
    # As the server makes them: the stored actions replayed (a live state keeps only the
    # turn's plays), then walked back.
    marks = mark(game.replay(rules, seed, setup, seats, actions), len(actions))
    marked = time.perf_counter() - start
    start = time.perf_counter()
    for step in steps:
        step_view(game, marks, step, 0)  # as in play: no hands
    stepped = (time.perf_counter() - start) / len(steps)
    print(f"a Centrix game of {len(actions)} plays, {len(steps)} steps asked for:")
    print(f"  replaying the record to the step:  {replayed * 1000:7.2f} ms a step")
    print(f"  marks (once per table revision):   {marked * 1000:7.2f} ms")
    print(f"  stepping back from the nearest mark: {stepped * 1000:5.2f} ms a step")


if __name__ == "__main__":
    main()
