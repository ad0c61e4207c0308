"""The compiled core against the Python reference, in one process (gamenight.centrix.native).

The differential run walks random games of every player count under every bottom variant
(and random layouts and turn caps) and, at each of at least 10,000 positions, compares the
two paths' legal plays (same plays, same order), their successors, perft to depth 2 on a
subset, and the bots' choices under a seed: not one difference is allowed, since the
compiled path must never change what a bot plays.
"""

from __future__ import annotations

import gc
import os
import random
import subprocess
import sys
from collections.abc import Callable
from typing import TypeVar

import pytest

from gamenight.bots.base import Budget
from gamenight.bots.centrix import IsmctsBot, fast_play, greedy_play, play_round, turn_plans
from gamenight.bots.centrix_eval import scores, value
from gamenight.centrix import (
    OFF,
    TOP,
    Bottom,
    Card,
    CentrixState,
    Colour,
    Layout,
    Move,
    Play,
    Rotation,
    Rules,
    native,
)
from gamenight.centrix.perft import perft

T = TypeVar("T")

PURE_RUN = os.environ.get("GAMENIGHT_PURE", "") not in ("", "0")
needs_core = pytest.mark.skipif(
    PURE_RUN, reason="GAMENIGHT_PURE=1: this run checks the fallback, which has no second path"
)

POSITIONS_PER_SETTING = 700  # 5 player counts × 3 bottom rules × 700 = 10,500 positions


def both(state: CentrixState, work: Callable[[], T]) -> tuple[T, T]:
    """``work`` on the compiled path, then on the Python reference, each starting without
    the legal plays ``state`` has cached (they came from one path or the other)."""
    state.edited()
    compiled = work()
    state.edited()
    with native.pure():
        reference = work()
    return compiled, reference


def fingerprint(state: CentrixState) -> tuple[object, ...]:
    return (state.position(), state.status, tuple(state.places))


def random_layout(rng: random.Random) -> Layout:
    return Layout(tuple(tuple(Colour(rng.randrange(6)) for _ in range(12)) for _ in range(6)))


def assert_same_on_both_paths(game: Callable[[], object]) -> None:
    compiled = game()
    with native.pure():
        assert compiled == game()


def played_and_after(state: CentrixState, seed: int) -> tuple[Play, int]:
    """ISMCTS's default policy's play, and the generator's next draw after it (the
    compiled core must draw exactly as the Python loop does)."""
    rng = random.Random(seed)
    return fast_play(state, rng), rng.getrandbits(64)


def played_out(state: CentrixState, seed: int, plays: int | None) -> tuple[object, ...]:
    """``play_randomly`` on a copy: how many plays, where it ends, the generator's next draw."""
    probe = state.copy(history=False)
    rng = random.Random(seed)
    made = probe.play_randomly(rng, plays)
    return made, fingerprint(probe), tuple(map(tuple, probe.hands)), rng.getrandbits(64)


def round_played(state: CentrixState, seed: int, plays: int) -> tuple[object, ...]:
    """ISMCTS's rollout (``play_round``) on a copy, from the seat to move's own turn."""
    probe = state.copy(history=False)
    rng = random.Random(seed)
    made = play_round(probe, rng, plays, probe.actor or 0, probe.turn)
    return made, fingerprint(probe), tuple(map(tuple, probe.hands)), rng.getrandbits(64)


def successor_value(state: CentrixState, play: Play) -> float:
    seat = state.actor
    assert seat is not None
    state.push_unchecked(play)
    try:
        return value(state, seat)
    finally:
        state.pop()


@needs_core
def test_the_compiled_core_is_built_and_chosen() -> None:
    assert native.COMPILED, (
        "the C extension is not built: run `pip install -e .` (or "
        "`python setup.py build_ext --inplace`) with a compiler present"
    )
    assert native.active()
    with native.pure():
        assert not native.active()
    assert native.active()


def test_gamenight_pure_forces_the_python_engine() -> None:
    code = "from gamenight.centrix import native; print(native.COMPILED, native.active())"
    env = {**os.environ, "GAMENIGHT_PURE": "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["False", "False"]


@needs_core
def test_codes_decode_to_the_legal_plays() -> None:
    for seed in range(30):
        state = CentrixState.new(2 + seed % 5, seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(80)):
            if state.is_over:
                break
            state.push_unchecked(rng.choice(state.legal_plays()))
        if state.is_over:
            continue
        assert [native.decode(c) for c in native.legal_codes(state)] == state.legal_plays()


@needs_core
def test_the_cores_plays_are_shared_and_left_out_of_the_collector() -> None:
    # A Play holds only the engine's Card, Rotation and Move values, so it cannot be in a
    # cycle: the core's cache of them must not make every collection walk them (a third of
    # stepped random play's time was the collector walking them).
    state = CentrixState.new(4, seed=8)
    rng = random.Random(8)
    for _ in range(60):
        plays = state.legal_plays()
        again = state.copy(history=False).legal_plays()
        assert all(a is b for a, b in zip(plays, again, strict=True))
        assert not any(gc.is_tracked(play) for play in plays)
        state.push_unchecked(rng.choice(plays))
    gc.collect()
    assert [native.decode(c) for c in native.legal_codes(state)] == state.legal_plays()


@needs_core
def test_a_board_edited_in_place_after_a_play_is_read_afresh() -> None:
    # The core keeps the board a play made for the next position's reads, by the very list
    # items it stands for: a cell edited in place must not be read from it.
    for seed in range(40):
        state = CentrixState.new(2 + seed % 5, seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(1, 60)):
            if state.is_over:
                break
            state.push_unchecked(rng.choice(state.legal_plays()))
        if state.is_over:
            continue
        seat = state.actor
        assert seat is not None
        mine = [sq for sq, owner in enumerate(state.cells) if owner == seat]
        empty = [sq for sq, owner in enumerate(state.cells) if owner < 0 and sq >= 12]
        if mine and (seed % 2 or len(mine) + state.top[seat] == 3):
            state.cells[rng.choice(mine)] = -1  # a pawn taken off by hand
        else:
            state.cells[rng.choice(empty)] = seat  # a pawn put on by hand
        compiled, reference = both(state, state.legal_plays)
        assert compiled == reference
        state.push_unchecked(compiled[0])
        after, expected = both(state, state.legal_plays)
        assert after == expected


@needs_core
@pytest.mark.parametrize(
    "code",
    [
        -1,
        20,  # no card 20
        1 << 27,
        (5 << 13) | (127 << 20),  # a move from a square to nowhere
        (1 << 5) | (11 << 8) | (127 << 13) | (127 << 20),  # ring 1 turned by 0 slots
        (73 << 13) | (5 << 20),  # a move from the top
        (5 << 13) | (5 << 20),  # a move that goes nowhere
    ],
)
def test_a_code_that_is_no_play_is_refused_by_name(code: int) -> None:
    with pytest.raises(ValueError, match="is not a play code"):
        native.decode(code)


@needs_core
@pytest.mark.slow
def test_both_paths_agree_on_every_position_of_every_variant() -> None:
    rng = random.Random(2026)
    positions = mismatches = compared_values = 0
    problems: list[str] = []

    def differ(what: str, state: CentrixState, a: object, b: object) -> None:
        nonlocal mismatches
        if a != b:
            mismatches += 1
            if len(problems) < 5:
                problems.append(
                    f"{what} at {state.position()} ({state.rules.bottom}):"
                    f" {str(a)[:300]} != {str(b)[:300]}"
                )

    for players in range(2, 7):
        for bottom in Bottom:
            seen = 0
            while seen < POSITIONS_PER_SETTING:
                rules = Rules(
                    bottom=bottom,
                    max_turns=rng.choice([None, None, rng.randint(5, 60)]),
                    layout=random_layout(rng) if rng.random() < 0.3 else Rules().layout,
                )
                state = CentrixState.new(players, seed=rng.getrandbits(32), rules=rules)
                while not state.is_over and seen < POSITIONS_PER_SETTING:
                    seen += 1
                    positions += 1
                    legal, reference = both(state, state.legal_plays)
                    differ("legal plays", state, legal, reference)
                    seat = state.actor
                    assert seat is not None
                    differ(
                        "moves by colour",
                        state,
                        *both(state, lambda s=state, t=seat: s.moves_by_colour(t)),
                    )
                    differ("scores", state, *both(state, lambda s=state: scores(s)))
                    for other in range(players):
                        differ(
                            "has a legal play",
                            state,
                            *both(state, lambda s=state, o=other: native.has_legal_play(s, o)),
                        )
                    if positions % 4 == 0:
                        for play in legal:

                            def successor(s: CentrixState = state, p: object = play) -> object:
                                s.push_unchecked(p)  # type: ignore[arg-type]
                                after = fingerprint(s)
                                s.pop()
                                return after

                            differ("successor", state, *both(state, successor))
                    if positions % 10 == 0:
                        fast = native.play_values(state, 9.0, 0.5, 0.8)
                        assert fast is not None
                        with native.pure():
                            slow = [successor_value(state, play) for play in legal]
                        compared = [v for v in fast if v == v]  # NaN: left to the engine
                        compared_values += len(compared)
                        differ(
                            "greedy values",
                            state,
                            compared,
                            [v for v, f in zip(slow, fast, strict=True) if f == f],
                        )
                    if positions % 25 == 0:
                        differ("perft 2", state, *both(state, lambda s=state: perft(s, 2)))
                    if positions % 5 == 0:
                        seed = rng.getrandbits(32)
                        differ(
                            "greedy choice",
                            state,
                            *both(
                                state,
                                lambda s=state, k=seed, t=seat: greedy_play(s, t, random.Random(k)),
                            ),
                        )
                        differ(
                            "fast play",
                            state,
                            *both(state, lambda s=state, k=seed: played_and_after(s, k)),
                        )
                    if positions % 20 == 0:
                        seed, plays = rng.getrandbits(32), rng.randint(1, 40)
                        differ(
                            "random plays",
                            state,
                            *both(state, lambda s=state, k=seed, n=plays: played_out(s, k, n)),
                        )
                        differ(
                            "a rollout's round",
                            state,
                            *both(state, lambda s=state, k=seed, n=plays: round_played(s, k, n)),
                        )
                    if positions % 200 == 0:
                        seed = rng.getrandbits(32)
                        differ(
                            "turn plans",
                            state,
                            *both(
                                state,
                                lambda s=state, k=seed, t=seat: turn_plans(
                                    s, t, random.Random(k), 2
                                ),
                            ),
                        )
                    state.push_unchecked(rng.choice(legal))
    assert positions >= 10_000
    # The core values most plays itself (NaN only where the engine must push the play): a
    # core leaving every play to the engine would compare nothing.
    assert compared_values >= 40_000
    assert mismatches == 0, "\n".join(problems)


@pytest.mark.parametrize("turn", [2**31 - 3, 2**40, 10**30])
def test_counts_beyond_a_machine_word_play_on_as_the_engine_does(turn: int) -> None:
    # A stored game may carry any turn and turn cap (D17): the core must not refuse them.
    start = CentrixState.new(4, seed=0).position()
    text = start.replace(" 0 0 0 -,-,-,- playing", f" 0 0 {turn} -,-,-,- playing")
    rules = Rules(max_turns=turn + 2)

    def game() -> list[tuple[object, ...]]:
        state = CentrixState.from_position(text, rules)
        rng = random.Random(1)
        seen = []
        while not state.is_over:
            state.push_unchecked(greedy_play(state, state.actor or 0, rng))
            seen.append(fingerprint(state))
        return seen

    assert_same_on_both_paths(game)


def test_a_hand_edited_past_the_cores_size_plays_on_as_the_engine_does() -> None:
    # Adapters may edit the hands in place (``edited``); the core must not refuse that.
    def game() -> list[tuple[object, ...]]:
        state = CentrixState.new(3, seed=5)
        state.hands[state.actor or 0].extend([Card.SPIN] * 20)
        state.edited()
        rng = random.Random(2)
        seen = []
        for _ in range(6):
            state.push_unchecked(greedy_play(state, state.actor or 0, rng))
            seen.append((fingerprint(state), tuple(tuple(h) for h in state.hands)))
        return seen

    assert_same_on_both_paths(game)


@needs_core
@pytest.mark.parametrize(
    "play",
    [
        Play(Card.ANY, None, Move(TOP, 0)),  # from the top: outside the board's cells
        Play(Card.ANY, None, Move(0, OFF)),
        Play(Card.R1, Rotation(7, 1), None),
    ],
)
def test_the_core_refuses_a_play_that_is_no_play_before_changing_anything(play: Play) -> None:
    # push_unchecked trusts its caller, but the C code must not write outside the board.
    state = CentrixState.new(2, seed=3)
    before = state.position()
    with pytest.raises(ValueError, match="not a play"):
        native.apply(state, play)
    assert state.position() == before


@needs_core
def test_ismcts_plays_the_same_on_both_paths() -> None:
    for seed in range(3):
        state = CentrixState.new(4, seed=seed)
        rng = random.Random(seed)
        for _ in range(10):
            state.push_unchecked(greedy_play(state, state.actor or 0, rng))
        view = state.view(state.actor)

        def choice(v: object = view, k: int = seed) -> object:
            return IsmctsBot(k, Budget(iterations=40)).choose(v)  # type: ignore[arg-type]

        compiled, reference = both(state, choice)
        assert compiled == reference


@needs_core
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_ismcts_searches_the_same_on_both_paths_under_every_bottom_rule(players: int) -> None:
    # The compiled search (its tree of SearchNodes, its selection and its rollouts in C)
    # must draw exactly as the Python one: the same choice, then the same next draw.
    for bottom in Bottom:
        seed = players * 10 + list(Bottom).index(bottom)
        rules = Rules(bottom=bottom, max_turns=None if seed % 2 else 30)
        state = CentrixState.new(players, seed=seed, rules=rules)
        rng = random.Random(seed)
        for _ in range(rng.randrange(4, 30)):
            if state.is_over:
                break
            state.push_unchecked(greedy_play(state, state.actor or 0, rng))
        if state.is_over:
            continue
        view = state.view(state.actor)

        def search(v: object = view, k: int = seed) -> tuple[object, ...]:
            bot = IsmctsBot(k, Budget(iterations=60))
            choice = bot.choose(v)  # type: ignore[arg-type]
            return choice, bot.last_iterations, bot.rng.getrandbits(64)

        compiled, reference = both(state, search)
        assert compiled == reference


@needs_core
def test_the_cores_search_nodes_carry_the_reference_nodes_fields() -> None:
    node = native.search_nodes(object)(2, 0.5)
    assert (node.mover, node.visits, node.avail, node.total, node.prior) == (2, 0, 0, 0.0, 0.5)
    node.visits += 1
    node.total += 0.25
    assert (node.visits, node.total, node.children) == (1, 0.25, {})
    with native.pure():
        assert native.search_nodes(object) is object


@needs_core
def test_the_cores_shuffle_is_randoms_shuffle_draw_for_draw() -> None:
    # Deals and reshuffles decide the game: the core must permute exactly as Random does.
    for seed in range(300):
        cards = list(range(seed % 50))
        ours, theirs = random.Random(seed), random.Random(seed)
        mine, reference = cards[:], cards[:]
        native.shuffle(mine, ours)
        theirs.shuffle(reference)
        assert mine == reference
        assert ours.getrandbits(64) == theirs.getrandbits(64)


@needs_core
def test_seeded_samples_of_a_view_are_the_same_on_both_paths() -> None:
    # ISMCTS deals a determinization of its view every iteration: the core's deal must give
    # the hands and draw pile the reference deals, and leave the generator where it does.
    rng = random.Random(17)
    compared = 0
    for game in range(60):
        players = 2 + game % 5
        rules = Rules(bottom=list(Bottom)[game % 3], copies=1 + game % 3)
        state = CentrixState.new(players, seed=game, rules=rules)
        while not state.is_over and compared < 60 * (game + 1):
            for seat in [None, *range(players)]:
                view = state.view(seat)
                seed = rng.getrandbits(32)

                def sampled(v: object = view, k: int = seed) -> tuple[object, ...]:
                    draws = random.Random(k)
                    dealt = v.sample(draws)  # type: ignore[attr-defined]
                    return dealt.position(), tuple(map(tuple, dealt.hands)), draws.random()

                compiled, reference = both(state, sampled)
                assert compiled == reference
                compared += 1
            state.push_unchecked(rng.choice(state.legal_plays()))
    assert compared >= 3_000
    # A generator of another kind draws as itself: the reference deals.
    view = CentrixState.new(4, seed=1).view(2)

    class Counting(random.Random):
        pass

    assert native.deal(view.rules.deck, view.hand or (), (), (3,) * 4, 2, Counting(1)) is None
    assert view.sample(Counting(3)).position() == view.sample(random.Random(3)).position()


def stepped_random_game(state: CentrixState, rng: random.Random) -> int:
    """Random play as the bench once drove it: one ``push_unchecked`` from Python a play."""
    made = 0
    while not state.is_over:
        state.push_unchecked(rng.choice(state.legal_plays()))
        made += 1
    return made


@needs_core
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_whole_random_games_are_the_same_on_both_paths_and_pushed_one_by_one(
    players: int,
) -> None:
    # The core plays whole stretches itself and hands back the plays that end the game or
    # reshuffle the discard pile: every game must end where the stepped loop ends it.
    for seed in range(3):
        rules = Rules(
            bottom=list(Bottom)[seed],
            max_turns=None if seed else 150,
            layout=random_layout(random.Random(seed)) if seed == 2 else Rules().layout,
        )
        state = CentrixState.new(players, seed=seed, rules=rules)
        fast, reference = both(state, lambda s=state, k=seed: played_out(s, k, None))
        assert fast == reference
        stepped = state.copy(history=False)
        rng = random.Random(seed)
        made = stepped_random_game(stepped, rng)
        hands = tuple(map(tuple, stepped.hands))
        assert fast == (made, fingerprint(stepped), hands, rng.getrandbits(64))
        assert stepped.is_over


@needs_core
def test_a_rollout_of_a_dealing_subclass_is_left_to_the_engine() -> None:
    # A subclass that deals its own cards (envs.centrix_chance) must see every refill.
    dealt: list[int] = []

    class Dealing(CentrixState):
        def refill_hand(self, hand: list[Card]) -> None:
            dealt.append(len(hand))
            super().refill_hand(hand)

    state = Dealing.new(3, seed=4)
    assert native.rollout(state, random.Random(1), 50, native.UNIFORM) is None
    assert state.play_randomly(random.Random(1), 50) == 50
    assert len(dealt) >= 16


@needs_core
@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_core_makes_a_rollouts_plays_itself(players: int) -> None:
    state = CentrixState.new(players, seed=players)
    done = native.rollout(state, random.Random(players), 40, native.UNIFORM)
    assert done is not None
    made, _ = done
    assert made > 0


def test_play_randomly_refuses_a_negative_count() -> None:
    with pytest.raises(ValueError, match="a count"):
        CentrixState.new(2, seed=1).play_randomly(random.Random(1), -1)


@needs_core
@pytest.mark.parametrize("players", [2, 4, 6])
def test_pop_takes_back_the_cores_plays_by_their_undo_records(players: int) -> None:
    # The core's plays go on the stack as undo records, not snapshots: popping every play,
    # also from a copy sharing the history, must give back each position exactly.
    for seed in range(4):
        rules = Rules(bottom=list(Bottom)[seed % 3], max_turns=None if seed % 2 else 80)
        state = CentrixState.new(players, seed=seed, rules=rules)
        rng = random.Random(seed)
        seen: list[tuple[object, ...]] = []
        while not state.is_over and len(seen) < 300:
            seen.append((fingerprint(state), tuple(map(tuple, state.hands)), state.movers))
            state.push_unchecked(rng.choice(state.legal_plays()))
        assert any(isinstance(undo, bytes) for _, undo in state._stack)
        fork = state.copy()
        for probe in (state, fork):
            history = seen[:]
            while history:
                probe.pop()
                assert (
                    fingerprint(probe),
                    tuple(map(tuple, probe.hands)),
                    probe.movers,
                ) == history.pop()


SET_UPS = [
    Rules(numbers=1, copies=1, any_wilds=0, spin_wilds=0),  # six cards, every one dealt
    Rules(numbers=2, copies=1, any_wilds=1, spin_wilds=1),
    Rules(pawns=1),
    Rules(pawns=2, copies=1, spin_wilds=0, bottom=Bottom.KNOCK_OFF),
]


@needs_core
@pytest.mark.parametrize("rules", SET_UPS, ids=["6-cards", "13-cards", "1-pawn", "2-pawns"])
def test_both_paths_play_every_set_up_alike(rules: Rules) -> None:
    """D18: the core counts the rulebook's three pawns and reads whatever deck the lists
    hold, so the engine gives it a smaller deck but keeps other pawn counts on the Python
    path; either way the two paths list, choose and make the same plays."""
    fewer_pawns = rules.pawns != 3
    for seed in range(2):
        state = CentrixState.new(2, seed=seed, rules=rules.with_(max_turns=24))
        rng = random.Random(seed)
        plays = 0
        while not state.is_over:
            legal, reference = both(state, state.legal_plays)
            assert legal == reference
            values = native.play_values(state, 9.0, 0.5, 0.8)
            assert (values is None) == fewer_pawns  # None: the Python path decides
            seat = state.actor
            assert seat is not None
            choice, reference_choice = both(
                state, lambda s=state, t=seat, k=seed + plays: greedy_play(s, t, random.Random(k))
            )
            assert choice == reference_choice
            play = choice if rng.random() < 0.5 else rng.choice(legal)

            def successor(s: CentrixState = state, p: Play = play) -> object:
                s.push_unchecked(p)
                after = fingerprint(s)
                s.pop()
                return after

            compiled_after, reference_after = both(state, successor)
            assert compiled_after == reference_after
            state.push_unchecked(play)
            plays += 1
        assert plays > 0
