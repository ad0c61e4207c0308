"""Centrix in the browser: set up against a bot, play a turn by clicking, undo, reload."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import Server, shot
from tests.browser.helpers import (
    centrix_finish_turn,
    centrix_play,
    click_centre,
    version,
    wait_my_turn,
    wait_version,
)
from tests.browser.touch import CENTRIX_VS_BOT
from tests.web.bodies import CENTRIX_2

NewPage = Callable[..., Page]


def test_set_up_against_a_bot_and_play_a_turn_by_clicking(
    server: Server, new_page: NewPage
) -> None:
    page = new_page()
    page.goto(server.url + "/")
    page.click("#choose-centrix")
    page.fill("#seat-0-name", "Ann")
    page.select_option("#seat-1-kind", "bot")
    page.select_option("#seat-1-level", "1")
    page.select_option("#seat-1-colour", "blue")
    shot(page, "centrix-01-set-up")
    page.click("#start")
    page.wait_for_url("**/table/*")
    wait_my_turn(page)
    assert page.locator(".play-card").count() == 3
    assert page.locator(".player[data-seat='1'] .pawn-chip.dot-blue").count() == 1
    shot(page, "centrix-02-my-turn")

    # A play, taken back: the board and the log are as they were.
    centrix_play(page)
    assert page.locator("#log li").count() == 1
    page.click("#undo")
    wait_version(page, 0)
    assert page.locator("#log li").count() == 0
    assert page.locator("#undo").is_hidden()

    plays = centrix_finish_turn(page)
    assert 1 <= plays <= 3
    # (The bot's first play may be on its way already: its line comes as it is shown.)
    assert page.locator("#log li").count() >= plays
    shot(page, "centrix-03-turn-done")
    # The bot takes its turn and it comes back to Ann.
    wait_my_turn(page)
    assert version(page) > plays
    assert page.locator(".player.active[data-seat='0']").count() == 1
    shot(page, "centrix-04-after-bot")


def test_reload_in_the_middle_of_a_game_and_continue(server: Server, new_page: NewPage) -> None:
    made = server.create(
        {
            "game": "centrix",
            "seats": [{"kind": "device", "name": "Ann"}, {"kind": "bot", "level": 1}],
            "seed": 7,
        }
    )
    token = made["seats"][0]["token"]
    page = new_page()
    page.goto(f"{server.url}/table/{made['id']}#token={token}")
    wait_my_turn(page)
    # The token moved into storage and out of the address bar.
    assert "token" not in page.url
    centrix_play(page)
    hand = page.locator(".play-card").evaluate_all("cards => cards.map(c => c.dataset.card)")
    page.reload()
    wait_my_turn(page)
    wait_version(page, 1)
    assert page.locator("#log li").count() == 1
    assert page.locator(".play-card").evaluate_all("cards => cards.map(c => c.dataset.card)") == (
        hand
    )
    centrix_play(page)
    assert page.locator("#log li").count() == 2
    shot(page, "centrix-05-after-reload")


FOCUSED = "(() => { const a = document.activeElement;"
FOCUSED += " return a && a !== document.body ? a.outerHTML.slice(0, 80) : null; })()"


def test_a_play_by_keyboard_keeps_the_focus(server: Server, new_page: NewPage) -> None:
    made = server.create(
        {
            "game": "centrix",
            "seats": [{"kind": "device", "name": "Ann"}, {"kind": "bot", "level": 1}],
            "first": 0,
            "seed": 7,
        }
    )
    page = new_page()
    page.goto(f"{server.url}/table/{made['id']}#token={made['seats'][0]['token']}")
    wait_my_turn(page)
    page.locator(".play-card:not([disabled])").first.focus()
    page.keyboard.press("Enter")
    assert page.locator(".play-card[aria-pressed='true']").count() == 1
    assert "play-card" in page.evaluate(FOCUSED), "the chosen card keeps the focus"
    page.keyboard.press("Escape")  # steps out of the half-made play
    assert page.locator(".play-card[aria-pressed='true']").count() == 0
    assert "play-card" in page.evaluate(FOCUSED)

    # Card, rotation, pawn, square: every step by keyboard, the focus never lost.
    page.keyboard.press("Enter")
    for step in ("[data-rotation]", "[data-from]", "[data-to]"):
        if page.locator(f"#choices {step}").count() == 0:
            continue  # this card offers no rotation, say
        page.locator(f"#choices {step}").first.focus()
        if step == "[data-to]":
            break
        page.keyboard.press("Enter")
        assert page.evaluate(FOCUSED), f"focus lost after {step}"
    # The play goes; until the answer lands, the hand on screen (the one before it) takes no
    # new choice: a card chosen now would be lost when the new state replaces the hand.
    cards = page.evaluate(
        "(() => { document.activeElement.click();"
        " return [...document.querySelectorAll('.play-card')].map(c => c.disabled); })()"
    )
    assert cards, "the hand is still on screen"
    assert all(cards)
    wait_version(page, 1)
    # The play landed and it is still Ann's turn: the focus is on a card she can play.
    page.wait_for_function("document.activeElement.classList.contains('play-card')")


def test_hot_seat_hides_the_next_hand_until_its_player_is_there(
    server: Server, new_page: NewPage
) -> None:
    page = new_page(width=390, height=844)  # a phone passed round the table
    page.goto(server.url + "/")
    page.fill("#seat-0-name", "Ann")
    page.fill("#seat-1-name", "Bo")
    page.select_option("#seat-1-kind", "device")
    page.click(".variants summary")
    page.fill("#rule-turns", "2")  # a short game: it ends after one turn each
    page.click("#start")
    page.wait_for_selector("#curtain:not([hidden])")
    assert "Ann" in (page.text_content("#curtain") or "")
    assert page.locator(".play-card").count() == 0
    shot(page, "hotseat-01-curtain")
    page.click("#reveal")
    wait_my_turn(page)
    ann_hand = page.locator(".play-card").evaluate_all("cards => cards.map(c => c.dataset.card)")
    assert len(ann_hand) == 3
    shot(page, "hotseat-02-ann-phone")
    centrix_finish_turn(page)
    # Bo's turn on the same device: his cards stay hidden until he says he is there.
    page.wait_for_selector("#curtain:not([hidden])")
    assert "Bo" in (page.text_content("#curtain") or "")
    assert page.locator(".play-card").count() == 0
    page.click("#reveal")
    wait_my_turn(page)
    assert "Bo" in (page.text_content("#turn-banner") or "")
    assert page.locator(".play-card").count() == 3
    centrix_finish_turn(page)
    # One screen, two players: the game-over screen names the winner instead of "You won!".
    page.wait_for_selector("#game-over")
    winners = page.locator("#game-over .place-1 .place-name").all_text_contents()
    headline = "It's a draw" if len(winners) == 2 else f"{winners[0]} won!"
    assert page.text_content("#game-over-title") == headline
    assert "(you)" not in (page.text_content("#game-over .places") or "")


def test_a_log_line_shows_the_board_as_it_was(server: Server, new_page: NewPage) -> None:
    made = server.create(CENTRIX_2)
    page = new_page()
    page.goto(f"{server.url}/table/{made['id']}#token={made['seats'][0]['token']}")
    wait_my_turn(page)
    centrix_play(page)
    line = page.locator("#log li[data-step='1']")
    line.hover()
    page.wait_for_selector("#board[data-showing='then'][data-step='1']")
    page.locator("#players").hover()
    page.wait_for_selector("#board[data-showing='state']:not([data-step])")
    line.focus()
    page.wait_for_selector("#board[data-showing='then'][data-step='1']")
    page.locator(".play-card:not([disabled])").first.focus()
    page.wait_for_selector("#board[data-showing='state']:not([data-step])")


# At every frame the page draws: the log's latest entry (its notation, the line's tooltip),
# the play the board marks, how many marks, and what the board shows.
SAMPLE_MARKS = """
(() => {
  window.marks = [];
  const sample = () => {
    const board = document.getElementById("board");
    const lines = document.querySelectorAll("#log li");
    if (board && lines.length) {
      window.marks.push({
        logged: lines[lines.length - 1].title,
        marked: board.dataset.markedPlay ?? null,
        count: board.querySelectorAll(".last-move > *").length,
        showing: board.dataset.showing,
      });
    }
    requestAnimationFrame(sample);
  };
  requestAnimationFrame(sample);
})()
"""

# Ann, then three bots, for a round: the page is there for every play the bots make.
CENTRIX_ANN_AND_3_BOTS = {
    "game": "centrix",
    "seats": [{"kind": "device", "name": "Ann"}, *[{"kind": "bot", "level": 1}] * 3],
    "first": 0,
    "seed": 3,
    "rules": {"max_turns": 4},
}


def test_the_last_move_mark_always_matches_the_log(server: Server, new_page: NewPage) -> None:
    made = server.create(CENTRIX_ANN_AND_3_BOTS)
    page = new_page()
    page.add_init_script("localStorage.setItem('gamenight.pace', 'fast')")
    page.add_init_script(SAMPLE_MARKS)
    page.goto(f"{server.url}/table/{made['id']}#token={made['seats'][0]['token']}")
    wait_my_turn(page)
    centrix_finish_turn(page)
    page.wait_for_selector("#game-over", timeout=60_000)
    samples = page.evaluate("window.marks")
    shown = [s for s in samples if s["showing"] == "state"]
    assert len({s["logged"] for s in shown}) >= 4, "the game's plays were seen"
    wrong = [s for s in shown if s["marked"] != s["logged"]]
    assert not wrong, f"{len(wrong)} of {len(shown)} frames: {wrong[:3]}"
    # A play that moved a pawn or turned a ring is marked on the board.
    moved = [s for s in shown if s["logged"].count(" ") >= 1]
    assert all(s["count"] for s in moved), [s for s in moved if not s["count"]][:3]


@pytest.mark.parametrize(
    ("locale", "words"),
    [("en-US", ("Pawns on the top", "Pawns off the board")), ("ko-KR", ("꼭대기", "보드 밖"))],
)
def test_the_players_counters_are_labelled(
    server: Server, new_page: NewPage, locale: str, words: tuple[str, str]
) -> None:
    made = server.create(CENTRIX_2)
    page = new_page(locale=locale)
    page.goto(f"{server.url}/table/{made['id']}#token={made['seats'][0]['token']}")
    page.wait_for_selector(".player-stats .stat-top")
    # On screen, for a phone (no tooltip there), and as each counter's tooltip.
    key = page.inner_text("#players-key")
    assert f"▲ {words[0]}" in key, key
    assert f"○ {words[1]}" in key, key
    assert words[0] in (page.get_attribute(".player-stats .stat-top", "title") or "")
    assert words[1] in (page.get_attribute(".player-stats .stat-off", "title") or "")


def test_a_square_only_one_play_reaches_is_played_in_one_click(
    server: Server, new_page: NewPage
) -> None:
    made = server.create(CENTRIX_VS_BOT)
    page = new_page()
    page.goto(f"{server.url}/table/{made['id']}#token={made['seats'][0]['token']}")
    wait_my_turn(page)
    page.wait_for_selector("#board[data-one-gesture]")
    squares = (page.get_attribute("#board", "data-one-gesture") or "").split()
    assert squares, "some square only one play reaches"
    square = next(s for s in squares if s != "top")
    click_centre(page, f"#board path.square[data-square='{square}']")
    wait_version(page, 1)
    # One click, no card chosen: the play whose pawn goes there.
    notation = page.get_attribute("#log li", "title") or ""
    assert notation.endswith(f"-{square}"), notation
    assert len(notation.split()) == 2, "no ring turned"
