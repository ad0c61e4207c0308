"""The state messages (issue 16, contract A): a page's first is the whole table, every later
one only what changed, rebuilt by the page exactly, and none of those over 4 KB, over whole
Centrix games played by bots for every seat, 2 to 6 players, wild cards included.

``python -m tests.web.message_sizes`` prints the figures (first message, later ones: mean,
max)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gamenight.web.protocol import CHANGE_LIMIT, diff, patch

from .message_sizes import games


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
            last = expected[page]["last"]  # the last play, with its effects in full
            assert log[-1]["notation"] == last["notation"]
            assert log[-1]["moves"] == [[m["seat"], m["from"], m["to"]] for m in last["moves"]]
