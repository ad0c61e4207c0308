"""The rules, decision by decision (docs/rules/colorcity.md), and the state's API."""

from __future__ import annotations

import pickle
import random

import pytest

from gamenight.colorcity import (
    ColorCityState,
    Decision,
    Gang,
    Phase,
    Pitch,
    Shot,
    ShotError,
    Skill,
    winning_sets,
)
from gamenight.colorcity.table import DEFAULT_TABLE, Table
from gamenight.core.errors import IllegalActionError, NotationError, RulesError

from .helpers import make_state, pitch_off, pitch_to_square, placed, pose_at

G, P = Gang.GREEN, Gang.PURPLE
T = DEFAULT_TABLE
E5 = T.parse_square("e5")


def sq(name: str) -> int:
    return T.parse_square(name)


def no_powers(**kwargs: object) -> ColorCityState:
    return make_state(powers=(False, False), **kwargs)  # type: ignore[arg-type]


# ---------------------------------------------------------------- D1, D2: gangs and turns


def test_new_game_has_four_cubes_each_and_the_chosen_gang_first() -> None:
    state = ColorCityState.new(seed=1, first="purple")
    assert state.cubes == [4, 4]
    assert state.to_move is P
    assert state.phase is Phase.PITCH
    assert state.expects() == "shot"
    assert state.outcome is None
    assert ColorCityState.new(seed=1).to_move is G


def test_turns_alternate() -> None:
    state = no_powers()
    order = []
    for square in ("a1", "b1", "c1", "d1"):
        order.append(state.to_move)
        pitch_to_square(state, sq(square))
    assert order == [G, P, G, P]
    assert state.turn == 4


def test_a_gangs_seats_take_its_pitches_in_rotation() -> None:
    seats = ((G, Skill.EXACT), (P, Skill.NORMAL), (G, Skill.SHAKY), (G, Skill.STEADY))
    state = make_state(powers=(False, False), seats=seats)
    pitchers = []
    for i in range(8):
        pitchers.append(state.pitcher)
        pitch_to_square(state, i)
    assert pitchers == [0, 1, 2, 1, 3, 1, 0, 1]
    assert state.movers == pitchers  # who made each action, as the log shows it
    state.pop()
    assert state.movers == pitchers[:-1]


def test_movers_name_the_seat_behind_powers_and_repitches_too() -> None:
    state = ColorCityState.new(seed=5, seats=((G, Skill.EXACT), (P, Skill.EXACT)))
    state.push(Shot(0.0, 0.0, 1.3, 0.0))
    state.push(Decision.LUCKY_DAY)
    state.push(Shot(0.0, 0.0, 1.3, 0.0))  # the re-pitch ends Green's turn: its power is spent
    state.push(Shot(0.0, 0.0, 1.3, 0.0))
    state.push(Decision.PASS)
    assert state.movers == [0, 0, 0, 1, 1]


def test_each_seat_pitches_with_its_own_hand() -> None:
    seats = ((G, Skill.EXACT), (P, Skill.SHAKY))
    state = ColorCityState.new(seed=5, seats=seats)
    first = state.push(Shot(0.0, 0.0, 1.3, 0.0))
    assert isinstance(first, Pitch)
    assert first.noise == (0.0, 1.0, 0.0)
    state.push(Decision.PASS)
    second = state.push(Shot(0.0, 0.0, 1.3, 0.0))
    assert isinstance(second, Pitch)
    assert second.noise.direction != 0.0


def test_set_up_is_checked() -> None:
    with pytest.raises(RulesError, match="purple needs at least one seat"):
        ColorCityState.new(seed=1, seats=[(G, "normal")])
    with pytest.raises(RulesError, match="gang"):
        ColorCityState.new(seed=1, first="orange")
    with pytest.raises(NotationError, match="skill"):
        ColorCityState.new(seed=1, seats=[(G, "normal"), (P, "drunk")])


def test_a_pitch_really_flies_and_is_resolved() -> None:
    state = ColorCityState.new(seed=3, seats=[(G, "exact"), (P, "exact")])
    pitch = state.push(Shot(0.0, 0.0, 1.3, 0.0))
    assert isinstance(pitch, Pitch)
    assert state.last_flick is not None
    assert state.last_flick.pose == pitch.pose
    assert state.phase is Phase.POWER
    covered = state.covered(pitch.pose)
    state.push("pass")
    assert covered == (sq("e4"),)
    assert state.owner(sq("e4")) is G
    assert state.to_move is P


# ---------------------------------------------------------------- D4, D6: when powers are used


def test_power_phase_offers_only_the_movers_power() -> None:
    state = make_state()
    pitch_to_square(state, E5)
    assert state.phase is Phase.POWER
    assert state.legal_decisions() == [Decision.LUCKY_DAY, Decision.PASS]
    with pytest.raises(IllegalActionError, match="purple's power"):
        state.push(Decision.PURPLE_PAIN)
    state.push(Decision.PASS)
    pitch_to_square(state, sq("a9"))
    assert state.legal_decisions() == [Decision.PURPLE_PAIN, Decision.PASS]
    with pytest.raises(IllegalActionError, match="green's power"):
        state.push(Decision.LUCKY_DAY)


def test_powers_only_in_the_power_phase() -> None:
    state = make_state()
    before = state.position()
    with pytest.raises(IllegalActionError, match="after the cube stops"):
        state.push(Decision.LUCKY_DAY)
    with pytest.raises(IllegalActionError, match="after the cube stops"):
        state.push("pass")
    assert state.position() == before
    pitch_to_square(state, E5)
    with pytest.raises(IllegalActionError, match="must first decide"):
        state.push(Shot(0.0, 0.0, 1.3, 0.0))


def test_each_power_only_once() -> None:
    state = make_state()
    pitch_to_square(state, E5)
    state.push(Decision.LUCKY_DAY)
    pitch_to_square(state, E5)  # the re-pitch stands: no power phase
    assert state.to_move is P
    pitch_to_square(state, sq("a9"))
    state.push(Decision.PURPLE_PAIN)
    # Neither gang has its power now: pitches resolve at once.
    pitch_to_square(state, sq("b2"))
    assert state.phase is Phase.PITCH
    assert state.to_move is P
    pitch_to_square(state, sq("b8"))
    assert state.phase is Phase.PITCH
    assert state.to_move is G
    assert state.powers == [False, False]
    with pytest.raises(IllegalActionError, match="already been used"):
        state.push(Decision.LUCKY_DAY)


def test_declining_keeps_the_power() -> None:
    state = make_state()
    pitch_to_square(state, E5)
    state.push("pass")
    pitch_to_square(state, sq("a9"))
    state.push("pass")
    pitch_to_square(state, sq("a1"))
    assert state.legal_decisions() == [Decision.LUCKY_DAY, Decision.PASS]


# ---------------------------------------------------------------- D7: Lucky Day


def test_lucky_day_discards_the_first_result() -> None:
    state = make_state()
    pitch_to_square(state, sq("a1"))
    state.push(Decision.LUCKY_DAY)
    assert state.phase is Phase.PITCH
    assert state.to_move is G
    assert state.turn == 0
    assert state.cubes == [4, 4]
    assert state.pending is None
    pitch_to_square(state, sq("i9"))
    assert state.owner(sq("a1")) is None
    assert state.owner(sq("i9")) is G
    assert state.to_move is P


def test_lucky_day_saves_a_cube_that_fell() -> None:
    state = make_state()
    pitch_off(state)
    state.push(Decision.LUCKY_DAY)
    pitch_to_square(state, E5)
    assert state.cubes == [4, 4]


def test_lucky_day_repitch_draws_fresh_noise() -> None:
    state = ColorCityState.new(seed=8)
    first = state.push(Shot(0.0, 0.0, 1.3, 0.0))
    state.push(Decision.LUCKY_DAY)
    second = state.push(Shot(0.0, 0.0, 1.3, 0.0))
    assert isinstance(first, Pitch)
    assert isinstance(second, Pitch)
    assert first.noise != second.noise
    assert state.pitcher is None or state.to_move is P


# ---------------------------------------------------------------- D8: Purple Pain


def test_purple_pain_destroys_a_cube_in_greens_hq() -> None:
    state = make_state(to_move=P)
    pitch_to_square(state, E5)
    state.push(Decision.PURPLE_PAIN)
    assert state.cubes == [3, 4]
    assert state.owner(E5) is P  # and Purple's own pitch still counts
    assert state.to_move is G


def test_purple_pain_can_win_by_taking_the_last_cube() -> None:
    state = make_state(to_move=P, cubes=(1, 2))
    pitch_to_square(state, E5)
    state.push(Decision.PURPLE_PAIN)
    assert state.is_over
    assert state.winner is P
    assert state.outcome is not None
    assert state.outcome.reason == "elimination"
    assert state.outcome.places == (2, 1)


def test_places_rank_a_gangs_seats_together_as_every_outcome_ranks() -> None:
    # Two Green seats and one Purple's: Green's line puts Purple's seat behind both, so
    # third ("1, 3, 1"), the competition ranking every Outcome keeps (D1).
    seats = ((G, Skill.NORMAL), (P, Skill.NORMAL), (G, Skill.NORMAL))
    size = DEFAULT_TABLE.city_size
    state = make_state(dict.fromkeys(range(1, size), G), powers=(False, False), seats=seats)
    pitch_to_square(state, 0)
    assert state.winner is G
    assert state.outcome is not None
    assert state.outcome.reason == "line"
    assert state.outcome.places == (1, 3, 1)
    # A gang of several seats wins with several seats first: a view dealt anew keeps it.
    assert state.view(1).sample(random.Random(0)).outcome == state.outcome


def test_mutual_elimination_is_a_draw() -> None:
    state = make_state(to_move=P, cubes=(1, 1))
    pitch_off(state)
    state.push(Decision.PURPLE_PAIN)
    assert state.outcome is not None
    assert state.outcome.is_draw
    assert state.outcome.reason == "elimination"


# ---------------------------------------------------------------- D9: fight


def test_a_cube_that_covers_no_square_is_destroyed() -> None:
    state = no_powers()
    state.push(placed(state, pose_at(0.0, -150.0)))  # stopped short of the city
    assert state.cubes == [3, 4]
    state.push(placed(state, pose_at(0.0, 150.0)))  # stopped before its own HQ, outside
    assert state.cubes == [3, 3]


def test_a_cube_that_fell_off_is_destroyed() -> None:
    state = no_powers()
    pitch_off(state)
    assert state.cubes == [3, 4]
    assert all(c == -1 for c in state.cells)


def test_eliminating_the_opponent_wins() -> None:
    state = no_powers(cubes=(1, 4))
    pitch_off(state)
    assert state.is_over
    assert state.winner is P
    assert state.outcome is not None
    assert state.outcome.reason == "elimination"
    with pytest.raises(IllegalActionError, match="over"):
        state.push(Shot(0.0, 0.0, 1.3, 0.0))


# ---------------------------------------------------------------- D10: conquer


def test_conquering_overwrites_and_the_cube_returns() -> None:
    state = no_powers(cells={sq("e5"): P, sq("f5"): P})
    x0, y0, _, _ = T.square_bounds(sq("f6"))
    state.push(placed(state, pose_at(x0, y0)))  # the corner of e5, f5, e6, f6
    assert [state.owner(sq(n)) for n in ("e5", "f5", "e6", "f6")] == [G] * 4
    assert state.cubes == [4, 4]
    assert state.squares(G) == 4
    assert state.squares(P) == 0


def test_overwriting_breaks_a_line() -> None:
    row = [sq(f"{c}5") for c in "abcdefgh"]
    state = no_powers(cells=dict.fromkeys(row, G), to_move=P)
    pitch_to_square(state, sq("d5"))
    assert state.owner(sq("d5")) is P
    pitch_to_square(state, sq("i5"))  # Green fills the row's last square, but d5 is lost
    assert not state.is_over


# ---------------------------------------------------------------- D11: victory


@pytest.mark.parametrize("gang", [G, P])
@pytest.mark.parametrize(("index", "kind"), list(enumerate(r for r, _ in winning_sets(9))))
def test_every_line_and_block_wins(gang: Gang, index: int, kind: str) -> None:
    reason, squares = winning_sets(9)[index]
    last = squares[len(squares) // 2]
    cells = {s: gang for s in squares if s != last}
    state = no_powers(cells=cells, to_move=gang)
    assert not state.is_over
    pitch_to_square(state, last)
    assert state.is_over
    assert state.winner is gang
    assert state.outcome is not None
    assert state.outcome.reason == kind == reason
    assert state.outcome.winner == int(gang)


def test_there_are_9_rows_9_columns_and_36_blocks() -> None:
    kinds = [r for r, _ in winning_sets(9)]
    assert kinds.count("line") == 18
    assert kinds.count("block") == 36
    assert all(len(s) == 16 for r, s in winning_sets(9) if r == "block")


def test_diagonals_do_not_count() -> None:
    diagonal = [r * 9 + r for r in range(8)]
    state = no_powers(cells=dict.fromkeys(diagonal, G))
    pitch_to_square(state, 80)
    assert state.squares(G) == 9
    assert not state.is_over


def test_a_3_by_5_patch_is_no_block() -> None:
    patch = {r * 9 + c: G for r in range(3) for c in range(5)}
    state = no_powers(cells=patch)
    pitch_to_square(state, 40)
    assert not state.is_over


# ---------------------------------------------------------------- D12: the turn cap


def test_no_cap_by_default() -> None:
    assert ColorCityState.new(seed=1).table.max_turns is None


def test_at_the_cap_more_squares_wins() -> None:
    table = T.with_(max_turns=3)
    state = make_state(powers=(False, False), table=table)
    pitch_to_square(state, sq("a1"))
    pitch_to_square(state, sq("a9"))
    assert not state.is_over
    x0, y0, _, _ = T.square_bounds(sq("f6"))
    state.push(placed(state, pose_at(x0, y0)))
    assert state.is_over
    assert state.winner is G
    assert state.outcome is not None
    assert state.outcome.at_cap


def test_at_the_cap_equal_squares_is_a_draw() -> None:
    state = make_state(powers=(False, False), table=T.with_(max_turns=2))
    pitch_to_square(state, sq("a1"))
    pitch_to_square(state, sq("a9"))
    assert state.outcome is not None
    assert state.outcome.is_draw
    assert state.outcome.reason == "turn_cap"
    assert state.outcome.places == (1, 1)


def test_a_win_on_the_last_turn_beats_the_cap() -> None:
    row = [sq(f"{c}1") for c in "abcdefgh"]
    state = make_state(dict.fromkeys(row, G), powers=(False, False), table=T.with_(max_turns=1))
    pitch_to_square(state, sq("i1"))
    assert state.outcome is not None
    assert state.outcome.reason == "line"


# ---------------------------------------------------------------- API: push/pop, copy, errors


def test_bad_shots_leave_the_state_untouched() -> None:
    state = ColorCityState.new(seed=4)
    before = state.position()
    for bad in (Shot(0.0, 0.0, 5.0, 0.0), Shot(0.0, float("nan"), 1.2, 0.0), Shot(200, 0, 1, 0)):
        with pytest.raises(ShotError):
            state.push(bad)
    with pytest.raises(NotationError):
        state.push("1 2 fast")
    with pytest.raises(IllegalActionError, match="not a Color City action"):
        state.push(42)  # type: ignore[arg-type]
    assert state.position() == before
    assert state.actions == []


def test_a_pitch_with_the_wrong_noise_is_refused() -> None:
    state = make_state()
    good = placed(state, pose_at(0.0, 0.0))
    bad = good._replace(noise=good.noise._replace(spin=good.noise.spin + 1e-9))
    with pytest.raises(IllegalActionError, match="noise"):
        state.push(bad)
    broken = good._replace(pose=good.pose._replace(x=float("nan")))
    with pytest.raises(IllegalActionError, match="finite"):
        state.push(broken)
    assert state.actions == []
    assert state.key == 12345


def test_push_pop_restores_exactly() -> None:
    state = ColorCityState.new(seed=11)
    positions = [state.position()]
    for action in ("0 0 1.3 0", "pass", "10 -4 1.4 3", "purple-pain", "-20 5 1.25 -6"):
        state.push(action)
        positions.append(state.position())
    assert len(state.actions) == 5
    for expected in reversed(positions[:-1]):
        state.pop()
        assert state.position() == expected
    with pytest.raises(IndexError):
        state.pop()


def test_copy_is_independent() -> None:
    state = make_state()
    pitch_to_square(state, E5)
    clone = state.copy()
    assert clone == state
    clone.push("pass")
    clone.pop()
    clone.pop()
    assert clone.position() != state.position()
    assert state.phase is Phase.POWER
    state.push("pass")
    assert state.owner(E5) is G


def test_the_state_pickles() -> None:
    state = ColorCityState.new(seed=2)
    state.push("0 0 1.3 0")
    again = pickle.loads(pickle.dumps(state))
    assert again == state
    again.push("pass")
    assert again.to_move is P


def test_same_seed_same_game() -> None:
    def play(seed: int) -> list[str]:
        state = ColorCityState.new(seed=seed, seats=[(G, "shaky"), (P, "normal")])
        out = []
        for action in ("0 0 1.3 0", "pass", "5 2 1.2 4", "pass", "-30 8 1.5 -10"):
            state.push(action)
            out.append(state.position())
        return out

    assert play(77) == play(77)
    assert play(77) != play(78)


def test_predict_is_noise_free_and_changes_nothing() -> None:
    state = ColorCityState.new(seed=6, seats=[(G, "exact"), (P, "exact")])
    before = state.position()
    flick = state.predict(Shot(0.0, 0.0, 1.3, 0.0))
    assert state.position() == before
    pitch = state.push(Shot(0.0, 0.0, 1.3, 0.0))
    assert isinstance(pitch, Pitch)
    assert pitch.pose == flick.pose


def test_view_leaves_out_only_the_key() -> None:
    state = make_state()
    view = state.view(0)
    assert view.cells == tuple(state.cells)
    assert view.to_move is G
    assert not hasattr(view, "key")
    with pytest.raises(ValueError, match="no seat"):
        state.view(5)


@pytest.mark.parametrize(
    ("powers", "held"),
    [
        ("both", [True, True]),
        ("green", [True, False]),
        ("purple", [False, True]),
        ("none", [False, False]),
    ],
)
def test_the_table_says_which_gangs_have_their_power(powers: str, held: list[bool]) -> None:
    # D22: a designer compares a game with and without each power.
    state = ColorCityState.new(seed=3, table=T.with_(powers=powers))
    assert state.powers == held
    pitch_to_square(state, E5)
    assert state.phase is (Phase.POWER if held[0] else Phase.PITCH)
    if held[0]:
        state.push("pass")
    pitch_to_square(state, sq("a9"))
    assert state.phase is (Phase.POWER if held[1] else Phase.PITCH)


def test_which_gangs_have_their_power_is_checked() -> None:
    with pytest.raises(RulesError, match="powers must be one of both, green, purple, none"):
        T.with_(powers="lucky").check_bounds()
    with pytest.raises(RulesError, match="powers"):
        Table.from_dict({"powers": 3})
    assert Table.from_dict({}).powers == "both"  # a record from before the field
