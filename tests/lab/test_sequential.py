"""--until-significant: the mixture SPRT stops early on a large difference, not on none."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from gamenight.cli import main
from gamenight.lab.experiment import parse_experiment
from gamenight.lab.metrics import primary
from gamenight.lab.results import load_rows
from gamenight.lab.run import PILOT, Tally, run
from gamenight.lab.sequential import LIMIT, confidence_sequence, games_needed, verdict, verdicts


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


@pytest.mark.parametrize(
    ("a", "b", "margin"), [(0.3, 0.5, 0.05), (0.5, 0.5, 0.1), (0.4, 0.43, 0.05)]
)
def test_the_games_needed_are_where_the_rates_seen_would_settle(
    a: float, b: float, margin: float
) -> None:
    # From the first 40 games: if the rates stayed as seen, the verdict settles at the
    # estimate and not clearly earlier (the variance is estimated from the 40 games' rates,
    # shrunk by half a game, so the last few games are uncertain).
    n = games_needed(40 * a, 40 * b, 40, margin)
    assert 40 < n < LIMIT
    assert verdict(n * a, n * b, n, margin).settled
    early = int(0.97 * n)
    assert not verdict(early * a, early * b, early, margin).settled


def test_a_difference_near_zero_needs_more_games_than_a_clear_one() -> None:
    near = games_needed(20, 20, 40, 0.05)
    clear = games_needed(12, 20, 40, 0.05)
    assert near > 10 * clear


def test_the_tally_counts_rows_in_any_order_as_a_recount_would(tmp_path: Path) -> None:
    text = TWO_ARMS.format(games=30, margin=0.1, a='["greedy", "random"]', b='["random", "greedy"]')
    experiment = parse_experiment(text)
    run(experiment, tmp_path / "run")
    _, rows = load_rows(tmp_path / "run")
    random.Random(3).shuffle(rows)
    tally = Tally(experiment)
    for row in rows:
        tally.add(row)
        tally.add(row)  # a duplicate counts once
    assert tally.rounds == 30
    assert tally.per_variant == {"greedy first": 30, "other": 30}
    wins = {v.name: 0.0 for v in experiment.variants}
    for row in rows:
        wins[row["variant"]] += primary(row, experiment.metric)
    assert tally.verdicts == verdicts(wins, 30, 0.1)
    assert tally.needed == max(v.needed for v in tally.verdicts.values())


def test_until_significant_says_what_an_answer_needs_and_why_it_stayed_open(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "same.toml"
    path.write_text(
        TWO_ARMS.format(games=PILOT + 2, margin=0.02, a='"random"', b='"random"'), "utf-8"
    )
    assert (
        main(["lab", "run", str(path), "--out", str(tmp_path / "run"), "--until-significant"]) == 0
    )
    err = capsys.readouterr().err
    assert f"estimated from the first {PILOT} games per variant: an answer at ±2% needs" in err
    assert f"more than this run's {PILOT + 2} per variant" in err
    assert "open because" in err
    assert "stopped at the run's games with a comparison open" in err
    # Not a terminal: plain lines, no bar.
    assert "━" not in err
    assert f"{2 * (PILOT + 2)}/{2 * (PILOT + 2)} games" in err
