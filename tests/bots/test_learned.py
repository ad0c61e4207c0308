"""The learned Centrix bot: its specs, legal plays, honesty (it reads only its seat's view)
and weights that load with numpy alone."""

from __future__ import annotations

import random
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from gamenight.bots.base import Budget
from gamenight.bots.learned import (
    FEATURES,
    LearnedBot,
    LearnedSearchBot,
    afterstates,
    features,
    load_net,
)
from gamenight.bots.registry import game_bots
from gamenight.core.errors import NotationError
from tests.bots.test_centrix_bots import hidden_twin
from tests.centrix.helpers import random_positions


def test_the_specs_parse() -> None:
    bots = game_bots("centrix")
    alone = bots.bot("learned", seed=1)
    assert type(alone) is LearnedBot
    searching = bots.bot("learned:search=0.25", seed=1)
    assert isinstance(searching, LearnedSearchBot)
    assert searching.budget == Budget(seconds=0.25)
    assert bots.bot("learned:40it:search=1").budget == Budget(iterations=40)
    assert bots.bot("learned:search=1:plans=4").plans == 4
    assert bots.bot("learned:value=1").value == 1  # the value's log-odds mixed in
    # The web's cap on a decision's time keeps the network alone alone, the search capped.
    assert type(bots.bot("learned", seconds=2.0)) is LearnedBot
    assert bots.bot("learned:search=3", seconds=2.0).budget == Budget(seconds=2.0)
    for bad, message in (
        ("learned:search=0", "search is the seconds"),
        ("learned:plans=4", "only learned:search=SECONDS"),
        ("learned:search=1:wings=2", "wings"),
    ):
        with pytest.raises(NotationError, match=message):
            bots.bot(bad)


def make_bots(seed: int) -> list[LearnedBot | LearnedSearchBot]:
    return [LearnedBot(seed), LearnedSearchBot(seed, Budget(iterations=12))]


@pytest.mark.parametrize("index", [0, 1])
def test_every_play_is_legal(index: int) -> None:
    for i, state in enumerate(random_positions(30, seed=11)):
        seat = state.to_move
        assert seat is not None
        bot = make_bots(i)[index]
        assert bot.choose(state.view(seat)) in set(state.legal_plays()), state.position()


@pytest.mark.parametrize("index", [0, 1])
def test_the_bot_does_not_peek(index: int) -> None:
    rng = random.Random(5)
    for i, state in enumerate(random_positions(10, seed=12)):
        seat = state.to_move
        assert seat is not None
        twin = hidden_twin(state, seat, rng)
        assert twin.view(seat) == state.view(seat)
        a = make_bots(i)[index].choose(state.view(seat))
        b = make_bots(i)[index].choose(twin.view(seat))
        assert a == b


def test_the_features_read_only_the_seat_s_view() -> None:
    # Every afterstate of every legal play: the same on both states, whose hidden cards
    # differ — the turn's last play draws a hand from the draw pile, which differs too.
    rng = random.Random(6)
    for state in random_positions(20, seed=13):
        seat = state.to_move
        assert seat is not None
        twin = hidden_twin(state, seat, rng)
        plays = state.legal_plays()
        assert np.array_equal(afterstates(state, seat, plays), afterstates(twin, seat, plays))
        for other in range(state.num_players):
            mine, theirs = np.zeros(FEATURES, np.float32), np.zeros(FEATURES, np.float32)
            features(state, other, mine)
            features(twin, other, theirs)
            assert np.array_equal(mine, theirs) or other == seat


def test_the_shipped_weights_are_small_and_read_every_player_count() -> None:
    from importlib import resources

    size = resources.files("gamenight.bots").joinpath("learned.npz").stat().st_size  # type: ignore[attr-defined]
    assert size < 4_000_000
    net = load_net()
    for state in random_positions(6, seed=14):
        seat = state.to_move
        assert seat is not None
        logits, values = net(afterstates(state, seat, state.legal_plays()))
        assert np.all(np.isfinite(logits))
        assert np.all((values >= 0) & (values <= 1))


def test_the_weights_load_and_play_without_torch() -> None:
    code = textwrap.dedent(
        """
        import sys
        sys.modules["torch"] = None  # any import of torch now raises ImportError
        from gamenight.bots.registry import game_bots
        from gamenight.centrix import CentrixState
        state = CentrixState.new(2, seed=3)
        bot = game_bots("centrix").bot("learned:30it:search=1", seed=1)
        alone = game_bots("centrix").bot("learned", seed=1)
        for _ in range(6):
            seat = state.to_move
            state.push(alone.choose(state.view(seat)) if _ % 2 else bot.choose(state.view(seat)))
        print("played", "torch" in sys.modules and sys.modules["torch"] is not None)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "played False"
