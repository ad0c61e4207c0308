"""Finishing every game in the page (docs/rules/table.md): a seat out of time is played by
a bot to the end, resigning a two-seat game, and a rematch with the next first player."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, Console, Server, shot

NewPage = Any
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
I18N = Path(__file__).resolve().parents[2] / "src" / "gamenight" / "web" / "static" / "i18n"


def keep(page: Page, screen: str, language: str, element: str | None = None) -> None:
    """A screenshot for the test's artifacts (of ``element`` alone, if given), and the
    docs' copy of it."""
    name = f"finish-{screen}.{language}"
    if element is None:
        shot(page, name, full_page=False)
    else:
        page.locator(element).screenshot(path=str(ARTIFACTS / f"{name}.png"))
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(ARTIFACTS / f"{name}.png", SCREENSHOTS / f"{name}.png")


def open_seats(page: Page, server: Server, table: str, tokens: list[str]) -> None:
    """Open ``table`` on a device holding every seat of ``tokens`` (a shared screen)."""
    page.goto(f"{server.url}/")
    held = {f"held-{i}": token for i, token in enumerate(tokens)}
    page.evaluate(
        "([key, value]) => localStorage.setItem(key, value)",
        [f"gamenight.tokens.{table}", json.dumps(held)],
    )
    page.goto(f"{server.url}/table/{table}")
    page.wait_for_selector("body[data-version]")


def test_a_seat_whose_clock_runs_out_is_played_by_a_bot_and_the_game_finishes(
    server: Server, new_page: NewPage
) -> None:
    made = server.create(
        {
            "game": "centrix",
            "seats": [{"kind": "device", "name": "Ann"}, {"kind": "bot", "level": 1}],
            "rules": {"max_turns": 4},  # (the bots play it to its end quickly)
            "visibility": "public",  # (watched by Eve)
            "clock": {
                "kind": "realtime",
                "bank_seconds": 15,
                "increment_seconds": 0,
                "bot_level": 1,
            },
        }
    )
    page = new_page()
    open_seats(page, server, made["id"], [made["seats"][0]["token"]])
    # Ann's clock runs down on the page, from the server's figures.
    page.wait_for_selector(".endings-clock.running[data-seat='0']")
    first = page.text_content(".endings-clock[data-seat='0'] .endings-time")
    page.wait_for_function(
        "t => document.querySelector(\".endings-clock[data-seat='0'] .endings-time\")"
        ".textContent !== t",
        arg=first,
    )
    eve = new_page()
    eve.goto(f"{server.url}/table/{made['id']}")
    # She does not play: her flag falls and a bot plays for her, which the page says, with
    # how her time goes meanwhile and once she takes the seat back; her cards are still hers.
    page.wait_for_selector("[data-stood-in='0']", timeout=40_000)
    assert page.locator("[data-reclaim='0']").count() == 1
    assert "at least 0:30" in page.inner_text("[data-stood-in='0']")
    assert page.text_content("#hand-title") == "Your cards (a bot is playing them)"
    keep(page, "stand-in", "en")
    # Every page says so, not only hers: Eve's, in words and on the seat's clock.
    eve.wait_for_selector("[data-stood-in-other='0']")
    assert eve.inner_text("[data-stood-in-other='0']").startswith("A bot is playing for Ann")
    assert eve.text_content(".endings-clock[data-seat='0'] .endings-bot") == "bot"
    assert eve.locator("[data-reclaim]").count() == 0
    page.click("#lang-switch")  # the same screen in Korean
    page.wait_for_function(
        "() => document.querySelector(\"[data-reclaim='0']\")?.textContent === '내 자리 되찾기'"
    )
    keep(page, "stand-in", "ko")
    # The game never stalls: the bots finish it.
    page.wait_for_selector("#game-over", timeout=60_000)
    assert "차례 제한" in (page.text_content("#game-over .reason") or "")  # (in Korean now)


@pytest.mark.parametrize("language", ["en", "ko"])
def test_resigning_a_two_seat_game_and_a_rematch_with_the_next_first_player(
    server: Server, new_page: NewPage, language: str
) -> None:
    made = server.create(
        {
            "game": "centrix",
            "seats": [{"kind": "device", "name": "Ann"}, {"kind": "device", "name": "Bo"}],
            "first": 0,
            "clock": {"kind": "turn", "turn_hours": 24},
        }
    )
    page = new_page(locale="ko-KR" if language == "ko" else "en-US")
    open_seats(page, server, made["id"], [s["token"] for s in made["seats"]])
    page.wait_for_selector("body[data-seats='0,1']")
    assert page.get_attribute("body", "data-actor") == "0"
    page.wait_for_selector(".endings-clock[data-seat='1']")
    # Resigning asks first; "no" changes nothing.
    page.click("#resign")
    page.wait_for_selector("#endings-confirm")
    keep(page, "resign", language)
    page.click("#endings-confirm .btn:not(.btn-primary)")
    assert page.locator("#game-over").count() == 0
    page.click("#resign")
    page.click("#endings-yes")
    # Ann (the actor) resigned: Bo wins.
    page.wait_for_selector("#game-over")
    resigned = {"en": "resigned", "ko": "기권"}[language]
    assert resigned in (page.text_content("#game-over .reason") or "")
    assert page.locator("#game-over .place-1[data-seat='1']").count() == 1
    assert page.locator("#resign").count() == 0
    keep(page, "game-over", language)
    # This device holds both seats: its rematch accepts for both, and the page follows
    # the table to the new one, where Bo plays first.
    page.click("#rematch")
    page.wait_for_url(lambda url: made["id"] not in url)
    page.wait_for_selector("body[data-seats='0,1']")
    assert page.get_attribute("body", "data-actor") == "1"
    assert page.locator("#game-over").count() == 0
    # A page that opens the old table later is led to the rematch too.
    rematch = page.url
    page.goto(f"{server.url}/table/{made['id']}")
    page.wait_for_url(rematch)
    page.wait_for_selector("body[data-seats='0,1']")


@pytest.mark.parametrize("language", ["en", "ko"])
def test_the_home_page_sets_up_a_clock_and_refuses_one_out_of_bounds(
    server: Server, new_page: NewPage, console: Console, language: str
) -> None:
    console.allowed.append("status of 422")  # the clock out of bounds, refused
    page = new_page(locale="ko-KR" if language == "ko" else "en-US")
    page.goto(f"{server.url}/")
    page.select_option("#clock-kind", "realtime")
    page.fill("#clock-bank", "0.1")  # six seconds: below lichess's least
    page.click("#start")
    page.wait_for_selector("#setup-error:not([hidden])")
    assert "15" in (page.text_content("#setup-error") or "")
    page.fill("#clock-bank", "3")
    page.fill("#clock-increment", "2")
    keep(page, "setup", language)
    page.click("#start")
    page.wait_for_url("**/table/**")
    page.wait_for_selector(".endings-clock[data-seat='0']")
    assert page.locator(".endings-clock").count() == 2
    table = page.url.rsplit("/", 1)[1]
    info = json.loads(page.evaluate(f"fetch('/api/tables/{table}').then(r => r.text())"))
    assert info["status"] == "playing"


def stored_setup(server: Server, table: str) -> dict[str, Any]:
    """The set-up the server stored for ``table`` (its SQLite database, read only)."""
    path = server.data_dir / "gamenight.sqlite3"
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        (setup,) = db.execute("SELECT setup FROM tables WHERE id = ?", (table,)).fetchone()
    stored: dict[str, Any] = json.loads(setup)
    return stored


@pytest.mark.parametrize("language", ["en", "ko"])
def test_the_home_page_sets_what_a_flag_does_the_grace_and_the_abandonment_limit(
    server: Server, new_page: NewPage, console: Console, language: str
) -> None:
    console.allowed.append("status of 422")  # the grace out of bounds, refused
    strings = json.loads((I18N / f"{language}.json").read_text(encoding="utf-8"))
    page = new_page(locale="ko-KR" if language == "ko" else "en-US", width=390, height=844)
    page.goto(f"{server.url}/")
    # Every table may be abandoned; with no clock and no guest, nothing else applies.
    page.wait_for_selector("#clock-abandon")
    assert page.locator("#clock-grace, #clock-on-timeout").count() == 0
    page.select_option("#clock-kind", "turn")
    page.select_option("#seat-1-kind", "invite")
    for control in ("#clock-on-timeout", "#clock-grace", "#clock-abandon", "#clock-bot"):
        box = page.locator(control).bounding_box()
        assert box is not None, control
        assert min(box["width"], box["height"]) >= 44, control
    assert strings["finish_grace_seconds"] in (page.text_content("#clock-setup") or "")
    page.select_option("#clock-on-timeout", "lose")
    page.fill("#clock-turn", "2")
    page.fill("#clock-abandon", "6")
    page.fill("#clock-grace", "5")  # below the server's least: a page reloading takes longer
    page.click("#start")
    page.wait_for_selector("#setup-error:not([hidden])")
    refused = strings["error_clock_bounds"].format(field="grace_seconds", allowed="10–86400")
    assert page.text_content("#setup-error") == refused
    page.fill("#clock-grace", "300")
    keep(page, "setup-phone", language, "#setup")
    page.click("#start")
    page.wait_for_selector("#invite-panel:not([hidden])")
    table = (page.get_attribute("#go-table", "href") or "").rsplit("/", 1)[1]
    clock = stored_setup(server, table)["clock"]
    assert clock["kind"] == "turn"
    assert clock["turn_ms"] == 2 * 3_600_000
    assert clock["on_timeout"] == "lose"
    assert clock["grace_ms"] == 300_000
    assert clock["abandon_ms"] == 6 * 3_600_000
    # A third seat: a flag then always gives the seat to a bot (T2), so the choice goes.
    page.goto(f"{server.url}/")
    page.select_option("#clock-kind", "realtime")
    page.click("button[data-count='3']")
    page.wait_for_selector("#seat-2-kind")
    assert page.locator("#clock-on-timeout").count() == 0
    assert page.locator("#clock-bot, #clock-abandon").count() == 2


def test_giving_up_a_seat_is_resign_in_every_game(server: Server, new_page: NewPage) -> None:
    """The same act has one name: at a two-seat table the other side wins, at a larger one a
    bot takes the seat to the end (the question says which)."""
    bots = [{"kind": "bot", "level": 1}] * 2
    tables = [
        {"game": "centrix", "seats": [{"kind": "device", "name": "Ann"}, *bots], "first": 0},
        {
            "game": "colorcity",
            "seats": [
                {"kind": "device", "name": "Gi", "role": "green"},
                {"kind": "bot", "level": 1, "role": "purple"},
            ],
        },
    ]
    for body in tables:
        made = server.create(body)
        page = new_page()
        page.goto(f"{server.url}/table/{made['id']}#token={made['seats'][0]['token']}")
        page.wait_for_selector("#resign")
        assert page.inner_text("#resign") == "Resign", body["game"]
        page.click("#resign")
        question = page.inner_text("#endings-confirm-title")
        assert question.startswith("Resign this game?"), question


# Where the clocks are after scrolling to the page's end: their box, and whether the point at
# their middle is theirs (not the header's, drawn over them).
CLOCKS_IN_VIEW = """() => {
  window.scrollTo(0, document.documentElement.scrollHeight);
  const r = document.querySelector(".endings-clocks").getBoundingClientRect();
  const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  return { top: r.top, bottom: r.bottom, height: innerHeight, scrolled: scrollY,
           theirs: Boolean(at && at.closest("#endings")) };
}"""


@pytest.mark.parametrize(("width", "height"), [(1280, 900), (390, 844)])
def test_the_clocks_stay_in_sight_when_the_page_scrolls(
    server: Server, new_page: NewPage, width: int, height: int
) -> None:
    made = server.create(
        {
            "game": "centrix",
            "seats": [{"kind": "device", "name": "Ann"}, {"kind": "bot", "level": 1}],
            "first": 0,
            "clock": {"kind": "realtime", "bank_seconds": 300, "increment_seconds": 5},
        }
    )
    page = new_page(width=width, height=height)
    open_seats(page, server, made["id"], [made["seats"][0]["token"]])
    page.wait_for_selector(".endings-clock.running")
    seen = page.evaluate(CLOCKS_IN_VIEW)
    assert seen["scrolled"] > 50, "the page scrolls"
    assert 0 <= seen["top"] < seen["bottom"] <= seen["height"], seen
    assert seen["theirs"], seen


@pytest.mark.parametrize("game", ["centrix", "colorcity"])
def test_a_player_who_closes_the_page_mid_game_is_marked_away_within_3_seconds(
    server: Server, new_page: NewPage, game: str
) -> None:
    # Issue 30's friction: with a clock running, the friend whose page was closed still
    # looked present to the others 3 s later.
    made = server.create(
        {
            "game": game,
            "seats": [{"kind": "device", "name": "Ann"}, {"kind": "device", "name": "Bo"}],
            "clock": {"kind": "realtime", "bank_seconds": 300, "increment_seconds": 0},
        }
    )
    ann, bo = new_page(), new_page()
    open_seats(ann, server, made["id"], [made["seats"][0]["token"]])
    open_seats(bo, server, made["id"], [made["seats"][1]["token"]])
    seat = ".player[data-seat='1']" if game == "centrix" else ".gang-purple"
    away = ann.locator(f"{seat} .badge-away")
    expect(away).to_have_count(0, timeout=10_000)
    bo.close()
    expect(away.first).to_be_visible(timeout=3_000)


def process_tree(marker: str) -> list[int]:
    """The processes of the browser started with ``marker`` among its arguments: its main
    process and every process under it (its network service holds the page's socket)."""
    parents: dict[int, int] = {}
    main = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                if marker.encode() in cmdline.read():
                    main.append(int(entry))
            with open(f"/proc/{entry}/stat") as stat:
                parents[int(entry)] = int(stat.read().rsplit(")", 1)[1].split()[1])
        except OSError:
            continue  # (it ended meanwhile)
    tree = [pid for pid in main if parents.get(pid) not in main]
    for pid in tree:
        tree += [child for child, parent in parents.items() if parent == pid and child not in tree]
    return tree


@contextmanager
def frozen(marker: str) -> Iterator[None]:
    """The browser started with ``marker`` stopped dead (SIGSTOP) meanwhile: its sockets
    stay open, and nothing is sent or answered on them, as when a laptop's lid is shut."""
    tree = process_tree(marker)
    assert tree, "the second browser's processes were not found"
    for pid in tree:
        os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        for pid in tree:
            os.kill(pid, signal.SIGCONT)


@pytest.mark.parametrize("game", ["centrix", "colorcity"])
def test_a_player_whose_browser_freezes_is_marked_away_within_3_seconds_and_back_after(
    server: Server, new_page: NewPage, browser: Browser, game: str
) -> None:
    # Issue 30's friction as it is met: the friend's laptop lid shut, or their phone in a
    # tunnel. The page vanishes without closing its socket, and looked present for 39 s.
    made = server.create(
        {
            "game": game,
            "seats": [{"kind": "device", "name": "Ann"}, {"kind": "device", "name": "Bo"}],
            "clock": {"kind": "realtime", "bank_seconds": 300, "increment_seconds": 0},
        }
    )
    ann = new_page()
    open_seats(ann, server, made["id"], [made["seats"][0]["token"]])
    marker = (
        f"--gamenight-test-{secrets.token_hex(4)}"  # (Chromium ignores a switch it does not know)
    )
    bos_browser = browser.browser_type.launch(
        executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, marker], headless=True
    )
    try:
        bo = bos_browser.new_page()
        open_seats(bo, server, made["id"], [made["seats"][1]["token"]])
        seat = ".player[data-seat='1']" if game == "centrix" else ".gang-purple"
        away = ann.locator(f"{seat} .badge-away")
        expect(away).to_have_count(0, timeout=10_000)
        with frozen(marker):
            expect(away.first).to_be_visible(timeout=3_000)
        # Bo's browser wakes, finds its socket closed, and its page reconnects: present again.
        expect(away).to_have_count(0, timeout=10_000)
        expect(bo.locator("body[data-version]")).to_have_count(1)
    finally:
        bos_browser.close()
