"""The web's game translators read the one registry: a game's name, player counts, rules
type and replay are the registry's, and the translator only turns its states into JSON and
back, and answers the game's own queries."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from pydantic import ValidationError

from gamenight.core.errors import GamenightError
from gamenight.core.game import registry
from gamenight.web.games import SeatSpec, UnknownQueryError, get_game
from gamenight.web.protocol import SEAT_BOUNDS, TableIn
from gamenight.web.refusals import Code, RefusedError
from gamenight.web.rules import rules_html
from gamenight.web.store.sql import SqlStore
from gamenight.web.tables import TableManager


@pytest.mark.parametrize("name", registry.names())
def test_every_registered_game_has_web_pages_read_from_the_registry(name: str) -> None:
    adapter = get_game(name)
    game = registry[name]
    assert adapter.game is game
    assert adapter.name == name
    assert adapter.min_seats == game.min_players
    assert adapter.max_seats == game.max_players
    seats = [SeatSpec("human", f"seat {i}") for i in range(game.min_players)]
    state, setup = adapter.new(seats, 0, {}, seed=7)
    assert isinstance(state.actor, int)
    assert isinstance(game.rules_type.from_dict(adapter.rules_of(state)), game.rules_type)
    stored = [
        {"name": s.name, "role": adapter.role(state, i), "skill": s.skill}
        for i, s in enumerate(seats)
    ]
    record = adapter.record(state, adapter.rules_of(state), 7, setup, stored, [])
    assert game.replay(record).position() == state.position()
    assert rules_html(name)


def test_centrix_seats_are_the_registrys_player_counts() -> None:
    assert (get_game("centrix").min_seats, get_game("centrix").max_seats) == (
        registry["centrix"].min_players,
        registry["centrix"].max_players,
    )


def test_an_unknown_game_is_refused_naming_the_registered_ones() -> None:
    with pytest.raises(GamenightError, match="unknown game 'chess': centrix or colorcity"):
        get_game("chess")
    with pytest.raises(KeyError):
        rules_html("chess")


def test_an_adapter_refuses_another_games_state() -> None:
    centrix_state, _ = get_game("centrix").new([SeatSpec("human", "a")] * 2, 0, {}, seed=1)
    with pytest.raises(TypeError, match="colorcity cannot show a CentrixState"):
        get_game("colorcity").own(centrix_state)


def test_a_tables_seat_count_is_its_games_in_the_registry(tmp_path: Path) -> None:
    # One place holds each game's player counts: its registry value (Color City's eight
    # seats included); the web's bounds on a request are the registry's extremes.
    manager = TableManager(SqlStore(f"sqlite:///{tmp_path / 'g.sqlite3'}"))

    def body(name: str, seats: int) -> TableIn:
        return TableIn.model_validate({"game": name, "seats": [{"kind": "device"}] * seats})

    async def create() -> None:
        for game in registry:
            table, _ = await manager.create(body(game.name, game.max_players))
            assert table.referee.state.num_players == game.max_players
            for seats in (game.min_players - 1, game.max_players + 1):
                if SEAT_BOUNDS[0] <= seats <= SEAT_BOUNDS[1]:
                    with pytest.raises(RefusedError) as refused:
                        await manager.create(body(game.name, seats))
                    assert refused.value.code == Code.SEAT_COUNT
                    assert refused.value.params["high"] == game.max_players

    asyncio.run(create())
    manager.close()
    assert (
        min(g.min_players for g in registry),
        max(g.max_players for g in registry),
    ) == SEAT_BOUNDS
    assert registry["colorcity"].max_players == 8
    with pytest.raises(ValidationError):
        body("colorcity", SEAT_BOUNDS[1] + 1)


# Each game's own queries, with arguments it answers (issue 30: one ``query`` for them all).
QUERIES = {
    "centrix": {"preview": {"rotation": "2+3"}},
    "colorcity": {"predict": {"shot": "0 0 1.3 0"}},
}


@pytest.mark.parametrize("name", registry.names())
def test_a_query_the_game_does_not_answer_is_refused_naming_its_queries(name: str) -> None:
    translator = get_game(name)
    state, _ = translator.new([SeatSpec("human", "a")] * 2, 0, {}, seed=3)
    translator.act(state, str(state.action_space().sample(random.Random(3))))
    before = (state.position(), list(state.actions), list(state.log()), translator.last(state))
    known = ", ".join(QUERIES[name])
    others = [query for game, queries in QUERIES.items() if game != name for query in queries]
    # Another game's query, and the translator's own names: none is a query.
    for asked in ["teleport", "", "log", "view", "act", "__init__", "query", *others]:
        with pytest.raises(UnknownQueryError) as refused:
            translator.query(state, asked, {})
        assert str(refused.value) == (
            f"{registry[name].title} answers no query {asked!r} (its queries: {known})"
        )
    for asked, args in QUERIES[name].items():
        assert translator.query(state, asked, args)  # answered
        (argument,) = args
        for bad in ({}, {argument: 7}, {argument: None}):
            with pytest.raises(GamenightError, match=f"takes {argument!r}, as text"):
                translator.query(state, asked, bad)
    assert before == (
        state.position(),
        list(state.actions),
        list(state.log()),
        translator.last(state),
    )
