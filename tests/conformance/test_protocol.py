"""Every registered game meets the protocol of gamenight.core.game.

Parametrised over the registry, like OpenSpiel's ``random_sim_test``: a game added to the
registry is checked here with no test of its own. Random games are played to the end by
sampling each state's action space (continuous where it is, as Color City's shots), and
along the way every state is checked against the contract. The suite assumes only that a
game's rules take a ``max_turns`` turn cap (the outcome's ``turn_cap`` reason).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from gamenight.core.errors import GamenightError, LogError, NotationError, RecordError
from gamenight.core.game import (
    ActionSpace,
    ContinuousActionsError,
    Game,
    GameState,
    LogEntry,
    SeatSetup,
    registry,
)
from gamenight.core.record import GameRecord

SEEDS = range(4)
GAMES = 20  # set-ups per game, spread over its player counts
BAD_TEXTS = ("", "   ", "zzz", "1 2 3 4 5 6 7", "{}", "draw 7", "x9>zz")


@pytest.fixture(params=registry.names())
def game(request: pytest.FixtureRequest) -> Game:
    return registry[request.param]


def setups(game: Game) -> Iterator[tuple[int, dict[str, Any] | None, int]]:
    """(players, rules, seed): every player count, with and without a short turn cap; about
    twenty games in all (a game of many counts plays fewer seeds of each)."""
    counts = range(game.min_players, game.max_players + 1)
    for players in counts:
        for seed in SEEDS[: max(2, GAMES // len(counts))]:
            rules = {"max_turns": 3 + 3 * seed} if seed % 2 else None
            yield players, rules, 1000 * players + seed


def steps(state: GameState, rng: random.Random) -> Iterator[Any]:
    """Play the game to its end by sampling the action space, yielding before each action
    the action about to be pushed."""
    while state.actor is not None:
        action = state.action_space().sample(rng)
        yield action
        state.push(action)


def played(game: Game, players: int, rules: dict[str, Any] | None, seed: int) -> GameState:
    state = game.new(players, rules, seed)
    for _ in steps(state, random.Random(seed)):
        pass
    return state


def test_the_registry_finds_each_game_by_its_name() -> None:
    names = registry.names()
    assert {"centrix", "colorcity"} <= set(names)
    assert len(set(names)) == len(names)
    assert [g.name for g in registry] == names
    assert "chess" not in registry
    with pytest.raises(
        NotationError, match=f"unknown game 'chess': choose from {', '.join(names)}"
    ):
        registry["chess"]


def test_new_refuses_a_player_count_the_game_is_not_for(game: Game) -> None:
    for players in (game.min_players - 1, game.max_players + 1):
        with pytest.raises(GamenightError, match=f"is for {game.players_text} players"):
            game.new(players)


def test_seats_set_up_one_by_one_are_the_game_set_up_by_count(game: Game) -> None:
    # A table sets its game up seat by seat (the web: each seat's colour or gang, and
    # hand); seats that leave their part to the game are the very game a count sets up.
    for players in range(game.min_players, game.max_players + 1):
        first = players - 1
        by_count = game.new(players, {"max_turns": 5}, 11, first)
        by_seat = game.new([SeatSetup()] * players, {"max_turns": 5}, 11, first)
        assert by_seat.position() == by_count.position()
        assert by_seat.record() == by_count.record()
        assert game.replay(by_seat.record()).position() == by_seat.position()
    for players in (game.min_players - 1, game.max_players + 1):
        with pytest.raises(GamenightError, match=f"is for {game.players_text} players"):
            game.new([SeatSetup()] * players)


def test_a_seat_set_up_the_game_cannot_read_is_refused(game: Game) -> None:
    seats = [SeatSetup()] * game.min_players
    for bad in (SeatSetup(role="zzz"), SeatSetup(role="{}")):
        with pytest.raises(GamenightError):
            game.new([bad, *seats[1:]])
    with pytest.raises(GamenightError):
        game.new(seats, None, 0, game.min_players)  # no such seat starts


def test_random_games_run_to_an_outcome_with_the_actor_always_a_seat(game: Game) -> None:
    reasons = set()
    for players, rules, seed in setups(game):
        state = game.new(players, rules, seed)
        assert state.num_players == players
        count = 0
        for _ in steps(state, random.Random(seed)):
            assert state.actor in range(players)
            assert not state.is_over
            assert state.outcome is None
            space = state.action_space()
            assert isinstance(space, ActionSpace)
            if space.finite:
                assert state.legal_actions() == list(space.actions()) != []
            else:
                with pytest.raises(ContinuousActionsError):
                    state.legal_actions()
            count += 1
        assert state.is_over
        assert state.outcome is not None
        assert state.legal_actions() == []
        assert len(state.actions) == len(state.movers) == count
        assert all(seat in range(players) for seat in state.movers)
        reasons.add(state.outcome.reason)
    assert "turn_cap" in reasons
    assert len(reasons) > 1


def test_outcome_places_rank_the_seats_consistently(game: Game) -> None:
    for players, rules, seed in setups(game):
        state = played(game, players, rules, seed)
        outcome = state.outcome
        assert outcome is not None
        places = outcome.places
        assert len(places) == players
        # Competition ranking: a seat's place is one more than the seats strictly ahead.
        assert all(p == 1 + sum(q < p for q in places) for p in places)
        standing = state.standing()
        assert len(standing) == players
        if outcome.at_cap:
            # Ended early, the game ranks by standing: never a better standing placed behind.
            for a in range(players):
                for b in range(players):
                    if standing[a] > standing[b]:
                        assert places[a] <= places[b], (standing, places)
        assert state.copy().outcome == outcome


def test_push_returns_what_pop_takes_back_and_pop_restores_exactly(game: Game) -> None:
    for players, rules, seed in setups(game):
        state = game.new(players, rules, seed)
        start = state.copy()
        positions, pushed = [], []
        rng = random.Random(seed)
        while state.actor is not None:
            positions.append(state.position())
            pushed.append(state.push(state.action_space().sample(rng)))
        assert list(state.actions) == pushed
        for position, action in zip(reversed(positions), reversed(pushed), strict=True):
            assert state.pop() == action
            assert state.position() == position
        assert state == start
        with pytest.raises(IndexError):
            state.pop()


def test_push_unchecked_makes_the_same_game_as_push(game: Game) -> None:
    for players, rules, seed in setups(game):
        checked = played(game, players, rules, seed)
        fast = game.new(players, rules, seed)
        for action in checked.actions:
            fast.push_unchecked(action)
        assert fast.position() == checked.position()


def test_a_copy_is_independent_of_its_original(game: Game) -> None:
    for players, rules, seed in setups(game):
        state = game.new(players, rules, seed)
        rng = random.Random(seed)
        for step, _ in enumerate(steps(state, rng)):
            if step == 5:
                break
        if state.actor is None:
            continue
        copy = state.copy()
        frozen, history = copy.position(), list(copy.actions)
        state.push(state.action_space().sample(rng))
        while state.actions:
            state.pop()  # popping below the copy's point must not reach into the copy
        assert copy.position() == frozen
        assert list(copy.actions) == history
        copy.push(copy.action_space().sample(rng))
        assert state.actions == []
        assert state.position() != copy.position()
        while copy.actions:
            copy.pop()
        assert copy == state


def test_clear_stack_forgets_the_history_but_not_the_position(game: Game) -> None:
    state = played(game, game.min_players, {"max_turns": 6}, 1)
    position = state.position()
    state.clear_stack()
    assert list(state.actions) == []
    assert state.position() == position
    with pytest.raises(IndexError):
        state.pop()


def test_clear_stack_keeps_the_last_actions_it_is_told_and_the_state_writes_no_record(
    game: Game,
) -> None:
    state = played(game, game.min_players, {"max_turns": 6}, 1)
    made = list(state.actions)
    assert len(made) > 2
    assert state.forgotten == 0
    back = state.copy()
    back.pop()
    state.clear_stack(keep=2)
    assert list(state.actions) == made[-2:]
    assert state.forgotten == len(made) - 2
    assert len(state.movers) == 2
    # What is kept still takes back exactly, and the rest is gone.
    state.pop()
    assert state == back
    state.pop()
    with pytest.raises(IndexError):
        state.pop()
    # A record holds every action: none is written rather than one that does not replay.
    with pytest.raises(RecordError, match="forgotten"):
        state.record()
    copied = back.copy(history=False)
    assert copied.forgotten == len(made) - 1
    with pytest.raises(RecordError, match="forgotten"):
        copied.record()
    with pytest.raises(ValueError, match="keep is a count"):
        back.clear_stack(keep=-1)


def test_positions_round_trip_at_every_step(game: Game) -> None:
    for players, rules, seed in setups(game):
        if rules is not None:
            continue  # a position does not hold the rules: read back under the default
        state = game.new(players, None, seed)
        for _ in steps(state, random.Random(seed)):
            text = state.position()
            back = game.from_position(text)
            assert back.position() == text
            assert back.actor == state.actor
        text = state.position()
        assert game.from_position(text).outcome == state.outcome


def test_records_replay_to_the_same_game(game: Game) -> None:
    for players, rules, seed in setups(game):
        state = played(game, players, rules, seed)
        record = state.record()
        assert record.game == game.name
        assert len(record.actions) == len(state.actions)
        for source in (record, record.to_json(), GameRecord.from_json(record.to_json())):
            again = game.replay(source)
            assert again == state
            assert [str(a) for a in again.actions] == [str(a) for a in state.actions]
            assert again.outcome == state.outcome


def test_action_text_round_trips(game: Game) -> None:
    for players, rules, seed in setups(game):
        state = played(game, players, rules, seed)
        for action in state.actions:
            text = str(action)
            assert str(state.parse_action(text)) == text


def checkpoints(game: Game, every: int) -> Iterator[tuple[GameState, random.Random]]:
    """Each game of ``setups`` played by sampling, stopped at every ``every``-th step and
    once more when it is over (with the generator that plays it)."""
    for players, rules, seed in setups(game):
        state = game.new(players, rules, seed)
        rng = random.Random(seed)
        for step, _ in enumerate(steps(state, rng)):
            if step % every == 0:
                yield state, rng
        yield state, rng


def test_views_hold_nothing_a_seat_cannot_see(game: Game) -> None:
    """A view is a function of what its seat may know: a state dealt at random from the
    view (everything hidden drawn anew) shows that seat the very same view. The actor's own
    view is enough to list the actor's actions."""
    resampled = 0
    for state, rng in checkpoints(game, 7):
        for seat in [None, *range(state.num_players)]:
            view = state.view(seat)
            assert view.seat == seat
            other = view.sample(rng)
            assert other.view(seat) == view
            resampled += other.position() != state.position()
            if seat == state.actor and state.action_space().finite:
                assert other.legal_actions() == state.legal_actions()
        with pytest.raises(ValueError, match="there is no seat"):
            state.view(state.num_players)
    assert resampled  # the hidden part was drawn anew, so the check has teeth


def test_bad_action_text_is_refused_with_the_state_untouched(game: Game) -> None:
    for state, _ in checkpoints(game, 5):
        before, history = state.position(), list(state.actions)
        texts = list(BAD_TEXTS)
        if state.is_over:
            texts.append(str(history[-1]))  # once over, even a well-written action
        for text in texts:
            with pytest.raises(GamenightError):
                state.push(text)
            assert state.position() == before
            assert list(state.actions) == history
        for text in BAD_TEXTS:
            with pytest.raises(GamenightError):
                state.parse_action(text)
        if state.is_over:
            with pytest.raises(GamenightError, match="the game is over"):
                state.push(str(history[-1]))


# ---------------------------------------------------------------- the log (issue 30)


def check_entries(state: GameState, log: Sequence[LogEntry]) -> None:
    """The log's entries each name their action's mover, read as JSON, and say so anew."""
    assert len(log) == state.forgotten + len(state.actions)
    for entry, seat in zip(log[state.forgotten :], state.movers, strict=True):
        assert entry.seat == seat
    for entry in log:
        assert isinstance(entry.notation, str)
        assert entry.notation
        data = entry.to_dict()
        assert (data["seat"], data["notation"]) == (entry.seat, entry.notation)
        assert json.loads(json.dumps(data)) == data  # JSON as it is
        data["seat"] = -1
        assert entry.to_dict()["seat"] == entry.seat  # a new dict each time


def test_the_log_has_one_entry_per_action_and_the_last_is_the_latest(game: Game) -> None:
    for players, rules, seed in setups(game):
        state = game.new(players, rules, seed)
        assert list(state.log()) == []
        assert state.last_entry() is None
        state = game.new(players, rules, seed)
        latest = []  # each action's entry as ``last_entry`` tells it alone, the log unread
        for _ in steps(state, random.Random(seed)):
            if state.actions:
                latest.append(state.last_entry())
        latest.append(state.last_entry())
        log = state.log()
        assert list(log) == latest
        assert state.last_entry() == log[-1]
        check_entries(state, log)


def test_the_log_follows_actions_taken_back_and_others_made(game: Game) -> None:
    for players, rules, seed in setups(game):
        state = game.new(players, rules, seed)
        rng = random.Random(seed)
        logs = []  # the log as it was before each action
        for _ in steps(state, rng):
            logs.append(state.log())
        made = len(logs)
        for _ in range(made):
            state.pop()
            assert tuple(state.log()) == tuple(logs.pop())
            assert state.last_entry() == (state.log()[-1] if state.log() else None)
            if len(logs) in (made // 2, made // 5, 1) and state.actor is not None:
                # Another action where one was taken back: its entry, as a game made so tells.
                state.push(state.action_space().sample(rng))
                again = game.new(players, rules, seed)
                for action in state.actions:
                    again.push_unchecked(action)
                assert list(state.log()) == list(again.log())
                state.pop()


def test_the_log_is_the_same_for_a_replayed_or_copied_game(game: Game) -> None:
    for players, rules, seed in setups(game):
        state = played(game, players, rules, seed)
        log = list(state.log())
        assert list(game.replay(state.record()).log()) == log
        assert list(state.copy().log()) == log
        assert list(state.copy(history=False).log()) == log  # read before it forgot


def test_a_read_log_outlives_the_actions_the_state_forgets(game: Game) -> None:
    # A table reads its log, then forgets what undo cannot take back (web.games.settle):
    # the entries of the forgotten actions stay, as a state that forgot nothing tells them.
    for players, rules, seed in setups(game):
        state, whole = game.new(players, rules, seed), game.new(players, rules, seed)
        rng = random.Random(seed)
        step = 0
        while state.actor is not None:
            action = state.push(state.action_space().sample(rng))
            whole.push_unchecked(action)
            if step % 3 == 0:
                state.log()
                state.clear_stack(keep=step % 2)
            assert state.last_entry() == whole.last_entry()
            step += 1
        state.clear_stack()
        assert state.forgotten == len(whole.actions)
        assert list(state.log()) == list(whole.log())
        check_entries(state, state.log())
        assert list(state.copy(history=False).log()) == list(whole.log())


def test_a_state_that_forgot_actions_before_reading_its_log_cannot_tell_them(
    game: Game,
) -> None:
    state = played(game, game.min_players, {"max_turns": 6}, 1)
    made = len(state.actions)
    unread, light = state.copy(), state.copy(history=False)
    unread.clear_stack(keep=1)
    assert unread.last_entry() == state.last_entry()  # the latest is still on the stack
    for forgetful, forgot in ((unread, made - 1), (light, made)):
        for _ in range(2):
            with pytest.raises(LogError, match=f"actions 1 to {forgot} were forgotten"):
                forgetful.log()
        forgetful.clear_stack()  # forgetting more is no trouble
        assert forgetful.position() == state.position()
