"""The server's refusals carry a code and params, and the pages can say every one of them in
each of their languages."""

from __future__ import annotations

import ast
import json
import re
from importlib import resources

import pytest
from fastapi.testclient import TestClient

from gamenight.web.refusals import PARAMS, Code, RefusedError, refusal

from .bodies import CENTRIX_2
from .test_api import Join, act, create, receive

PLACEHOLDER = re.compile(r"\{(\w+)\}")


def strings(language: str) -> dict[str, str]:
    path = resources.files("gamenight.web") / "static" / "i18n" / f"{language}.json"
    return dict(json.loads(path.read_text(encoding="utf-8")))


@pytest.mark.parametrize("language", ["en", "ko"])
def test_every_refusal_has_a_text_in_every_language(language: str) -> None:
    texts = strings(language)
    for code in Code:
        text = texts.get(f"error_{code}")
        assert text, f"{language}.json has no error_{code}"
        assert set(PLACEHOLDER.findall(text)) <= PARAMS[code], (code, text)
    assert set(PLACEHOLDER.findall(texts["seat_n"])) == {"n"}


def test_a_refusal_must_come_with_the_params_of_its_code() -> None:
    with pytest.raises(TypeError, match="not_your_turn takes"):
        RefusedError("it is not seat 1's turn", Code.NOT_YOUR_TURN, seat=1)
    exc = RefusedError("it is not seat 1's turn", Code.NOT_YOUR_TURN, seat=1, actor=0)
    assert refusal(exc) == {
        "message": "it is not seat 1's turn",
        "code": "not_your_turn",
        "params": {"seat": 1, "actor": 0},
    }
    # An error that is not gamenight's tells the page nothing of its insides.
    assert refusal(KeyError("secret")) == {
        "message": "the server could not handle that message",
        "code": "server_failed",
        "params": {},
    }


def test_http_refusals_carry_their_code(client: TestClient) -> None:
    missing = client.get("/api/tables/nosuch")
    assert missing.status_code == 404
    assert missing.json() == {
        "detail": "there is no table 'nosuch'",
        "code": "no_table",
        "params": {"table": "nosuch"},
    }
    bad = client.post("/api/tables", json={"game": "centrix", "seats": [{"kind": "bot"}] * 2})
    assert bad.status_code == 422
    assert bad.json()["code"] == "bot_level"
    assert bad.json()["params"] == {"seat": 0}
    invalid = client.post("/api/tables", json={"game": "chess"})
    assert invalid.status_code == 422
    assert invalid.json()["code"] == "invalid"
    assert invalid.json()["params"]["detail"] == invalid.json()["detail"]
    # A path that does not read is refused the same way, not with FastAPI's own list.
    path = client.post("/api/tables/x/invites/abc", json={"renew": "k"})
    assert path.status_code == 422
    assert path.json() == {
        "detail": "path.seat: Input should be a valid integer, unable to parse string as an"
        " integer",
        "code": "invalid",
        "params": {"detail": path.json()["detail"]},
    }
    step = client.get(f"/api/tables/{create(client, CENTRIX_2)['id']}/replay/99")
    assert (step.status_code, step.json()["code"]) == (404, "no_step")
    assert step.json()["params"] == {"step": 99, "steps": 0}


def test_socket_refusals_carry_their_code(client: TestClient, join: Join) -> None:
    made = create(client, CENTRIX_2)
    ann, bo = (seat["token"] for seat in made["seats"])
    page = join(made["id"], bo)
    state = receive(page, "state")
    assert state["actor"] == 0
    act(page, 1, "R9")
    refused = receive(page, "error")
    assert refused["code"] == "not_your_turn"
    assert refused["params"] == {"seat": 1, "actor": 0}
    assert refused["message"] == "it is not seat 1's turn (seat 0 acts now)"
    act(page, 0, "R9")
    assert receive(page, "error")["code"] == "not_your_seat"
    page.send_text("{")
    garbled = receive(page, "error")
    assert garbled["code"] == "bad_message"
    assert garbled["message"] == f"bad message ({garbled['params']['detail']})"
    owner = join(made["id"], ann)
    receive(owner, "state")
    act(owner, 0, "R9")
    illegal = receive(owner, "error")
    assert illegal["code"] == "illegal"
    assert illegal["params"]["detail"] == illegal["message"]


def test_an_illegal_play_names_its_rule_in_each_language(client: TestClient, join: Join) -> None:
    # "Why not?" (issue 32): the engine's refusal travels with its rule and its words, so a
    # page says it in its own language; it names the card played, no other card.
    made = create(client, CENTRIX_2)
    page = join(made["id"], made["seats"][0]["token"])
    hand = receive(page, "state")["view"]["hand"]
    missing = next(c for c in ("R1", "R2", "B1", "B2", "Y1", "G1") if c not in hand)
    act(page, 0, f"{missing} off-b1")
    refused = receive(page, "error")
    assert refused["code"] == "illegal"
    assert refused["params"]["rule"] == "not_in_hand"
    words = refused["params"]["words"]
    assert words["en"] == refused["message"] == refused["params"]["detail"]
    assert words["ko"] != words["en"]
    assert re.search("[가-힣]", words["ko"])
    assert not any(card in words["en"] + words["ko"] for card in hand)


def test_every_refusal_raised_gives_the_params_of_its_code() -> None:
    # Read from the source, so that a refusal no test happens to provoke is checked too (a
    # wrong set of params would be a TypeError in the middle of a game).
    package = resources.files("gamenight.web")
    seen = set()
    for name in sorted(f.name for f in package.iterdir() if f.name.endswith(".py")):
        tree = ast.parse((package / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if node.func.id not in {
                "RefusedError",
                "SeatKeyError",
                "MessageError",
                "FloodingError",
            }:
                continue
            code = node.args[1]
            assert isinstance(code, ast.Attribute), ast.unparse(node)
            given = {keyword.arg for keyword in node.keywords}
            assert given == PARAMS[Code[code.attr]], f"{name}: {ast.unparse(node)}"
            seen.add(Code[code.attr])
    # Every code is raised somewhere, but those refusal() gives to errors not raised as
    # refusals (the engines', the validator's, the unexpected).
    assert seen == set(Code) - {Code.ILLEGAL, Code.INVALID, Code.SERVER_FAILED}
