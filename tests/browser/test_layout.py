"""The table and replay pages' layout, measured: what must be in the first screen, how large the
board is drawn, and whether the board's words can be read, on a laptop, a phone and a large
screen."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import FloatRect, Page

from gamenight.centrix.board import NUM_RINGS, NUM_SLOTS
from gamenight.centrix.svg import CX, CY, R_OUTER, R_TOP, RING_WIDTH, pawn_spot
from tests.browser.conftest import KOREAN_FONTS, Server, shot
from tests.browser.helpers import wait_my_turn, wait_prediction
from tests.web.bodies import COLORCITY

NewPage = Callable[..., Page]

# Ann on this device against three bots, Ann first: four trays, and her hand on screen.
CENTRIX_4: dict[str, Any] = {
    "game": "centrix",
    "seats": [{"kind": "device", "name": "Ann"}, *[{"kind": "bot", "level": 1}] * 3],
    "first": 0,
    "seed": 11,
}

LEGIBLE_PX = 11  # the least height on screen of any word drawn on a board


def box(page: Page, selector: str) -> FloatRect:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, f"{selector} is not on screen"
    return found


def settled_box(page: Page, selector: str, seconds: float = 5) -> FloatRect:
    """``selector``'s box once the page has stopped moving it (the same at three readings
    0.1 s apart): the plays that came before the turn may still be being shown."""
    readings = [box(page, selector)]
    deadline = time.monotonic() + seconds
    while len(readings) < 3 or readings[-1] != readings[-2] or readings[-2] != readings[-3]:
        assert time.monotonic() < deadline, f"{selector} never stopped moving: {readings[-3:]}"
        page.wait_for_timeout(100)
        readings.append(box(page, selector))
    return readings[-1]


def bottom(rect: FloatRect) -> float:
    return rect["y"] + rect["height"]


def right(rect: FloatRect) -> float:
    return rect["x"] + rect["width"]


def overlap(a: FloatRect, b: FloatRect) -> bool:
    """Whether two boxes share more than a hairline (anti-aliasing rounds to half pixels)."""
    across = min(right(a), right(b)) - max(a["x"], b["x"])
    down = min(bottom(a), bottom(b)) - max(a["y"], b["y"])
    return across > 0.5 and down > 0.5


def each_font(rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """The rows with a font added: each Korean row once per Korean font (its last field is its
    locale), the others in the page's own fonts."""
    return [
        (*row, font) for row in rows for font in (KOREAN_FONTS if row[-1] == "ko-KR" else (None,))
    ]


def no_horizontal_scroll(page: Page) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


@pytest.mark.parametrize(
    ("width", "height", "locale", "font"),
    each_font(
        [(1280, 900, "en-US"), (1366, 768, "en-US"), (1280, 900, "ko-KR"), (1024, 1366, "en-US")]
    ),
)
def test_centrix_board_hand_and_trays_are_all_in_the_first_screen(
    server: Server, new_page: NewPage, width: int, height: int, locale: str, font: str | None
) -> None:
    made = server.create(CENTRIX_4)
    page = new_page(locale=locale, width=width, height=height, font=font)
    page.goto(f"{server.url}/table/{made['id']}#token={made['seats'][0]['token']}")
    wait_my_turn(page)
    before = settled_box(page, "#board svg")
    # Choosing a card makes Ann's tray a button: the pawn that enters is picked there (and
    # the board, which takes the room the trays leave, does not move).
    page.locator(".play-card:not([disabled])").first.click()
    if page.locator("[data-rotation='none']").count():
        page.click("[data-rotation='none']")
    page.locator("button.tray[data-tray='0']").wait_for()
    assert box(page, "#board svg") == before
    shot(page, f"layout-centrix-{width}x{height}-{locale}-{font}", full_page=False)
    assert page.evaluate("window.scrollY") == 0
    board, hand, trays = box(page, "#board svg"), box(page, "#hand"), box(page, "#trays")
    for name, rect in (("board", board), ("hand", hand), ("trays", trays)):
        assert 0 <= rect["y"] <= bottom(rect) <= height, f"the {name} is not in the first screen"
    assert bottom(box(page, ".tray[data-tray='0']")) <= height
    # Not bought by shrinking the board: it is still most of the screen's height (on a
    # portrait screen, more than half its width) and the largest thing on it, the trays right
    # under it.
    assert board["height"] >= 0.7 * height or board["width"] >= 0.5 * width, board
    assert board["width"] > box(page, ".side")["width"]
    assert trays["y"] - bottom(board) < 48
    assert no_horizontal_scroll(page)


# The boxes on screen of the city's squares and of every word drawn on the board, taken at
# one moment (the aim layer is drawn again whenever a prediction comes).
MEASURE_CITY = """() => {
  const boxes = (selector) => [...document.querySelectorAll(selector)].map((node) => {
    const r = node.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  });
  return [boxes("#board svg rect.square"), boxes("#board svg text"), boxes("#board svg")[0]];
}"""


def assert_legible_and_apart(page: Page) -> None:
    # The drawing as it was when its words were measured (one evaluation: the page may move
    # the board meanwhile, as a status line comes or goes above it).
    squares, words, drawing = page.evaluate(MEASURE_CITY)
    assert len(words) == 9 + 9 + 1, "the files, the ranks and the shot's speed"
    for i, word in enumerate(words):
        assert word["height"] >= LEGIBLE_PX, f"a word {word['height']:.1f} px high"
        assert not any(overlap(word, square) for square in squares), "a word over a square"
        assert not any(overlap(word, other) for other in words[i + 1 :]), "words over each other"
        assert drawing["x"] <= word["x"] <= right(word) <= right(drawing), "a word cut off"


@pytest.mark.parametrize(
    ("width", "height", "first"),
    [
        (390, 844, "green"),
        (360, 740, "green"),
        (360, 740, "purple"),
        (320, 568, "green"),
        (1280, 900, "green"),
    ],
)
def test_colorcity_words_on_the_board_are_legible_and_apart(
    server: Server, new_page: NewPage, width: int, height: int, first: str
) -> None:
    made = server.create({**COLORCITY, "first": first})
    seat = 0 if first == "green" else 1
    page = new_page(width=width, height=height)
    page.goto(f"{server.url}/table/{made['id']}#token={made['seats'][seat]['token']}")
    wait_my_turn(page)
    # The aim is drawn again when the server's prediction for it comes: measure after that.
    wait_prediction(page)
    # Pulled back like a slingshot, the shot's speed is drawn by the arrow: a gentle shot,
    # the fastest one straight at the city, and one far to the side.
    # (On the smallest phones the top bar takes two rows: bring the cube to the screen's
    # middle, with room below it to pull.)
    page.evaluate("document.getElementById('launch-cube').scrollIntoView({ block: 'center' })")
    cube = box(page, "#launch-cube")
    x, y = cube["x"] + cube["width"] / 2, cube["y"] + cube["height"] / 2
    mm = page.evaluate(
        "(() => { const m = document.querySelector('#board svg .world').getScreenCTM();"
        " return Math.hypot(m.a, m.b); })()"
    )
    page.mouse.move(x, y)
    page.mouse.down()
    for pull_x, pull_y in ((0, 60), (0, 160), (-150, 90)):
        page.mouse.move(x + pull_x * mm, y + pull_y * mm, steps=6)
        wait_prediction(page)
        assert_legible_and_apart(page)
    assert page.text_content(".speed-label") == "3 m/s"  # the last pull is a full one
    shot(page, f"layout-colorcity-{width}x{height}-{first}", full_page=False)
    assert no_horizontal_scroll(page)
    page.mouse.move(x, y, steps=4)  # back where the pull began: let go, and nothing is shot
    page.mouse.up()


@pytest.mark.parametrize("game", ["centrix", "colorcity"])
def test_a_large_screen_draws_a_larger_board_with_the_side_panel_beside_it(
    server: Server, new_page: NewPage, game: str
) -> None:
    made = server.create(CENTRIX_4 if game == "centrix" else COLORCITY)
    sizes: dict[tuple[int, int], tuple[FloatRect, float]] = {}
    for width, height in ((1280, 900), (2560, 1440)):
        page = new_page(width=width, height=height)
        page.goto(f"{server.url}/table/{made['id']}#token={made['seats'][0]['token']}")
        wait_my_turn(page)
        shot(page, f"layout-{game}-{width}x{height}", full_page=False)
        board, side = box(page, "#board svg"), box(page, ".side")
        # Screen pixels per unit of the drawing: how large the board itself is drawn.
        scale = page.evaluate("document.querySelector('#board svg').getScreenCTM().a")
        sizes[width, height] = board, scale
        assert no_horizontal_scroll(page)
        assert bottom(board) <= height, "the board is in the first screen"
        # Beside the board, level with its banner, and narrow enough to read in lines.
        assert side["x"] >= right(board)
        assert abs(side["y"] - box(page, "#turn-banner")["y"]) < 2
        assert side["width"] <= 480
    (small, small_scale), (large, large_scale) = sizes[1280, 900], sizes[2560, 1440]
    assert large["height"] >= 1.4 * small["height"], (small, large)
    assert large_scale >= 1.4 * small_scale, (small_scale, large_scale)


# Every word drawn on the Centrix board, as drawn on screen, by kind: the slot letters, the
# ring numbers (with their badges) and the top's label (there while the top holds no pawn).
# The pawns' letters are part of the pawns, not words of the board.
MEASURE_CENTRIX = """() => {
  const svg = document.querySelector('#board svg');
  const rect = (node) => {
    const r = node.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  };
  const all = (selector) => [...svg.querySelectorAll(selector)].map(rect);
  const m = svg.getScreenCTM();
  return {
    scale: m.a, x: m.e, y: m.f,
    svg: rect(svg),
    slots: all('.slot-labels text'),
    rings: [...svg.querySelectorAll('.ring-labels [data-ring]')].map((g) => ({
      ring: Number(g.dataset.ring),
      text: rect(g.querySelector('text')),
      badge: rect(g.querySelector('circle')),
    })),
    top: all('[data-label="board_top"]'),
    symbols: all('.symbol'),
    words: all('text:not(.pawn text)'),
  };
}"""


def distance_to(rect: FloatRect, x: float, y: float) -> float:
    """How far the point (x, y) is from the nearest point of ``rect`` (0 inside it)."""
    dx = max(rect["x"] - x, 0.0, x - right(rect))
    dy = max(rect["y"] - y, 0.0, y - bottom(rect))
    return float((dx * dx + dy * dy) ** 0.5)


def farthest_from(rect: FloatRect, x: float, y: float) -> float:
    """How far the point (x, y) is from the farthest corner of ``rect``."""
    dx = max(abs(rect["x"] - x), abs(right(rect) - x))
    dy = max(abs(rect["y"] - y), abs(bottom(rect) - y))
    return float((dx * dx + dy * dy) ** 0.5)


def assert_centrix_words_legible_and_apart(page: Page) -> None:
    drawn = page.evaluate(MEASURE_CENTRIX)
    scale = drawn["scale"]

    def screen(x: float, y: float) -> tuple[float, float]:
        return drawn["x"] + x * scale, drawn["y"] + y * scale

    centre = screen(CX, CY)
    words = drawn["words"]
    assert len(words) == NUM_SLOTS + NUM_RINGS + 1, "the slots, the rings and the top"
    drawing = drawn["svg"]  # (measured with the words: the page may move the board meanwhile)
    for i, word in enumerate(words):
        assert word["height"] >= LEGIBLE_PX, f"a word {word['height']:.1f} px high"
        assert not any(overlap(word, other) for other in words[i + 1 :]), "words over each other"
        assert drawing["x"] <= word["x"] <= right(word) <= right(drawing), "a word cut off"
        assert drawing["y"] <= word["y"] <= bottom(word) <= bottom(drawing), "a word cut off"
    # The slot letters stand off the board, beyond its rings (a letter's box, larger than its
    # ink, may reach over the plate's rim).
    for letter in drawn["slots"]:
        assert distance_to(letter, *centre) >= R_OUTER * scale, "a slot letter on the board"
    # The top's label is on the top.
    for label in drawn["top"]:
        assert farthest_from(label, *centre) <= R_TOP * scale, "the top's label off the top"
    # Each ring's number, badge and all, is in its ring and clear of every pawn that can stand
    # on any square (the spoke it is on runs between two pawns), of the colours' symbols and
    # of the other rings' numbers.
    pawns = [pawn_spot(sq) for sq in range(NUM_RINGS * NUM_SLOTS)]
    for label in drawn["rings"]:
        text, badge = label["text"], label["badge"]
        assert badge["height"] >= text["height"] - 1, "the number sticks out of its badge"
        # The badge is a circle: measured as one against the pawns.
        br = badge["width"] / 2
        bx, by = badge["x"] + br, badge["y"] + badge["height"] / 2
        from_centre = ((bx - centre[0]) ** 2 + (by - centre[1]) ** 2) ** 0.5 / scale
        r_in = R_OUTER - label["ring"] * RING_WIDTH
        assert r_in < from_centre < r_in + RING_WIDTH, f"ring {label['ring']}'s number elsewhere"
        for x, y, r in pawns:
            px, py = screen(x, y)
            assert ((bx - px) ** 2 + (by - py) ** 2) ** 0.5 >= br + r * scale - 0.5, "on a pawn"
            assert distance_to(text, px, py) >= r * scale - 0.5, "a number on a pawn"
        for part in (badge, text):
            assert not any(overlap(part, symbol) for symbol in drawn["symbols"]), "on a symbol"
        others = [other["badge"] for other in drawn["rings"] if other is not label]
        assert not any(overlap(badge, other) for other in others), "numbers over each other"


@pytest.mark.parametrize(
    ("where", "width", "height", "locale", "font"),
    each_font(
        [
            ("table", 390, 844, "en-US"),
            ("table", 360, 740, "ko-KR"),
            ("table", 320, 568, "en-US"),
            ("table", 320, 568, "ko-KR"),
            ("table", 1280, 900, "en-US"),
            ("table", 1366, 768, "ko-KR"),
            ("replay", 360, 740, "en-US"),
        ]
    ),
)
def test_centrix_words_on_the_board_are_legible_and_apart(
    server: Server,
    new_page: NewPage,
    where: str,
    width: int,
    height: int,
    locale: str,
    font: str | None,
) -> None:
    made = server.create(CENTRIX_4)
    page = new_page(locale=locale, width=width, height=height, font=font)
    if where == "table":
        page.goto(f"{server.url}/table/{made['id']}#token={made['seats'][0]['token']}")
        wait_my_turn(page)
    else:
        page.goto(f"{server.url}/replay/{made['id']}")
        page.wait_for_selector("body[data-step='0'] #board svg")
    top = "TOP" if locale == "en-US" else "꼭대기"
    assert page.text_content("#board [data-label='board_top']") == top
    assert_centrix_words_legible_and_apart(page)
    shot(page, f"layout-centrix-words-{where}-{width}x{height}-{locale}-{font}", full_page=False)
    assert no_horizontal_scroll(page)


def open_replay(page: Page, server: Server, table: str) -> None:
    page.goto(f"{server.url}/replay/{table}")
    page.wait_for_selector("body[data-step='0'] #board svg")


@pytest.mark.parametrize(
    ("game", "width", "height"),
    [
        *[(game, 1280, 900) for game in ("centrix", "colorcity")],
        *[(game, 1366, 768) for game in ("centrix", "colorcity")],
        *[(game, 390, 844) for game in ("centrix", "colorcity")],
        *[(game, 360, 740) for game in ("centrix", "colorcity")],
        # On the smallest phone Color City's portrait board, which can be drawn no smaller
        # for its words to stay apart, leaves the steps half a screen lower.
        ("centrix", 320, 568),
    ],
)
def test_the_replay_shows_the_board_as_large_as_the_screen_allows_with_its_steps_in_view(
    server: Server, new_page: NewPage, game: str, width: int, height: int
) -> None:
    made = server.create(CENTRIX_4 if game == "centrix" else COLORCITY)
    page = new_page(width=width, height=height)
    open_replay(page, server, made["id"])
    shot(page, f"layout-replay-{game}-{width}x{height}", full_page=False)
    assert page.evaluate("window.scrollY") == 0
    board = box(page, "#board svg")
    for name in ("#board svg", "#first", "#prev", "#next", "#last", "#slider"):
        rect = box(page, name)
        assert 0 <= rect["x"] <= right(rect) <= width, f"{name} is not in the first screen"
        assert 0 <= rect["y"] <= bottom(rect) <= height, f"{name} is not in the first screen"
    assert no_horizontal_scroll(page)
    below_header = height - bottom(box(page, ".topbar"))
    if width > 900:
        # Beside the side panel, the board is about as tall as the screen under the header.
        assert board["height"] >= 0.88 * below_header, (board, below_header)
        assert box(page, ".side")["x"] >= right(board)
    else:
        # One column: the steps right under the board, and the board as wide as the screen
        # allows, or as tall (Color City's board is portrait).
        assert box(page, ".replay-controls")["y"] - bottom(board) < 48
        assert board["width"] >= 0.85 * width or board["height"] >= 0.5 * below_header, board
    # The words on the board are sized as at the table, for either game.
    words = page.evaluate(
        "[...document.querySelectorAll('#board svg text:not(.pawn text)')]"
        ".map((node) => node.getBoundingClientRect().height)"
    )
    assert words, "the board has words"
    assert min(words) >= LEGIBLE_PX, f"a word on the board {min(words):.1f} px high"


@pytest.mark.parametrize("game", ["centrix", "colorcity"])
def test_the_replay_on_a_large_screen_draws_a_larger_board(
    server: Server, new_page: NewPage, game: str
) -> None:
    made = server.create(CENTRIX_4 if game == "centrix" else COLORCITY)
    scales = {}
    for width, height in ((1280, 900), (2560, 1440)):
        page = new_page(width=width, height=height)
        open_replay(page, server, made["id"])
        if width > 2000:
            shot(page, f"layout-replay-{game}-{width}x{height}", full_page=False)
        board = box(page, "#board svg")
        assert bottom(board) <= height, "the board is in the first screen"
        assert board["height"] >= 0.88 * (height - bottom(box(page, ".topbar")))
        assert box(page, ".side")["x"] >= right(board)
        assert no_horizontal_scroll(page)
        scales[width] = page.evaluate("document.querySelector('#board svg').getScreenCTM().a")
    assert scales[2560] >= 1.4 * scales[1280], scales
