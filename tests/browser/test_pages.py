"""Restarting the server mid-game, the two languages and the rules pages."""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources

import pytest
from playwright.sync_api import Page, WebSocketRoute

from tests.browser.conftest import Console, Server, shot
from tests.browser.helpers import centrix_play, version, wait_my_turn, wait_version

NewPage = Callable[..., Page]


def test_restart_the_server_in_the_middle_of_a_game_and_continue(
    own_server: Server, new_page: NewPage, console: Console
) -> None:
    # While the server is down the browser reports each failed reconnection attempt.
    console.allowed.append("WebSocket connection to")
    made = own_server.create(
        {
            "game": "centrix",
            "seats": [{"kind": "device", "name": "Ann"}, {"kind": "bot", "level": 1}],
            "seed": 21,
        }
    )
    page = new_page()
    page.goto(f"{own_server.url}/table/{made['id']}#token={made['seats'][0]['token']}")
    wait_my_turn(page)
    centrix_play(page)
    log = page.locator("#log li").all_text_contents()
    assert log[0].startswith("Ann "), "the log says who played"

    own_server.stop()
    page.wait_for_selector("#conn[data-status='closed']")
    shot(page, "restart-01-server-down")
    # Forget the version on screen, so that waiting for it below waits for the fresh state
    # the server sends on reconnection rather than passing on the old page.
    page.evaluate("delete document.body.dataset.version")
    own_server.start()
    page.wait_for_selector("#conn[data-status='open']", state="attached")
    wait_version(page, 1)
    assert page.locator("#log li").all_text_contents() == log
    # Seed 21 deals Ann a second play in this turn: she carries on where she was.
    wait_my_turn(page)
    centrix_play(page)
    assert page.locator("#log li").count() == 2
    shot(page, "restart-02-continued")


def test_the_servers_refusals_are_told_in_the_pages_language(
    server: Server, new_page: NewPage, console: Console
) -> None:
    console.allowed.append("status of 404")  # the table that is not there
    korean = new_page(locale="ko-KR")
    korean.goto(server.url + "/table/nosuchtable")
    error = korean.locator("#main .form-error")
    assert error.text_content() == "“nosuchtable” 테이블이 없어요. 링크를 확인해 주세요."

    # Over the table's socket, a refusal names the seat it is about. This page's plays are
    # sent, on the way out, for seat 1 (the bot's, which this device does not hold).
    made = server.create(
        {
            "game": "centrix",
            "seats": [
                {"kind": "device", "name": "Ann"},
                {"kind": "bot", "name": "Robo", "level": 1},
            ],
            "seed": 21,
        }
    )

    def for_the_bot(page_socket: WebSocketRoute) -> None:
        to_server = page_socket.connect_to_server()

        def forward(message: str | bytes) -> None:
            data = json.loads(message)
            if data["type"] == "act":
                data["seat"] = 1
            to_server.send(json.dumps(data))

        page_socket.on_message(forward)

    korean.route_web_socket("**/ws/tables/**", for_the_bot)
    korean.goto(f"{server.url}/table/{made['id']}#token={made['seats'][0]['token']}")
    wait_my_turn(korean)
    centrix_play(korean, accepted=False)
    korean.wait_for_selector(".toast-error")
    assert korean.text_content(".toast-error") == "이 기기에서는 Robo(으)로 둘 수 없어요."
    assert version(korean) == 0, "the refused play changed nothing"


def test_the_interface_speaks_korean_by_browser_or_by_choice(
    server: Server, new_page: NewPage
) -> None:
    korean = new_page(locale="ko-KR")
    korean.goto(server.url + "/")
    korean.wait_for_selector("html[lang='ko']")
    assert korean.text_content(".hero h1") == "우리 집 게임의 밤"
    assert korean.text_content("#start") == "게임 시작"
    # Seats left unnamed are named in Korean, and the board speaks Korean too.
    korean.click("#start")
    korean.wait_for_selector("body[data-version]")
    players = korean.text_content("#players") or ""
    assert "플레이어 1" in players, players
    assert "봇 2" in players, players
    assert korean.text_content("#board [data-label='board_top']") == "꼭대기"

    page = new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("html[lang='en']")
    assert page.text_content(".hero h1") == "Game night at home"
    page.click("#lang-switch")
    page.wait_for_selector("html[lang='ko']")
    assert page.text_content(".hero h1") == "우리 집 게임의 밤"
    assert page.text_content("#choose-centrix .game-name") == "센트릭스"
    assert page.text_content("#seat-0-kind option[value='device']") == "이 기기"
    shot(page, "korean-01-home")
    page.reload()  # the choice is remembered
    page.wait_for_selector("html[lang='ko']")
    page.click("#choose-colorcity")
    assert page.text_content("#choose-colorcity .game-name") == "컬러 시티"
    # A bad turn limit is refused in the page's language, before anything is sent.
    page.click(".variants summary")
    page.fill("#rule-turns", "0")
    page.click("#start")
    assert (
        page.text_content("#setup-error")
        == "턴 제한은 1부터 999까지의 정수예요. 제한이 없으면 비워 두세요."
    )
    page.fill("#rule-turns", "")
    page.click("#lang-switch")  # the open "Rule variants" stay open in the other language
    page.wait_for_selector("html[lang='en']")
    assert page.locator("details.variants[open]").count() == 1
    page.click("#lang-switch")
    page.wait_for_selector("html[lang='ko']")
    # The game choice is a radio group: one Tab stop, the arrow keys move the choice.
    page.focus("#choose-colorcity")
    page.keyboard.press("ArrowLeft")
    assert page.get_attribute("#choose-centrix", "aria-checked") == "true"
    assert page.evaluate("document.activeElement.id") == "choose-centrix"
    assert page.get_attribute("#choose-colorcity", "tabindex") == "-1"
    page.keyboard.press("ArrowRight")
    assert page.get_attribute("#choose-colorcity", "aria-checked") == "true"
    page.click("#lang-switch")
    page.wait_for_selector("html[lang='en']")
    assert page.text_content(".hero h1") == "Game night at home"


@pytest.mark.parametrize(("game", "title"), [("centrix", "Centrix"), ("colorcity", "Color City")])
def test_rules_pages_render_in_both_languages(
    server: Server, new_page: NewPage, game: str, title: str
) -> None:
    page = new_page()
    page.goto(f"{server.url}/rules/{game}")
    page.wait_for_selector("#rules h1")
    assert title in (page.text_content("#rules h1") or "")
    assert page.locator("#rules h2").count() >= 2
    assert page.locator("#rules-note").is_hidden()
    shot(page, f"rules-{game}-en", full_page=False)
    english = page.text_content("#rules h2")
    page.click("#lang-switch")
    page.wait_for_selector("html[lang='ko']")
    translated = (resources.files("gamenight.web") / "guides" / f"{game}.ko.md").is_file()
    if translated:
        page.wait_for_function(
            "t => document.querySelector('#rules h2').textContent !== t", arg=english
        )
        assert page.locator("#rules-note").is_hidden()
    else:
        # No Korean text yet: the English rules, with a note saying so in Korean.
        page.wait_for_selector("#rules-note:not([hidden])")
        assert "영어" in (page.text_content("#rules-note") or "")
    shot(page, f"rules-{game}-ko", full_page=False)
    # The guide leads on to every rule decision, and back.
    page.click("#other-part")
    page.wait_for_url("**?part=full")
    page.wait_for_selector("#rules h1")
    assert page.locator("#rules strong", has_text="D1 —").count() == 1
    page.click("#other-part")
    page.wait_for_selector("#rules h1")
    assert "?part=full" not in page.url


def test_the_replay_of_an_unknown_table_says_so(
    server: Server, new_page: NewPage, console: Console
) -> None:
    console.allowed.append("404 (Not Found)")  # the browser's own note of the API's answer
    page = new_page()
    page.goto(server.url + "/replay/nope")
    page.wait_for_selector("#replay-error")
    assert page.text_content("#replay-error") == "There is no table “nope”: check the link."
    assert page.locator(".replay-controls").count() == 0
