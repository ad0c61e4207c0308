"""The rules pages, shipped inside the package: for each game a short guide for players
(``guides/``) and every rule decision, exactly (``docs/rules``, linked as ``rules_docs/``)."""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Literal

from markdown_it import MarkdownIt

from gamenight.core.game import registry

LANGUAGES = ("en", "ko")  # those the interface speaks; any other asks for English
Part = Literal["guide", "full"]
FOLDERS: dict[str, str] = {"guide": "guides", "full": "rules_docs"}


def rules_html(game: str, lang: str = "en", part: Part = "guide") -> str:
    """``game``'s guide or its full rules as HTML, in Korean where a translation exists."""
    if game not in registry:
        raise KeyError(game)
    return _render(game, lang if lang in LANGUAGES else "en", part)


@cache  # bounded: a few games times a few languages times two parts
def _render(game: str, lang: str, part: Part) -> str:
    folder = resources.files("gamenight.web") / FOLDERS[part]
    translated = folder / f"{game}.{lang}.md"
    source = translated if lang != "en" and translated.is_file() else folder / f"{game}.md"
    markdown = MarkdownIt("commonmark").enable("table")
    html: str = markdown.render(source.read_text(encoding="utf-8"))
    return html
