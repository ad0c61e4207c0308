"""Where the web app keeps its data and how it is reached, from the environment."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path

from gamenight.core.errors import RulesError
from gamenight.core.numbers import read_decimal, read_whole_number


def default_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "gamenight"


@dataclass(frozen=True)
class Settings:
    database_url: str
    redis_url: str | None = None
    bot_workers: int = 1
    # Scale-out: how long a server's players count as online after it was last heard of
    # (a server that crashed or hangs); it renews its presence three times as often.
    presence_ttl: float = 15.0
    # How long a bot may think about one decision before it is abandoned and its seat plays
    # a level-1 bot's choice (web.bots).
    bot_seconds: float = 20.0

    @classmethod
    def from_env(cls, data_dir: Path | None = None) -> Settings:
        """``GAMENIGHT_DATABASE_URL`` picks the database (default: SQLite in the data
        directory, ``GAMENIGHT_DATA_DIR`` or ~/.local/share/gamenight); ``GAMENIGHT_REDIS_URL``
        lets several server processes share live tables, and ``GAMENIGHT_PRESENCE_TTL`` how
        many seconds a silent server's players still count as online; ``GAMENIGHT_BOT_WORKERS``
        sets how many processes think for bots, and ``GAMENIGHT_BOT_SECONDS`` how many seconds
        (0.1 to 3600, default 20) a bot may think about one decision."""
        url = os.environ.get("GAMENIGHT_DATABASE_URL")
        if not url:
            folder = data_dir or Path(os.environ.get("GAMENIGHT_DATA_DIR") or default_data_dir())
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise RulesError(f"cannot use {folder} for the data: {exc.strerror}") from exc
            url = f"sqlite:///{folder / 'gamenight.sqlite3'}"
        text = os.environ.get("GAMENIGHT_BOT_WORKERS") or "1"
        try:
            workers = read_whole_number(text.strip(), "GAMENIGHT_BOT_WORKERS", RulesError)
        except RulesError:
            workers = 0  # refused below, with the rule it breaks
        if workers < 1:
            raise RulesError(f"GAMENIGHT_BOT_WORKERS must be a whole number ≥ 1, not {text!r}")
        ttl = seconds("GAMENIGHT_PRESENCE_TTL", cls.presence_ttl, 1)
        bot_seconds = seconds("GAMENIGHT_BOT_SECONDS", cls.bot_seconds, 0.1)
        return cls(url, os.environ.get("GAMENIGHT_REDIS_URL") or None, workers, ttl, bot_seconds)


def seconds(name: str, default: float, low: float, high: float = 3600) -> float:
    """The environment variable ``name``, a number of seconds from ``low`` to ``high``."""
    text = os.environ.get(name) or str(default)
    try:
        value = read_decimal(text.strip(), name, RulesError)
    except RulesError:
        value = math.nan
    if not low <= value <= high:  # (nan fails too)
        raise RulesError(
            f"{name} must be a number of seconds from {low:g} to {high:g}, not {text!r}"
        )
    return value
