"""The replay page (issue 16, part "replay"): autoplay at a pace that is remembered, the
keyboard, Color City's flicks flown along their recorded poses, the log in words, and once a
game is over every hand shown as it was at each step (never while the game is in play)."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.conftest import Server
from tests.browser.helpers import centrix_play, wait_version
from tests.browser.test_city import RAW_FLOAT, WATCH_FLIGHTS, assert_animated
from tests.web.bodies import CENTRIX_INVITE

NewPage = Callable[..., Page]
SCREENSHOTS = "docs/screenshots"

CITY_BOTS: dict[str, Any] = {
    "game": "colorcity",
    "seats": [
        {"kind": "bot", "level": 1, "role": "green"},
        {"kind": "bot", "level": 1, "role": "purple"},
    ],
    "first": "green",
    "seed": 4,
    "rules": {"max_turns": 3},
}
CENTRIX_BOTS: dict[str, Any] = {
    "game": "centrix",
    "seats": [{"kind": "bot", "level": 1}, {"kind": "bot", "level": 1}],
    "seed": 7,
    "rules": {"max_turns": 4},
}

# Every step the page showed, in order.
WATCH_STEPS = """
(() => {
  window.stepsShown = [Number(document.body.dataset.step)];
  new MutationObserver(() => {
    const step = Number(document.body.dataset.step);
    if (window.stepsShown.at(-1) !== step) window.stepsShown.push(step);
  }).observe(document.body, { attributes: true, attributeFilter: ["data-step"] });
})()
"""


def screenshot(page: Page, name: str) -> None:
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=f"{SCREENSHOTS}/replay-{name}.png", full_page=True)


def get(server: Server, path: str) -> Any:
    with urllib.request.urlopen(f"{server.url}{path}", timeout=10) as response:
        return json.loads(response.read())


def finished(server: Server, body: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    """A table of bots played to its end, and every step of its replay as the server gives it."""
    made = server.create(body)
    page = get(server, f"/api/tables/{made['id']}/replay/0")
    while not page["finished"]:
        time.sleep(0.2)  # the bots play on; the API counts an address's requests a second
        page = get(server, f"/api/tables/{made['id']}/replay/0")
    total = page["steps"]
    return made["id"], [
        get(server, f"/api/tables/{made['id']}/replay/{k}") for k in range(total + 1)
    ]


def test_autoplay_flies_every_flick_in_order_at_the_pace_remembered(
    server: Server, new_page: NewPage
) -> None:
    table, answers = finished(server, CITY_BOTS)
    total = len(answers) - 1
    flights = [a["last"]["flight"] for a in answers if a["last"] and a["last"].get("flight")]
    assert flights, "the bots pitched"
    page = new_page()
    page.add_init_script(WATCH_FLIGHTS)
    page.goto(f"{server.url}/replay/{table}")
    page.wait_for_selector(f"body[data-step='{total}']")  # a finished game opens at its end
    page.select_option("#pace", "fast")
    page.keyboard.press("Home")
    page.wait_for_selector("body[data-step='0']")
    page.evaluate(WATCH_STEPS)
    page.keyboard.press("Space")
    page.wait_for_selector("body[data-playing='1']")
    expect(page.locator("#play")).to_have_attribute("aria-label", "Pause the replay")
    page.wait_for_function("() => document.body.dataset.flying === '1'")
    screenshot(page, "autoplay.en")  # a cube in flight
    page.wait_for_selector(f"body[data-step='{total}'][data-playing='0']", timeout=120_000)
    # Every step in order, none skipped, and every flick flown along its recorded poses.
    assert page.evaluate("window.stepsShown") == list(range(total + 1))
    drawn = page.evaluate("window.flights")
    assert len(drawn) == len(flights)
    for seen, flight in zip(drawn, flights, strict=True):
        assert_animated(seen, flight)
    # The log in words, without raw floats (the notation is the tooltip), and without the
    # powers kept: only a power used is news.
    words = page.locator("#log li").all_inner_texts()
    kept = [a for a in answers[1:] if a["last"]["notation"] == "pass"]
    assert len(words) == total - len(kept)
    assert not [w for w in words if RAW_FLOAT.search(w)], words
    assert any("cube" in w for w in words)
    assert page.locator("#hands-revealed").count() == 0  # Color City holds no hands
    assert "null" not in page.inner_text("#replay-info")

    # Pausing stops it where it is; the keys step by hand; the pace is remembered.
    page.keyboard.press("Home")
    page.wait_for_selector("body[data-step='0']")
    page.keyboard.press("Space")
    page.wait_for_selector("body[data-playing='1']")
    page.keyboard.press("Space")
    page.wait_for_selector("body[data-playing='0']:not([data-flying])")
    paused = int(page.evaluate("document.body.dataset.step"))
    page.wait_for_timeout(1500)  # more than a fast step: nothing moves while paused
    assert int(page.evaluate("document.body.dataset.step")) == paused
    page.keyboard.press("ArrowRight")
    page.wait_for_selector(f"body[data-step='{paused + 1}']")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector(f"body[data-step='{paused}']")
    page.reload()
    page.wait_for_selector(f"body[data-step='{total}']")
    assert page.input_value("#pace") == "fast"
    # The table's "instant" pace too: every step in turn, and no flick flown.
    page.select_option("#pace", "instant")
    page.keyboard.press("Home")
    page.wait_for_selector("body[data-step='0']")
    page.evaluate(WATCH_STEPS)
    flown = len(page.evaluate("window.flights"))
    page.keyboard.press("Space")
    page.wait_for_selector(f"body[data-step='{total}'][data-playing='0']")
    assert page.evaluate("window.stepsShown") == list(range(total + 1))
    assert len(page.evaluate("window.flights")) == flown

    korean = new_page(locale="ko-KR")
    korean.goto(f"{server.url}/replay/{table}")
    korean.wait_for_selector(f"body[data-step='{total}']")
    korean.keyboard.press("Home")
    korean.wait_for_selector("body[data-step='0']")
    korean.click("#play")
    korean.wait_for_function("() => document.body.dataset.flying === '1'")
    expect(korean.locator("#play")).to_have_attribute("aria-label", "다시 보기 일시 정지")
    assert korean.locator("#pace option").all_inner_texts() == ["느리게", "보통", "빠르게", "즉시"]
    screenshot(korean, "autoplay.ko")
    korean.click("#play")  # paused: the page is left still


def hands_on_page(page: Page) -> list[list[str]]:
    return [
        page.locator(f".replay-seats li[data-seat='{seat}'] .play-card").evaluate_all(
            "cards => cards.map((c) => c.dataset.card)"
        )
        for seat in range(page.locator(".replay-seats li").count())
    ]


def pawns_on_page(page: Page) -> list[str]:
    """Each pawn on the board's drawing, as its seat and square."""
    return sorted(
        page.locator("#board svg.centrix-board .pawn").evaluate_all(
            "pawns => pawns.map((p) => `${p.dataset.seat}@${p.dataset.square}`)"
        )
    )


def pawns_of(view: dict[str, Any]) -> list[str]:
    """Each pawn of a Centrix view's data, as its seat and square (``top`` for the top)."""
    slots = "abcdefghijkl"
    on_rings = [
        f"{seat}@{slots[sq % 12]}{sq // 12 + 1}"
        for sq, seat in enumerate(view["cells"])
        if seat >= 0
    ]
    on_top = [f"{seat}@top" for seat, p in enumerate(view["players"]) for _ in range(p["top"])]
    return sorted(on_rings + on_top)


def test_a_finished_game_shows_every_hand_step_by_step(server: Server, new_page: NewPage) -> None:
    table, answers = finished(server, CENTRIX_BOTS)
    total = len(answers) - 1
    assert all(a["hands"] and all(a["hands"]) for a in answers[:-1])
    page = new_page()
    page.goto(f"{server.url}/replay/{table}")
    page.wait_for_selector(f"body[data-step='{total}']")
    expect(page.locator("#hands-revealed")).to_be_visible()
    page.keyboard.press("Home")
    page.wait_for_selector("body[data-step='0']")
    seen = [hands_on_page(page)]
    boards = [pawns_on_page(page)]
    for k in range(1, total + 1):
        page.keyboard.press("ArrowRight")
        page.wait_for_selector(f"body[data-step='{k}']")
        seen.append(hands_on_page(page))
        boards.append(pawns_on_page(page))
    assert seen == [a["hands"] for a in answers]
    # The page draws each step's board from its view's data (the server sends no picture).
    assert boards == [pawns_of(a["view"]) for a in answers]
    page.click("#log li[data-step='2']")  # a log line shows the board after its play
    page.wait_for_selector("body[data-step='2']")
    assert hands_on_page(page) == answers[2]["hands"]
    assert len({json.dumps(s) for s in seen}) > 2, "the hands change as the game goes"
    page.keyboard.press("Home")
    page.wait_for_selector("body[data-step='0']")
    screenshot(page, "hands.en")
    korean = new_page(locale="ko-KR")
    korean.goto(f"{server.url}/replay/{table}")
    korean.wait_for_selector(f"body[data-step='{total}']")
    korean.keyboard.press("Home")
    korean.wait_for_selector("body[data-step='0']")
    assert "게임이 끝났어요" in korean.inner_text("#hands-revealed")
    screenshot(korean, "hands.ko")


def test_no_hand_is_shown_while_the_game_is_in_play(server: Server, new_page: NewPage) -> None:
    made = server.create(CENTRIX_INVITE)  # unlisted
    ann = new_page()
    table = f"{server.url}/table/{made['id']}"
    ann.goto(f"{table}#token={made['seats'][0]['token']}")
    ann.wait_for_selector("body[data-version='0']")
    centrix_play(ann)
    wait_version(ann, 1)
    assert ann.locator("#hand .play-card").count() > 0
    # Ann's own page holds her seat's key; the replay still shows nobody's hand.
    ann.goto(f"{server.url}/replay/{made['id']}")
    ann.wait_for_selector("body[data-step='0']")
    for step in (0, 1):
        if step:
            ann.keyboard.press("ArrowRight")
            ann.wait_for_selector("body[data-step='1']")
        assert ann.locator("#replay-info .play-card").count() == 0
        assert ann.locator("#hands-revealed").count() == 0
