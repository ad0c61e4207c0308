"""The ``gamenight`` command line: one sub-command per game, plus the shared tools."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from collections.abc import Sequence

from gamenight import __version__
from gamenight.cli import bench, envs, lab, serve, tournament
from gamenight.core.errors import GamenightError
from gamenight.core.game import registry


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gamenight",
        description="Play and study Centrix and Color City. With no command: the web app.",
    )
    parser.add_argument("--version", action="version", version=f"gamenight {__version__}")
    games = parser.add_subparsers(dest="game", metavar="COMMAND")
    # A command per registered game that has one (its module here, as the web's pages).
    for name in registry.names():
        module = f"gamenight.cli.{name}"
        if importlib.util.find_spec(module) is not None:
            importlib.import_module(module).register(games)
    tournament.register(games)
    serve.register(games)
    envs.register(games)
    lab.register(games)
    bench.register(games)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        args = ["serve", "--open"]  # the embedded default: `make play`
    parser = build_parser()
    ns = parser.parse_args(args)
    if not hasattr(ns, "run"):
        parser.parse_args([*args, "--help"])
        return 2
    try:
        return int(ns.run(ns) or 0)
    except GamenightError as exc:
        print(f"gamenight: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
