"""Centrix bots: legal, reproducible, honest (they see only their seat's view)."""

from __future__ import annotations

import random

import pytest

from gamenight.bots.base import Budget
from gamenight.bots.centrix import (
    GreedyBot,
    IsmctsBot,
    RandomBot,
    TurnPlannerBot,
    fast_play,
    plan_turn,
    rewards,
)
from gamenight.bots.registry import game_bots
from gamenight.centrix import CentrixState
from gamenight.centrix.position import Position
from gamenight.core.errors import NotationError


def positions(count: int, seed: int = 1) -> list[CentrixState]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = CentrixState.new(rng.randint(2, 6), seed=rng.getrandbits(32))
        for _ in range(rng.randint(0, 120)):
            if state.is_over:
                break
            state.push(rng.choice(state.legal_plays()))
        if not state.is_over:
            out.append(state)
    return out


def make_bots(seed: int) -> list[object]:
    return [
        RandomBot(seed),
        GreedyBot(seed),
        IsmctsBot(seed, Budget(iterations=25)),
        TurnPlannerBot(seed, beam=3),
    ]


def test_every_bot_move_is_legal_over_many_positions() -> None:
    for i, state in enumerate(positions(40)):
        seat = state.to_move
        legal = set(state.legal_plays())
        for bot in make_bots(i):
            assert bot.choose(state.view(seat)) in legal, (bot, state.position())  # type: ignore[attr-defined]


def test_the_fast_rollout_policy_is_legal() -> None:
    rng = random.Random(2)
    for state in positions(40, seed=2):
        assert fast_play(state, rng) in set(state.legal_plays())


@pytest.mark.parametrize("index", [0, 1, 2, 3])
def test_seeded_bots_with_an_iteration_budget_repeat_their_choices(index: int) -> None:
    def choices() -> list[str]:
        bot = make_bots(7)[index]
        return [str(bot.choose(s.view(s.to_move))) for s in positions(12, seed=3)]  # type: ignore[attr-defined]

    assert choices() == choices()


def hidden_twin(state: CentrixState, seat: int, rng: random.Random) -> CentrixState:
    """The same table and the same hand for ``seat``; everything it cannot see re-dealt."""
    p = state.to_position()
    unseen = [c for s, h in enumerate(p.hands) if s != seat for c in h] + list(p.draw)
    rng.shuffle(unseen)
    hands = []
    for s, hand in enumerate(p.hands):
        if s == seat:
            hands.append(hand)
        else:
            hands.append(tuple(sorted(unseen[: len(hand)])))
            del unseen[: len(hand)]
    twin = Position(**{**vars(p), "hands": tuple(hands), "draw": tuple(unseen), "key": p.key ^ 1})
    return CentrixState(state.rules, state.players, twin)


@pytest.mark.parametrize("index", [0, 1, 2, 3])
def test_bots_do_not_peek(index: int) -> None:
    rng = random.Random(5)
    for i, state in enumerate(positions(8, seed=4)):
        seat = state.to_move
        assert seat is not None
        twin = hidden_twin(state, seat, rng)
        assert twin.position() != state.position() or state.num_players == 1
        a = make_bots(i)[index].choose(state.view(seat))  # type: ignore[attr-defined]
        b = make_bots(i)[index].choose(twin.view(seat))  # type: ignore[attr-defined]
        assert a == b


def test_greedy_beats_random_and_ismcts_beats_random() -> None:
    from gamenight.tournament.runner import play_game

    for lineup in (["greedy", "random"], ["random", "ismcts:30it"]):
        for seed in range(3):
            result = play_game("centrix", lineup, seed)
            winner = lineup[result.places.index(1)]
            assert winner != "random", (lineup, seed)


def test_rewards_are_places_at_the_end_and_bounded_before() -> None:
    state = positions(1)[0]
    values = rewards(state)
    assert all(0 < v < 1 for v in values)
    finished = CentrixState.new(3, seed=1)
    rng = random.Random(1)
    while not finished.is_over:
        finished.push(rng.choice(finished.legal_plays()))
    assert finished.outcome is not None
    assert rewards(finished) == [(3 - p) / 2 for p in finished.outcome.places]


def test_levels_and_specs() -> None:
    spec = game_bots("centrix")
    assert sorted(spec.levels) == [1, 2, 3, 4, 5]
    assert isinstance(spec.bot("level1"), RandomBot)
    bot = spec.bot("ismcts:0.25s", seed=3)
    assert isinstance(bot, IsmctsBot)
    assert bot.budget == Budget(seconds=0.25)
    assert spec.bot("ismcts:40it+1s").budget == Budget(40, 1.0)
    for bad, message in (
        ("minimax", "no centrix bot"),
        ("level9", "levels 1–5"),
        ("ismcts:fast", "not a budget"),
    ):
        with pytest.raises(NotationError, match=message):
            spec.bot(bad)


def test_budget_counts_iterations() -> None:
    bot = IsmctsBot(1, Budget(iterations=17))
    state = positions(1, seed=9)[0]
    while len(state.legal_plays()) < 2:
        state = positions(1, seed=10)[0]
    bot.choose(state.view(state.to_move))
    assert bot.last_iterations == 17


def test_the_turn_plan_is_a_whole_legal_turn_and_no_worse_than_any_first_play() -> None:
    rng = random.Random(3)
    for state in positions(10, seed=6):
        seat = state.to_move
        assert seat is not None
        before = state.position()
        by_first, plan = plan_turn(state, seat, rng, beam=4)
        assert state.position() == before
        best = max(by_first.values(), key=lambda item: item[0])
        assert plan == best[1]
        for play in plan:  # every play of the plan is legal in turn, and then the turn ends
            assert state.to_move == seat
            state.push(play)
        assert state.to_move != seat or state.is_over
