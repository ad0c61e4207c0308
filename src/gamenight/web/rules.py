"""The rules pages: docs/rules rendered to HTML (shipped inside the package)."""

from __future__ import annotations

from functools import cache
from importlib import resources

from markdown_it import MarkdownIt

from gamenight.web.games import GAMES

LANGUAGES = ("en", "ko")  # those the interface speaks; any other asks for English


def rules_html(game: str, lang: str = "en") -> str:
    """The rules of ``game`` as HTML, in Korean where a translation exists."""
    if game not in GAMES:
        raise KeyError(game)
    return _render(game, lang if lang in LANGUAGES else "en")


@cache  # bounded: a few games times a few languages
def _render(game: str, lang: str) -> str:
    folder = resources.files("gamenight.web") / "rules_docs"
    translated = folder / f"{game}.{lang}.md"
    source = translated if lang != "en" and translated.is_file() else folder / f"{game}.md"
    markdown = MarkdownIt("commonmark").enable("table")
    html: str = markdown.render(source.read_text(encoding="utf-8"))
    return html
