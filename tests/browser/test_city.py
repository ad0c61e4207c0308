"""Color City at the table (issue 16, part "city"): the city drawn from data, every flick
animated along its recorded poses, the log in words, the power asked about once a game at
most, a hot-seat city kept still, spectators' presence, and a phone's touch targets and
scrolling. Run with ``-s`` to see the figures (clicks, touch targets) printed."""

from __future__ import annotations

import itertools
import json
import math
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, WebSocket, expect

from gamenight.web.games import SeatSpec
from gamenight.web.protocol import patch
from tests.browser.conftest import Console, Server
from tests.browser.helpers import version, wait_my_turn, wait_version, wait_version_past
from tests.web.bodies import COLORCITY, COLORCITY_VS_BOT
from tests.web.test_city_messages import GAME, message

NewPage = Callable[..., Page]
SCREENSHOTS = "docs/screenshots"
RAW_FLOAT = re.compile(r"\d\.\d{3,}|e-\d")  # more digits than anybody reads, or an exponent

# Every flying cube's place on screen, in board millimetres (north up), as the page drew it.
WATCH_FLIGHTS = """
(() => {
  window.flights = [];
  window.clicks = 0;
  document.addEventListener("click", (e) => { if (e.isTrusted) window.clicks += 1; }, true);
  new MutationObserver((changes) => {
    for (const change of changes) {
      const node = change.target;
      if (!(node instanceof SVGElement) || !node.classList.contains("flying-cube")) continue;
      const m = /translate\\(([-\\d.e]+) ([-\\d.e]+)\\)/.exec(node.getAttribute("transform") || "");
      if (!m) continue;
      const seen = node.dataset.flight ?? String(window.flights.push([]) - 1);
      node.dataset.flight = seen;
      const fill = node.getAttribute("fill");
      window.flights[Number(seen)].push([Number(m[1]), -Number(m[2]), fill]);
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["transform"] });
})()
"""


def screenshot(page: Page, name: str) -> None:
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=f"{SCREENSHOTS}/city-{name}.png", full_page=True)


def flights_sent(page: Page) -> list[dict[str, Any]]:
    """Record every flight the server sends the page (``last.flight``), in order."""
    sent: list[dict[str, Any]] = []

    def on_socket(socket: WebSocket) -> None:
        shown: dict[str, Any] = {}  # the page's state, rebuilt from its changes (web.protocol)

        def on_frame(payload: str | bytes) -> None:
            nonlocal shown
            message = json.loads(payload)
            if not isinstance(message, dict) or message.get("type") not in ("state", "change"):
                return
            shown = message if message["type"] == "state" else patch(shown, message["diff"])
            last = shown.get("last")
            if message["type"] == "change" and "last" not in message["diff"]:
                return  # the same action as before
            if isinstance(last, dict) and last.get("flight"):
                sent.append(last["flight"])

        socket.on("framereceived", on_frame)

    page.on("websocket", on_socket)
    return sent


def off_path(point: tuple[float, float], poses: list[list[int]]) -> float:
    """How far ``point`` is from the path through ``poses`` (mm)."""
    best = math.inf
    for a, b in itertools.pairwise(poses):
        ax, ay, bx, by = a[0], a[1], b[0], b[1]
        dx, dy = bx - ax, by - ay
        share = (
            0.0
            if dx == dy == 0
            else ((point[0] - ax) * dx + (point[1] - ay) * dy) / (dx * dx + dy * dy)
        )
        share = min(1.0, max(0.0, share))
        best = min(best, math.hypot(point[0] - ax - share * dx, point[1] - ay - share * dy))
    return best


def assert_animated(drawn: list[list[Any]], flight: dict[str, Any]) -> None:
    """The cube was drawn at many places, every one on the recorded path, ending at its end."""
    poses = flight["poses"]
    assert len(drawn) >= 3, f"the flick jumped: {drawn}"
    assert all(off_path((x, y), poses) < 1.5 for x, y, _ in drawn), (drawn, poses)
    assert drawn[-1][:2] == pytest.approx(poses[-1][:2], abs=0.01)


def test_a_game_against_a_bot_shows_every_flick_words_the_log_and_asks_once(
    server: Server, new_page: NewPage
) -> None:
    made = server.create({**COLORCITY_VS_BOT, "rules": {"max_turns": 8}})
    page = new_page()
    sent = flights_sent(page)
    page.add_init_script(WATCH_FLIGHTS)
    page.goto(f"{server.url}/table/{made['id']}#token={made['seats'][0]['token']}")
    pitches = 0
    # The power's button is there from the start, and live only after a shot of ours.
    expect(page.locator("#use-power")).to_be_disabled()
    while True:
        # Our turn to pitch (a power phase of ours passes by itself), or the end.
        page.wait_for_function(
            "() => document.querySelector('#pitch:not([disabled])')"
            " || document.getElementById('game-over')"
        )
        if page.locator("#game-over").count():
            break
        before = version(page)
        page.click("#pitch")
        pitches += 1
        wait_version_past(page, before)
        if pitches == 1:
            # The power is offered without stopping the game: its button is live beside the
            # shot's result, with its rule, and nothing asks; the game goes on by itself.
            expect(page.locator("#use-power")).to_be_enabled()
            result = page.locator("#shot-result").inner_text()
            assert result.startswith("Green's cube "), result
            assert page.locator(".power-choice .rule").count() == 1
            screenshot(page, "power.en")
    clicks = page.evaluate("window.clicks")
    print(
        f"\nclicks in a Color City game of {pitches} pitches against a bot: {clicks}"
        f" (asking every turn: {2 * pitches})"
    )
    assert clicks == pitches

    log = page.locator("#log li")
    words = log.all_inner_texts()
    titles = [log.nth(i).get_attribute("title") or "" for i in range(log.count())]
    assert len(words) >= 2 * pitches - 1
    assert not [w for w in words if RAW_FLOAT.search(w)], words
    # The notation, rounded as people read it, in each line's tooltip; a power kept is no
    # news (the record has it; the log tells only a power used).
    assert all(len(t.split()) == 4 or t in ("lucky-day", "purple-pain") for t in titles)
    assert any(re.search(r"cube (covered [a-i]\d|fell off|stopped outside)", w) for w in words)

    # Every flick was animated along the poses the server recorded: ours and the bot's.
    drawn = page.evaluate("window.flights")
    assert len(drawn) == len(sent) >= 2 * pitches - 1
    for seen, flight in zip(drawn, sent, strict=True):
        assert_animated(seen, flight)
    assert {colour for seen in drawn for *_, colour in seen} == {"#1f7a3a", "#5e2b80"}
    # (The dialog's Close: its other buttons offer a rematch and a new game.)
    page.locator("#game-over").get_by_role("button", name="Close").click()
    screenshot(page, "log.en")
    # The replay draws the same city from the same data and words the same log.
    total = version(page)
    page.goto(f"{server.url}/replay/{made['id']}")
    page.wait_for_selector(f"body[data-step='{total}']")
    assert page.locator("#board rect.square").count() == 81
    assert page.locator("#log li").all_inner_texts() == words


def test_the_log_and_the_result_in_korean(server: Server, new_page: NewPage) -> None:
    made = server.create(COLORCITY)
    page = new_page(locale="ko-KR")
    page.goto(f"{server.url}/table/{made['id']}#token={made['seats'][0]['token']}")
    wait_my_turn(page)
    page.click("#pitch")
    wait_version(page, 1)
    result = page.locator("#shot-result").inner_text()
    assert result.startswith("초록 갱의 큐브가 "), result
    assert page.locator("#use-power").inner_text() == "럭키 데이"
    assert (
        page.locator("#power-hint").inner_text()
        == "지금 쓰세요. 3초 뒤에는 게임이 저절로 계속돼요."
    )
    screenshot(page, "power.ko")
    wait_version(page, 2)  # the power kept, by itself
    entries = page.locator("#log li").all_inner_texts()
    assert entries == [f"Gi: {result}"]
    screenshot(page, "log.ko")
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, "phone.ko")


def test_a_spectator_sees_who_is_at_the_table(server: Server, new_page: NewPage) -> None:
    made = server.create(COLORCITY)
    player = new_page()
    player.goto(f"{server.url}/table/{made['id']}#token={made['seats'][0]['token']}")
    wait_my_turn(player)
    watcher = new_page()
    watcher.goto(f"{server.url}/table/{made['id']}")
    watcher.wait_for_selector("body[data-version='0']")
    expect(watcher.locator("#watching-online")).to_have_text(
        "You are watching: 1 of 2 seats online."
    )
    # Gi's page is open, Pa's is not.
    assert watcher.locator(".gang-green .badge-away").count() == 0
    assert watcher.locator(".gang-purple .badge-away").count() == 1
    assert player.locator("#watching-online").is_hidden(), "a player is not watching"
    player.close()
    expect(watcher.locator(".gang-green .badge-away")).to_have_count(1)
    expect(watcher.locator("#watching-online")).to_have_text(
        "You are watching: 0 of 2 seats online."
    )


def test_a_shared_screen_keeps_the_city_still_when_asked(server: Server, new_page: NewPage) -> None:
    page = new_page()
    page.goto(server.url + "/")
    page.click("#choose-colorcity")
    page.select_option("#seat-0-gang", "green")
    page.select_option("#seat-1-gang", "purple")
    page.select_option("#seat-1-kind", "device")  # both gangs on this device: hot seat
    page.select_option("#first-gang", "green")
    page.click("#start")
    page.wait_for_url("**/table/*")
    wait_my_turn(page)
    page.wait_for_selector("#board svg.view-green #launch-cube")
    assert not page.is_checked("#keep-still")
    # (Clicked, not checked: news of who is online may draw the box anew meanwhile.)
    page.click("#keep-still")
    expect(page.locator("#keep-still")).to_be_checked()
    page.click("#pitch")
    wait_version(page, 2)  # the pitch, and the power kept by itself
    # Purple pitches from the top of a city that stayed where it was.
    page.wait_for_selector("#board svg.view-green #launch-cube")
    cube = page.locator("#launch-cube").bounding_box()
    city = page.locator("#board svg").bounding_box()
    assert cube is not None
    assert city is not None
    assert cube["y"] < city["y"] + city["height"] / 2, "Purple's cube is at the top"
    page.reload()  # remembered
    wait_my_turn(page)
    page.wait_for_selector("#board svg.view-green #launch-cube")
    expect(page.locator("#keep-still")).to_be_checked()
    page.click("#keep-still")
    page.wait_for_selector("#board svg.view-purple #launch-cube")


@pytest.fixture
def phone(browser: Browser, console: Console) -> Iterator[Page]:
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        has_touch=True,
        is_mobile=True,
        device_scale_factor=2,
    )
    context.set_default_timeout(20_000)
    page = context.new_page()
    console.listen(page)
    yield page
    context.close()


def sizes(page: Page, selector: str) -> list[tuple[float, float]]:
    return [
        (round(box["width"], 1), round(box["height"], 1))
        for box in (
            page.locator(selector).nth(i).bounding_box()
            for i in range(page.locator(selector).count())
        )
        if box is not None
    ]


def touch_drag(page: Page, x: float, y: float, dy: float, steps: int = 20) -> float:
    """A finger put down at (x, y), moved ``dy`` px down the screen (up if negative) and
    lifted, as the browser's touch input sees it; how far the page scrolled meanwhile."""
    start = float(page.evaluate("window.scrollY"))
    session = page.context.new_cdp_session(page)
    session.send(
        "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]}
    )
    for step in range(1, steps + 1):
        point = {"x": x, "y": y + dy * step / steps}
        session.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
        page.wait_for_timeout(16)  # a frame apart, as a finger moves
    page.wait_for_timeout(100)
    scrolled = float(page.evaluate("window.scrollY")) - start
    session.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    session.detach()
    return scrolled


def test_a_phone_has_big_enough_targets_and_scrolls_off_the_cube(
    server: Server, phone: Page
) -> None:
    made = server.create(COLORCITY)
    phone.goto(f"{server.url}/table/{made['id']}#token={made['seats'][0]['token']}")
    wait_my_turn(phone)
    phone.wait_for_selector("#launch-handle:not([hidden])")
    targets = {
        "launch cube": "#launch-handle",
        "aim sliders": "#aim-box input[type=range]",
        "pitch": "#pitch",
        "toggles": ".colorcity-table .toggle",
    }
    measured = {name: sizes(phone, selector) for name, selector in targets.items()}
    # The board: a swipe that starts on the city (not on the cube) scrolls the page.
    city = phone.locator("rect.square[data-square='e5']").bounding_box()
    assert city is not None
    phone.evaluate("window.scrollTo(0, 0)")
    scrolled = touch_drag(
        phone, city["x"] + city["width"] / 2, city["y"] + city["height"] / 2, -200
    )
    phone.evaluate("window.scrollTo(0, 0)")
    # A drag that starts on the cube aims: pulled straight back, let go, it pitches.
    handle = phone.locator("#launch-handle").bounding_box()
    assert handle is not None
    aiming = touch_drag(
        phone, handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2, 75
    )
    wait_version(phone, 1)
    assert aiming == 0, "the aim gesture does not scroll"
    expect(phone.locator("#power-box")).to_be_visible()
    measured["power buttons"] = sizes(phone, "#power-box button")
    screenshot(phone, "phone.en")
    print(
        f"\nColor City at 390×844: a swipe on the city scrolled {scrolled} px; targets (w, h) px:"
    )
    for name, found in measured.items():
        print(f"  {name}: {found}")
    assert scrolled > 100
    for name, found in measured.items():
        assert found, name
        assert all(w >= 44 and h >= 44 for w, h in found), (name, found)


# The table's module driven as table.js drives it (contract A), with two states of a real game:
# the start, then the state after a pitch. Each way of showing it gets a fresh table.
PACES = """
async ([start, pitched]) => {
  const { create } = await import("/static/js/colorcity.js");
  const runs = {};
  for (const pace of ["instant", "aborted", "normal"]) {
    const root = document.createElement("div");
    document.body.append(root);
    const game = create({ root, send: () => true });
    await game.applyState(structuredClone(start), { factor: 1 });
    const control = new AbortController();
    const drawn = [];
    const watch = new MutationObserver(() => {
      const cube = root.querySelector(".flying-cube");
      const at = cube?.getAttribute("transform");
      if (at && at !== drawn.at(-1)) drawn.push(at);
      if (pace === "aborted" && drawn.length === 1) control.abort();  // at the first pose drawn
    });
    watch.observe(root, { subtree: true, attributes: true, childList: true });
    const sounds = [];
    const hear = (event) => sounds.push(event.detail);
    document.addEventListener("gamenight:sound", hear);
    const options = pace === "instant" ? { factor: 0 } : { factor: 1, signal: control.signal };
    await game.applyState(structuredClone(pitched), options);
    watch.disconnect();
    document.removeEventListener("gamenight:sound", hear);
    runs[pace] = {
      drawn: drawn.length, sounds, log: root.querySelectorAll("#log li").length,
      flying: root.querySelectorAll(".flying-cube").length,
    };
    root.remove();
  }
  return runs;
}
"""


def test_the_flick_goes_at_the_pace_asked_and_ends_when_told(
    server: Server, new_page: NewPage
) -> None:
    specs = [SeatSpec("human", "a", skill="exact"), SeatSpec("human", "b", skill="exact")]
    state, _ = GAME.new(specs, 0, {}, 4)
    start = message(state, 0, 0)
    GAME.act(state, "0 0 1.3 0")
    pitched = message(state, 0, 1)
    page = new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("#lang-switch")
    runs = page.evaluate(PACES, [start, pitched])
    poses = len(pitched["last"]["flight"]["poses"])
    # At the normal pace the cube is drawn at place after place along its flight ...
    assert runs["normal"]["drawn"] >= 3, runs
    # ... at pace "instant" not at all, and when told to stop it stops at once.
    assert runs["instant"]["drawn"] == 0, runs
    assert runs["aborted"]["drawn"] == 1, runs
    for run in runs.values():
        assert run["log"] == 1, "the state is shown however the flick was"
        assert run["flying"] == 0, "and the flying cube is gone"
        assert run["sounds"] == ["cube"], "the cube lands with its sound"
    assert runs["normal"]["drawn"] <= poses * 10


# Every step the board showed (its ``data-step``), from the moment this runs.
WATCH_STEPS = """
(() => {
  window.stepsShown = [];
  const board = document.getElementById("board");
  new MutationObserver(() => {
    if (board.dataset.step) window.stepsShown.push(board.dataset.step);
  }).observe(board, { attributes: true, attributeFilter: ["data-step"] });
})()
"""


def fills(page: Page, squares: list[str]) -> set[str | None]:
    return {
        page.locator(f"#board rect.square[data-square='{square}']").get_attribute("fill")
        for square in squares
    }


def test_a_log_line_shows_the_city_as_it_was_and_the_last_pitch_stays_marked(
    server: Server, new_page: NewPage
) -> None:
    made = server.create(COLORCITY)
    green = new_page()
    green.goto(f"{server.url}/table/{made['id']}#token={made['seats'][0]['token']}")
    wait_my_turn(green)
    green.click("#pitch")
    wait_version(green, 1)
    covered = green.request.get(f"{server.url}/api/tables/{made['id']}/replay/1").json()["view"][
        "covered"
    ]
    assert covered, "a straight shot at 1.3 m/s stops in the city"
    marked = "#board .last-move .mark-covered"
    # The landed cube's squares are marked while its gang decides on the power...
    expect(green.locator(marked)).to_have_count(len(covered))
    wait_version(green, 2)  # the power kept by itself
    # ...and after, on the other gang's page too, until the next pitch.
    purple = new_page()
    purple.goto(f"{server.url}/table/{made['id']}#token={made['seats'][1]['token']}")
    wait_my_turn(purple)
    purple.wait_for_selector("#launch-cube")
    squares = purple.locator(marked).evaluate_all("marks => marks.map(m => m.dataset.square)")
    assert sorted(squares) == sorted(covered)
    assert purple.locator("#board .footprint").count() == 1  # where the cube landed
    painted = {"#2e9d4f"}
    assert fills(purple, covered) == painted

    # Hovering the pitch's line shows the city as it was then: the cube landed, its squares
    # not yet painted (the power was still to be decided); leaving it shows now again.
    line = purple.locator("#log li[data-step='1']")
    line.hover()
    purple.wait_for_selector("#board[data-showing='then'][data-step='1']")
    assert fills(purple, covered) == {"#f4efe4"}
    assert purple.locator("#launch-cube").count() == 0, "no aiming on a past city"
    expect(line).to_have_class(re.compile(r"\bcurrent\b"))
    purple.locator("#gangs").hover()
    purple.wait_for_selector("#board[data-showing='state']:not([data-step]) #launch-cube")
    assert fills(purple, covered) == painted
    assert purple.locator("#log li.current").count() == 0

    # A keyboard reaches every line, and its focus shows that step.
    assert purple.locator("#log li").evaluate_all("lines => lines.map(l => l.tabIndex)") == [0]
    purple.locator("#log li[data-step='1']").focus()
    purple.wait_for_selector("#board[data-showing='then'][data-step='1']")
    purple.locator("#pitch").focus()
    purple.wait_for_selector("#board[data-showing='state']:not([data-step]) #launch-cube")

    # While the player aims, the log shows nothing: the drag goes on and the shot is pitched.
    purple.evaluate(WATCH_STEPS)
    handle = purple.locator("#launch-handle").bounding_box()
    assert handle is not None
    x, y = handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2
    purple.mouse.move(x, y)
    purple.mouse.down()
    purple.mouse.move(x, y + 60, steps=5)  # Purple's HQ is at the bottom: a pull down
    purple.locator("#log li[data-step='1']").focus()
    purple.mouse.move(x, y + 90, steps=5)
    purple.mouse.up()
    wait_version(purple, 3)
    assert purple.evaluate("window.stepsShown") == []
