"""The tournament runner: balanced seats, results as JSON lines, intervals and ratings."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from gamenight.cli import main
from gamenight.tournament import GameResult, Tournament, rotation, schedule, summarise, wilson


def test_every_bot_entry_sits_in_every_seat_equally_often() -> None:
    lineups = schedule(["a", "b", "c"], players=4, games=9)
    for seat in range(4):
        assert Counter(lineup[seat] for lineup in lineups) == {"a": 3, "b": 3, "c": 3}
    lineups = schedule(["x", "g", "g", "g"], players=4, games=8)
    assert all(Counter(lineup) == {"x": 1, "g": 3} for lineup in lineups)
    assert [lineup.index("x") for lineup in lineups] == [0, 3, 2, 1, 0, 3, 2, 1]


def test_the_rotation_is_the_shortest_balanced_run() -> None:
    assert rotation(["a", "b", "c"]) == 3
    assert rotation(["x", "g", "g", "g"]) == 4
    assert rotation(["a", "b", "a", "b"]) == 2
    assert rotation(["g", "g"]) == 1
    for bots in (["a", "b", "a", "b"], ["a", "b", "c"]):
        lineups = schedule(bots, players=3, games=rotation(bots))
        for seat in range(3):
            counts = Counter(lineup[seat] for lineup in lineups)
            assert len(set(counts.values())) == 1
            assert set(counts) == set(bots)


def test_wilson_interval() -> None:
    low, high = wilson(90, 100)
    assert low == pytest.approx(0.8256, abs=1e-3)
    assert high == pytest.approx(0.9448, abs=1e-3)
    assert wilson(0, 10)[0] == 0.0
    assert wilson(10, 10)[1] == pytest.approx(1.0)


def test_a_small_tournament_in_two_processes(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    t = Tournament("centrix", ["greedy", "random"], players=2, games=6, seed=3)
    results = t.run(workers=2, out=out)
    assert [r.index for r in results] == list(range(6))
    lines = out.read_text().splitlines()
    assert len(lines) == 6
    assert sorted(GameResult.from_json(x).index for x in lines) == list(range(6))
    summary = summarise(results)
    greedy = next(r for r in summary.by_bot if r.label == "greedy")
    assert greedy.games == 6
    assert greedy.win_rate == 1.0
    assert greedy.rating is not None
    assert greedy.rating > summary.by_bot[-1].rating
    assert [r.games for r in summary.by_seat] == [6, 6]
    assert sum(r.wins for r in summary.by_seat) == 6


def test_the_same_seed_plays_the_same_games() -> None:
    a = Tournament("centrix", ["greedy", "random"], 3, 3, seed=1).run()
    b = Tournament("centrix", ["greedy", "random"], 3, 3, seed=1).run()
    assert [(r.places, r.actions) for r in a] == [(r.places, r.actions) for r in b]


def test_bad_set_ups_fail_before_any_game() -> None:
    with pytest.raises(ValueError, match="centrix is for 2–6 players, not 7"):
        Tournament("centrix", ["greedy"], players=7, games=1)
    with pytest.raises(ValueError, match="colorcity is for 2–8 players, not 9"):
        Tournament("colorcity", ["planner"], players=9, games=1)
    with pytest.raises(ValueError, match="no centrix bot"):
        Tournament("centrix", ["greedy", "genius"], players=2, games=1)
    with pytest.raises(ValueError, match="at least one game"):
        Tournament("centrix", ["greedy"], players=2, games=0)
    with pytest.raises(ValueError, match="at least one bot"):
        Tournament("centrix", [], players=2, games=1)
    with pytest.raises(ValueError, match="bottom must be one of"):
        Tournament("centrix", ["greedy"], players=2, games=1, rules={"bottom": "lava"})
    with pytest.raises(ValueError, match="skills is a list of two"):
        Tournament("colorcity", ["planner"], players=2, games=1, rules={"skills": "exact"})


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--games", "0"], "argument --games: must be at least 1, not 0"),
        (["--workers", "0"], "argument --workers: must be at least 1, not 0"),
        (["--workers", "two"], "argument --workers: 'two' is not a whole number"),
        (["--bots", ","], "--bots names no bot"),
        (
            ["--bots", "greedy,foo"],
            "--bots: no centrix bot called 'foo': choose from level1–level5, random",
        ),
        (["--players", "9"], "--players: centrix is for 2–6 players, not 9"),
        (["--rules", "{bottom: floor}"], "--rules is not valid JSON"),
        (["--rules", '["floor"]'], "--rules must be a JSON object"),
        # These raised RecursionError and ValueError; '٣' read as 3 workers.
        (["--rules", "[" * 5000], "--rules nests deeper than 32 levels"),
        (["--rules", '{"max_turns": ' + "9" * 5000 + "}"], "at most 100 digits"),
        (["--rules", '{"max_turns": NaN}'], "--rules holds NaN"),
        (["--workers", "٣"], "argument --workers: '٣' is not a whole number"),
        (["--rules", '{"bottom": "lava"}'], "bottom must be one of protect, knock_off, floor"),
        (["--out", "{missing}/r.jsonl"], "cannot write .*r.jsonl: there is no folder .*missing"),
        (["--out", "{folder}"], "cannot write .*: it is a folder"),
    ],
)
def test_the_command_refuses_bad_options_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str], message: str
) -> None:
    out = tmp_path / "r.jsonl"
    options = [o.replace("{missing}", str(tmp_path / "missing")) for o in options]
    options = [o.replace("{folder}", str(tmp_path)) for o in options]
    argv = ["tournament", "centrix", "--bots", "greedy,random", "--games", "2", "--out", str(out)]
    try:
        code = main([*argv, *options])
    except SystemExit as exc:  # argparse refuses a bad number itself
        code = int(exc.code or 0)
    assert code == 2
    captured = capsys.readouterr()
    assert re.search(message, captured.err), captured.err
    assert "Traceback" not in captured.err
    assert not out.exists()  # no game was played, nothing was created


def test_the_command_prints_a_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cli.jsonl"
    argv = [
        "tournament",
        "centrix",
        "--bots",
        "greedy,random",
        "--players",
        "2",
        "--games",
        "4",
        "--out",
        str(out),
        "--json",
    ]
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert "warning" not in captured.err
    summary = json.loads(captured.out)
    assert summary["games"] == 4
    assert summary["by_bot"][0]["label"] == "greedy"
    assert summary["by_bot"][0]["ci95"][1] == pytest.approx(1.0)
    assert len(out.read_text().splitlines()) == 4
    assert main(["tournament", "centrix", "--bots", "nobody", "--games", "1"]) == 2


def test_a_game_count_that_cannot_share_the_seats_is_warned_about(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.jsonl"
    argv = ["tournament", "centrix", "--bots", "greedy,random", "--games", "3"]
    assert main([*argv, "--out", str(out), "--json"]) == 0
    err = capsys.readouterr().err
    assert "gamenight: warning: 3 games do not share the seats evenly" in err
    assert "use 2 or 4 games" in err
    assert len(out.read_text().splitlines()) == 3  # played all the same
    argv = ["tournament", "centrix", "--bots", "ismcts,greedy,greedy,greedy", "--players", "4"]
    assert main([*argv, "--games", "2", "--out", str(tmp_path / "no" / "r")]) == 2
    assert "warning" not in capsys.readouterr().err  # nothing said before a refusal


def test_results_are_summarised_again_from_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.jsonl"
    Tournament("centrix", ["greedy", "random"], 2, 4, seed=2).run(out=out)
    assert main(["results", str(out), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 4
    assert {row["label"] for row in summary["by_bot"]} == {"greedy", "random"}
    broken = tmp_path / "broken.jsonl"
    good = out.read_text().splitlines()[0]
    for line, message in (
        ("{not json", "line 2: Invalid JSON"),
        (good.replace('"places": [', '"places": [7, '), "line 2: places must give each"),
        (good.replace('"lineup": [', '"lineup": [3, '), "line 2: lineup.0: Input should be"),
    ):
        broken.write_text(f"{good}\n{line}\n")
        assert main(["results", str(broken)]) == 2
        assert f"{broken}, {message}" in capsys.readouterr().err
    broken.write_bytes(b"\xff\xfe")
    assert main(["results", str(broken)]) == 2
    assert "not UTF-8 text" in capsys.readouterr().err
