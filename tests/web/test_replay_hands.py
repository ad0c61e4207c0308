"""The replay reveals every hand step by step once the game is over, and never before
(issue 16): the record holds the seed, so a finished game hides nothing; a game in play
hides its hands from the replay whoever asks, with whatever key."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from gamenight.core.outcome import Outcome
from gamenight.web.games import get_game
from gamenight.web.replays import Replays
from gamenight.web.tables import LiveTable
from gamenight.web.views.centrix import notations

from .bodies import CENTRIX_BOTS, CENTRIX_INVITE
from .stores import stored
from .test_api import Join, act, create, receive


def steps(client: TestClient, table: str, count: int, **params: Any) -> list[dict[str, Any]]:
    answers = [client.get(f"/api/tables/{table}/replay/{k}", params=params) for k in range(count)]
    assert [a.status_code for a in answers] == [200] * count
    return [a.json() for a in answers]


def test_no_hand_is_revealed_while_the_game_is_in_play(client: TestClient, join: Join) -> None:
    made = create(client, CENTRIX_INVITE)  # unlisted: seen through its keys only
    ann_token = made["seats"][0]["token"]
    ann = join(made["id"], ann_token)
    state = receive(ann, "state")
    for n in range(3):
        play = notations(state["view"]["legal"])[0]
        act(ann, 0, play)
        state = receive(ann, "state")
        assert state["version"] == n + 1
    assert state["view"]["hand"]  # Ann holds cards the replay must not show
    for key in (made["watch"], ann_token, made["seats"][1]["token"]):
        for answer in steps(client, made["id"], 4, key=key):
            assert answer["finished"] is False
            assert "hands" not in answer
            assert answer["view"]["hand"] is None
            assert str(state["view"]["hand"]) not in str(answer)


def test_a_finished_game_reveals_each_hand_at_each_step(client: TestClient, join: Join) -> None:
    made = create(client, {**CENTRIX_BOTS, "rules": {"max_turns": 6}})
    watcher = join(made["id"])
    state = receive(watcher, "state")
    while state["view"]["status"] == "playing":
        state = receive(watcher, "state")
    total = state["version"]
    picked = [0, 1, total // 2, total]
    answers = [client.get(f"/api/tables/{made['id']}/replay/{k}").json() for k in picked]
    record = stored(client, made["id"])
    assert record is not None
    game = get_game(record.game)
    for k, answer in zip(picked, answers, strict=True):
        replayed = game.replay(
            record.rules, record.seed, record.setup, record.seats, record.actions[:k]
        )
        assert answer["finished"] is True
        assert answer["hands"] == [game.view(replayed, s)["hand"] for s in range(2)], k
        assert answer["view"]["hand"] is None  # the board is still the spectators'
    assert answers[0]["last"] is None
    # The play that led to the step (a log entry is its notation, or data holding it).
    assert answers[1]["last"]["notation"] in json.dumps(answers[1]["view"]["log"][0])
    assert answers[0]["hands"] != answers[-1]["hands"]  # revealed as they were, step by step
    sizes = [len(json.dumps(a, separators=(",", ":"))) for a in answers]
    hands = [len(json.dumps(a["hands"], separators=(",", ":"))) for a in answers]
    print(f"\nreplay step answers: {min(sizes)}-{max(sizes)} bytes, of which hands {max(hands)}")


def test_a_step_answers_whether_the_game_was_over_when_it_was_made(
    client: TestClient, join: Join, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A bot (or a flag) may end the game between the step being made and the answer being
    # written: the answer says "finished" exactly when it carries the hands.
    made = create(client, CENTRIX_INVITE)
    ann = join(made["id"], made["seats"][0]["token"])
    receive(ann, "state")
    made_step = Replays.step

    async def step_then_end(self: Replays, table: LiveTable, step: int) -> dict[str, Any]:
        found = await made_step(self, table, step)
        table.referee.ending = Outcome((1, 2), "resigned", (1,))  # the game ends meanwhile
        return found

    monkeypatch.setattr(Replays, "step", step_then_end)
    answer = steps(client, made["id"], 1, key=made["watch"])[0]
    assert answer["finished"] is ("hands" in answer)
