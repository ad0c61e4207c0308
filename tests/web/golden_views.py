"""Seeded games played through the web's game adapters (``gamenight.web.games``), reduced
to digests of everything a page or the store receives: each seat's and the spectator's
view, the last action as drawn, the stored payload, undo, previews, predictions, records,
replays and the refusals of bad set-ups.

The expectations in ``golden/views.json`` were written by the adapters of main 7d6aaa3
(before the web read the registry); ``test_golden_views`` holds every later adapter to
them byte for byte. Color City's games are compared only where MuJoCo flicks exactly as on
the machine that wrote them (``physics_probe``); elsewhere, write the expectations from that
commit's code there: ``git archive 7d6aaa3 src | tar -x -C /tmp/old`` and
``PYTHONPATH=/tmp/old/src python tests/web/golden_views.py``. Refusals whose words changed
on purpose since: a Color City shot's speed (issue 32: in the words of its rule), and a
query a game does not answer (issue 30: one ``query`` for every game's, so that asking
Centrix to predict or Color City to preview is refused by the one path that names each
game's queries).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gamenight.colorcity import ColorCityState, Shot
from gamenight.colorcity.frame import aim
from gamenight.core.errors import GamenightError
from gamenight.web.games import SeatSpec, get_game

GOLDEN = Path(__file__).with_name("golden") / "views.json"


class Digest:
    """One running SHA-256 per stream (``view.svg``, ``last``, …), fed JSON texts as the
    web app would send them, so that a mismatch names the part of the message that moved."""

    def __init__(self) -> None:
        self.streams: dict[str, Any] = {}
        self.counts: dict[str, int] = {}

    def add(self, stream: str, value: Any) -> None:
        text = json.dumps(value, ensure_ascii=False)
        self.streams.setdefault(stream, hashlib.sha256()).update(text.encode() + b"\n")
        self.counts[stream] = self.counts.get(stream, 0) + 1

    def add_view(self, view: dict[str, Any]) -> None:
        self.add("view", view)  # the whole message, key order included
        for key, value in view.items():
            self.add(f"view.{key}", value)

    def refusal(self, stream: str, call: Callable[[], Any]) -> None:
        try:
            call()
        except GamenightError as exc:
            self.add(stream, [type(exc).__name__, str(exc)])
        else:
            self.add(stream, "accepted")

    def result(self) -> dict[str, str]:
        return {
            name: f"{self.counts[name]}:{h.hexdigest()[:20]}"
            for name, h in sorted(self.streams.items())
        }


def ask(game: Any, state: Any, name: str, args: dict[str, Any]) -> Any:
    """The game's answer to a query: through ``query`` (issue 30), or, in the adapters that
    wrote the expectations, the method of the query's name."""
    if hasattr(game, "query"):
        return game.query(state, name, args)
    return getattr(game, name)(state, *args.values())


def seat_dicts(specs: list[SeatSpec], roles: list[str]) -> list[dict[str, Any]]:
    """The stored seats, as the table server writes them."""
    return [
        {"kind": s.kind, "name": s.name, "role": role, "skill": s.skill}
        for s, role in zip(specs, roles, strict=True)
    ]


def play(
    name: str, specs: list[SeatSpec], first: int | str, rules: dict[str, Any], seed: int, most: int
) -> dict[str, str]:
    """One seeded game of ``most`` actions at most, digested."""
    game = get_game(name)
    digest = Digest()
    state, setup = game.new(specs, first, rules, seed)
    digest.add("setup", setup)
    roles = [game.role(state, s) for s in range(len(specs))]
    digest.add("roles", roles)
    digest.add("rules_of", game.rules_of(state))
    digest.add("bounds", [game.name, game.min_seats, game.max_seats, game.simulates])
    seats = seat_dicts(specs, roles)
    rng = random.Random(seed)
    watchers: list[int | None] = [*range(len(specs)), None]

    def look() -> None:
        digest.add("actor", game.actor(state))
        digest.add("last", game.last(state))
        for seat in watchers:
            digest.add_view(game.view(state, seat))
        digest.add("can_undo", [game.can_undo(state, s) for s in range(len(specs))])

    look()
    payloads = []  # the actions as the store keeps them
    for step in range(most):
        if game.actor(state) is None:
            break
        if name == "centrix":
            text = str(rng.choice(state.legal_plays()))
            if step % 5 == 0:
                ring = rng.randrange(1, 7)
                rotation = f"{ring}+{rng.randrange(1, 12)}"
                digest.add("preview", ask(game, state, "preview", {"rotation": rotation}))
        else:
            text = str(state.action_space().sample(rng))
            gang = state.to_move
            if state.expects() == "shot" and gang is not None and rng.random() < 0.8:
                # Mostly shots aimed into the city, so that squares are taken and fought for.
                square = rng.randrange(state.table.num_squares)
                text = str(aim(state.table, gang, *state.table.square_centre(square)))
            if step % 3 == 0 and state.expects() == "shot":
                digest.add("predict", ask(game, state, "predict", {"shot": text}))
        payload, last = game.act(state, text)
        payloads.append(payload)
        digest.add("payload", payload)
        digest.add("act.last", last)
        look()
        if step % 7 == 3:
            # Undo, as the referee does it, and the same action again.
            state.pop()
            look()
            game.act(state, text)
    record = game.record(state, game.rules_of(state), seed, setup, seats, payloads)
    digest.add("record", record.to_dict())
    replayed = game.replay(
        game.rules_of(state), seed, setup, seats, list(record.to_dict()["actions"])
    )
    digest.add("replay.last", game.last(replayed))
    for seat in watchers:
        digest.add_view(game.view(replayed, seat))
    return digest.result()


def refusals() -> dict[str, str]:
    """Bad set-ups and bad requests: refused with the same words."""
    digest = Digest()
    digest.refusal("get_game", lambda: get_game("chess"))
    centrix, colorcity = get_game("centrix"), get_game("colorcity")
    two = [SeatSpec("human", "a"), SeatSpec("bot", "b", level=1)]
    digest.refusal("new.centrix", lambda: centrix.new(two, "green", {}, 1))
    digest.refusal("new.centrix", lambda: centrix.new(two, 0, {"bottom": "nowhere"}, 1))
    digest.refusal("new.centrix", lambda: centrix.new(two, 0, {"max_turns": 0}, 1))
    digest.refusal("new.centrix", lambda: centrix.new(two, 0, {"colour": 1}, 1))
    digest.refusal("new.colorcity", lambda: colorcity.new(two, 2, {}, 1))
    digest.refusal("new.colorcity", lambda: colorcity.new(two, -1, {}, 1))
    digest.refusal("new.colorcity", lambda: colorcity.new(two, "orange", {}, 1))
    digest.refusal("new.colorcity", lambda: colorcity.new(two, 0, {"city_size": 2}, 1))
    digest.refusal("new.colorcity", lambda: colorcity.new(two, 0, {"walls": 1}, 1))
    digest.refusal(
        "new.colorcity", lambda: colorcity.new([SeatSpec("human", "a", role="green")], 0, {}, 1)
    )
    state, _ = centrix.new(two, 0, {}, 3)
    digest.refusal("preview", lambda: ask(centrix, state, "preview", {"rotation": "9+1"}))
    digest.refusal("preview", lambda: ask(centrix, state, "preview", {"rotation": "1+x"}))
    digest.refusal("act.centrix", lambda: centrix.act(state, "nonsense"))
    digest.refusal("predict.centrix", lambda: ask(centrix, state, "predict", {"shot": "0 0 1 0"}))
    cstate, _ = colorcity.new(two, 0, {}, 3)
    digest.refusal("predict", lambda: ask(colorcity, cstate, "predict", {"shot": "0 0 99 0"}))
    digest.refusal("predict", lambda: ask(colorcity, cstate, "predict", {"shot": "zero"}))
    digest.refusal("act.colorcity", lambda: colorcity.act(cstate, "lucky_day"))
    digest.refusal(
        "preview.colorcity", lambda: ask(colorcity, cstate, "preview", {"rotation": "1+1"})
    )
    return digest.result()


def crowded_cities() -> dict[str, str]:
    """Views of Color City positions with crowded cities, where many lines and blocks lack
    one or two squares (games of random shots rarely get there)."""
    game = get_game("colorcity")
    digest = Digest()
    rng = random.Random(15)
    found = 0
    while found < 40:
        fill = rng.choice((0.5, 0.7, 0.85))
        cells = "/".join(
            "".join(rng.choice("gp") if rng.random() < fill else "." for _ in range(9))
            for _ in range(9)
        )
        text = f"{cells} 3,2 L- p pitch - 14 91b7584a2265b1f5 g:normal,p:shaky -"
        try:
            state = ColorCityState.from_position(text)
        except GamenightError:
            continue  # a finished city: no running game has one
        found += 1
        for seat in (0, 1, None):
            digest.add_view(game.view(state, seat))
    return digest.result()


def seats(*roles: tuple[str, str, str]) -> list[SeatSpec]:
    return [
        SeatSpec(kind, f"seat {i}", level=1 if kind == "bot" else None, role=role, skill=skill)
        for i, (kind, role, skill) in enumerate(roles)
    ]


H = "human"
SCENARIOS: dict[str, Callable[[], dict[str, str]]] = {
    "centrix 2 to the end": lambda: play(
        "centrix", seats((H, "", "normal"), ("bot", "", "normal")), 0, {}, 11, 150
    ),
    "centrix 4 coloured, knock-off": lambda: play(
        "centrix",
        seats((H, "blue", "normal"), (H, "red", "normal"), (H, "white", "normal"), (H, "", "")),
        2,
        {"bottom": "knock_off", "max_turns": 12},
        5,
        120,
    ),
    "centrix 6 floor": lambda: play(
        "centrix", seats(*[(H, "", "normal")] * 6), 5, {"bottom": "floor"}, 23, 60
    ),
    "colorcity 2": lambda: play(
        "colorcity", seats((H, "", "normal"), ("bot", "", "shaky")), 0, {}, 3, 40
    ),
    "colorcity 4 purple first, small city": lambda: play(
        "colorcity",
        seats(
            (H, "purple", "exact"),
            (H, "green", "normal"),
            (H, "purple", "steady"),
            (H, "green", "shaky"),
        ),
        "purple",
        {"city_size": 6, "max_turns": 10},
        8,
        16,
    ),
    "colorcity crowded cities": crowded_cities,
    "refusals": refusals,
}


# The scenarios whose digests hold MuJoCo's flicks, which are bit-identical only on one
# machine and MuJoCo version (gamenight.colorcity.physics): they are compared where the
# engine's own flicks match the probe's.
SIMULATED = frozenset({"colorcity 2", "colorcity 4 purple first, small city"})
PROBE = "physics probe"


def physics_probe() -> dict[str, str]:
    """The engine's noise-free flicks of a few shots (no web code involved): whether this
    machine simulates as the one that wrote the expectations did."""
    digest = Digest()
    state = ColorCityState.new(seed=0)
    for text in ("0 0 1.3 0", "-40 12 0.9 25", "60 -30 2.2 -40"):
        flick = state.predict(Shot.parse(text))
        digest.add("flick", [list(flick.pose), flick.trajectory.tolist()])
    return digest.result()


def generate() -> dict[str, dict[str, str]]:
    return {PROBE: physics_probe()} | {name: scenario() for name, scenario in SCENARIOS.items()}


if __name__ == "__main__":
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text(json.dumps(generate(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN}")
