"""The guided first game through the server (issue 32, web.lessons): every lesson of both
games played by its asks to its goal; a wrong try answered with its rule in words; a legal
play that misses the goal puts the position back; the learner sees only its own view."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from gamenight.centrix.lessons import Goal
from gamenight.centrix.lessons import lessons as centrix_lessons
from gamenight.centrix.lessons import reached as centrix_reached
from gamenight.centrix.state import CentrixState
from gamenight.colorcity.lessons import lessons as city_lessons
from gamenight.web.games import get_game
from tests.colorcity.test_lessons import a_way


def way(state: CentrixState, goal: Goal, depth: int) -> list[str] | None:
    """Plays that reach ``goal``, the learner moving all along (None: none found)."""
    seat = state.actor
    for play in state.legal_plays():
        if centrix_reached(goal, state, play):
            return [str(play)]
        if depth > 1:
            state.push(play)
            more = way(state, goal, depth - 1) if state.actor == seat else None
            state.pop()
            if more:
                return [str(play), *more]
    return None


def ask(client: TestClient, game: str, number: int, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(f"/api/lessons/{game}/{number}", json=body)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def test_the_lessons_are_listed_with_their_words(client: TestClient) -> None:
    listed = client.get("/api/lessons").json()
    assert [x["key"] for x in listed["centrix"]] == [x.key for x in centrix_lessons()]
    assert [x["key"] for x in listed["colorcity"]] == [x.key for x in city_lessons()]
    assert all(x["title"]["ko"] and x["text"]["en"] for x in listed["centrix"])
    start = client.get("/api/lessons/centrix/0").json()
    assert start["state"]["actor"] == 0
    assert start["state"]["view"]["hand"]
    assert all("hand" not in p for p in start["state"]["view"]["players"])  # counts only
    assert client.get("/api/lessons/centrix/99").json()["code"] == "no_lesson"


@pytest.mark.parametrize("number", range(len(centrix_lessons())))
def test_each_centrix_lesson_is_played_to_its_goal(client: TestClient, number: int) -> None:
    lesson = centrix_lessons()[number]
    plays = way(lesson.state(), lesson.goal, 3 if lesson.goal is Goal.THREE_PLAYS else 1)
    assert plays
    actions: list[Any] = []
    for i, play in enumerate(plays):
        answer = ask(client, "centrix", number, {"type": "act", "actions": actions, "action": play})
        assert answer["type"] == "lesson", answer
        assert answer["outcome"] == ("reached" if i == len(plays) - 1 else "more")
        actions = answer["actions"]


@pytest.mark.parametrize("number", range(len(city_lessons())))
def test_each_colorcity_lesson_is_played_to_its_goal(client: TestClient, number: int) -> None:
    lesson = city_lessons()[number]
    action = str(a_way(lesson, lesson.state()))
    answer = ask(client, "colorcity", number, {"type": "act", "action": action})
    assert answer["outcome"] == "reached", answer
    if lesson.goal.value != "lucky_day" and lesson.key != "pain":
        predicted = ask(client, "colorcity", number, {"type": "predict", "shot": action})
        assert predicted["type"] == "prediction"


def test_a_wrong_try_gets_the_rule_in_words(client: TestClient) -> None:
    answer = ask(client, "centrix", 0, {"type": "act", "action": "O1 off-c1"})
    assert answer["type"] == "error"
    assert answer["params"]["rule"] == "wrong_colour"
    assert answer["params"]["words"]["en"].endswith("c1 is yellow, but O1 moves only onto orange")
    assert answer["params"]["words"]["ko"]
    city = ask(client, "colorcity", 0, {"type": "act", "action": "120 0 1 0"})
    assert city["type"] == "error"
    assert city["params"]["rule"] == "outside_hq"


def test_a_legal_play_that_misses_the_goal_puts_the_position_back(client: TestClient) -> None:
    number = next(i for i, x in enumerate(centrix_lessons()) if x.key == "top")
    lesson = centrix_lessons()[number]
    state = lesson.state()
    miss = next(p for p in state.legal_plays() if not centrix_reached(lesson.goal, state, p))
    answer = ask(client, "centrix", number, {"type": "act", "action": str(miss)})
    assert answer["outcome"] in ("again", "more")
    if answer["outcome"] == "again":
        assert answer["actions"] == []
        start = get_game("centrix").view(lesson.state(), 0)
        assert answer["state"]["view"]["cells"] == start["cells"]
