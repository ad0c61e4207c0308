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
    rewards,
    turn_plans,
)
from gamenight.bots.registry import game_bots
from gamenight.centrix import CentrixState
from gamenight.centrix.position import Position
from gamenight.core.errors import NotationError
from tests.centrix.helpers import random_positions


def make_bots(seed: int) -> list[object]:
    return [
        RandomBot(seed),
        GreedyBot(seed),
        IsmctsBot(seed, Budget(iterations=25)),
        TurnPlannerBot(seed, beam=3),
    ]


def test_every_bot_move_is_legal_over_many_positions() -> None:
    for i, state in enumerate(random_positions(40, seed=1)):
        seat = state.to_move
        legal = set(state.legal_plays())
        for bot in make_bots(i):
            assert bot.choose(state.view(seat)) in legal, (bot, state.position())  # type: ignore[attr-defined]


def test_the_fast_rollout_policy_is_legal() -> None:
    rng = random.Random(2)
    for state in random_positions(40, seed=2):
        assert fast_play(state, rng) in set(state.legal_plays())


@pytest.mark.parametrize("index", [0, 1, 2, 3])
def test_seeded_bots_with_an_iteration_budget_repeat_their_choices(index: int) -> None:
    def choices() -> list[str]:
        bot = make_bots(7)[index]
        return [str(bot.choose(s.view(s.to_move))) for s in random_positions(12, seed=3)]  # type: ignore[attr-defined]

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
    for i, state in enumerate(random_positions(8, seed=4)):
        seat = state.to_move
        assert seat is not None
        twin = hidden_twin(state, seat, rng)
        assert twin.position() != state.position() or state.num_players == 1
        # What differs is hidden from the seat: its view, all a bot gets, is the same.
        assert twin.view(seat) == state.view(seat)
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
    state = random_positions(1, seed=1)[0]
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
    bots = [spec.bot(f"level{n}") for n in range(1, 6)]
    kinds = [RandomBot, GreedyBot, GreedyBot, TurnPlannerBot, TurnPlannerBot]
    assert all(isinstance(bot, kind) for bot, kind in zip(bots, kinds, strict=True))
    assert (bots[1].epsilon, bots[2].epsilon) == (0.5, 0.0)
    assert (bots[3].beam, bots[4].beam) == (2, 6)
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
    state = random_positions(1, seed=9)[0]
    while len(state.legal_plays()) < 2:
        state = random_positions(1, seed=10)[0]
    bot.choose(state.view(state.to_move))
    assert bot.last_iterations == 17


def test_turn_plans_are_whole_legal_turns_best_first() -> None:
    rng = random.Random(4)
    for state in random_positions(8, seed=7):
        seat = state.to_move
        assert seat is not None
        before = state.position()
        plans = turn_plans(state, seat, rng, beam=3)
        assert state.position() == before
        values = [v for v, _ in plans]
        assert values == sorted(values, reverse=True)
        assert len({tuple(p) for _, p in plans}) == len(plans)
        for _, plan in plans[:5]:
            copy = state.copy()
            for play in plan:
                assert copy.to_move == seat
                copy.push(play)
            assert copy.to_move != seat or copy.is_over


def test_ismcts_chooses_the_first_play_of_one_of_its_best_plans() -> None:
    for i, state in enumerate(random_positions(10, seed=8)):
        seat = state.to_move
        assert seat is not None
        view = state.view(seat)
        # The plans the bot makes at its root: on the deal it samples first, with the same
        # random tie-breaks (a twin with the same seed draws the same numbers).
        twin = IsmctsBot(i, Budget(iterations=30), plans=4)
        plans = turn_plans(view.sample(twin.rng), seat, twin.rng, twin.beam)[:4]
        bot = IsmctsBot(i, Budget(iterations=30), plans=4)
        assert bot.choose(view) in {p[0] for _, p in plans}


def test_greedy_with_epsilon_sometimes_plays_at_random() -> None:
    states = random_positions(30, seed=9)
    greedy = [GreedyBot(1).choose(s.view(s.to_move)) for s in states]  # type: ignore[arg-type]
    sloppy = [GreedyBot(1, epsilon=0.5).choose(s.view(s.to_move)) for s in states]  # type: ignore[arg-type]
    differ = sum(a != b for a, b in zip(greedy, sloppy, strict=True))
    assert 3 <= differ <= 25
    with pytest.raises(ValueError, match="epsilon"):
        GreedyBot(1, epsilon=1.5)


def test_specs_carry_options() -> None:
    spec = game_bots("centrix")
    bot = spec.bot("ismcts:40it:plans=5:bias=2.5", seed=1)
    assert (bot.plans, bot.bias, bot.budget) == (5, 2.5, Budget(iterations=40))
    assert spec.bot("greedy:epsilon=0.25").epsilon == 0.25
    assert spec.bot("planner2:beam=3").beam == 3
    for bad, message in (
        ("planner:colour=red", "colour"),
        ("greedy:epsilon=2", "epsilon is a probability"),
    ):
        with pytest.raises(NotationError, match=message):
            spec.bot(bad)


@pytest.mark.parametrize("players", [2, 3, 6])
def test_the_random_bots_whole_turn_is_its_plays_one_by_one(players: int) -> None:
    # play_turn (the compiled core's whole turn, where it runs) against the reference: each
    # play by choose on the seat's view, pushed. The same positions after every turn, the
    # same generators, through reshuffles of the discard pile and to the game's end.
    reshuffles = 0
    for game in range(3):
        seed = 100 * players + game
        whole = CentrixState.new(players, seed=seed)
        single = CentrixState.new(players, seed=seed)
        turn_bots = [RandomBot(seed + seat) for seat in range(players)]
        play_bots = [RandomBot(seed + seat) for seat in range(players)]
        while not whole.is_over:
            seat = whole.actor
            assert seat is not None
            discarded = len(whole.discard)
            made = turn_bots[seat].play_turn(whole)
            plays = 0
            while single.actor == seat:
                single.push_unchecked(play_bots[seat].choose(single.view(seat)))
                plays += 1
            assert made == plays
            assert whole.position() == single.position()
            assert turn_bots[seat].rng.getstate() == play_bots[seat].rng.getstate()
            reshuffles += len(whole.discard) < discarded
        assert single.is_over
        assert turn_bots[0].play_turn(whole) == 0  # nothing to play once the game is over
    assert reshuffles > 0
