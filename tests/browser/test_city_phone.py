"""Color City on a phone (390 × 844, issue 30's frictions): the header in one row, its
table's tools behind a menu button; the city filling the board's width, the drawing cut to
the pitcher's end of the board (its HQ, the launch line, the city and a margin beyond), all
of it in the first screen with room to pull the cube back. On a wide screen the whole board
is drawn and the tools stay in the header, as before."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import Server
from tests.browser.helpers import wait_my_turn
from tests.web.bodies import COLORCITY

NewPage = Callable[..., Page]
PULL_PX = 75  # the pull the phone test of test_city.py makes from the cube, down the screen

# Boxes on screen (left, right, top, bottom): the city's squares, the board element, the
# drawing, and what of the board must stay inside the drawing.
MEASURE = """() => {
  const box = (r) => [r.left, r.right, r.top, r.bottom];
  const union = (nodes) => {
    const rs = [...nodes].map((n) => n.getBoundingClientRect());
    return [Math.min(...rs.map((r) => r.left)), Math.max(...rs.map((r) => r.right)),
            Math.min(...rs.map((r) => r.top)), Math.max(...rs.map((r) => r.bottom))];
  };
  const q = (s) => document.querySelectorAll(s);
  const turned = document.querySelector('#board svg').classList.contains('view-purple');
  const gang = turned ? 'purple' : 'green';
  return {
    city: union(q('#board rect.square')),
    board: box(document.getElementById('board').getBoundingClientRect()),
    svg: box(document.querySelector('#board svg').getBoundingClientRect()),
    labels: union(q('#board text.rank, #board text.file')),
    hq: union(q(`#board rect.hq-${gang}`)),
    cubes: union(q(`#board rect.cube-${gang}, #board rect.lost-${gang}`)),
  };
}"""


def inside(inner: list[float], outer: list[float]) -> bool:
    return (
        inner[0] >= outer[0] - 0.5
        and inner[1] <= outer[1] + 0.5
        and inner[2] >= outer[2] - 0.5
        and inner[3] <= outer[3] + 0.5
    )


def open_seat(server: Server, page: Page, seat: int) -> None:
    made = server.create(COLORCITY)
    page.goto(f"{server.url}/table/{made['id']}#token={made['seats'][seat]['token']}")


@pytest.mark.parametrize("gang", ["green", "purple"])
def test_on_a_phone_the_city_fills_the_boards_width(
    server: Server, new_page: NewPage, gang: str
) -> None:
    page = new_page(width=390, height=844)
    open_seat(server, page, 0 if gang == "green" else 1)  # Purple sees the board turned round
    page.wait_for_selector(f"#board svg.view-{gang} rect.square")
    found: dict[str, Any] = page.evaluate(MEASURE)
    city = found["city"][1] - found["city"][0]
    board = found["board"][1] - found["board"][0]
    print(f"\nColor City at 390×844 ({gang}): the city {city:.0f} px of the board's {board:.0f} px")
    assert city >= 0.8 * board, f"the city is {city / board:.0%} of the board's width"
    # What the drawing leaves out is bare wood and the far HQ: the labels, the city, the
    # pitcher's own HQ and its cubes are all drawn.
    for part in ("labels", "city", "hq", "cubes"):
        assert inside(found[part], found["svg"]), (part, found[part], found["svg"])


def test_on_a_phone_the_cube_and_the_pull_are_in_the_first_screen(
    server: Server, new_page: NewPage
) -> None:
    page = new_page(width=390, height=844)
    open_seat(server, page, 0)
    wait_my_turn(page)
    page.wait_for_selector("#launch-handle:not([hidden])")
    assert page.evaluate("window.scrollY") == 0
    handle = page.locator("#launch-handle").bounding_box()
    assert handle is not None
    assert handle["y"] + handle["height"] / 2 + PULL_PX <= 844, handle


@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
def test_on_a_phone_the_header_is_one_row_and_its_tools_open_from_a_menu(
    server: Server, new_page: NewPage, locale: str
) -> None:
    page = new_page(width=390, height=844, locale=locale)
    open_seat(server, page, 0)
    wait_my_turn(page)
    header = page.locator("header.topbar").bounding_box()
    assert header is not None
    rows = page.evaluate(
        "[...document.querySelector('header.topbar').children]"
        ".map((node) => node.getBoundingClientRect())"
        ".filter((r) => r.width > 0 && r.height > 0)"
        ".map((r) => Math.round(r.top + r.height / 2))"
    )
    print(f"\nthe header at 390×844 ({locale}): {header['height']:.0f} px, centres {rows}")
    assert max(rows) - min(rows) <= 4, f"the header's parts are on more than one row: {rows}"
    assert header["height"] <= 64, header
    menu = page.locator("#table-menu")
    box = menu.bounding_box()
    assert box is not None
    assert box["width"] >= 44, box
    assert box["height"] >= 44, box
    assert page.locator("#resign").is_hidden()
    assert menu.get_attribute("aria-expanded") == "false"
    menu.click()
    assert menu.get_attribute("aria-expanded") == "true"
    for tool in ("#resign", "#pace", "#table-nav a[href^='/rules/']"):
        assert page.locator(tool).is_visible(), tool
    menu.click()
    assert page.locator("#resign").is_hidden()


def test_on_a_wide_screen_the_whole_board_and_the_tools_are_shown(
    server: Server, new_page: NewPage
) -> None:
    page = new_page(width=1280, height=900)
    open_seat(server, page, 0)
    wait_my_turn(page)
    view_box = page.evaluate("document.querySelector('#board svg').getAttribute('viewBox')")
    assert [float(x) for x in view_box.split()] == [-220, -320, 440, 640]
    assert page.locator("#table-menu").is_hidden()
    assert page.locator("#resign").is_visible()
    assert page.locator("#pace").is_visible()
