"""A tournament fields outside policies (issue 19): a Python callable (``py:module:name``)
and a saved stable-baselines3 policy (``sb3:path.zip``), in specs that cannot be confused
with the bots' own."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gamenight.bots.outside import is_outside
from gamenight.bots.registry import game_bots
from gamenight.cli import main

POLICY = "py:tests.tournament.policies:first_play"


def run_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    assert main([*argv, "--json"]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_a_python_callable_plays_a_tournament(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.jsonl"
    argv = ["tournament", "centrix", "--bots", f"{POLICY},greedy", "--games", "2"]
    summary = run_json([*argv, "--out", str(out), "--rules", '{"max_turns": 20}'], capsys)
    assert {row["label"] for row in summary["by_bot"]} == {POLICY, "greedy"}  # type: ignore[attr-defined, index]
    lineups = [json.loads(line)["lineup"] for line in out.read_text().splitlines()]
    assert lineups == [[POLICY, "greedy"], ["greedy", POLICY]]  # seats swapped


def test_an_object_with_choose_is_a_policy_too() -> None:
    bot = game_bots("centrix").bot("py:tests.tournament.policies:Greedy", 0)
    assert bot.name == "py:tests.tournament.policies:Greedy"


def test_outside_specs_cannot_be_confused_with_bot_specs() -> None:
    assert is_outside(POLICY)
    assert is_outside("sb3:ppo.zip")
    for spec in ("ismcts:0.25s", "level3", "planner:160it:aim=normal", "py", "sb3"):
        assert not is_outside(spec)
    assert type(game_bots("centrix").bot("ismcts:0.25s", 0)).__name__ == "IsmctsBot"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("py:no_such_module_here:act", "cannot import 'no_such_module_here'"),
        ("py:tests.tournament.policies:missing", "has no 'missing'"),
        ("py:tests.tournament.policies:NOT_A_POLICY", "neither callable nor has choose"),
        ("py:first_play", "is not module:name"),
        ("sb3:", "give the saved policy's path"),
        ("sb3:nowhere.zip", "there is no such file"),
    ],
)
def test_a_bad_outside_spec_is_refused_naming_the_problem(
    spec: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tournament", "centrix", "--bots", f"{spec},greedy", "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert re.search(re.escape(message), err), err
    assert "Traceback" not in err


@pytest.mark.parametrize("game", ["colorcity", "centrix"])
def test_a_saved_maskable_ppo_policy_plays_a_tournament(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("sb3_contrib")  # the [train] extra, which make test installs
    policy = tmp_path / f"{game}.zip"
    example = Path(__file__).parents[2] / "examples" / "train_maskable_ppo.py"
    args = ["--game", game, "--steps", "64", "--n-steps", "64", "--eval", "1"]
    args += ["--max-turns", "3", "--out", str(policy)]
    done = subprocess.run(
        [sys.executable, str(example), *args], capture_output=True, text=True, timeout=240
    )
    assert done.returncode == 0, done.stderr
    assert policy.is_file()
    rules = '{"max_turns": 3}'
    spec = f"sb3:{policy}"
    argv = ["tournament", game, "--bots", f"{spec},level1", "--games", "2", "--rules", rules]
    summary = run_json([*argv, "--out", str(tmp_path / "r.jsonl")], capsys)
    rows = {row["label"]: row for row in summary["by_bot"]}  # type: ignore[attr-defined]
    assert rows[spec]["games"] == 2
