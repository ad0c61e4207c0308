"""Learning in the page (issue 32): a hint at the table, played as it is; the analysis of a
finished game drawn in the replay page; in English and Korean, with screenshots for the
README (docs/screenshots/learn-*.png)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.conftest import Server
from tests.browser.helpers import version, wait_my_turn, wait_version_past
from tests.browser.test_replay import CITY_BOTS, get

NewPage = Callable[..., Page]
SCREENSHOTS = "docs/screenshots"

AGAINST_A_BOT: dict[str, Any] = {
    "game": "centrix",
    "seats": [{"kind": "device", "name": "Ann"}, {"kind": "bot", "level": 1}],
    "first": 0,
    "seed": 7,
}
CENTRIX_BOTS: dict[str, Any] = {
    "game": "centrix",
    "seats": [{"kind": "bot", "level": 2}, {"kind": "bot", "level": 1}],
    "seed": 5,
    "rules": {"max_turns": 24},
}


def screenshot(page: Page, name: str) -> None:
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=f"{SCREENSHOTS}/learn-{name}.png", full_page=True)


def test_a_hint_is_shown_in_words_and_played_as_it_is(server: Server, new_page: NewPage) -> None:
    for locale, suffix, words in (("en-US", "en", "Play it"), ("ko-KR", "ko", "이 수로 두기")):
        made = server.create(AGAINST_A_BOT)
        page = new_page(locale=locale)
        page.goto(f"{server.url}/table/{made['id']}#token={made['seats'][0]['token']}")
        wait_my_turn(page)
        expect(page.locator("#hints")).to_be_visible()
        page.select_option("#hint-level", "3")
        page.click("#hint-ask")
        page.wait_for_selector("#hint-words")
        notation = page.locator("#hint-notation").inner_text()
        assert notation
        expect(page.locator("#hint-play")).to_have_text(words)
        assert page.locator("#hint-words").inner_text()
        screenshot(page, f"hint.{suffix}")
        before = version(page)
        page.click("#hint-play")
        wait_version_past(page, before)
        # The play made is the one hinted.
        first = page.locator("#log li").first.inner_text()
        assert first, "the hinted play is in the log"


def test_no_hint_control_at_an_online_table(server: Server, new_page: NewPage) -> None:
    made = server.create(
        {
            "game": "centrix",
            "seats": [{"kind": "device", "name": "Ann"}, {"kind": "invite", "name": "Bo"}],
        }
    )
    page = new_page()
    page.goto(f"{server.url}/table/{made['id']}#token={made['seats'][0]['token']}")
    page.wait_for_selector("body[data-version='0']")
    expect(page.locator("#hints")).to_be_hidden()


def test_the_replay_draws_the_analysis_of_a_finished_game(
    server: Server, new_page: NewPage
) -> None:
    table = server.create(CENTRIX_BOTS)["id"]
    while (info := get(server, f"/api/tables/{table}"))["status"] == "playing":
        time.sleep(0.2)  # the bots play on (the API counts an address's requests a second)
    steps = info["version"]
    for locale, suffix, title in (("en-US", "en", "Analysis"), ("ko-KR", "ko", "분석")):
        page = new_page(locale=locale)
        page.goto(f"{server.url}/replay/{table}")
        page.wait_for_selector(f"body[data-step='{steps}']")
        page.wait_for_selector("body[data-analysis='done']", timeout=120_000)
        expect(page.locator("#analysis h3").first).to_have_text(title)
        lines = page.locator("#analysis-graph polyline")
        assert lines.count() == 2
        points = lines.first.get_attribute("points") or ""
        assert len(points.split()) == steps + 1  # one point a step
        # A click on the graph goes to that step of the replay.
        box = page.locator("#analysis-graph").bounding_box()
        assert box is not None
        page.mouse.click(box["x"] + 34 / 600 * box["width"] + 1, box["y"] + box["height"] / 2)
        page.wait_for_selector("body[data-step='0']")
        screenshot(page, f"analysis.{suffix}")


def test_the_replay_draws_a_colorcity_analysis_with_its_aims(
    server: Server, new_page: NewPage
) -> None:
    table = server.create(CITY_BOTS)["id"]
    while (info := get(server, f"/api/tables/{table}"))["status"] == "playing":
        time.sleep(0.2)
    page = new_page()
    page.goto(f"{server.url}/replay/{table}")
    page.wait_for_selector(f"body[data-step='{info['version']}']")
    page.wait_for_selector("body[data-analysis='done']", timeout=120_000)
    assert page.locator("#analysis-graph polyline").count() == 2
    analysis = get(server, f"/api/tables/{table}/analysis")["analysis"]
    assert analysis["aims"], "the bots pitched"
    if page.locator("#analysis-aims li").count():
        expect(page.locator("#analysis-aims li").first).to_contain_text("aimed at")
