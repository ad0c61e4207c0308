"""Issue 16, social, in the browser: the home page's own tables (waiting for you, in
progress, finished; the host archives and deletes), the table chat between devices and
apart from the spectators', the spectator's panel, and the sounds' toggle remembered."""

from __future__ import annotations

import json
import shutil
import time
import urllib.request
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page

from tests.browser.conftest import ARTIFACTS, ROOT, Server, shot

NewPage = Callable[..., Page]
SCREENSHOTS = ROOT / "docs" / "screenshots"


def keep(page: Page, table: str, seat: int, token: str) -> None:
    """Give the page's browser a seat's token, as the page that made the table keeps it."""
    page.evaluate(
        "([table, seat, token]) => localStorage.setItem(`gamenight.tokens.${table}`,"
        " JSON.stringify({[seat]: token}))",
        [table, seat, token],
    )


def status(server: Server, table: str) -> str:
    with urllib.request.urlopen(f"{server.url}/api/tables/{table}", timeout=10) as answer:
        info: dict[str, Any] = json.loads(answer.read())
    return str(info["status"])


def screenshot(page: Page, name: str) -> None:
    """A screenshot for the test's artifacts and for the README (docs/screenshots)."""
    shot(page, name)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(ARTIFACTS / f"{name}.png", SCREENSHOTS / f"{name}.png")


def group(page: Page, name: str) -> list[str]:
    """The ids of the tables listed in one of the home page's groups of your tables."""
    return page.eval_on_selector_all(
        f".mine-group[data-group='{name}'] .table-item", "items => items.map(i => i.dataset.table)"
    )


def test_the_home_page_lists_my_tables_by_group_and_the_host_archives_and_deletes(
    server: Server, new_page: NewPage
) -> None:
    ann = new_page()
    # Made on the home page: Ann here, Bo invited (so unlisted), Ann first: waiting for her.
    ann.goto(server.url + "/")
    ann.fill("#seat-0-name", "Ann")
    ann.fill("#seat-1-name", "Bo")
    ann.select_option("#seat-1-kind", "invite")
    ann.click("#start")
    ann.wait_for_selector("#invite-panel:not([hidden])")
    ours = ann.get_attribute("#go-table", "href").split("/")[-1]  # type: ignore[union-attr]
    # Bo's seat at a table of someone else's, Ann to play first: in progress for this browser.
    theirs = server.create(
        {"game": "centrix", "seats": [{"kind": "device", "name": "Cy"}, {"kind": "device"}]}
    )
    keep(ann, theirs["id"], 1, theirs["seats"][1]["token"])
    # Two bots, one turn: over at once; this browser holds its host's token.
    over = server.create(
        {
            "game": "centrix",
            "seats": [{"kind": "bot", "level": 1}, {"kind": "bot", "level": 1}],
            "rules": {"max_turns": 1},
        }
    )
    ann.evaluate(
        "([t, h]) => localStorage.setItem(`gamenight.host.${t}`, h)", [over["id"], over["host"]]
    )
    deadline = time.monotonic() + 60
    while status(server, over["id"]) == "playing":
        assert time.monotonic() < deadline, "the bots' one-turn game did not end"
        time.sleep(0.2)
    # A table whose keys open nothing any more is forgotten.
    keep(ann, "no-such-table", 0, "a token that opens nothing")

    ann.goto(server.url + "/")
    ann.wait_for_selector(".mine-group[data-group='waiting'] .table-item")
    assert group(ann, "waiting") == [ours]
    assert group(ann, "playing") == [theirs["id"]]
    assert group(ann, "finished") == [over["id"]]
    assert group(ann, "archived") == []
    assert ann.evaluate("localStorage.getItem('gamenight.tokens.no-such-table')") is None
    # The host's own unlisted table is there, never in the public list.
    assert ann.locator(f"#tables [data-table='{ours}']").count() == 0
    mine = ann.locator(f"#mine [data-table='{ours}']")
    assert mine.locator(".badge-you").inner_text() == "Your turn"
    assert mine.locator("[data-delete]").count() == 1
    # Not the host of someone else's table: no archive, no delete.
    assert ann.locator(f"#mine [data-table='{theirs['id']}'] [data-archive]").count() == 0
    screenshot(ann, "social-home.en")
    ann.click("#lang-switch")
    ann.wait_for_function("() => document.documentElement.lang === 'ko'")
    assert "내 게임" in ann.inner_text("#mine-title")
    screenshot(ann, "social-home.ko")
    ann.click("#lang-switch")

    ann.click(f"[data-archive='{over['id']}']")
    archived = f".mine-group[data-group='archived'] [data-table='{over['id']}']"
    ann.wait_for_selector(archived, state="attached")  # (in the archive's fold, shut)
    assert group(ann, "finished") == []
    at_table = ann.context.new_page()  # the same browser, at the table being deleted
    at_table.goto(f"{server.url}/table/{ours}")
    at_table.wait_for_selector("body[data-version='0']")
    ann.on("dialog", lambda dialog: dialog.accept())
    ann.click(f"[data-delete='{ours}']")
    ann.wait_for_selector(f"#mine [data-table='{ours}']", state="detached")
    at_table.wait_for_selector(".toast-error")
    assert "There is no table" in at_table.inner_text(".toast-error")
    assert ann.evaluate(f"localStorage.getItem('gamenight.host.{ours}')") is None
    assert ann.request.get(f"{server.url}/api/tables/{ours}").status == 404


def test_two_devices_chat_apart_from_the_spectators(server: Server, new_page: NewPage) -> None:
    made = server.create(
        {
            "game": "centrix",
            "seats": [{"kind": "device", "name": "Ann"}, {"kind": "invite", "name": "Bo"}],
            "visibility": "public",  # (a spectator may watch without the link)
        }
    )
    table = f"{server.url}/table/{made['id']}"
    ann, bo, eve = new_page(), new_page("ko-KR"), new_page()
    ann.goto(server.url + "/")
    keep(ann, made["id"], 0, made["seats"][0]["token"])
    # Eve watches before Bo comes: his seat is free, and her panel says how to take it.
    eve.goto(table)
    eve.wait_for_selector("#watching:not([hidden])")
    assert "Bo's seat is free" in eve.inner_text("#watching-free")
    assert "Ann" in eve.inner_text("#watching-turn")
    ann.goto(table)
    ann.wait_for_selector("#chat:not([hidden])")
    assert ann.locator("#watching").is_hidden()
    bo.goto(f"{table}#token={made['seats'][1]['token']}")
    bo.wait_for_selector("#chat:not([hidden])")
    eve.wait_for_selector("#watching-free [data-free]", state="detached")

    ann.fill("#chat-input", "<b>hi</b> Bo")
    ann.press("#chat-input", "Enter")
    bo.wait_for_selector("#chat-log .chat-line")
    assert bo.inner_text("#chat-log .chat-line") == "Ann: <b>hi</b> Bo"
    assert bo.locator("#chat-log b").count() == 0  # text, never markup
    ann.click("#chat-phrases-title")  # the quick phrases' fold
    ann.click(".chat-phrase[data-phrase='good_luck']")
    bo.wait_for_selector("#chat-log .chat-line[data-phrase='good_luck']")
    assert bo.inner_text("#chat-log [data-phrase='good_luck'] .chat-text") == "행운을 빌어요!"
    bo.click("#chat-phrases-title")
    bo.click(".chat-phrase[data-phrase='thanks']")
    ann.wait_for_selector("#chat-log [data-phrase='thanks']")
    assert ann.inner_text("#chat-log [data-phrase='thanks']") == "Bo: Thanks!"

    eve.fill("#chat-input", "who is winning?")
    eve.click("#chat-send")
    eve.wait_for_selector("#watching #chat-log .chat-line")
    assert eve.inner_text("#chat-log .chat-line") == "Spectator 1: who is winning?"
    assert "Ann" not in eve.inner_text("#chat-log")  # the players' lines are theirs
    screenshot(eve, "social-watching.en")
    bo.click(".chat-phrase[data-phrase='nice_move']")  # after Eve's line: Ann hears it …
    ann.wait_for_selector("#chat-log [data-phrase='nice_move']")
    assert "who is winning" not in ann.inner_text("#chat-log")  # … and never hers
    screenshot(ann, "social-chat.en")
    screenshot(bo, "social-chat.ko")

    bo.click("#chat-mute")
    assert bo.inner_text("#chat-log") == "채팅을 껐어요. 새 메시지는 보이지 않아요."
    bo.reload()
    bo.wait_for_selector("#chat:not([hidden])")
    assert bo.get_attribute("#chat-mute", "aria-pressed") == "true"  # remembered

    watcher = new_page("ko-KR")
    watcher.goto(table)
    watcher.wait_for_selector("#watching #chat-log .chat-line")  # the spectators' latest
    assert "구경꾼 1" in watcher.inner_text("#chat-log")
    assert "구경 중이에요" in watcher.inner_text("#watching")
    screenshot(watcher, "social-watching.ko")


def test_the_sounds_are_off_until_turned_on_and_the_choice_is_remembered(
    server: Server, new_page: NewPage
) -> None:
    made = server.create(
        {"game": "centrix", "seats": [{"kind": "device", "name": "Ann"}, {"kind": "device"}]}
    )
    page = new_page()
    page.goto(f"{server.url}/table/{made['id']}")
    page.wait_for_selector("body[data-version='0']")
    ask = "kind => document.dispatchEvent(new CustomEvent('gamenight:sound', { detail: kind }))"
    assert page.get_attribute("#sound-switch", "aria-pressed") == "false"
    page.evaluate(ask, "bump")
    assert page.evaluate("document.body.dataset.sounds") is None  # off: nothing played
    page.click("#sound-switch")
    assert page.get_attribute("#sound-switch", "aria-pressed") == "true"
    page.reload()
    page.wait_for_selector("body[data-version='0']")
    assert page.get_attribute("#sound-switch", "aria-pressed") == "true"
    for kind in ("bump", "cube", "top", "turn"):
        page.evaluate(ask, kind)
        assert page.evaluate("document.body.dataset.sound") == kind
    page.evaluate(ask, "a sound nobody made")
    assert page.evaluate("document.body.dataset.sounds") == "4"
    for kind in ("turn", "bump", "cube", "top"):
        answer = page.request.get(f"{server.url}/static/sounds/{kind}.wav")
        assert answer.status == 200
        assert answer.body()[:4] == b"RIFF"
    page.click("#sound-switch")
    page.reload()
    page.wait_for_selector("body[data-version='0']")
    assert page.get_attribute("#sound-switch", "aria-pressed") == "false"


def test_a_color_city_spectator_sees_who_plays_and_whose_turn_it_is(
    server: Server, new_page: NewPage
) -> None:
    made = server.create(
        {
            "game": "colorcity",
            "seats": [
                {"kind": "device", "name": "Gi", "role": "green"},
                {"kind": "invite", "name": "Pa", "role": "purple"},
            ],
            "first": "green",
            "visibility": "public",
        }
    )
    eve = new_page("ko-KR")
    eve.goto(f"{server.url}/table/{made['id']}")
    eve.wait_for_selector("#watching:not([hidden]) #chat:not([hidden])")
    assert eve.inner_text("#watching-turn") == "Gi의 차례"
    seats = eve.inner_text("#watching .watching-seats")
    assert "Gi" in seats
    assert "Pa" in seats
    assert "Pa 자리가 비어 있어요" in eve.inner_text("#watching-free")
    screenshot(eve, "social-watching-colorcity.ko")
