"""An online game: two devices play each other through an invite link while a third
watches through the spectator link (a table with an invited seat is unlisted); then the
finished game's replay and record."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page

from tests.browser.conftest import Console, Server, shot
from tests.browser.helpers import centrix_finish_turn, version, wait_my_turn, wait_version

NewPage = Callable[..., Page]
# The board's squares and pawns as drawn, without its title (which names the turn, so it
# changes with every play whatever the play did).
BOARD_DRAWING = (
    "(() => { const svg = document.querySelector('#board svg').cloneNode(true);"
    " svg.querySelector('title')?.remove(); return svg.innerHTML; })()"
)


def invite_bo(ann: Page, server: Server, turns: int | None = None) -> str:
    """Ann sets up Centrix on the home page with Bo invited; his link."""
    ann.goto(server.url + "/")
    ann.click("#choose-centrix")
    ann.fill("#seat-0-name", "Ann")
    ann.fill("#seat-1-name", "Bo")
    ann.select_option("#seat-1-kind", "invite")
    if turns is not None:
        ann.click(".variants summary")
        ann.fill("#rule-turns", str(turns))
    ann.click("#start")
    ann.wait_for_selector("#invite-panel:not([hidden])")
    return ann.input_value(".invite-row[data-seat='1'] input")


def test_two_devices_play_through_an_invite_while_a_third_watches(
    server: Server, new_page: NewPage, console: Console
) -> None:
    console.allowed.append("status of 403")  # the stranger's page, refused
    ann = new_page()
    link = invite_bo(ann, server, turns=2)  # a short game: it ends after one turn each
    assert "#token=" in link
    spectator = ann.input_value(".invite-row[data-spectator] input")
    assert "#watch=" in spectator
    shot(ann, "online-01-invite")
    ann.click("#go-table")
    wait_my_turn(ann)
    table = ann.url

    # Until Bo opens his link, Ann's page says he is away.
    ann.wait_for_selector(".player[data-seat='1'] [data-away='1']")
    bo = new_page()
    bo.goto(link)
    bo.wait_for_selector("body[data-version='0']")
    ann.wait_for_selector("[data-away]", state="detached")
    assert bo.url == table, "the invite's token leaves the address bar"
    assert bo.locator(".play-card").count() == 3
    assert bo.locator(".turn-banner.mine").count() == 0

    # Without the spectator link, nobody watches an unlisted table.
    stranger = new_page()
    stranger.goto(table)
    stranger.wait_for_selector("#main .form-error")
    assert "unlisted" in (stranger.text_content("#main .form-error") or "")
    watcher = new_page()
    watcher.goto(spectator)
    watcher.wait_for_selector("body[data-version='0']")
    assert watcher.url == table, "the spectator link's token leaves the address bar"
    assert watcher.locator(".play-card").count() == 0, "a spectator sees nobody's hand"
    assert watcher.text_content("#hand-title") == "You are watching"

    plays = centrix_finish_turn(ann)
    for page in (bo, watcher):
        wait_version(page, plays)
        assert page.locator("#log li").count() == plays
    shot(watcher, "online-02-watcher")

    wait_my_turn(bo)
    shot(bo, "online-03-bo-turn")
    more = centrix_finish_turn(bo)
    total = plays + more
    for page in (ann, bo, watcher):
        page.wait_for_selector("#game-over")
        assert page.locator("#game-over .places li").count() == 2
        assert "turn limit" in (page.text_content("#game-over .reason") or "")
    assert version(watcher) == total
    shot(ann, "online-04-game-over")
    bo.close()  # Ann's page hears that Bo left
    ann.wait_for_selector(".player[data-seat='1'] [data-away='1']", state="attached")

    # The finished game's replay, stepped back and forth with the keys and the buttons.
    watcher.goto(table.replace("/table/", "/replay/"))
    watcher.wait_for_selector(f"body[data-step='{total}']")
    assert watcher.locator("#log li").count() == total
    watcher.keyboard.press("ArrowLeft")
    watcher.wait_for_selector(f"body[data-step='{total - 1}']")
    assert watcher.locator("#log li").count() == total - 1
    watcher.keyboard.press("Home")
    watcher.wait_for_selector("body[data-step='0']")
    assert watcher.locator("#log li").count() == 0
    assert watcher.locator("#board .pawn").count() == 0
    start = watcher.evaluate(BOARD_DRAWING)
    watcher.click("#next")
    watcher.wait_for_selector("body[data-step='1']")
    assert watcher.locator("#log li").count() == 1
    # The first play moved a pawn or turned a ring (or both): the board looks different.
    assert watcher.evaluate(BOARD_DRAWING) != start
    shot(watcher, "online-05-replay")

    with watcher.expect_download() as download:
        watcher.click("#download-record")
    record = json.loads(Path(download.value.path()).read_text())
    assert record["game"] == "centrix"
    assert len(record["actions"]) == total
    assert [s["name"] for s in record["seats"]] == ["Ann", "Bo"]


def test_an_invite_link_opens_its_seat_on_one_device_until_it_is_renewed(
    server: Server, new_page: NewPage, console: Console
) -> None:
    console.allowed.append("status of 403")  # the used link's page, refused
    ann = new_page()
    ann.on("dialog", lambda dialog: dialog.accept())  # "Make a new link for Bo?"
    link = invite_bo(ann, server)
    ann.click("#go-table")
    ann.wait_for_selector("body[data-version='0']")
    # The record (and with it the seed: every hand) is for games that are over.
    assert ann.locator("#download-record").count() == 0

    bo = new_page()
    bo.goto(link)
    bo.wait_for_selector("body[data-seats='1']")
    assert bo.locator(".play-card").count() == 3

    # The same link on a third device opens nothing, and says so; the table is unlisted: no
    # watching.
    eve = new_page()
    eve.goto(link)
    eve.wait_for_selector("#main .form-error")
    assert "already used on another device" in (eve.text_content("#main .form-error") or "")
    assert eve.locator("#watch-instead").count() == 0
    bo.reload()  # Bo's device kept a token of its own
    bo.wait_for_selector("body[data-seats='1']")

    # Ann gives the seat a new link: Bo's device loses the seat (and, the table being
    # unlisted, its view), the new link opens it.
    ann.click("#show-invites")
    ann.click("[data-renew='1']")
    ann.wait_for_function(
        "old => document.querySelector('.invite-row input').value !== old", arg=link
    )
    renewed = ann.input_value(".invite-row[data-seat='1'] input")
    bo.wait_for_selector("body[data-seats='']")
    assert "new invite link" in (bo.text_content(".toast-error") or "")
    shot(bo, "online-06-seat-renewed")
    eve.goto(renewed)  # pasted into the page it has open: only the fragment changes
    eve.wait_for_selector("body[data-seats='1']")
    assert eve.locator(".play-card").count() == 3
