"""Color City in the browser: aim by dragging (slingshot), watch the flick, decide on powers."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Server, shot
from tests.browser.helpers import version, wait_my_turn, wait_prediction, wait_version
from tests.web.bodies import COLORCITY

NewPage = Callable[..., Page]
PAINT = {"green": "#2e9d4f", "purple": "#7b3fa0"}


def centre(page: Page, selector: str) -> tuple[float, float]:
    # The aim layer is redrawn whenever a prediction arrives, so wait until the element is
    # (again) on screen rather than catching it between two drawings.
    locator = page.locator(selector)
    locator.wait_for(state="visible")
    box = locator.bounding_box()
    assert box is not None, f"{selector} is not on screen"
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


@pytest.mark.parametrize("gang", ["green", "purple"])
def test_pitch_by_dragging(server: Server, new_page: NewPage, gang: str) -> None:
    other = "purple" if gang == "green" else "green"
    page = new_page()
    page.goto(server.url + "/")
    page.click("#choose-colorcity")
    page.select_option("#seat-0-gang", gang)
    page.select_option("#seat-0-skill", "exact")  # so the pitch lands where predicted
    page.select_option("#seat-1-gang", other)
    page.select_option("#seat-1-kind", "device")  # both gangs on this device: hot seat
    page.select_option("#first-gang", gang)
    shot(page, f"colorcity-{gang}-01-set-up")
    page.click("#start")
    page.wait_for_url("**/table/*")
    wait_my_turn(page)
    page.wait_for_selector("#launch-cube")
    # The cube on the launch line is one of the gang's four: its place in the HQ is empty.
    assert page.locator(f"rect.cube-{gang}").count() == 4
    assert page.locator(f"rect.cube-{gang}.in-hand").count() == 1

    # Slide the cube to the left along the launch line, then pull it back down and to the
    # right: a slingshot sends it up and to the left on screen, whichever gang is at the
    # bottom (Purple sees the board turned round).
    x, y = centre(page, "#launch-cube")
    # Screen pixels per millimetre of board (the matrix is turned round for Purple).
    mm = page.evaluate(
        "(() => { const m = document.querySelector('#board svg .world').getScreenCTM();"
        " return Math.hypot(m.a, m.b); })()"
    )
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x - 28 * mm, y, steps=4)
    assert float(page.input_value("#aim-position")) < 0  # to the gang's left
    # Most of the pull is spent on the speeds that reach the city: from about 40 mm of pull
    # (in from the dead zone) to about 90 mm, a straight pull back stops in the city.
    for pull in (40, 88):
        page.mouse.move(x - 28 * mm, y + pull * mm, steps=4)
        wait_prediction(page)
        assert page.locator("rect.square.predicted").count(), f"{pull} mm of pull"
    # 56 mm of pull: about 1.3 m/s, which stops in the middle of the city.
    page.mouse.move(x - 16 * mm, y + 55 * mm, steps=8)
    wait_prediction(page)
    cube_x, cube_y = centre(page, "#launch-cube")
    stop_x, stop_y = centre(page, ".predicted-stop")
    assert stop_x < cube_x, "a pull to the right sends the cube to the left"
    assert stop_y < cube_y, "a pull down sends the cube up the board"
    assert float(page.input_value("#aim-direction")) > 0  # counter-clockwise: to its left
    predicted = page.locator("rect.square.predicted").evaluate_all(
        "squares => squares.map(s => s.dataset.square)"
    )
    assert predicted, "the predicted stop is in the city"
    shot(page, f"colorcity-{gang}-02-aiming")
    page.mouse.up()
    wait_version(page, 1)
    assert page.locator("#log li").count() == 1
    # The log reads like a sentence; the notation stays in the record and the tooltip.
    entry = page.locator("#log li").first
    words = entry.inner_text()
    assert words.startswith(f"Player 1: {gang.title()}'s cube covered "), words
    assert all(square in words for square in predicted), (words, predicted)
    assert len(entry.get_attribute("title").split()) == 4

    # Each gang's power is live beside its own shot's result, with its rule: after the first
    # pitch both gangs still have theirs. Unused, it is kept by itself: nothing asks.
    expect(page.locator("#power-box")).to_be_visible()
    assert page.locator("#shot-result").inner_text() == words.removeprefix("Player 1: ")
    power = "lucky-day" if gang == "green" else "purple-pain"
    expect(page.locator(f"#use-power[data-decision='{power}']")).to_be_enabled()
    assert page.locator(".power-choice .rule").text_content()
    shot(page, f"colorcity-{gang}-03-power")
    wait_version(page, 2)
    # A power kept is no news: the log tells the pitch alone.
    expect(page.locator("#log li")).to_have_count(1)
    # The squares the cube covered are painted in the gang's colour.
    for square in predicted:
        fill = page.locator(f"rect.square[data-square='{square}']").get_attribute("fill")
        assert fill == PAINT[gang]
    assert int(page.locator(f".gang-{gang} .gang-squares").get_attribute("data-squares") or 0) >= 1
    # The other gang pitches next on this device, with its own HQ at the bottom.
    wait_my_turn(page)
    page.wait_for_selector(f"#board svg.view-{other} #launch-cube")
    assert version(page) == 2
    shot(page, f"colorcity-{gang}-04-next-gang")


def test_pitch_with_the_controls(server: Server, new_page: NewPage) -> None:
    made = server.create(COLORCITY)
    page = new_page()
    page.goto(f"{server.url}/table/{made['id']}#token={made['seats'][0]['token']}")
    wait_my_turn(page)
    # The keyboard way: sliders and a button, for anyone who cannot drag.
    page.locator("#aim-speed").fill("1.3")
    wait_prediction(page)
    assert "e4" in (page.text_content("#prediction-text") or "")
    page.click("#pitch")
    wait_version(page, 1)
    page.click("[data-decision='lucky-day']")
    wait_version(page, 2)
    assert page.locator(".gang-green .power-badge.used").count() == 1
    assert page.locator("#aim-box:not([hidden])").count() == 1  # the same player pitches again


@pytest.mark.parametrize(("width", "height"), [(1280, 900), (390, 844), (320, 568)])
def test_the_launch_cube_is_drawn_44_px_or_more_on_every_screen(
    server: Server, new_page: NewPage, width: int, height: int
) -> None:
    made = server.create(COLORCITY)
    page = new_page(width=width, height=height)
    page.goto(f"{server.url}/table/{made['id']}#token={made['seats'][0]['token']}")
    wait_my_turn(page)
    page.locator("#launch-cube").wait_for(state="visible")
    # Both at one moment: the aim is drawn again whenever a prediction comes.
    cube, handle = page.evaluate(
        "['#launch-cube', '#launch-handle'].map((s) => {"
        " const r = document.querySelector(s).getBoundingClientRect();"
        " return { x: r.x, y: r.y, width: r.width, height: r.height }; })"
    )
    assert cube["width"] >= 44, cube
    assert cube["height"] >= 44, cube
    # The touch target is over the cube drawn: grabbing what one sees aims.
    assert abs(cube["x"] + cube["width"] / 2 - handle["x"] - handle["width"] / 2) < 1
    assert abs(cube["y"] + cube["height"] / 2 - handle["y"] - handle["height"] / 2) < 1


# The flying cube's opacity at each change, as the page drew it.
WATCH_OPACITY = """
(() => {
  window.opacities = [];
  new MutationObserver((changes) => {
    for (const change of changes) {
      if (change.target.classList?.contains("flying-cube")) {
        window.opacities.push(Number(change.target.getAttribute("opacity") ?? 1));
      }
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["opacity"] });
})()
"""


def test_a_cube_judged_off_the_city_is_seen_to_leave(server: Server, new_page: NewPage) -> None:
    made = server.create(COLORCITY)
    page = new_page()
    page.add_init_script(WATCH_OPACITY)
    page.goto(f"{server.url}/table/{made['id']}#token={made['seats'][0]['token']}")
    wait_my_turn(page)
    slowest = page.get_attribute("#aim-speed", "min")
    assert slowest is not None
    page.locator("#aim-speed").fill(slowest)  # short of the city
    wait_prediction(page)
    assert page.text_content("#prediction-text") == (
        "It would stop outside the city and be destroyed."
    )
    page.click("#pitch")
    wait_version(page, 1)
    assert page.locator("#log li").inner_text() == (
        "Gi: Green's cube stopped outside the city and is lost"
    )
    # The cube faded away at the end of its flight, and no cube is drawn where it stopped:
    # an outline marks the place.
    opacities = page.evaluate("window.opacities")
    assert opacities, "the cube flew"
    assert min(opacities) < 0.1, opacities
    footprint = page.locator("#board .footprint")
    assert footprint.get_attribute("fill") == "none"
    expect(footprint).to_have_class("footprint lost")
