"""The example scripts run, on tiny settings, and report what they measured."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).parent.parent / "examples"


@pytest.mark.parametrize(
    ("script", "args", "expected"),
    [
        ("pettingzoo_bots.py", ["--games", "1"], "mean reward"),
        ("openspiel_search.py", ["--games", "1", "--simulations", "2"], "scored"),
        (
            "centrix_four_player_ceiling.py",
            ["--games", "2", "--deals", "1", "--candidates", "sampled,sees-all"],
            "sees-all   first in",
        ),
        (
            "gymnasium_reinforce.py",
            ["--episodes", "2", "--eval", "2", "--max-turns", "6"],
            "after:",
        ),
        (
            "train_maskable_ppo.py",
            ["--steps", "64", "--n-steps", "64", "--eval", "1", "--max-turns", "4"],
            "after:",
        ),
        (
            "train_maskable_ppo.py",
            [
                *("--game", "centrix", "--rules", '{"pawns": 1}', "--shaping", "1.0"),
                *("--steps", "64", "--n-steps", "64", "--eval", "1", "--max-turns", "4"),
            ],
            "after:",
        ),
        *(
            (
                "selfplay_ppo.py",
                [
                    *("--game", game, "--steps", "96", "--rollout", "48"),
                    *("--eval", "1", "--max-turns", "4"),
                ],
                "after: win rate",
            )
            for game in ("centrix", "colorcity")
        ),
        (
            "rllib_multiagent.py",
            [*("--iterations", "1", "--batch", "100", "--eval", "1", "--max-turns", "4")],
            "after: win rate",
        ),
    ],
)
def test_example_runs(script: str, args: list[str], expected: str) -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args],
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert expected in done.stdout
