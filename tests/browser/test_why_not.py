""" "Why not?" at the table (issue 32): a click on a square the rules forbid says which rule
forbids it, at every seat, in the page's language, and never names a card of another seat's
hand; a Color City cube dragged past its HQ is told the HQ rule."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.conftest import Server
from tests.browser.helpers import centrix_finish_turn, click_centre, drag_cube, wait_my_turn
from tests.web.bodies import COLORCITY

NewPage = Callable[..., Page]
SCREENSHOTS = "docs/screenshots"
BODY: dict[str, Any] = {
    "game": "centrix",
    "seats": [{"kind": "device", "name": "Ann"}, {"kind": "device", "name": "Bo"}],
    "first": 0,
    "seed": 11,
}


def hand(page: Page) -> list[str]:
    """The cards a seat's page shows in its hand."""
    cards: list[str] = page.locator(".play-card").evaluate_all("cs => cs.map(c => c.dataset.card)")
    return cards


def forbidden_click(page: Page) -> str:
    """Choose a card that brings a pawn onto the board, and click a square of the outer ring
    it may not go to; that square."""
    for card in hand(page):
        page.click(f".play-card[data-card='{card}']")
        if page.locator("[data-rotation='none']").count():
            page.click("[data-rotation='none']")
        if page.locator("button.tray.movable").count():
            page.click("button.tray.movable")
        if page.locator(".target-dot").count():
            break
        page.keyboard.press("Escape")
    allowed = set(page.locator(".target-dot").evaluate_all("ds => ds.map(d => d.dataset.square)"))
    square = next(f"{c}1" for c in "abcdefghijkl" if f"{c}1" not in allowed)
    click_centre(page, f"#board path.square[data-square='{square}']")
    return square


def test_a_forbidden_click_says_its_rule_at_every_seat(server: Server, new_page: NewPage) -> None:
    made = server.create(BODY)
    pages = []
    for seat, locale in ((0, "en-US"), (1, "ko-KR")):
        page = new_page(locale=locale)
        page.goto(f"{server.url}/table/{made['id']}#token={made['seats'][seat]['token']}")
        page.wait_for_selector("body[data-version='0']")
        pages.append(page)
    for seat, words in ((0, "That is not allowed"), (1, "그렇게 할 수 없어요")):
        page, other = pages[seat], pages[1 - seat]
        wait_my_turn(page)
        mine = hand(page)
        square = forbidden_click(page)
        toast = page.locator(".toast-error").last
        expect(toast).to_contain_text(words)
        expect(toast).to_contain_text(square)
        if seat == 0:
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=f"{SCREENSHOTS}/learn-why-not-table.en.png")
        # Nothing of the other seat's hand is named (but the cards both hold).
        text = toast.inner_text()
        hidden = [card for card in hand(other) if card not in mine]
        assert not any(re.search(rf"\b{card}\b", text) for card in hidden), (text, hidden)
        page.keyboard.press("Escape")
        if seat == 0:
            centrix_finish_turn(page)


def test_a_cube_dragged_past_its_hq_is_told_the_rule(server: Server, new_page: NewPage) -> None:
    made = server.create(COLORCITY)
    page = new_page()
    page.goto(f"{server.url}/table/{made['id']}#token={made['seats'][0]['token']}")
    wait_my_turn(page)
    drag_cube(page, 600, 0, steps=12)
    expect(page.locator(".toast-error").last).to_contain_text("HQ")
