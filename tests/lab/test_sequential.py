"""--until-significant: the mixture SPRT stops early on a large difference, not on none."""

from __future__ import annotations

import random
from pathlib import Path

from gamenight.lab.experiment import parse_experiment
from gamenight.lab.results import load_rows
from gamenight.lab.run import run
from gamenight.lab.sequential import confidence_sequence, verdicts


def stream(rates: dict[str, float], cap: int, margin: float, seed: int = 1) -> tuple[int, dict]:
    """Games one round at a time until every comparison is settled or ``cap`` rounds."""
    rng = random.Random(seed)
    wins = dict.fromkeys(rates, 0.0)
    for n in range(1, cap + 1):
        for name, p in rates.items():
            wins[name] += rng.random() < p
        found = verdicts(wins, n, margin)
        if all(v.settled for v in found.values()):
            return n, found
    return cap, found


def test_a_large_difference_stops_early() -> None:
    n, found = stream({"a": 0.2, "b": 0.8, "c": 0.8}, cap=2000, margin=0.05)
    assert n < 100
    assert {v.state for v in found.values()} == {"differ"}
    assert all(v.low > 0 for v in found.values())


def test_no_difference_runs_to_the_cap() -> None:
    n, found = stream({"a": 0.5, "b": 0.5}, cap=400, margin=0.02)
    assert n == 400
    assert found["b"].state == "open"


def test_no_difference_is_shown_within_a_wide_margin() -> None:
    n, found = stream({"a": 0.5, "b": 0.5}, cap=5000, margin=0.25)
    assert n < 5000
    assert found["b"].state == "within margin"


def test_the_interval_shrinks_and_covers_the_truth_at_every_look() -> None:
    # 200 runs of 300 looks at a true difference of 0: the always-valid 95 % interval
    # may miss 0 at some look in at most about 5 % of runs.
    rng = random.Random(7)
    misses = 0
    for _ in range(200):
        a = b = 0
        for n in range(1, 301):
            a += rng.random() < 0.4
            b += rng.random() < 0.4
            _, low, high = confidence_sequence(a, b, n, 0.05, 0.05)
            if low > 0 or high < 0:
                misses += 1
                break
    assert misses <= 20
    widths = [confidence_sequence(n / 2, n / 2, n, 0.05, 0.05) for n in (10, 100, 1000)]
    assert widths[0][2] > widths[1][2] > widths[2][2]


TWO_ARMS = """
name = "greedy against random, seats swapped"
game = "centrix"
players = 2
games = {games}
seed = 5
rules = {{ max_turns = 200 }}
[metric]
seat = 0
margin = {margin}
[[variants]]
name = "greedy first"
seats = {a}
[[variants]]
name = "other"
seats = {b}
"""


def test_until_significant_stops_a_run_with_a_known_large_difference(tmp_path: Path) -> None:
    text = TWO_ARMS.format(
        games=200, margin=0.1, a='["greedy", "random"]', b='["random", "greedy"]'
    )
    experiment = parse_experiment(text)
    outcome = run(experiment, tmp_path / "run", until_significant=True)
    assert outcome.stopped == "significant"
    assert outcome.verdicts["other"].state == "differ"
    _, rows = load_rows(tmp_path / "run")
    assert len(rows) < 40  # of 400
    # A later run of the settled experiment plays nothing more.
    again = run(experiment, tmp_path / "run", until_significant=True)
    assert (again.played, again.stopped) == (0, "significant")


def test_until_significant_runs_to_the_cap_without_a_difference(tmp_path: Path) -> None:
    text = TWO_ARMS.format(games=6, margin=0.01, a='["random", "random"]', b='["random", "random"]')
    outcome = run(parse_experiment(text), tmp_path / "run", until_significant=True)
    assert outcome.stopped == "complete"
    assert outcome.played == 12
    assert outcome.verdicts["other"].state == "open"
