"""The guided first game in the page (issue 32): a newcomer plays every Centrix and Color City
lesson from the home page's "Learn to play", in English and Korean, by clicking (Color City's
aims set with the aim's sliders, and one cube flicked with the slingshot: by mouse in
English, by touch in Korean), each lesson ending in its goal; a wrong try is told
its rule in words; progress is remembered on the device; no console errors (the fixture)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from gamenight.centrix.lessons import Goal
from gamenight.centrix.lessons import lessons as centrix_lessons
from gamenight.colorcity import Decision, Shot
from gamenight.colorcity.lessons import lessons as city_lessons
from gamenight.colorcity.lessons import reached as city_reached
from tests.browser.conftest import Server
from tests.browser.helpers import click_centre, drag_cube
from tests.colorcity.test_lessons import a_way
from tests.web.test_lessons_api import way

NewPage = Callable[..., Page]
SCREENSHOTS = "docs/screenshots"
ROTATION = re.compile(r"\d[+-]\d+")
LANGUAGES = [("en-US", "en", "Well done"), ("ko-KR", "ko", "잘했어요")]


def outcome(page: Page) -> str:
    """The lesson's answer to the last try, once on screen."""
    page.wait_for_function("() => document.body.dataset.lessonOutcome")
    answer = str(page.evaluate("document.body.dataset.lessonOutcome"))
    page.evaluate("delete document.body.dataset.lessonOutcome")
    return answer


def choose(page: Page, card: str, rotation: str | None) -> None:
    page.click(f".play-card[data-card='{card}']")
    if rotation:
        page.click(f"[data-rotation='{rotation}']")
        page.wait_for_selector("#board[data-showing='preview']")
    elif page.locator("[data-rotation='none']").count():
        page.click("[data-rotation='none']")


def click_play(page: Page, notation: str) -> None:
    """Make a Centrix play by clicking, as a person does: its card, the ring it turns, the
    pawn (on the board or off it), then where it goes."""
    card, *rest = notation.split()
    rotation = next((p for p in rest if ROTATION.fullmatch(p)), None)
    move = next((p for p in rest if not ROTATION.fullmatch(p)), None)
    choose(page, card, rotation)
    if move is None:
        page.click("#rotation-only")
        return
    frm, to = move.split("-")
    target = f".target-dot[data-square='{to}']"
    if not page.locator(target).count():
        chip = page.locator(f"[data-from='{frm}']")
        if chip.count():
            chip.click()
        elif frm == "off":
            page.click("button.tray.movable")
        else:
            click_centre(page, f"#board .pawn[data-square='{frm}']")
    page.wait_for_selector(target)
    click_centre(page, target)


def test_a_newcomer_plays_every_centrix_lesson(server: Server, new_page: NewPage) -> None:
    for locale, suffix, done in LANGUAGES:
        page = new_page(locale=locale)
        page.goto(server.url + "/")
        page.click("#learn-link")
        page.click("#start-centrix")
        for number, lesson in enumerate(centrix_lessons()):
            page.wait_for_selector(f"body[data-lesson='{lesson.key}']")
            for square in lesson.highlight:
                assert page.locator(f"#board .lit[data-square='{square}']").count() == 1
            if number == 0:
                # A wrong try: O1 brings a pawn only onto orange, and c1 is yellow.
                choose(page, "O1", None)
                if not page.locator(".target-dot").count():
                    page.click("button.tray.movable")
                click_centre(page, "#board path.square[data-square='c1']")
                assert outcome(page) == "refused"
                expect(page.locator("#lesson-status.lesson-why")).to_contain_text("c1")
                if suffix == "ko":
                    expect(page.locator("#lesson-status")).to_contain_text("노랑")
                    page.evaluate("window.scrollTo(0, 0)")
                    page.screenshot(path=f"{SCREENSHOTS}/learn-why-not.ko.png", full_page=True)
                else:
                    page.screenshot(path=f"{SCREENSHOTS}/learn-why-not.en.png", full_page=True)
                page.keyboard.press("Escape")
            depth = 3 if lesson.goal is Goal.THREE_PLAYS else 1
            plays = way(lesson.state(), lesson.goal, depth)
            assert plays, lesson.key
            for i, play in enumerate(plays):
                click_play(page, play)
                assert outcome(page) == ("reached" if i == len(plays) - 1 else "more"), lesson.key
            expect(page.locator("#lesson-status.lesson-done")).to_contain_text(done)
            if number == 2:
                page.evaluate("window.scrollTo(0, 0)")
                page.screenshot(path=f"{SCREENSHOTS}/learn-lesson.{suffix}.png", full_page=True)
            page.click("#lesson-next")
        # Every lesson done is remembered on this device, and each can be played again.
        page.wait_for_selector("#lessons-centrix")
        assert page.locator("#lessons-centrix a.done").count() == len(centrix_lessons())
        page.click("#lessons-centrix a[data-lesson='bump']")
        page.wait_for_selector("body[data-lesson='bump']")


def city_action(number: int) -> Shot | Decision:
    """The lesson's action as the sliders can set it (their steps: 0.5 mm, 0.5°, 0.01 m/s)."""
    lesson = city_lessons()[number]
    state = lesson.state()
    action = a_way(lesson, state)
    if isinstance(action, Decision):
        return action
    for dd in (0, 0.5, -0.5, 1, -1):
        for ds in (0, 0.01, -0.01, 0.02, -0.02):
            shot = Shot(
                round(action.position * 2) / 2,
                round(action.direction * 2) / 2 + dd,
                round(action.speed, 2) + ds,
                0.0,
            )
            if city_reached(lesson, state, shot):
                return shot
    raise AssertionError(f"no slider shot reaches lesson {lesson.key}")


def slingshot(page: Page, *, touch: bool) -> None:
    """Put the cube's finger (or the mouse) down on it, pull straight back a long way and let
    go, as a newcomer flicks."""
    page.wait_for_selector("#launch-handle:not([hidden])")
    # (The cube near the top of the window: the whole pull stays on screen.)
    page.locator("#launch-handle").evaluate("h => h.scrollIntoView({ block: 'start' })")
    steps, pull = 15, 320
    if not touch:
        drag_cube(page, 0, pull, steps=steps)
        return
    box = page.locator("#launch-handle").bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    session = page.context.new_cdp_session(page)
    session.send("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})
    touch_event = "Input.dispatchTouchEvent"
    session.send(touch_event, {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for step in range(1, steps + 1):
        point = {"x": x, "y": y + pull * step / steps}
        session.send(touch_event, {"type": "touchMove", "touchPoints": [point]})
        page.wait_for_timeout(16)
    session.send(touch_event, {"type": "touchEnd", "touchPoints": []})
    session.detach()


def set_slider(page: Page, key: str, value: float) -> None:
    page.locator(f"#aim-{key}").evaluate(
        "(input, v) => { input.value = String(v);"
        " input.dispatchEvent(new Event('input', { bubbles: true })); }",
        value,
    )


@pytest.mark.parametrize(("locale", "suffix", "done"), LANGUAGES)
def test_a_newcomer_plays_every_colorcity_lesson(
    server: Server, new_page: NewPage, locale: str, suffix: str, done: str
) -> None:
    page = new_page(locale=locale)
    page.goto(server.url + "/learn")
    page.click("#start-colorcity")
    for number, lesson in enumerate(city_lessons()):
        page.wait_for_selector(f"body[data-lesson='{lesson.key}']")
        action = city_action(number)
        if number == 0:
            # A wrong try: the cube dragged along its line far past the HQ.
            page.wait_for_selector("#launch-handle:not([hidden])")
            page.locator("#launch-handle").evaluate("h => h.scrollIntoView({ block: 'center' })")
            drag_cube(page, 500, 0, steps=12)
            assert outcome(page) == "refused"
            expect(page.locator("#lesson-status.lesson-why")).to_contain_text(
                "HQ" if suffix == "en" else "본부"
            )
        if lesson.key == "off":
            # A full pull of the slingshot, straight back: by mouse in English, by a finger
            # in Korean (the cube flies off the far side of the city).
            slingshot(page, touch=suffix == "ko")
        elif isinstance(action, Decision):
            page.click(f"[data-decision='{action.value}']")
        else:
            for key, value in (
                ("position", action.position),
                ("direction", action.direction),
                ("speed", action.speed),
                ("spin", action.spin),
            ):
                set_slider(page, key, value)
            page.click("#pitch")
        assert outcome(page) == "reached", lesson.key
        expect(page.locator("#lesson-status.lesson-done")).to_contain_text(done)
        page.click("#lesson-next")
    page.wait_for_selector("#lessons-colorcity")
    assert page.locator("#lessons-colorcity a.done").count() == len(city_lessons())
