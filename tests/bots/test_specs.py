"""Bot specs and budgets as typed on a command line or sent by a page: any text gives a bot
or a NotationError, with numbers read as the engines read them (ASCII digits only)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamenight.bots.base import Budget
from gamenight.bots.registry import game_bots
from gamenight.core.errors import NotationError
from tests.parsing import SETTINGS, any_text, json_like, mutated_text, only_raises


@pytest.mark.parametrize("spec", ["level²", "level١", "level 2", "ismcts:²it", "ismcts:infs"])
def test_numbers_in_a_spec_are_ascii_digits(spec: str) -> None:
    # 'level²' passed isdigit() and then failed in int(); '١' read as level 1, 'inf' as no limit.
    with pytest.raises(NotationError):
        game_bots("centrix").bot(spec)


@pytest.mark.parametrize("text", ["infs", "nans", "1e400s", "1_0it", "٣it", "9" * 5000])
def test_a_budget_is_finite_ascii_numbers(text: str) -> None:
    with pytest.raises(NotationError, match="not a budget"):
        Budget.parse(text)


def test_budgets_read_as_documented() -> None:
    assert Budget.parse("250") == Budget(250)
    assert Budget.parse("250it+0.25s") == Budget(250, 0.25)
    assert Budget.parse("1e-1s") == Budget(None, 0.1)


BUDGETS = ["250", "250it", "0.25s", "250it+1s"]


@settings(**SETTINGS)
@given(st.one_of(any_text, json_like, st.sampled_from(BUDGETS).flatmap(mutated_text)))
def test_any_text_gives_a_budget_or_a_notation_error(text: Any) -> None:
    budget = only_raises(NotationError, Budget.parse, text)
    if budget is not None and str(budget) != "unbounded":
        assert Budget.parse(str(budget)) == budget


SPECS = ["level1", "level3", "greedy", "ismcts:50it", "planner:40it+1s"]


@settings(**SETTINGS)
@given(st.one_of(any_text, st.sampled_from(SPECS).flatmap(mutated_text)))
def test_any_spec_gives_a_bot_or_a_notation_error(text: str) -> None:
    for game in ("centrix", "colorcity"):
        only_raises(NotationError, game_bots(game).bot, text)
