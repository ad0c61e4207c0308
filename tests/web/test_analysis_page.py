"""The analysis of a finished table's game (issue 32, web.analysis): refused during the game,
run off the loop with its progress told, kept with the table and computed once."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from .bodies import CENTRIX_2
from .test_api import create

BOT_GAMES: dict[str, dict[str, Any]] = {
    "centrix": {
        "game": "centrix",
        "seats": [{"kind": "bot", "level": 2}, {"kind": "bot", "level": 1}],
        "seed": 3,
        "rules": {"max_turns": 30},
    },
    "colorcity": {
        "game": "colorcity",
        "seats": [
            {"kind": "bot", "level": 1, "role": "green"},
            {"kind": "bot", "level": 1, "role": "purple"},
        ],
        "seed": 4,
        "rules": {"max_turns": 3},
    },
}


def finished(client: TestClient, table_id: str) -> dict[str, Any]:
    for _ in range(3000):
        info: dict[str, Any] = client.get(f"/api/tables/{table_id}").json()
        if info["status"] != "playing":
            return info
        time.sleep(0.05)
    raise AssertionError("the bots did not finish their game")


def analysed(client: TestClient, table_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The analysis once done, and every answer seen while it ran."""
    seen = []
    for _ in range(3000):
        answer = client.get(f"/api/tables/{table_id}/analysis")
        assert answer.status_code == 200, answer.text
        seen.append(answer.json())
        if seen[-1]["state"] == "done":
            return seen[-1]["analysis"], seen
        assert seen[-1]["state"] == "running", seen[-1]
        time.sleep(0.05)
    raise AssertionError("the analysis did not finish")


def test_no_analysis_during_the_game(client: TestClient) -> None:
    made = create(client, CENTRIX_2)
    refused = client.get(f"/api/tables/{made['id']}/analysis")
    assert refused.status_code == 409
    assert refused.json()["code"] == "analysis_after_game"


@pytest.mark.parametrize("game", ["centrix", "colorcity"])
def test_a_finished_game_is_analysed_once_and_kept_with_its_table(
    client: TestClient, game: str
) -> None:
    made = create(client, BOT_GAMES[game])
    info = finished(client, made["id"])
    analysis, seen = analysed(client, made["id"])
    assert seen[0]["state"] == "running"
    assert all(0 <= s["done"] <= s["total"] for s in seen[:-1])
    assert analysis["game"] == game
    assert len(analysis["chances"]) == info["version"] + 1  # one row a step of the replay
    assert all(len(row) == 2 for row in analysis["chances"])
    assert {"turning_points", "mistakes", "method", "seats"} <= set(analysis)
    # Kept: asked again, the store answers, and the pool is not asked.
    analyst = client.app.state.analyst  # type: ignore[attr-defined]

    async def never(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("analysed twice")

    analyst.runner.run = never
    again = client.get(f"/api/tables/{made['id']}/analysis").json()
    assert again == {"state": "done", "analysis": analysis}
