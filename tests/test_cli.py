"""The command line, driven in-process with scripted input."""

from __future__ import annotations

import contextlib
import io
import json
import random
import re
from pathlib import Path

import pytest

from gamenight.bots.centrix import TurnPlannerBot
from gamenight.centrix import CentrixState
from gamenight.cli import main


def run(argv: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    return main(argv)


def test_play_a_whole_game_by_numbers_and_save_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "game.json"
    argv = ["centrix", "play", "--players", "2", "--seed", "3", "--first", "1"]
    code = run([*argv, "--save", str(record)], "1\n" * 4000, monkeypatch)
    out = capsys.readouterr().out
    assert code == 0
    assert "Places: 1." in out
    state = CentrixState.replay(record.read_text())
    assert state.is_over
    assert json.loads(record.read_text())["seats"][0]["name"] == "you"


def test_play_against_the_bots_you_choose(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "game.json"
    argv = ["centrix", "play", "--players", "3", "--seed", "4", "--first", "1", "--bot", "planner"]
    assert run([*argv, "--save", str(record)], "1\n" * 4000, monkeypatch) == 0
    played = CentrixState.replay(record.read_text())
    # Every bot play is the one a planner seeded as the command seeds its bots would choose.
    seeds = random.Random(4)
    bots = [TurnPlannerBot(seeds.getrandbits(32)) for _ in range(3)]
    state = CentrixState.new(3, seed=4, first=1)
    bot_plays = 0
    for play in played.plays:
        seat = state.to_move
        assert seat is not None
        if seat != 0:
            assert bots[seat].choose(state.view(seat)) == play
            bot_plays += 1
        state.push(play)
    assert bot_plays > 20
    assert run([*argv[:-1], "nobody"], "", monkeypatch) == 2
    assert "no centrix bot called 'nobody'" in capsys.readouterr().err


def test_play_accepts_notation_reports_errors_and_quits(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    state = CentrixState.new(2, seed=3)
    legal = str(state.legal_plays()[0])
    script = f"R9 nowhere\nB1 a5-a6\n{legal}\nquit\n"
    code = run(
        ["centrix", "play", "--players", "2", "--seed", "3", "--first", "0"], script, monkeypatch
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "'R9' is not a card" in out
    assert "does not hold B1" in out or "B1 a5-a6:" in out
    assert "Game left unfinished." in out


def test_play_prints_what_was_typed_and_its_help_as_written(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = "[/]\n[red]x\nhelp\nquit\n"
    argv = ["centrix", "play", "--players", "2", "--seed", "3", "--first", "0"]
    assert run(argv, script, monkeypatch) == 0
    out = " ".join(capsys.readouterr().out.split())  # Rich wraps long lines
    assert "'[/]' is not a card" in out
    assert "'[red]x' is not a card" in out
    assert "card [ring±n] [from-to], e.g. 'R2 3+2 c3-d3'" in out
    assert "Game left unfinished." in out


def test_play_numbers_out_of_range_name_the_range(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    plays = len(CentrixState.new(2, seed=3).legal_plays())
    argv = ["centrix", "play", "--players", "2", "--seed", "3", "--first", "0"]
    assert run(argv, "99\n0\nquit\n", monkeypatch) == 0
    out = capsys.readouterr().out
    assert f"there is no play 99: choose 1–{plays}" in out
    assert f"there is no play 0: choose 1–{plays}" in out
    assert "is not a card" not in out


def test_save_and_record_are_one_option_of_both_play_commands(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from gamenight.cli import build_parser

    parser = build_parser()
    for game, shown, alias in (("centrix", "save", "record"), ("colorcity", "record", "save")):
        for spelling in (shown, alias):
            ns = parser.parse_args([game, "play", f"--{spelling}", "g.json"])
            assert getattr(ns, shown) == Path("g.json")
        with pytest.raises(SystemExit):
            main([game, "play", "--help"])
        help_text = capsys.readouterr().out
        assert f"--{shown}" in help_text
        assert f"--{alias}" not in help_text


def test_replay_prints_every_play(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    state = CentrixState.new(3, seed=8)
    for _ in range(12):
        state.push(state.legal_plays()[-1])
    path = tmp_path / "r.json"
    path.write_text(state.record().to_json())
    assert run(["centrix", "replay", str(path)], "", monkeypatch) == 0
    out = capsys.readouterr().out
    assert f"12. {state.plays[-1]}" in out


def test_replay_of_a_bad_file_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{nope")
    assert run(["centrix", "replay", str(path)], "", monkeypatch) == 2
    assert "not valid JSON" in capsys.readouterr().err
    assert run(["centrix", "replay", str(tmp_path / "missing.json")], "", monkeypatch) == 2
    assert "cannot read" in capsys.readouterr().err


def test_perft_prints_the_count(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["centrix", "perft", "new", "2"], "", monkeypatch) == 0
    out = capsys.readouterr().out
    assert "perft(2) = 324" in out
    assert "plays/s" in out
    assert run(["centrix", "perft", "new", "0"], "", monkeypatch) == 0
    assert "perft(0) = 1" in capsys.readouterr().out
    assert run(["centrix", "perft", "not a position", "1"], "", monkeypatch) == 2
    assert "13 fields" in capsys.readouterr().err


def test_bench_json_has_the_documented_shape(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["centrix", "bench", "--json", "--games", "1", "--positions", "2"]
    argv += ["--bot-positions", "2", "--think", "0.02"]
    assert run(argv, "", monkeypatch) == 0
    result = json.loads(capsys.readouterr().out)
    bots = result["bots"]
    assert bots["ismcts_iterations"] >= 1
    assert all(bots[k] > 0 for k in ("sample_us", "scores_us", "greedy_ms", "planner_ms"))
    assert result["generation"]["plays_per_s"] > 0
    for players in ("2", "4", "6"):
        row = result["random_play"][players]
        assert set(row) >= {
            "plays_per_s",
            "stepped_plays_per_s",
            "games_per_s",
            "plays_per_game",
            "branching",
        }
        assert row["plays_per_game"] > 0


def test_bench_json_measures_both_paths_and_the_peers_in_one_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from gamenight.centrix import native

    argv = ["centrix", "bench", "--json", "--games", "1", "--positions", "2"]
    argv += ["--bot-positions", "1", "--think", "0.02", "--peer-scale", "0"]
    assert run(argv, "", monkeypatch) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["compiled"] is native.COMPILED
    for path in (result, result["pure"]):
        assert path["generation"]["plays_per_s"] > 0
        assert path["random_play"]["4"]["plays_per_s"] > 0
        assert path["greedy_game"]["4"]["games_per_s"] > 0
        assert path["ismcts"]["iterations_per_s"] > 0
    peers = result["peers"]
    assert peers["python_chess_moves_per_s"] > 0
    assert peers["backgammon_plays_per_s"] > 0
    ratios = result["ratios"]
    assert set(ratios) >= {
        "generation",
        "random_play.4",
        "greedy_game.4",
        "ismcts",
        "generation_vs_python_chess",
        "random_play.4_vs_backgammon",
        "random_play.4_stepped_vs_backgammon",
    }
    assert ratios["generation"] == pytest.approx(
        result["generation"]["plays_per_s"] / result["pure"]["generation"]["plays_per_s"]
    )


def test_every_command_explains_itself(capsys: pytest.CaptureFixture[str]) -> None:
    from gamenight.cli import build_parser

    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "game").choices
    assert set(commands) >= {"centrix", "colorcity", "tournament", "results", "serve", "envs"}
    for argv in [[], *([name] for name in commands)]:
        with pytest.raises(SystemExit) as exit_:
            main([*argv, "--help"])
        assert exit_.value.code == 0
        assert "usage: gamenight" in capsys.readouterr().out
    for name, sub in commands.items():
        for action in sub._actions:
            if action.choices and isinstance(action.choices, dict):
                for command in action.choices:
                    with pytest.raises(SystemExit) as exit_:
                        main([name, command, "--help"])
                    assert exit_.value.code == 0


def test_every_option_has_help_that_shows_its_default() -> None:
    import argparse

    from gamenight.cli import build_parser

    def parsers(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
        found = [parser]
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub in dict.fromkeys(action.choices.values()):
                    found += parsers(sub)
        return found

    for parser in parsers(build_parser()):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction) or action.help == argparse.SUPPRESS:
                continue
            where = f"{parser.prog} {action.dest}"
            assert action.help, f"{where} has no help"
            if action.default not in (None, False, argparse.SUPPRESS):
                shown = action.help % {"default": action.default}
                assert f"default {action.default}" in shown, f"{where}: {action.help}"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["centrix", "replay", "{binary}"], "cannot read .*: not UTF-8 text"),
        (["colorcity", "replay", "{missing}"], "cannot read .*: No such file"),
        (["colorcity", "replay", "{folder}"], "cannot read .*: Is a directory"),
        (["colorcity", "replay", "{binary}"], "cannot read .*: not UTF-8 text"),
        (
            ["centrix", "play", "--first", "0", "--save", "{folder}"],
            "cannot write .*: it is a folder",
        ),
        (["centrix", "play", "--players", "3", "--seat", "3"], "--seat must be 0–2, not 3"),
        (["centrix", "play", "--players", "3", "--first", "3"], "--first must be 0–2, not 3"),
        (
            ["centrix", "play", "--players", "2", "--colours", "RBG"],
            "--players 2 but --colours RBG is 3 pawn colours",
        ),
        (["centrix", "play", "--colours", "RXB"], "--colours: 'X' is not a colour"),
        (["centrix", "play", "--colours", "RBR"], "--colours: .* not R twice"),
        (["centrix", "play", "--players", "7"], "--players: Centrix is for 2–6 players, not 7"),
        (
            ["centrix", "play", "--bot", "foo"],
            "--bot: no centrix bot called 'foo': choose from level1–level5, random, greedy",
        ),
        (
            ["colorcity", "play", "--bot", "foo"],
            "--bot: no colorcity bot called 'foo': choose from level1–level5, random",
        ),
        (["centrix", "play", "--bot", "level9"], "--bot: 'level9': centrix has levels 1–5"),
        (["colorcity", "play", "--gang", "red"], "--gang: a gang is 'green' or 'purple'"),
        (["colorcity", "play", "--first", "5"], "--first: a gang is 'green' or 'purple'"),
        (["colorcity", "play", "--skill", "wobbly"], "--skill: a skill level is one of"),
        (["colorcity", "play", "--bot-skill", "wobbly"], "--bot-skill: a skill level is one of"),
        (["colorcity", "play", "--save", "{missing}/g.json"], "there is no folder .*missing"),
        (["colorcity", "aim", "--skill", "wobbly"], "--skill: a skill level is one of"),
        (["colorcity", "aim", "--planner", "foo"], "--planner: no colorcity bot called 'foo'"),
        (["colorcity", "aim", "--planner", "random"], "--planner: 'random' is not a Planner"),
        (["colorcity", "aim", "--planner", "level1"], "--planner: 'level1' is not a Planner"),
        (["colorcity", "aim", "--opponent", "foo"], "--opponent: no colorcity bot called 'foo'"),
        (["centrix", "play", "--first", "0", "--record", "{folder}"], "it is a folder"),
        (["centrix", "perft", "new", "-1"], "argument depth: must be at least 0, not -1"),
        (["centrix", "perft", "new", "0", "--divide"], "--divide needs a depth of 1 or more"),
        (["colorcity", "play", "--record", "{missing}/g.json"], "there is no folder .*missing"),
        (["serve", "--port", "70000"], "--port must be from 0 to 65535, not 70000"),
        (["serve", "--data-dir", "{binary}"], "cannot use .* for the data"),
        (["centrix", "bench", "--games", "0"], "argument --games: must be at least 1, not 0"),
        (["envs", "compare", "--seconds", "-1"], "argument --seconds: must be a positive number"),
        (["envs", "compare", "--workers", "0"], "argument --workers: must be at least 1"),
        (["envs", "compare", "--out", "{missing}/c.json"], "there is no folder .*missing"),
    ],
)
def test_bad_arguments_and_files_get_one_clear_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    message: str,
) -> None:
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe{")
    places = {"{binary}": binary, "{missing}": tmp_path / "missing", "{folder}": tmp_path}
    for key, path in places.items():
        argv = [a.replace(key, str(path)) for a in argv]
    monkeypatch.delenv("GAMENIGHT_DATABASE_URL", raising=False)
    try:
        code = run(argv, "quit\n", monkeypatch)
    except SystemExit as exc:  # argparse refuses a bad number itself
        code = int(exc.code or 0)
    err = capsys.readouterr().err
    assert code == 2
    assert re.search(message, err), err
    assert "Traceback" not in err
    assert not (tmp_path / "missing").exists()


# '²' passed isdigit() and then failed in int(); '١' read as 1.
@pytest.mark.parametrize("workers", ["many", "²", "١", "9" * 5000, "-1", "0"])
def test_serve_refuses_a_bad_bot_worker_count(
    workers: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GAMENIGHT_BOT_WORKERS", workers)
    monkeypatch.setenv("GAMENIGHT_DATABASE_URL", "sqlite://")
    assert main(["serve"]) == 2
    message = f"GAMENIGHT_BOT_WORKERS must be a whole number ≥ 1, not {workers!r}"
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("ttl", ["soon", "0", "nan", "1e9", "1_0", "١٠", "inf"])
def test_serve_refuses_a_bad_presence_ttl(
    ttl: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GAMENIGHT_PRESENCE_TTL", ttl)
    monkeypatch.setenv("GAMENIGHT_DATABASE_URL", "sqlite://")
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert f"GAMENIGHT_PRESENCE_TTL must be a number of seconds from 1 to 3600, not {ttl!r}" in err


def test_the_presence_ttl_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from gamenight.web.settings import Settings

    monkeypatch.setenv("GAMENIGHT_DATABASE_URL", "sqlite://")
    assert Settings.from_env().presence_ttl == 15.0
    monkeypatch.setenv("GAMENIGHT_PRESENCE_TTL", "4.5")
    assert Settings.from_env().presence_ttl == 4.5


def test_bench_measures_each_peer_beside_the_figure_it_is_compared_with(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A ratio to a peer is of two figures measured one after the other, as the two paths'
    are: a peer measured at the run's end meets another machine load than its figure."""
    from gamenight.bench import centrix as bench

    order: list[str] = []
    for name in ("generation", "random_play", "greedy_game", "ismcts", "bots"):
        monkeypatch.setattr(bench, name, lambda *_, n=name, **__: order.append(n) or {})
    for name in ("python_chess", "backgammon"):
        monkeypatch.setattr(bench, name, lambda *_, n=name, **__: order.append(n) or 1.0)
    with contextlib.suppress(KeyError):  # (the ratios of the stand-ins' empty figures)
        bench.run(peer_scale=0)
    runs = [name for i, name in enumerate(order) if i == 0 or order[i - 1] != name]
    peers_beside = ["generation", "python_chess", "random_play", "backgammon"]
    assert runs == [*peers_beside, "greedy_game", "ismcts", "bots"]
