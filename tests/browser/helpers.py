"""Playing through the page the way a person does: by clicking and dragging."""

from __future__ import annotations

from playwright.sync_api import Page


def version(page: Page) -> int:
    """How many actions the table had in the last state the page received."""
    return int(page.evaluate("Number(document.body.dataset.version ?? -1)"))


def wait_version(page: Page, expected: int) -> None:
    page.wait_for_function("v => Number(document.body.dataset.version) === v", arg=expected)


def wait_version_past(page: Page, seen: int) -> None:
    """Until a state newer than ``seen`` is on screen (bots may already have moved on)."""
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=seen)


def wait_my_turn(page: Page) -> None:
    page.wait_for_selector(".turn-banner.mine")


def wait_prediction(page: Page) -> None:
    """Until the path drawn is the server's prediction for the aim shown now (Color City)."""
    page.wait_for_function(
        "() => { const b = document.getElementById('board');"
        " return b.dataset.predicted && b.dataset.predicted === b.dataset.aim; }"
    )


def click_centre(page: Page, selector: str) -> None:
    """Click the middle of an element that does not take clicks itself (a marker drawn over
    the board), so the click lands on the board under it."""
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not on screen"
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def drag_cube(page: Page, dx: float, dy: float, *, steps: int) -> None:
    """Drag Color City's cube from its handle by (``dx``, ``dy``) screen pixels with the
    mouse, and let go."""
    page.wait_for_selector("#launch-handle:not([hidden])")
    box = page.locator("#launch-handle").bounding_box()
    assert box is not None, "the cube's handle is not on screen"
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + dx, y + dy, steps=steps)
    page.mouse.up()


def centrix_play(page: Page, *, turn_a_ring: bool = True, accepted: bool = True) -> None:
    """Make one Centrix play by clicking: a card, a rotation (when the card offers one), a
    pawn on the board or in the off-board tray, then its destination on the board; then wait
    for the table to move on, unless the play is expected to be refused (``accepted``)."""
    before = version(page)
    page.locator(".play-card:not([disabled])").first.click()
    rotations = page.locator("[data-rotation]:not([data-rotation='none'])")
    if turn_a_ring and rotations.count():
        rotation = rotations.first.get_attribute("data-rotation")
        rotations.first.click()
        # The ring turns on screen, then the server's picture of the turned board replaces it.
        page.wait_for_selector("#board[data-showing='preview']")
        assert page.locator(f"[data-rotation='{rotation}'][aria-pressed='true']").count() == 1
    elif page.locator("[data-rotation='none']").count():
        page.click("[data-rotation='none']")
    moves_a_pawn = True
    if page.locator(".pawn.movable").count():
        page.locator(".pawn.movable").first.click()
    elif page.locator("button.tray.movable").count():
        page.click("button.tray.movable")
    else:
        page.click("#rotation-only")
        moves_a_pawn = False
    if moves_a_pawn:
        page.wait_for_selector(".target-dot")
        click_centre(page, ".target-dot")
    if accepted:
        wait_version_past(page, before)


def centrix_finish_turn(page: Page) -> int:
    """Play until the turn passes to someone else; returns the number of plays made."""
    plays = 0
    while page.locator(".turn-banner.mine").count():
        centrix_play(page)
        plays += 1
        assert plays <= 3, "a Centrix turn has three plays at most"
    return plays
