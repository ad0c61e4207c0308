"""``gamenight serve``: the web app on uvicorn."""

from __future__ import annotations

import argparse
import webbrowser
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gamenight.core.errors import RulesError

if TYPE_CHECKING:
    from gamenight.web.settings import Settings

LOCAL = "127.0.0.1"
EVERYWHERE = "0.0.0.0"  # --lan: the point is to be reached from other devices


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "serve", help="the web app: play in the browser (default http://127.0.0.1:8000)"
    )
    parser.add_argument(
        "--host", help=f"the address to listen on (default {LOCAL}; with --lan {EVERYWHERE})"
    )
    parser.add_argument("--port", type=int, default=8000, help="0–65535 (default %(default)s)")
    parser.add_argument(
        "--lan",
        action="store_true",
        help="let friends on the same network (Wi-Fi) join: listen there too, and make the"
        " invite links with this machine's address on it (GAMENIGHT_PUBLIC_URL, if set, wins)",
    )
    parser.add_argument("--data-dir", type=Path, help="where the SQLite database lives")
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="server processes on this machine sharing the port, the tables shared among"
        " them (above 1: needs GAMENIGHT_REDIS_URL; docs/architecture.md) (default %(default)s)",
    )
    parser.add_argument("--open", action="store_true", help="open a browser, if there is one")
    parser.set_defaults(run=run)


def listening(
    ns: argparse.Namespace, settings: Settings, candidates: Iterable[str] | None = None
) -> tuple[str, Settings, list[str]]:
    """Where to listen, the settings with the links' base, and what to tell the person who
    started the server. ``candidates``: the machine's addresses (found when None)."""
    from gamenight.web.links import lan_url

    host = ns.host or (EVERYWHERE if ns.lan else LOCAL)
    local = LOCAL if host == EVERYWHERE else host
    lines = [f"gamenight is at http://{local}:{ns.port}/  (Ctrl+C stops it)"]
    if ns.lan and settings.public_url is None:
        if ns.port == 0:
            raise RulesError("--lan needs a port other than 0: the invite links name it")
        url = lan_url(ns.port, candidates)
        if url is None:
            lines.append(
                "no address on a local network was found: invite links use the address"
                " each page was opened with"
            )
        else:
            settings = replace(settings, public_url=url)
    if settings.public_url:
        lines.append(f"friends join at {settings.public_url}/ (invite links and QR codes use it)")
    if host not in (EVERYWHERE, "::") and host not in settings.served_hosts():
        # Listening on one address of the machine's: requests to it name it.
        settings = replace(settings, allowed_hosts=(*settings.allowed_hosts, host))
    elif host in (EVERYWHERE, "::") and settings.public_url is None:
        lines.append(
            "only requests to this machine's own name are answered: set"
            " GAMENIGHT_ALLOWED_HOSTS (or use --lan) for the names others reach it by"
        )
    return host, settings, lines


def run(ns: argparse.Namespace) -> int:
    from gamenight.web.app import create_app, serve
    from gamenight.web.pool import check_workers, serve_workers
    from gamenight.web.settings import Settings

    if not 0 <= ns.port <= 65535:
        raise RulesError(f"--port must be from 0 to 65535, not {ns.port}")
    settings = Settings.from_env(ns.data_dir)
    check_workers(settings, ns.workers)  # (refused before anything is said)
    host, settings, lines = listening(ns, settings)
    if ns.workers > 1:
        lines.append(f"{ns.workers} server processes share the port and the tables")
    for line in lines:
        print(line, flush=True)
    if ns.open:
        webbrowser.open(f"http://{LOCAL if host == EVERYWHERE else host}:{ns.port}/")
    if ns.workers > 1:
        serve_workers(settings, host, ns.port, ns.workers)
    else:
        serve(create_app(settings), settings, host, ns.port)
    return 0
