"""The report: one self-contained HTML file whose plots Chromium shows, and the summaries."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Route, sync_playwright

from gamenight.cli import main
from gamenight.lab import report
from gamenight.lab.experiment import parse_experiment
from gamenight.lab.run import run
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS

TINY = """
name = "tiny report"
game = "centrix"
players = 3
seats = ["greedy", "random", "random"]
games = 3
seed = 8
rules = { max_turns = 150 }
[grid]
bottom = ["protect", "floor"]
"""


@pytest.fixture(scope="module")
def directory(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("lab") / "run"
    run(parse_experiment(TINY), out)
    return out


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        yield chromium
        chromium.close()


def shown_plots(browser: Browser, path: Path) -> tuple[int, list[str]]:
    """(plots drawn, requests that tried to leave the file) for the page at ``path``."""
    page = browser.new_page()
    outside: list[str] = []

    def refuse(route: Route) -> None:
        outside.append(route.request.url)
        route.abort()

    page.route("http*://**", refuse)
    page.goto(path.as_uri())
    drawn = page.evaluate(
        "[...document.querySelectorAll('img.plot')]"
        ".filter(i => i.complete && i.naturalWidth > 100).length"
    )
    page.close()
    return int(drawn), outside


def test_the_report_is_one_file_with_its_plots(directory: Path, browser: Browser) -> None:
    assert main(["lab", "report", str(directory)]) == 0
    html_path = directory / "report.html"
    drawn, outside = shown_plots(browser, html_path)
    assert drawn == 3
    assert outside == []
    text = html_path.read_text("utf-8")
    assert "Variants against the baseline" in text
    assert "bottom=floor against bottom=protect: seat 0 win rate" in text
    assert "bottom = [&quot;protect&quot;, &quot;floor&quot;]" in text  # the experiment itself
    summary = (directory / "summary.md").read_text("utf-8")
    assert "| bottom=protect | 3 |" in summary
    assert "greedy" in summary


def test_the_korean_report_uses_a_cjk_font(directory: Path, browser: Browser) -> None:
    assert report.cjk_font() is not None, "make test installs fonts-nanum"
    assert main(["lab", "report", str(directory), "--lang", "ko"]) == 0
    drawn, _ = shown_plots(browser, directory / "report.ko.html")
    assert drawn == 3
    text = (directory / "report.ko.html").read_text("utf-8")
    assert "좌석별 승률" in text
    assert "bottom=floor 대 bottom=protect: 좌석 0 승률" in text
    assert report.TEXT["ko"]["no_font"] not in text


def test_without_a_cjk_font_the_korean_report_says_so(
    directory: Path, browser: Browser, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(report, "cjk_font", lambda: None)
    report.write_report(directory, "ko")
    text = (directory / "report.ko.html").read_text("utf-8")
    assert report.TEXT["ko"]["no_font"] in text
    assert shown_plots(browser, directory / "report.ko.html")[0] == 3


def test_show_prints_the_summary_table(directory: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lab", "show", str(directory)]) == 0
    out = capsys.readouterr().out
    assert "tiny report: 6 games" in out
    assert "bottom=floor" in out
    assert "against bottom=protect" in out
