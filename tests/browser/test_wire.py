"""Issue 16, the wire's part, in the browser: every bot play shown one by one and the last one
marked, the frames after the first under 4 KB, the log in words (English and Korean), the pace
and skipping to now, no input while reconnecting, and Centrix's touch targets at least 44 CSS
px on a phone."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

from tests.browser.conftest import Console, Server
from tests.browser.helpers import centrix_finish_turn, centrix_play, version, wait_my_turn

NewPage = Callable[..., Page]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
CHANGE_LIMIT = 4096

# Each play the page shows, in order, as its animation starts (data-animated on the board),
# and whether a pawn was seen moving then: watched from outside, the page offers no shortcut.
WATCH = """() => {
  window.shownPlays = [];
  const board = document.getElementById('board');
  new MutationObserver(() => {
    const v = board.dataset.animated;
    if (v && window.shownPlays.at(-1)?.version !== Number(v)) {
      window.shownPlays.push({ version: Number(v), showing: document.body.dataset.showing });
    }
  }).observe(board, { attributes: true, attributeFilter: ['data-animated'] });
}"""


def four_player_table(page: Page, server: Server, seed: int = 5) -> None:
    """Ann against three bots, opened on ``page`` through her seat's link."""
    body = {
        "game": "centrix",
        "seats": [{"kind": "device", "name": "Ann"}]
        + [{"kind": "bot", "level": 1, "name": f"Bot {i}"} for i in (1, 2, 3)],
        "seed": seed,
    }
    made = page.request.post(f"{server.url}/api/tables", data=body).json()
    page.goto(f"{server.url}/table/{made['id']}#token={made['seats'][0]['token']}")


def frames(page: Page) -> list[str]:
    """The text frames the page's table socket receives, from now on."""
    got: list[str] = []
    page.on(
        "websocket",
        lambda ws: ws.on("framereceived", lambda f: got.append(f if isinstance(f, str) else "")),
    )
    return got


def test_every_bot_play_is_shown_in_order_marked_and_told_in_words(
    server: Server, new_page: NewPage
) -> None:
    page = new_page()
    received = frames(page)
    page.goto(server.url + "/")
    page.evaluate("localStorage.setItem('gamenight.pace', 'fast')")
    four_player_table(page, server)
    wait_my_turn(page)
    assert page.input_value("#pace") == "fast"  # remembered
    page.evaluate(WATCH)
    mine = centrix_finish_turn(page)  # Ann's three plays (or fewer), then the bots' turns
    wait_my_turn(page)
    now = version(page)
    shown = page.evaluate("window.shownPlays")
    versions = [s["version"] for s in shown]
    # Every play after Ann's first was shown, one at a time and in order: hers and the bots'.
    assert versions == list(range(versions[0], now + 1)), versions
    assert versions[0] <= mine + 1  # from Ann's last play at the latest
    assert now - mine >= 3  # each bot played
    # The last play stays marked on the board until the next one.
    assert page.get_attribute("#board", "data-marked") == str(now)
    assert page.locator("#board .last-move > *").count() > 0

    # The frames: the first state whole, every later one a change under 4 KB.
    states = [json.loads(f) for f in received if '"type":"state"' in f or '"type":"change"' in f]
    assert states[0]["type"] == "state"
    assert "svg" not in states[0]["view"]
    later = [f for f in received if f.startswith('{"type":"change"')]
    assert len(later) >= now
    sizes = [len(f.encode()) for f in later]
    assert max(sizes) <= CHANGE_LIMIT, max(sizes)
    mean = sum(sizes) / len(sizes)
    print(f"\nframes after the first: {len(sizes)}, mean {mean:.0f} B, max {max(sizes)} B")

    # The log reads as words, the notation as each line's tooltip.
    lines = page.locator("#log li")
    first = lines.first
    words = first.locator(".log-words").inner_text()
    notation = first.get_attribute("title")
    assert words.startswith("Ann ")
    assert any(w in words for w in ("moved", "turned ring", "leapfrogged", "brought a pawn"))
    assert notation  # the notation is the tooltip
    assert notation.split()[0] not in words
    # Long logs keep their numbers whole: the markers sit inside the list.
    assert page.evaluate("getComputedStyle(document.getElementById('log')).listStylePosition") == (
        "inside"
    )
    # Hovering a line shows the board as it was after that play.
    first.hover()
    page.wait_for_selector("#board[data-showing='then'][data-step='1']")
    page.mouse.move(0, 0)
    page.wait_for_selector("#board[data-showing='state']")
    page.screenshot(path=str(SCREENSHOTS / "wire-table.en.png"))
    page.click("#lang-switch")
    page.wait_for_selector("html[lang='ko']", state="attached")
    korean = page.locator("#log li .log-words").first.inner_text()
    assert any(w in korean for w in ("옮김", "돌림", "뛰어넘음", "들여놓음")), korean
    page.screenshot(path=str(SCREENSHOTS / "wire-table.ko.png"))


def test_the_last_play_is_marked_again_when_a_ring_turned_in_preview_is_cancelled(
    server: Server, new_page: NewPage
) -> None:
    page = new_page()
    page.goto(server.url + "/")
    page.evaluate("localStorage.setItem('gamenight.pace', 'instant')")
    four_player_table(page, server)
    wait_my_turn(page)
    centrix_play(page)  # a play to mark (Ann's, or the bots' after it)
    wait_my_turn(page)
    marks = "#board .last-move > *"
    page.wait_for_selector(f"#board[data-marked='{version(page)}'] .last-move > *")
    marked = page.locator(marks).count()
    cards = page.locator(".play-card:not([disabled])")
    rotations = page.locator("[data-rotation]:not([data-rotation='none'])")
    for i in range(cards.count()):
        cards.nth(i).click()
        if rotations.count():
            break
    assert rotations.count(), "a card in Ann's hand turns a ring"
    for undo_preview in ("[data-rotation='none']", "#cancel-play"):
        rotations.first.click()
        page.wait_for_selector("#board[data-showing='preview']")
        assert page.locator(marks).count() == 0  # the turned board is not the last play's
        if not page.locator(undo_preview).count():
            continue  # (the card is not played without turning a ring)
        # By the keyboard, the pointer out of the way: a pointer left over the log would show
        # the board as it was after a play instead.
        page.mouse.move(0, 0)
        page.focus(undo_preview)
        page.keyboard.press("Enter")
        page.wait_for_selector("#board[data-showing='state']")
        assert page.locator(marks).count() == marked, undo_preview


def test_plays_are_shown_at_the_pace_chosen_until_skipped_to_now(
    server: Server, new_page: NewPage
) -> None:
    page = new_page()
    page.goto(server.url + "/")
    page.evaluate("localStorage.setItem('gamenight.pace', 'slow')")
    four_player_table(page, server, seed=9)
    wait_my_turn(page)
    centrix_finish_turn(page)
    # The bots play at once; the page shows their plays slowly, and offers to skip to now.
    page.wait_for_selector("#skip-now:not([hidden])")
    assert page.get_attribute("body", "data-showing") == "true"
    # Whatever the server is at, the hand and the banner are those of the play being shown:
    # a bot's turn, with no card of Ann's to play.
    assert page.locator(".turn-banner.mine").count() == 0
    assert page.locator(".play-card:not([disabled])").count() == 0
    page.click("#skip-now")
    page.wait_for_selector("body[data-showing='false']")
    wait_my_turn(page)
    assert page.locator("#skip-now").is_hidden()
    page.select_option("#pace", "instant")
    assert page.evaluate("localStorage.getItem('gamenight.pace')") == "instant"


def boxes(page: Page, selector: str) -> list[dict[str, Any]]:
    return [b for b in (e.bounding_box() for e in page.locator(selector).all()) if b]


def test_centrix_touch_targets_are_44_px_on_a_phone(server: Server, new_page: NewPage) -> None:
    page = new_page(width=390, height=844)
    page.goto(server.url + "/")
    page.evaluate("localStorage.setItem('gamenight.pace', 'instant')")
    four_player_table(page, server, seed=5)
    wait_my_turn(page)
    measured: dict[str, float] = {}

    def check(name: str, selector: str) -> None:
        found = boxes(page, selector)
        assert found, f"no {name} ({selector}) on screen"
        smallest = min(min(b["width"], b["height"]) for b in found)
        measured[name] = smallest
        assert smallest >= 44 - 0.5, f"{name}: {smallest:.1f} px"

    check("cards", ".play-card")
    check("pace", "#pace")
    page.locator(".play-card:not([disabled])").first.click()
    if page.locator("[data-rotation]").count():
        check("rotations", "[data-rotation]")
        page.locator("[data-rotation='none']").or_(page.locator("[data-rotation]")).first.click()
    check("cancel", "#cancel-play")
    if page.locator(".pawn-hit").count():
        check("pawns to pick", ".pawn-hit")
        page.locator(".pawn.movable").first.click()
    else:
        check("tray", "button.tray.movable")
        page.click("button.tray.movable")
    page.wait_for_selector(".target-dot")
    check("target dots", ".target-dot")
    page.screenshot(path=str(SCREENSHOTS / "wire-phone.en.png"))
    page.click("#lang-switch")
    page.wait_for_selector("html[lang='ko']", state="attached")
    page.screenshot(path=str(SCREENSHOTS / "wire-phone.ko.png"))
    print("\ntouch targets at 390x844 (smallest side, CSS px):", measured)


def test_the_page_takes_no_input_while_it_reconnects(
    own_server: Server, new_page: NewPage, console: Console
) -> None:
    console.allowed.append("WebSocket connection to")  # the server is down a while
    page = new_page()
    page.goto(own_server.url + "/")
    four_player_table(page, own_server, seed=5)
    wait_my_turn(page)
    assert page.get_attribute("#main", "inert") is None
    own_server.stop()
    page.wait_for_selector("body[data-connection='closed']")
    # Shown, and nothing on the table can be touched or reached by the keyboard meanwhile.
    assert page.text_content("#conn") == "Reconnecting…"
    assert page.get_attribute("#main", "inert") is not None
    assert page.evaluate("document.querySelector('.play-card').closest('[inert]') !== null")
    own_server.start()
    page.wait_for_selector("body[data-connection='open']")
    assert page.get_attribute("#main", "inert") is None
