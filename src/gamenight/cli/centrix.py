"""``gamenight centrix …``: play in the terminal, replay a record, perft and bench."""

from __future__ import annotations

import argparse
from typing import Any


def register(games: Any) -> None:
    parser: argparse.ArgumentParser = games.add_parser("centrix", help="Centrix")
    parser.set_defaults(run=lambda ns: parser.print_help())
