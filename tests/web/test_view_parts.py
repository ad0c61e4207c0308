"""The loop's CPU per move (issue 20): a table's seat-independent view parts are computed once
per change and shared by every seat's view (held by the table, ``Parts``: the translator keeps
nothing, issue 30), and the act path checks a play once. A cache is a guarantee too: each
view after a change is the one computed from scratch, from a copy of the state."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from gamenight.bots.registry import game_bots
from gamenight.centrix import CentrixState, explain
from gamenight.centrix.cards import Card
from gamenight.centrix.log import PlayEntry
from gamenight.colorcity import ColorCityState
from gamenight.colorcity.state import ColorCityView
from gamenight.core.errors import IllegalActionError
from gamenight.core.game import GameState, registry
from gamenight.web.games import Parts, SeatSpec, WebGame, get_game, log_json
from gamenight.web.views import centrix as centrix_views
from gamenight.web.views.centrix import CentrixGame
from gamenight.web.views.colorcity import ColorCityGame

RULES: dict[str, Any] = {"centrix": {}, "colorcity": {"max_turns": 3}}


def fresh(name: str) -> WebGame[Any]:
    """A translator of its own (there is nothing a translator could keep from another's
    views: test_a_translator_keeps_nothing)."""
    return CentrixGame(registry[name]) if name == "centrix" else ColorCityGame(registry[name])


def counting(monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> list[int]:
    """Count the calls of ``owner.name`` (the calls go through to it)."""
    calls: list[int] = []
    real: Callable[..., Any] = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return calls


def bot_move(name: str, state: GameState, seed: int) -> str:
    actor = state.actor
    assert actor is not None
    return str(game_bots(name).bot("level1", seed).choose(state.view(actor)))


@pytest.mark.parametrize("name", ["centrix", "colorcity"])
def test_every_view_after_each_change_is_a_fresh_computation(name: str) -> None:
    # The live state settles (forgets what cannot be taken back); the reference keeps its
    # whole history, so that an adapter of its own words its log from scratch each time.
    adapter, reference, parts = fresh(name), fresh(name), Parts()
    seats = [SeatSpec("human", f"seat {i}") for i in range(2)]
    state, _ = adapter.new(seats, 0, RULES[name], seed=5)
    kept, _ = reference.new(seats, 0, RULES[name], seed=5)
    for move in range(8):
        if state.actor is None:
            break
        for seat in (None, 0, 1, state.actor, None):  # repeated: the second from the parts
            assert adapter.view(state, seat, parts) == fresh(name).view(kept.copy(), seat)
        assert adapter.last(state) == fresh(name).last(kept.copy())
        text = bot_move(name, state, move)
        adapter.act(state, text)
        adapter.settle(state)
        reference.act(kept, text)
    assert adapter.last(state) == fresh(name).last(kept.copy())
    assert adapter.view(state, None, parts) == fresh(name).view(kept.copy(), None)


def test_a_play_taken_back_and_another_made_drops_the_shared_parts() -> None:
    adapter, parts = fresh("centrix"), Parts()
    state, _ = adapter.new([SeatSpec("human", "a"), SeatSpec("human", "b")], 0, {}, seed=3)
    assert isinstance(state, CentrixState)
    plays = [str(p) for p in state.legal_plays()]
    first, other = plays[0], plays[-1]
    adapter.act(state, first)
    seen = adapter.view(state, state.actor, parts)
    state.pop()
    adapter.act(state, other)
    assert adapter.view(state, state.actor, parts) == fresh("centrix").view(
        state.copy(), state.actor
    )
    assert adapter.view(state, 0, parts) != seen or first == other


@pytest.mark.parametrize("listed", [False, True])
def test_a_centrix_act_checks_its_play_once(listed: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    # parse → check → push → the log entry's effects: the play is explained once, not four
    # times (it was legal when checked; the state has not changed since); not at all once
    # the mover's view has listed the legal plays.
    adapter = fresh("centrix")
    state, _ = adapter.new([SeatSpec("human", "a"), SeatSpec("human", "b")], 0, {}, seed=2)
    calls = counting(monkeypatch, explain, "problem")
    for move in range(6):
        text = bot_move("centrix", state, move)
        if listed:
            adapter.view(state, state.actor)
        before = len(calls)
        adapter.act(state, text)
        adapter.settle(state)
        assert len(calls) - before == (0 if listed else 1)


def test_an_illegal_centrix_act_is_refused_as_before_and_changes_nothing() -> None:
    adapter = fresh("centrix")
    state, _ = adapter.new([SeatSpec("human", "a"), SeatSpec("human", "b")], 0, {}, seed=2)
    assert isinstance(state, CentrixState)
    before = adapter.view(state, 0)
    # A legal play's move with a card the mover does not hold.
    play = next(p for p in state.legal_plays() if p.move is not None and p.rotation is None)
    card = next(c for c in Card if c not in state.hands[state.to_move or 0])
    text = f"{card} {play.move}"
    with pytest.raises(IllegalActionError) as refused:
        adapter.act(state, text)
    with pytest.raises(IllegalActionError) as checked:
        state.copy().push(text)
    assert "does not hold" in str(refused.value)
    assert str(refused.value) == str(checked.value)
    assert adapter.view(state, 0) == before


def test_the_legal_plays_are_grouped_once_per_position(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = counting(monkeypatch, centrix_views, "grouped")
    adapter, parts = fresh("centrix"), Parts()
    state, _ = adapter.new([SeatSpec("human", "a")] * 3, 0, {}, seed=4)
    rng = random.Random(4)
    for move in range(5):
        actor = state.actor
        assert isinstance(actor, int)
        views = [adapter.view(state, seat, parts) for seat in (actor, None, 0, 1, 2, actor)]
        assert len(calls) == move + 1  # the mover's views share one
        assert views[0]["legal"] == views[-1]["legal"]
        assert isinstance(state, CentrixState)
        adapter.act(state, str(rng.choice(state.legal_plays())))


@pytest.mark.parametrize("name", ["centrix", "colorcity"])
def test_the_seats_views_share_one_log_copy_per_change(name: str) -> None:
    adapter, parts = fresh(name), Parts()
    state, _ = adapter.new([SeatSpec("human", "a"), SeatSpec("human", "b")], 0, RULES[name], 1)
    adapter.act(state, bot_move(name, state, 1))
    logs = [adapter.view(state, seat, parts)["log"] for seat in (None, 0, 1)]
    assert logs[0] is logs[1] is logs[2]
    assert logs[0] == log_json(state) == [entry.to_dict() for entry in state.log()]


def test_color_city_threats_once_per_change(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = counting(monkeypatch, ColorCityView, "threats")
    adapter, parts = fresh("colorcity"), Parts()
    state, _ = adapter.new([SeatSpec("human", "a")] * 2, 0, RULES["colorcity"], seed=6)
    assert isinstance(state, ColorCityState)
    for move in range(3):
        for seat in (None, 0, 1, None):
            adapter.view(state, seat, parts)
        assert len(calls) == move + 1
        adapter.act(state, bot_move("colorcity", state, move))
        adapter.settle(state)


@pytest.mark.parametrize("name", ["centrix", "colorcity"])
def test_the_log_reads_the_actions_again_only_after_a_change(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The engine's ``log`` is read several times a move (the act's ``last``, ``settle``, the
    # views' parts): once in step with the stack, it tells it is still so from its mark alone.
    adapter, parts = fresh(name), Parts()
    seats = [SeatSpec("human", f"seat {i}") for i in range(2)]
    state, _ = adapter.new(seats, 0, RULES[name], seed=5)
    reads: list[int] = []
    actions = type(state).actions

    def counted(self: GameState) -> Any:
        reads.append(1)
        return actions.fget(self)  # type: ignore[attr-defined]

    monkeypatch.setattr(type(state), "actions", property(counted))
    for move in range(4):
        adapter.act(state, bot_move(name, state, move))
        adapter.settle(state)
        adapter.view(state, state.actor, parts)
        reads.clear()
        for seat in (None, 0, 1, state.actor):
            adapter.view(state, seat, parts)
        adapter.last(state)
        state.log()
        assert reads == []


@pytest.mark.parametrize("name", ["centrix", "colorcity"])
def test_a_translator_keeps_nothing(name: str) -> None:
    # The log and the last action are the engine's, the shared parts the table's (issue 30):
    # the translator that served a game holds what it held before it.
    translator = get_game(name)
    before = dict(vars(translator))
    state, _ = translator.new([SeatSpec("human", "a")] * 2, 0, RULES[name], seed=8)
    for move in range(4):
        translator.act(state, bot_move(name, state, move))
        translator.settle(state)
        translator.view(state, None, Parts())
        translator.view(state, 0)
        translator.last(state)
    assert vars(translator) == before == {"game": registry[name]}


def test_a_tables_log_is_translated_one_entry_per_action(monkeypatch: pytest.MonkeyPatch) -> None:
    # A long game's log has hundreds of entries: each change's views translate the new one
    # alone (and again only an action taken back and made anew), not the whole log.
    adapter, parts = fresh("centrix"), Parts()
    state, _ = adapter.new([SeatSpec("human", "a")] * 3, 0, {}, seed=9)
    logs = []
    calls = counting(monkeypatch, PlayEntry, "to_dict")
    for move in range(30):
        adapter.act(state, bot_move("centrix", state, move))
        adapter.settle(state)
        for seat in (None, 0, 1, 2):
            logs.append(adapter.view(state, seat, parts)["log"])
    assert len(calls) == 30
    plays = [str(p) for p in state.legal_play_tuple()]
    adapter.act(state, plays[0])
    adapter.view(state, None, parts)
    state.pop()  # taken back, and another made
    adapter.act(state, plays[-1])
    log = adapter.view(state, None, parts)["log"]
    assert len(calls) == 32  # the new plays' alone: the others' were translated already
    monkeypatch.undo()
    assert log == log_json(state)
    assert logs[-1] == log[:30]
