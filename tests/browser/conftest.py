"""Browser tests: the real server in a subprocess, driven through Debian's Chromium.

Screenshots go to test-artifacts/browser/ so a person can look at what the tests saw.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "browser"
CHROMIUM = os.environ.get("GAMENIGHT_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",  # the tests may run as root, where Chromium's sandbox refuses to start
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    """``gamenight serve`` on a port and data directory that survive a restart."""

    data_dir: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    # More of ``gamenight serve``'s options, and of its environment (tests/browser/test_devices.py).
    options: tuple[str, ...] = ()
    environment: dict[str, str] = field(default_factory=dict)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = {**os.environ, "GAMENIGHT_DATA_DIR": str(self.data_dir), "GAMENIGHT_BOT_WORKERS": "1"}
        env.pop("GAMENIGHT_DATABASE_URL", None)
        env.pop("GAMENIGHT_REDIS_URL", None)
        env.pop("GAMENIGHT_PUBLIC_URL", None)
        env.update(self.environment)
        log = (self.data_dir / "server.log").open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gamenight", "serve", "--port", str(self.port), *self.options],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log()}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/tables", timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"the server did not start: {self.log()}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self.process = None

    def log(self) -> str:
        path = self.data_dir / "server.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""

    def create(self, body: dict[str, Any]) -> dict[str, Any]:
        """A table made through the JSON API (for tests whose subject is not the home page)."""
        return create_table(self.url, body)


def create_table(base: str, body: dict[str, Any]) -> dict[str, Any]:
    """A table made through the JSON API of the server at ``base``."""
    request = urllib.request.Request(
        f"{base}/api/tables",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        made: dict[str, Any] = json.loads(response.read())
    return made


@pytest.fixture(scope="package")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("gamenight-data"))
    running.start()
    yield running
    running.stop()


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[Server]:
    """A server of the test's own, which the test may stop and start again."""
    running = Server(tmp_path)
    running.start()
    yield running
    running.stop()


# Package-scoped: Playwright's sync API keeps an event loop running in the main thread while
# it is open, and the tests after the browser's (asyncio.run) need none to be.
@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        yield chromium
        chromium.close()


class Console:
    """Errors a page reported; a test fails on any it did not expect."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.allowed: list[str] = []

    def listen(self, page: Page) -> None:
        page.on("console", self._console)
        page.on("pageerror", lambda exc: self.errors.append(f"uncaught: {exc}"))

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.errors.append(message.text)

    def unexpected(self) -> list[str]:
        return [e for e in self.errors if not any(a in e for a in self.allowed)]


@pytest.fixture
def console() -> Console:
    return Console()


# The Korean fonts a page may meet: Debian's Nanum Gothic, and Noto Sans CJK (Android's, and
# most Linux desktops'), whose lines are taller and whose glyphs are wider. The Korean layout
# tests run with each (the Makefile installs both).
KOREAN_FONTS = ("NanumGothic", "Noto Sans CJK KR")

# Every word of the page, the board's included, in one font: a sheet of the document's own
# (adopted, so the page's Content-Security-Policy, which refuses inline styles, allows it),
# there before the page's scripts draw anything, and no rule of the page overrides it.
FORCE_FONT = """font => {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(`*, *::before, *::after { font-family: "${font}" !important; }`);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}"""


def installed(font: str) -> bool:
    found = subprocess.run(["fc-list", f":family={font}"], capture_output=True, text=True)
    return bool(found.stdout.strip())


@pytest.fixture
def new_page(browser: Browser, console: Console) -> Iterator[Any]:
    """Open pages, each in a browser context of its own (a separate device); given ``font``,
    every word of its pages is drawn in that font."""
    contexts: list[BrowserContext] = []

    def open_page(
        locale: str = "en-US", width: int = 1280, height: int = 900, font: str | None = None
    ) -> Page:
        context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
        context.set_default_timeout(20_000)
        if font is not None:
            assert installed(font), f"the font {font} is not installed (make test installs it)"
            context.add_init_script(f"({FORCE_FONT})({json.dumps(font)})")
        contexts.append(context)
        page = context.new_page()
        console.listen(page)
        return page

    yield open_page
    for context in contexts:
        context.close()
    assert console.unexpected() == [], "the pages reported errors"


def shot(page: Page, name: str, *, full_page: bool = True) -> None:
    # From the top: the sticky header would otherwise be drawn mid-page in a full-page shot.
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)
