"""``gamenight colorcity …`` (the Color City engine lands with its own issue)."""

from __future__ import annotations

import argparse
from typing import Any


def register(games: Any) -> None:
    parser: argparse.ArgumentParser = games.add_parser("colorcity", help="Color City")
    parser.set_defaults(run=lambda ns: parser.print_help())
