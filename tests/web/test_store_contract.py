"""The storage contract: every TableStore (web.store: memory, SQLite, PostgreSQL) gives the
same answers to the same operations — revisions, holes, undo, receipts, seats, endings,
clocks, the homes' epochs — with several servers on one store. (What only the SQL store
has, its group commit, migrations and SQLite's journal, is tests/web/test_storage.py's.)"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from gamenight.web.seats import hash_token
from gamenight.web.store import (
    DuplicateError,
    LeaseLostError,
    MovedOnError,
    NewTable,
    Receipt,
    SeatLostError,
    Timing,
)

from .stores import Blocking, store_factory


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
def stores(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[..., Blocking]]:
    with store_factory(request.param, tmp_path, "gn_contract_") as factory:
        yield factory


SEATS = [
    {"name": "Ann", "kind": "human", "token_hash": hash_token("ann")},
    {"name": "Bo", "kind": "human", "token_hash": hash_token("bo")},
]


def new_table(store: Blocking) -> str:
    table_id: str = store.create(
        NewTable("centrix", {}, 7, {"first": 0}, [dict(s) for s in SEATS])
    ).id
    return table_id


def play(store: Blocking, table: str, payload: Any, **checks: Any) -> int:
    """Append ``payload`` at the table as the store now has it (a writer that is up to date)."""
    stored = store.load(table)
    assert stored is not None
    revision: int = store.append(
        table,
        number=len(stored.actions),
        revision=stored.revision,
        payload=payload,
        status="playing",
        outcome=None,
        **checks,
    )
    return revision


def actions(store: Blocking, table: str) -> list[Any]:
    stored = store.load(table)
    assert stored is not None
    return list(stored.actions)


# ---------------------------------------------------------------- revisions and receipts


def test_a_new_table_is_at_revision_0_and_every_append_and_undo_moves_it_on(
    stores: Callable[..., Blocking],
) -> None:
    store = stores()
    table = new_table(store)
    assert store.load(table).revision == 0  # type: ignore[union-attr]
    assert play(store, table, "a0") == 1
    assert play(store, table, "a1") == 2
    assert store.undo(table, number=1, revision=2) == 3
    # The count is back at 1, as after the first append; the revision is not.
    stored = store.load(table)
    assert stored is not None
    assert (stored.actions, stored.revision) == (["a0"], 3)


def test_a_stale_undo_is_refused_and_deletes_nothing(stores: Callable[..., Blocking]) -> None:
    one, two = stores(), stores()
    table = new_table(one)
    revision = one.append(table, number=0, revision=0, payload="a0", status="playing", outcome=None)
    # Server one's view: one action, at ``revision``. Server two plays on meanwhile.
    for i in range(1, 5):
        play(two, table, f"a{i}")
    with pytest.raises(MovedOnError):
        one.undo(table, number=0, revision=revision)
    assert actions(two, table) == ["a0", "a1", "a2", "a3", "a4"]


def test_only_the_latest_action_is_undone(stores: Callable[..., Blocking]) -> None:
    store = stores()
    table = new_table(store)
    for i in range(3):
        play(store, table, f"a{i}")
    revision = store.load(table).revision  # type: ignore[union-attr]
    with pytest.raises(MovedOnError):
        store.undo(table, number=1, revision=revision)  # not the latest
    with pytest.raises(MovedOnError):
        store.undo(table, number=2, revision=revision - 1)
    assert actions(store, table) == ["a0", "a1", "a2"]
    assert store.load(table).revision == revision  # type: ignore[union-attr]


def test_an_append_that_leaves_a_hole_is_refused(stores: Callable[..., Blocking]) -> None:
    one, two = stores(), stores()
    table = new_table(one)
    play(one, table, "a0")
    revision = one.load(table).revision  # type: ignore[union-attr]
    with pytest.raises(MovedOnError):
        two.append(table, number=2, revision=revision, payload="a2", status="playing", outcome=None)
    assert actions(one, table) == ["a0"]


def test_a_writer_that_missed_an_undo_cannot_store_a_hole_nor_act_at_the_same_count(
    stores: Callable[..., Blocking],
) -> None:
    """Both servers saw two actions; one undoes the second, the other (not told) plays a
    third: refused, and the table keeps the one action left. Once the first has played
    again, the count is what the second saw, but the revision is not."""
    one, two = stores(), stores()
    table = new_table(one)
    play(one, table, "a0")
    play(one, table, "a1")
    seen = two.load(table)
    assert seen is not None
    one.undo(table, number=1, revision=seen.revision)
    stale = {"number": len(seen.actions), "revision": seen.revision}
    with pytest.raises(MovedOnError):
        two.append(table, **stale, payload="a2", status="playing", outcome=None)
    assert actions(two, table) == ["a0"]
    play(one, table, "b1")
    with pytest.raises(MovedOnError):
        two.undo(table, number=1, revision=seen.revision)
    with pytest.raises(MovedOnError):
        two.append(table, **stale, payload="a2", status="playing", outcome=None)
    assert actions(one, table) == ["a0", "b1"]


def test_of_many_appends_at_one_revision_exactly_one_wins(stores: Callable[..., Blocking]) -> None:
    servers = [stores(), stores()]
    table = new_table(servers[0])
    play(servers[0], table, "a0")
    writers = 8
    start = threading.Barrier(writers)

    def write(i: int) -> str:
        start.wait()
        try:
            servers[i % 2].append(
                table, number=1, revision=1, payload=f"w{i}", status="playing", outcome=None
            )
        except MovedOnError:
            return "moved on"
        return "stored"

    with ThreadPoolExecutor(writers) as pool:
        results = list(pool.map(write, range(writers)))
    assert sorted(results) == ["moved on"] * (writers - 1) + ["stored"]
    stored = servers[1].load(table)
    assert stored is not None
    assert stored.revision == 2
    assert stored.actions[0] == "a0"
    assert stored.actions[1] == f"w{results.index('stored')}"
    assert len(stored.actions) == 2


def test_appends_racing_from_threads_leave_no_holes(stores: Callable[..., Blocking]) -> None:
    """Writers that reload and retry on "moved on" store every action once, in order."""
    servers = [stores(), stores()]
    table = new_table(servers[0])
    each = 5

    def write(i: int) -> None:
        store = servers[i % 2]
        for j in range(each):
            while True:
                try:
                    play(store, table, f"w{i}-{j}")
                    break
                except MovedOnError:
                    continue

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(write, range(4)))
    stored = servers[0].load(table)
    assert stored is not None
    assert sorted(stored.actions) == sorted(f"w{i}-{j}" for i in range(4) for j in range(each))
    assert stored.revision == 4 * each


def test_a_resent_message_gets_its_receipt_and_is_stored_once(
    stores: Callable[..., Blocking],
) -> None:
    one, two = stores(), stores()
    table = new_table(one)
    revision = play(one, table, "a0", message_id="p7-000001")
    receipt = Receipt("p7-000001", "act", 0, revision)
    assert one.receipt(table, "p7-000001") == receipt
    for store in (one, two):  # the same message, resent, reaching either server
        with pytest.raises(DuplicateError) as caught:
            store.append(
                table, number=0, revision=0, payload="a0", status="playing", outcome=None,
                message_id="p7-000001",
            )  # fmt: skip
        assert caught.value.receipt == receipt
        # Even when it would be in order now, it is not applied again.
        with pytest.raises(DuplicateError):
            play(store, table, "a0", message_id="p7-000001")
    assert actions(one, table) == ["a0"]
    undone = one.undo(table, number=0, revision=revision, message_id="p7-000002")
    with pytest.raises(DuplicateError) as caught:
        two.undo(table, number=0, revision=revision, message_id="p7-000002")
    assert caught.value.receipt == Receipt("p7-000002", "undo", 0, undone)
    assert actions(one, table) == []
    assert one.receipt(table, "p7-000003") is None


def test_a_message_id_belongs_to_its_table(stores: Callable[..., Blocking]) -> None:
    store = stores()
    first, second = new_table(store), new_table(store)
    play(store, first, "a0", message_id="m1")
    play(store, second, "b0", message_id="m1")
    assert actions(store, second) == ["b0"]


def test_a_bad_message_id_is_refused_and_stores_nothing(stores: Callable[..., Blocking]) -> None:
    store = stores()
    table = new_table(store)
    for bad in ["", "x" * 65]:
        with pytest.raises(ValueError, match="message id"):
            play(store, table, "a0", message_id=bad)
    assert store.load(table).revision == 0  # type: ignore[union-attr]


def test_a_seat_whose_token_was_renewed_elsewhere_cannot_act(
    stores: Callable[..., Blocking],
) -> None:
    one, two = stores(), stores()
    table = new_table(one)

    def renew(seats: list[dict[str, Any]]) -> None:
        seats[1]["token_hash"] = hash_token("new guest")

    two.edit_seats(table, renew)
    play(one, table, "a0", seat=0, token_hash=hash_token("ann"))
    with pytest.raises(SeatLostError):
        play(one, table, "a1", seat=1, token_hash=hash_token("bo"))
    revision = one.load(table).revision  # type: ignore[union-attr]
    with pytest.raises(SeatLostError):
        one.undo(table, number=0, revision=revision, seat=1, token_hash=hash_token("bo"))
    for seat in [None, 2]:
        with pytest.raises(ValueError, match="a token is checked against a seat"):
            play(one, table, "a1", seat=seat, token_hash=hash_token("bo"))
    play(one, table, "a1", seat=1, token_hash=hash_token("new guest"))
    stored = one.load(table)
    assert stored is not None
    assert (stored.actions, stored.revision) == (["a0", "a1"], 2)


def test_writes_to_a_table_that_is_not_there_raise_key_error(
    stores: Callable[..., Blocking],
) -> None:
    store = stores()
    with pytest.raises(KeyError):
        store.append("nope", number=0, revision=0, payload="a0", status="playing", outcome=None)
    with pytest.raises(KeyError):
        store.undo("nope", number=0, revision=1)
    with pytest.raises(KeyError):
        store.set_timing("nope", Timing({"left": [1, 2]}, None))
    with pytest.raises(KeyError):
        store.finish("nope", revision=0, status="resigned", outcome={"places": [1, 2]})


def test_the_latest_receipts_are_kept(stores: Callable[..., Blocking]) -> None:
    store = stores(receipts_kept=3)
    table = new_table(store)
    for i in range(30):
        play(store, table, f"a{i}", message_id=f"m{i}")
        for j in range(max(0, i - 2), i + 1):  # the latest receipts_kept revisions' at least
            assert store.receipt(table, f"m{j}") == Receipt(f"m{j}", "act", j, j + 1)


# ---------------------------------------------------------------- endings, clocks, seats


def test_the_clock_and_deadline_are_stored_and_tables_due_are_found(
    stores: Callable[..., Blocking],
) -> None:
    store = stores()
    now = datetime(2027, 1, 1, tzinfo=UTC)
    ids = [new_table(store) for _ in "ab"]
    store.set_timing(ids[0], Timing({"left": [1, 2]}, now - timedelta(seconds=1)))
    store.set_timing(ids[1], Timing({"left": [3, 4]}, now + timedelta(seconds=1)))
    assert store.due(now) == [ids[0]]
    loaded = store.load(ids[0])
    assert loaded is not None
    assert (loaded.clock, loaded.deadline) == ({"left": [1, 2]}, now - timedelta(seconds=1))
    # An ending moves the revision on, forgets the deadline, and is refused when stale.
    ended = {"places": [1, 2], "reason": "abandoned"}
    assert store.finish(ids[0], revision=0, status="abandoned", outcome=ended) == 1
    assert store.due(now) == []
    finished = store.load(ids[0])
    assert finished is not None
    assert (finished.status, finished.outcome, finished.deadline) == ("abandoned", ended, None)
    for table, revision in ((ids[0], 1), (ids[1], 5)):
        with pytest.raises(MovedOnError):
            store.finish(table, revision=revision, status="resigned", outcome=ended)
    # An act stores the clock after it with it.
    timing = Timing({"left": [5, 6]}, now + timedelta(hours=1))
    store.append(
        ids[1], number=0, revision=0, payload="a0", status="playing", outcome=None, timing=timing
    )
    loaded = store.load(ids[1])
    assert loaded is not None
    assert (loaded.clock, loaded.deadline) == (timing.clock, timing.deadline)


def test_seats_are_edited_where_they_are_current(stores: Callable[..., Blocking]) -> None:
    one, two = stores(), stores()
    table = new_table(one)

    def rename(seats: list[dict[str, Any]]) -> str:
        seats[0]["name"] = "Ann B."
        return "done"

    result, seats = two.edit_seats(table, rename)
    assert (result, seats[0]["name"]) == ("done", "Ann B.")
    assert one.load(table).seats[0]["name"] == "Ann B."  # type: ignore[union-attr]

    def broken(seats: list[dict[str, Any]]) -> None:
        seats[0]["name"] = "lost"
        raise ValueError("no such seat")

    with pytest.raises(ValueError, match="no such seat"):
        one.edit_seats(table, broken)
    assert one.load(table).seats[0]["name"] == "Ann B."  # type: ignore[union-attr]
    revision = one.load(table).revision  # type: ignore[union-attr]
    assert revision == 0  # (seats are not a revision)
    with pytest.raises(KeyError):
        one.edit_seats("nope", rename)


def test_rematch_archive_delete_and_the_lists(stores: Callable[..., Blocking]) -> None:
    store = stores()
    first, second, third = (new_table(store) for _ in range(3))
    play(store, second, "b0")  # the latest played
    ended = {"places": [1, 2], "reason": "resigned"}
    store.finish(third, revision=0, status="resigned", outcome=ended)
    store.set_rematch(third, first)
    assert store.load(third).setup == {"first": 0, "rematch": first}  # type: ignore[union-attr]
    recent = store.recent(10)
    assert [t.id for t in recent[:1]] == [third]  # (the ending, the latest change)
    assert {t.id for t in recent} == {first, second, third}
    assert all(t.actions == [] for t in recent)
    assert {t.id for t in store.recent(10, playing=True)} == {first, second}
    assert {t.id for t in store.some([first, "nope", third])} == {first, third}
    assert store.archive(first, True) is True
    assert store.load(first).archived is True  # type: ignore[union-attr]
    assert store.archive("nope", True) is False
    assert store.delete(second) is True
    assert store.load(second) is None
    assert store.delete(second) is False
    assert store.receipt(second, "m") is None


# ---------------------------------------------------------------- the homes' epochs


def test_a_write_under_an_older_home_s_epoch_is_refused(stores: Callable[..., Blocking]) -> None:
    """Fencing (web.homes): each claim moves the table's epoch on; a write that names an
    epoch is made only while it is the table's, so a home whose lease lapsed cannot write."""
    old, new = stores(), stores()
    table = new_table(old)
    assert old.load(table).epoch == 0  # type: ignore[union-attr]
    first = old.claim(table)
    play(old, table, "a0", epoch=first)
    second = new.claim(table)
    assert second == first + 1
    assert new.load(table).epoch == second  # type: ignore[union-attr]
    stale = {"epoch": first}
    ended = {"places": [1, 2], "reason": "resigned"}
    timing = Timing({"left": [1, 2]}, None)
    refused: list[Callable[[], Any]] = [
        lambda: play(old, table, "a1", **stale),
        lambda: old.undo(table, number=0, revision=1, **stale),
        lambda: old.finish(table, revision=1, status="resigned", outcome=ended, **stale),
        lambda: old.set_timing(table, timing, **stale),
        lambda: old.edit_seats(table, lambda seats: seats.clear(), **stale),
    ]
    for write in refused:
        with pytest.raises(LeaseLostError):
            write()
    stored = new.load(table)
    assert stored is not None
    assert (stored.actions, stored.revision, stored.status, len(stored.seats)) == (
        ["a0"],
        1,
        "playing",
        2,
    )
    play(new, table, "a1", epoch=second)
    with pytest.raises(KeyError):
        new.claim("nope")


# ---------------------------------------------------------------- learning (issue 32)


def test_hints_given_are_kept_in_order_in_the_set_up(stores: Callable[..., Blocking]) -> None:
    store, other = stores(), stores()
    table = new_table(store)
    store.add_hint(table, {"seat": 0, "number": 0, "level": 3})
    other.add_hint(table, {"seat": 1, "number": 1, "level": 5})  # another server's
    assert store.load(table).setup == {  # type: ignore[union-attr]
        "first": 0,
        "hints_used": [{"seat": 0, "number": 0, "level": 3}, {"seat": 1, "number": 1, "level": 5}],
    }
    with pytest.raises(KeyError):
        store.add_hint("nope", {"seat": 0, "number": 0, "level": 3})


def test_an_analysis_is_kept_with_its_table_and_goes_with_it(
    stores: Callable[..., Blocking],
) -> None:
    store, other = stores(), stores()
    table, bare = new_table(store), new_table(store)
    assert store.analysis(table) is None
    analysis = {"game": "centrix", "chances": [[0.5, 0.5], [1.0, 0.0]], "mistakes": []}
    store.set_analysis(table, analysis)
    assert other.analysis(table) == analysis  # (another server reads it: computed once)
    assert store.analysis(bare) is None
    store.set_analysis(table, {**analysis, "mistakes": [{"ply": 1}]})  # the latest is kept
    assert store.analysis(table)["mistakes"] == [{"ply": 1}]  # type: ignore[index]
    with pytest.raises(KeyError):
        store.set_analysis("nope", analysis)
    assert store.analysis("nope") is None
    assert store.delete(table) is True
    assert store.analysis(table) is None
