"""Hints at the table (issue 32, web.hints): the chosen level's play from the seat's own view,
thought in the bot pool; on at bot and hot-seat tables, off at online ones unless the host
allows them (docs/rules/table.md, T11); counted with the table and in its record."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from gamenight.bots.hints import hint
from gamenight.web.hints import hint_seed
from gamenight.web.rematcher import rematch_of
from gamenight.web.views.centrix import notations

from .bodies import CENTRIX_2, CENTRIX_INVITE, COLORCITY
from .test_api import SHOWN, Join, act, create, read, receipt, receive


def live_referee(client: TestClient, table_id: str) -> Any:
    table = client.app.state.manager.live(table_id)  # type: ignore[attr-defined]
    assert table is not None
    return table.referee


def ask(ws: Any, seat: int, level: int = 3) -> dict[str, Any]:
    ws.send_json({"type": "hint", "seat": seat, "level": level})
    for _ in range(20):
        message = read(ws)
        if message["type"] in ("hint", "error"):
            return message
    raise AssertionError("no answer to the hint")


def test_a_level_3_hint_is_the_play_level_3_would_make_in_that_view(
    client: TestClient, join: Join
) -> None:
    made = create(client, CENTRIX_2)
    ws = join(made["id"], *(s["token"] for s in made["seats"]))
    state = receive(ws, "state")
    for _ in range(3):  # a few plays in, from seat to seat
        act(ws, state["actor"], notations(state["view"]["legal"])[0])
        receipt(ws)
        state = SHOWN[ws]  # (the change that says it is stored is the new state)
    seat = state["actor"]
    answer = ask(ws, seat)
    assert answer["type"] == "hint", answer
    referee = live_referee(client, made["id"])
    view = referee.state.view(seat)
    expected = hint("centrix", view, 3, hint_seed(CENTRIX_2["seed"], referee.version, seat))
    assert answer["notation"] == expected.notation
    assert answer["words"] == {"en": expected.en, "ko": expected.ko}
    assert (answer["seat"], answer["level"]) == (seat, 3)


def test_the_hinted_play_at_a_hot_seat_table_is_accepted_as_it_is(
    client: TestClient, join: Join
) -> None:
    for body in (CENTRIX_2, COLORCITY):
        made = create(client, body)
        ws = join(made["id"], *(s["token"] for s in made["seats"]))
        state = receive(ws, "state")
        seat = state["actor"]
        answer = ask(ws, seat)
        assert answer["type"] == "hint", answer
        if body is COLORCITY:
            assert answer["aimed"]
            assert answer["paints"]
        act(ws, seat, answer["notation"], id="hinted")
        assert receipt(ws)["id"] == "hinted"
        assert live_referee(client, made["id"]).version == 1


def test_hints_are_off_at_an_online_table_unless_its_host_allows_them(
    client: TestClient, join: Join
) -> None:
    made = create(client, CENTRIX_INVITE)
    ann = join(made["id"], made["seats"][0]["token"])
    receive(ann, "state")
    refused = ask(ann, 0)
    assert (refused["type"], refused["code"]) == ("error", "no_hints")
    info = client.get(f"/api/tables/{made['id']}?key={made['seats'][0]['token']}").json()
    assert info["hints"] is False
    allowed = create(client, {**CENTRIX_INVITE, "hints": True})
    ann = join(allowed["id"], allowed["seats"][0]["token"])
    receive(ann, "state")
    assert ask(ann, 0)["type"] == "hint"
    # A host may switch them off at a hot-seat table too.
    off = create(client, {**CENTRIX_2, "hints": False})
    ws = join(off["id"], *(s["token"] for s in off["seats"]))
    receive(ws, "state")
    assert ask(ws, 0)["code"] == "no_hints"


def test_a_hint_is_for_the_page_s_own_seat_whose_turn_it_is(client: TestClient, join: Join) -> None:
    made = create(client, CENTRIX_2)
    ann = join(made["id"], made["seats"][0]["token"])
    receive(ann, "state")
    assert ask(ann, 1)["code"] == "not_your_seat"
    bo = join(made["id"], made["seats"][1]["token"])
    receive(bo, "state")
    assert ask(bo, 1)["code"] == "not_your_turn"
    spectator = join(made["id"])
    receive(spectator, "state")
    assert ask(spectator, 0)["code"] == "not_your_seat"


def test_a_hint_used_is_counted_with_the_table_and_in_its_record(
    client: TestClient, join: Join
) -> None:
    made = create(client, CENTRIX_2)
    ws = join(made["id"], *(s["token"] for s in made["seats"]))
    receive(ws, "state")
    assert ask(ws, 0, level=2)["type"] == "hint"
    info = client.get(f"/api/tables/{made['id']}").json()
    assert info["hints"] is True
    assert info["hints_used"] == [{"seat": 0, "number": 0, "level": 2}]
    record = live_referee(client, made["id"]).record()
    assert record.setup["hints_used"] == [{"seat": 0, "number": 0, "level": 2}]


def test_a_rematch_keeps_the_host_s_choice(client: TestClient) -> None:
    for choice in (True, False, None):
        made = create(client, {**CENTRIX_2, **({} if choice is None else {"hints": choice})})
        table = client.app.state.manager.live(made["id"])  # type: ignore[attr-defined]
        assert rematch_of(table).hints is choice
