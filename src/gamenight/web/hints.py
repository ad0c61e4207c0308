"""Hints at the table (issue 32): "suggest a play", the chosen level's play for a seat with
a one-line reason in words.

- **Off the loop, from the seat's own view.** A hint is thought in the bot pool
  (web.bots, job ``hint``: gamenight.bots.hints.hint), given only ``state.view(seat)``,
  which holds no other seat's hand; the answer is the play's notation and its reason (for
  Color City, the square aimed at and the squares it would paint), nothing of the view.
- **Who may ask.** Only a page that holds the seat, when it is that seat's turn. Hints are
  on at tables without invited seats (bots and hot-seat) and off at online tables, unless
  the host chose otherwise at set-up (``hints`` in ``POST /api/tables``, kept in the
  table's stored set-up as ``hints``; docs/rules/table.md, T11).
- **Counted.** Each hint given is stored with the table (``TableStore.add_hint``: the seat,
  the number of actions before it and the level; never the play suggested, which could
  tell a card of the seat's hand), written into the record's set-up (``hints_used``) and
  shown in the replay.
"""

from __future__ import annotations

import hashlib
from typing import Any

from gamenight.web.refusals import Code, RefusedError

SETTING = "hints"  # the stored set-up's key: whether hints are allowed (absent: the default)
USED = "hints_used"  # the stored set-up's key: the hints given, in order
DEFAULT_LEVEL = 3
HINT_SECONDS = 30.0  # the most a hint may think (its worker is then replaced)


def allowed(setup: dict[str, Any], seats: list[dict[str, Any]]) -> bool:
    """Whether the table gives hints: as its host chose, else only where no seat is invited
    (a bot or hot-seat table, where nobody else's game is spoiled by one)."""
    chosen = setup.get(SETTING)
    if isinstance(chosen, bool):
        return chosen
    return not any(seat.get("invite") for seat in seats)


def chosen(hints: bool | None) -> dict[str, bool]:
    """What a new table's set-up stores of the host's choice (nothing: the default)."""
    return {} if hints is None else {SETTING: hints}


def used(setup: dict[str, Any]) -> list[dict[str, int]]:
    """The hints given at the table: ``seat``, ``number`` (the actions before it), ``level``."""
    return [dict(entry) for entry in setup.get(USED, [])]


def hint_seed(seed: int, version: int, seat: int) -> int:
    """The seed a hint's bot is built with: the same position and seat, the same hint."""
    digest = hashlib.sha256(f"hint:{seed}:{version}:{seat}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def hint_answer(game: str, view: Any, level: int, seed: int) -> dict[str, Any]:
    """The hint as the page is sent it (runs in a bot worker: job ``hint``)."""
    from gamenight.bots.hints import hint

    given = hint(game, view, level, seed)
    return {
        "notation": given.notation,
        "words": {"en": given.en, "ko": given.ko},
        "aimed": given.aimed,
        "paints": list(given.paints),
    }


async def ask(table: Any, runner: Any, page: Any, seat: int, level: int) -> dict[str, Any]:
    """The ``hint`` message for ``seat`` at ``table`` (a web.live.LiveTable), asked by
    ``page`` (a web.room.Connection), thought by ``runner`` (web.bots.BotRunner). Refused
    unless the page holds the seat, it is its turn and the table gives hints."""
    referee = table.referee
    stored = referee.stored
    if not allowed(stored.setup, stored.seats):
        raise RefusedError("this table's host has not allowed hints", Code.NO_HINTS)
    if not 0 <= seat < len(referee.seats) or not referee.seats.opens(seat, page.keys.get(seat)):
        raise RefusedError(
            f"this page does not play for seat {seat}", Code.NOT_YOUR_SEAT, seat=seat
        )
    async with referee.lock:  # (an action may be changing the state in a thread)
        referee.check_turn(seat)
        view = referee.state.view(seat)
        version, revision = referee.version, referee.revision
    answer = await runner.run(
        "hint",
        referee.game.name,
        view,
        level,
        hint_seed(stored.seed, version, seat),
        seconds=HINT_SECONDS,
    )
    entry = {"seat": seat, "number": version, "level": level}
    await referee.store.add_hint(referee.id, entry)
    stored.setup = {**stored.setup, USED: [*used(stored.setup), entry]}
    return {"type": "hint", "seat": seat, "level": level, "revision": revision, **answer}
