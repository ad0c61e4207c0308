"""Analysis after the game: chances along a finished game, turning points and mistakes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gamenight.analysis import centrix, colorcity, hands
from gamenight.analysis.report import SWING, grade
from gamenight.bots.registry import game_bots
from gamenight.centrix import CentrixState, Colour
from gamenight.cli import main
from gamenight.colorcity import ColorCityState, Gang
from gamenight.core.errors import RecordError

from ..colorcity.helpers import make_state


def centrix_game(level: str = "level3", players: int = 2, seed: int = 4) -> CentrixState:
    state = CentrixState.new(list(Colour)[:players], seed=seed, first=0)
    bots = [game_bots("centrix").bot(level, seed=i) for i in range(players)]
    while not state.is_over:
        state.push(bots[state.actor].choose(state.view(state.actor)))
    return state


def colorcity_game(level: str = "level1", seed: int = 2) -> ColorCityState:
    state = ColorCityState.new(seed=seed)
    bots = [game_bots("colorcity").bot(level, seed=i) for i in range(2)]
    while not state.is_over:
        state.push(bots[state.actor].choose(state.view(state.actor)))
    return state


def check_shape(data: dict[str, object], plays: int, seats: int) -> None:
    assert {"seats", "chances", "turning_points", "mistakes"} <= set(data)
    chances = data["chances"]
    assert isinstance(chances, list)
    assert len(chances) == plays + 1
    for row in chances:
        assert len(row) == seats
        assert sum(row) == pytest.approx(1, abs=1e-3)
    for mistake in data["mistakes"]:  # type: ignore[attr-defined]
        assert set(mistake) >= {"ply", "seat", "played", "preferred", "loss"}
        assert mistake["played"] != mistake["preferred"]
        assert grade(mistake["loss"]) is not None
    for point in data["turning_points"]:  # type: ignore[attr-defined]
        assert max(abs(x) for x in point["swing"]) >= SWING - 1e-3


def test_a_centrix_game_is_analysed_play_by_play() -> None:
    game = centrix_game()
    result = centrix.analyse(game.record().to_json(), rollouts=8)
    check_shape(result.to_json(), len(game.plays), 2)
    winner = game.outcome.places.index(1)  # type: ignore[union-attr]
    assert result.winner == winner
    assert result.chances[-1][winner] == 1.0
    assert "every hand" in result.method
    # Between two level-3 bots the planner disagrees somewhere, and some play costs.
    assert result.mistakes


def test_rollout_chances_see_a_won_race() -> None:
    game = centrix_game()
    start, plays, _ = centrix.start_and_plays(game.record())
    state = start.copy(history=False)
    for play in plays[: len(plays) - 3]:
        state.push(play)
    near_end = centrix.chances(state, 64, 1)
    winner = game.outcome.places.index(1)  # type: ignore[union-attr]
    assert near_end[winner] > 0.5
    assert centrix.chances(state, 64, 1) == near_end  # the same seed, the same draws


def test_an_unfinished_game_is_refused() -> None:
    state = CentrixState.new(list(Colour)[:2], seed=1, first=0)
    state.push(state.legal_plays()[0])
    with pytest.raises(RecordError, match="not over"):
        centrix.analyse(state.record().to_json())


def test_a_colorcity_game_keeps_each_aim_and_the_planners_shot() -> None:
    game = colorcity_game()
    result = colorcity.analyse(game.record().to_json(), rollouts=8, bot="planner:8it")
    data = result.to_json()
    check_shape(data, len(game.actions), 2)
    pitches = [a for a in game.actions if hasattr(a, "shot")]
    assert len(data["aims"]) == len(pitches)
    for aim, pitch in zip(data["aims"], pitches, strict=True):
        assert set(aim) >= {"aimed", "stopped", "best_shot", "best_aimed"}
        assert aim["stopped"] == [game.table.square_name(s) for s in game.covered(pitch.pose)]


def test_the_hands_model_favours_the_gang_one_square_from_a_line() -> None:
    near = dict.fromkeys(range(73, 81), Gang.PURPLE)  # Purple's near row lacks a9 only
    assert hands.chances(make_state(near, to_move=Gang.PURPLE), 64, 0, temper=False)[1] > 0.8
    # Purple's far row, next to Green's HQ, lacking a1: Green to move may break it first.
    far = dict.fromkeys(range(1, 9), Gang.PURPLE)
    purple = hands.chances(make_state(far, to_move=Gang.PURPLE), 512, 0, temper=False)[1]
    green = hands.chances(make_state(far, to_move=Gang.GREEN), 512, 0, temper=False)[1]
    assert green < purple


def test_a_gang_that_guards_breaks_the_threat() -> None:
    far = dict.fromkeys(range(73, 81), Gang.PURPLE)  # Purple's near row, far from Green
    state = make_state(far, to_move=Gang.GREEN)
    game = hands.Game.of(state, (1.0, 1.0))
    hits = hands.hit_chances(state.table, Gang.GREEN, state.seats[0][1])
    skill = state.seats[0][1]
    eases = (
        hands.ease(state.table, Gang.GREEN, skill),
        hands.ease(state.table, Gang.PURPLE, skill),
    )
    board = hands.board(9)
    guarded = hands.target(game.cells, game.lack, Gang.GREEN, hits, eases, board, True)
    assert guarded in range(72, 81)  # a square of Purple's threatened row
    builder = hands.target(game.cells, game.lack, Gang.GREEN, hits, eases, board, False)
    assert builder not in range(72, 81)  # only builds its own, near its HQ


@pytest.mark.parametrize("game", ["centrix", "colorcity"])
def test_analyse_json_prints_one_object(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = centrix_game() if game == "centrix" else colorcity_game()
    record = tmp_path / "game.json"
    record.write_text(state.record().to_json())
    code = main([game, "analyse", str(record), "--json", "--rollouts", "4"])
    captured = capsys.readouterr()
    assert code == 0
    data = json.loads(captured.out)
    assert {"seats", "chances", "turning_points", "mistakes"} <= set(data)
    assert "analysed" in captured.err  # plain progress lines, not a terminal
