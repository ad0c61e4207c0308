"""``gamenight serve``: the web app on uvicorn."""

from __future__ import annotations

import argparse
import webbrowser
from pathlib import Path
from typing import Any

from gamenight.core.errors import RulesError


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "serve", help="the web app: play in the browser (default http://127.0.0.1:8000)"
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="the address to listen on (default %(default)s)"
    )
    parser.add_argument("--port", type=int, default=8000, help="0–65535 (default %(default)s)")
    parser.add_argument("--data-dir", type=Path, help="where the SQLite database lives")
    parser.add_argument("--open", action="store_true", help="open a browser, if there is one")
    parser.set_defaults(run=run)


def run(ns: argparse.Namespace) -> int:
    import uvicorn

    from gamenight.web.app import create_app
    from gamenight.web.settings import Settings

    if not 0 <= ns.port <= 65535:
        raise RulesError(f"--port must be from 0 to 65535, not {ns.port}")
    settings = Settings.from_env(ns.data_dir)
    address = f"http://{ns.host}:{ns.port}/"
    print(f"gamenight is at {address}  (Ctrl+C stops it)", flush=True)
    if ns.open:
        webbrowser.open(address)
    uvicorn.run(
        create_app(settings),
        host=ns.host,
        port=ns.port,
        log_level="warning",
        # A frame over the message limit is refused by the protocol itself, before the
        # whole of it is held (the app refuses the rest with its own coded answer).
        ws_max_size=settings.limits.message_bytes,
    )
    return 0
