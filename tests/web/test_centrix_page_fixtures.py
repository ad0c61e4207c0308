"""The positions the page's unit tests play through are the engine's, and current."""

from __future__ import annotations

import json

from gamenight.web.views.centrix import notations
from tests.web import centrix_page_fixtures


def test_the_shipped_fixtures_are_the_engines() -> None:
    # (After a change to the engine or the view: python -m tests.web.centrix_page_fixtures)
    shipped = centrix_page_fixtures.FIXTURES.read_text(encoding="utf-8")
    assert shipped == centrix_page_fixtures.to_json()


def test_each_position_lists_the_engines_plays_once_each() -> None:
    for fixture in json.loads(centrix_page_fixtures.to_json())["positions"]:
        listed = notations(fixture["legal"])
        assert sorted(listed) == fixture["notations"], fixture["name"]
        assert len(set(listed)) == len(listed)


def test_the_turn_of_three_is_one_movers_in_order() -> None:
    turn = [
        p for p in centrix_page_fixtures.fixtures()["positions"] if p["name"].startswith("three-")
    ]
    assert [p["plays_left"] for p in turn] == [3, 2, 1]
    assert len({p["seat"] for p in turn}) == 1
    assert all(p["played"] in p["notations"] for p in turn)
