"""The guided first game in the page (issue 32): each game's lessons (its ``lessons.json``, on
real engine positions) played through the table's own board, hand and controls.

Nothing is stored: a lesson is its position and the learner's actions so far, which the page
sends with each ask (``POST /api/lessons/{game}/{number}``), and the server replays them on
the lesson's position. An ask is one of the table socket's messages: ``act`` (answered by a
``lesson`` message: ``outcome`` is ``reached`` — the lesson's goal, it goes on —, ``more``
— a legal play, the turn goes on —, or ``again`` — legal, but not the goal: the position is
as it was — with the table's ``state`` as a page of the learner's seat sees it and the
``actions`` to send next time; or an ``error`` whose ``params.words`` say the rule that
refuses it, the engine's "why not?"), ``predict`` and ``preview``, answered as at a table.
The learner plays seat 0 and sees only its own view.
"""

from __future__ import annotations

import asyncio
import importlib
from typing import Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from gamenight.core.errors import GamenightError
from gamenight.core.game import registry
from gamenight.web.games import JSON, get_game
from gamenight.web.http import HttpRefusal
from gamenight.web.protocol import error
from gamenight.web.refusals import Code, RefusedError

LEARNER = 0
MOST_ACTIONS = 12  # the most actions a lesson's ask may bring


class LessonAsk(BaseModel):
    model_config = ConfigDict(extra="forbid")

    type: Literal["act", "predict", "preview"]
    actions: list[str | dict[str, Any]] = Field(default_factory=list, max_length=MOST_ACTIONS)
    action: str = Field(default="", max_length=200)  # act
    shot: str = Field(default="", max_length=200)  # predict
    rotation: str = Field(default="", max_length=8)  # preview


def lessons_of(game: str) -> Any:
    """The engine's lessons module of ``game`` (gamenight.<game>.lessons)."""
    return importlib.import_module(f"gamenight.{game}.lessons")


def listed(game: str) -> list[JSON]:
    """The game's lessons as the page lists them."""
    return [
        {
            "key": lesson.key,
            "goal": str(lesson.goal),
            "highlight": list(lesson.highlight),
            "title": {"en": lesson.title.en, "ko": lesson.title.ko},
            "text": {"en": lesson.text.en, "ko": lesson.text.ko},
        }
        for lesson in lessons_of(game).lessons()
    ]


def state_message(game: Any, state: Any, version: int) -> JSON:
    """The lesson's position as a table's ``state`` message to the learner's page."""
    actor = game.actor(state)
    return {
        "type": "state",
        "table": "lesson",
        "version": version,
        "revision": version,
        "seats": [LEARNER],
        "active": LEARNER,
        "actor": actor,
        "names": ["", ""],
        "kinds": ["human", "human"],
        "online": [0, 1],  # (nobody is "away" in a lesson)
        "view": game.view(state, LEARNER),
        "last": game.last(state),
        "can_undo": False,
        "clock": None,
        "seating": {"stand_ins": [], "resigned": [], "rematch": [], "next": None},
    }


def reached(name: str, lesson: Any, before: Any, text: str) -> bool:
    """Whether the legal action ``text`` in ``before`` reaches the lesson's goal."""
    module = lessons_of(name)
    action = before.parse_action(text)
    if name == "centrix":
        return bool(module.reached(lesson.goal, before, action))
    return bool(module.reached(lesson, before, action))


def replayed(game: Any, lesson: Any, actions: list[Any]) -> Any:
    """The lesson's position after the stored ``actions``."""
    state = lesson.state()
    for payload in actions:
        game.push_stored(state, payload)
    return state


def answer(name: str, number: int, ask: LessonAsk) -> JSON:
    """The answer to ``ask`` in lesson ``number`` of game ``name`` (runs off the loop)."""
    game = get_game(name)
    lesson = lessons_of(name).lessons()[number]
    state = replayed(game, lesson, ask.actions)
    if game.actor(state) != LEARNER:
        raise GamenightError("the lesson is over: start it again")
    if ask.type == "predict":
        return {"type": "prediction", **game.query(state, "predict", {"shot": ask.shot})}
    if ask.type == "preview":
        return {"type": "preview", **game.query(state, "preview", {"rotation": ask.rotation})}
    before = state.copy(history=False)
    try:
        goal = reached(name, lesson, before, ask.action)
        payload, _ = game.act(state, ask.action)
    except GamenightError as exc:
        return dict(error(exc))
    actions = [*ask.actions, payload]
    if goal:
        outcome = "reached"
    elif game.actor(state) == LEARNER and state.outcome is None:
        outcome = "more"
    else:
        outcome, actions = "again", list(ask.actions)
        state = replayed(game, lesson, actions)
    return {
        "type": "lesson",
        "outcome": outcome,
        "actions": actions,
        "state": state_message(game, state, len(actions)),
    }


def lessons_router() -> APIRouter:
    router = APIRouter()

    @router.get("/api/lessons")
    async def all_lessons() -> dict[str, list[JSON]]:
        return {name: listed(name) for name in registry.names()}

    @router.get("/api/lessons/{game}/{number}")
    async def lesson_start(game: str, number: int) -> JSON:
        """The lesson's position, as the learner's page first sees it."""
        found = _found(game, number)
        state = found.state()
        return {"lesson": listed(game)[number], "state": state_message(get_game(game), state, 0)}

    @router.post("/api/lessons/{game}/{number}")
    async def lesson_ask(game: str, number: int, ask: LessonAsk) -> JSON:
        _found(game, number)
        try:
            return await asyncio.to_thread(answer, game, number, ask)
        except GamenightError as exc:
            raise HttpRefusal(422, exc) from None

    return router


def _found(game: str, number: int) -> Any:
    found = lessons_of(game).lessons() if game in registry else []
    if not 0 <= number < len(found):
        raise HttpRefusal(
            404, RefusedError(f"no lesson {number} of {game!r}", Code.NO_LESSON, game=game)
        )
    return found[number]
