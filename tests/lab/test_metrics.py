"""The lab's measurements on small synthetic result rows whose answers are known."""

from __future__ import annotations

from typing import Any

import pytest

from gamenight.lab.experiment import Metric, parse_experiment
from gamenight.lab.metrics import (
    Rate,
    bootstrap,
    compare,
    decided_at,
    fairness,
    flatten,
    lead_changes,
    length_sentence,
    newcombe,
    sentence,
    summarise,
    trailed,
)

EXPERIMENT = parse_experiment(
    """
game = "centrix"
players = 2
seats = "greedy"
games = 4
[[variants]]
name = "a"
[[variants]]
name = "b"
rules = { bottom = "floor" }
"""
)


def row(
    variant: str,
    index: int,
    places: list[int],
    standings: list[list[int]],
    *,
    first: int = 0,
    reason: str = "finished",
    counts: dict[str, int] | None = None,
    lineup: list[str] | None = None,
) -> dict[str, Any]:
    return {
        "variant": variant,
        "index": index,
        "seed": index,
        "players": len(places),
        "lineup": lineup or ["greedy"] * len(places),
        "first": first,
        "places": places,
        "reason": reason,
        "actions": 2 * len(standings),
        "turns": len(standings),
        "seconds": 0.0,
        "standings": [[[s] for s in turn] for turn in standings],
        "counts": counts or {},
    }


ROWS = [
    # Seat 0 leads throughout and wins: no lead change, no drama, decided from the start.
    row("a", 0, [1, 2], [[1, 0], [2, 0], [3, 1]], counts={"bumps": 2}),
    # Seat 1 trails in the first half, leads from turn 3 and wins: one change, no drama
    # (the second half is all its), decided at 2/4.
    row("a", 1, [2, 1], [[1, 0], [2, 1], [2, 3], [2, 4]], first=1, counts={"bumps": 0}),
    # Seat 0 wins at the turn cap, behind in the second half: two changes, drama,
    # decided at 2/3.
    row("a", 2, [1, 2], [[1, 0], [1, 2], [3, 2]], reason="turn_cap", counts={"bumps": 1}),
    # A shared first place: no lone winner, each seat half a win.
    row("a", 3, [1, 1], [[1, 1], [2, 2]], reason="stalemate", counts={"bumps": 1}),
    row("b", 0, [2, 1], [[0, 1]]),
    row("b", 1, [2, 1], [[0, 1]]),
    row("b", 2, [2, 1], [[0, 1]]),
    row("b", 3, [2, 1], [[0, 1]]),
]


def test_lead_changes_drama_and_decisiveness_of_one_game() -> None:
    assert [lead_changes(r["standings"]) for r in ROWS[:4]] == [0, 1, 2, 0]
    assert [trailed(r) for r in ROWS[:4]] == [False, False, True, None]
    assert [decided_at(r) for r in ROWS[:4]] == [0.0, 0.5, pytest.approx(2 / 3), None]
    # Equalled at the top once the others finish too: still decided from the start.
    assert decided_at(row("a", 9, [1, 2, 3], [[1, 0, 0], [3, 0, 1], [3, 3, 1]])) == 0.0
    assert decided_at(row("a", 9, [1, 2], [[0, 1], [1, 1]])) == 1.0  # never alone ahead


def test_a_variants_rates_and_means() -> None:
    a, b = summarise(EXPERIMENT, ROWS)
    assert a.games == 4
    assert [r.successes for r in a.seat_wins] == [2.5, 1.5]
    assert a.first_wins.successes == 3.5  # row 1 started with seat 1, who won
    assert a.first_advantage == pytest.approx(3.5 / 4 - 0.5)
    assert a.balance == pytest.approx(1 - (2.5 - 1.5) / 4)
    assert a.turns.value == 3.0
    assert a.actions.value == 6.0
    assert {k: r.successes for k, r in a.endings.items()} == {
        "finished": 2,
        "stalemate": 1,
        "turn_cap": 1,
    }
    assert a.lead_changes.value == pytest.approx(3 / 4)
    assert (a.drama.successes, a.drama.trials) == (1, 3)
    assert a.decided_at.value == pytest.approx((0 + 0.5 + 2 / 3) / 3)
    assert a.counts["bumps"].value == 1.0
    assert a.upsets is None  # the same bot in every seat
    assert b.seat_wins[1].value == 1.0
    assert b.balance == 0.0


def test_skill_against_luck_with_different_bots() -> None:
    rows = [
        row("a", i, places, [[0, 0]], lineup=["greedy", "random"])
        for i, places in enumerate([[1, 2], [1, 2], [1, 2], [2, 1]])
    ]
    (a,) = summarise(EXPERIMENT, rows)
    assert a.by_bot["greedy"].value == 0.75
    assert a.upsets is not None
    assert a.upsets.value == 0.25


def test_the_comparison_says_plainly_when_a_difference_is_not_significant() -> None:
    summaries = summarise(EXPERIMENT, ROWS)
    (d,) = compare(summaries)
    assert (d.baseline, d.variant) == ("a", "b")
    assert d.value == pytest.approx(0 - 2.5 / 4)
    low, high = d.interval
    assert low < d.value < high
    text = sentence(d, "seat 0 win rate")
    assert text.startswith("b against a: seat 0 win rate 0.0% against 62.5%")
    assert "not significant" in text  # four games each cannot tell
    assert "유의하지 않습니다" in sentence(d, "seat 0 win rate", "ko")
    big = [row("a", i, [1, 2], [[1, 0]]) for i in range(60)]
    big += [row("b", i, [2, 1], [[0, 1]]) for i in range(60)]
    (d,) = compare(summarise(EXPERIMENT, big))
    assert d.significant
    assert "a significant difference" in sentence(d, "seat 0 win rate")


def test_the_first_players_advantage_in_a_sentence() -> None:
    a, b = summarise(EXPERIMENT, ROWS)
    assert fairness(a).endswith("no significant first-player advantage.")  # 3.5 of 4
    rows = [row("a", i, [1, 2], [[1, 0]]) for i in range(40)]
    (many,) = summarise(EXPERIMENT, rows)
    assert fairness(many).endswith("the first player has the advantage.")
    assert fairness(b).endswith("the first player is at a disadvantage.")  # 0 of 4
    assert "선 플레이어" in fairness(many, "ko")


def test_the_length_of_the_games_compared() -> None:
    short = [row("a", i, [1, 2], [[1, 0]] * 10) for i in range(30)]
    long = [row("b", i, [1, 2], [[1, 0]] * (12 + i % 2)) for i in range(30)]
    a, b = summarise(EXPERIMENT, short + long)
    text = length_sentence(a, b)
    assert text.startswith("b against a: games of 12.5 turns against 10.0, a difference of +2.5")
    assert text.endswith("a significant difference.")
    assert length_sentence(a, a).endswith("not significant.")


def test_intervals() -> None:
    assert Rate(0, 10).interval[0] == 0.0
    low, high = Rate(5, 10).interval
    assert low == pytest.approx(0.2366, abs=1e-4)
    assert high == pytest.approx(0.7634, abs=1e-4)
    assert bootstrap([3.0, 3.0, 3.0]) == (3.0, 3.0)
    low, high = bootstrap([float(i % 2) for i in range(400)])
    assert low < 0.5 < high
    assert high - low < 0.15
    low, high = newcombe(Rate(5, 10), Rate(5, 10))
    assert low == pytest.approx(-high)


def test_the_primary_metric_and_the_flat_columns() -> None:
    flat = flatten(ROWS[1])
    assert flat["winner"] == 1
    assert flat["first_won"] == 1.0
    assert (flat["win_0"], flat["win_1"]) == (0.0, 1.0)
    assert flat["n_bumps"] == 0
    assert flat["lead_changes"] == 1
    (a, _) = summarise(EXPERIMENT, ROWS)
    assert a.primary.successes == 2.5  # seat 0 by default
    first = parse_experiment(EXPERIMENT.source + "[metric]\nseat = 'first'\n")
    assert first.metric == Metric("first", 0.05)
    assert summarise(first, ROWS)[0].primary.successes == 3.5


def test_color_city_rates_with_and_without_a_power() -> None:
    cc = parse_experiment('game = "colorcity"\nseats = "simple"\ngames = 1\n')
    rows = [
        row("rulebook", 0, [1, 2], [[1, 0]], reason="line", counts={"lucky_day": 1}),
        row("rulebook", 1, [1, 2], [[1, 0]], reason="block", counts={"lucky_day": 1}),
        row("rulebook", 2, [2, 1], [[0, 1]], reason="elimination", counts={"purple_pain": 1}),
        row("rulebook", 3, [2, 1], [[0, 1]], reason="line", counts={}),
    ]
    (s,) = summarise(cc, rows)
    assert s.extra["lucky_day used"].value == 0.5
    assert s.extra["lucky_day: win with"].value == 1.0
    assert s.extra["lucky_day: win without"].value == 0.0
    assert s.extra["purple_pain: win with"].value == 1.0
    assert s.extra["purple_pain: win without"].value == pytest.approx(1 / 3)
