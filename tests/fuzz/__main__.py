"""``python -m tests.fuzz --inputs N``: fuzz the engines' parsers and the web app, print
the figures, and exit 1 unless every failure count is zero."""

from __future__ import annotations

import argparse
import sys

from .fuzz import run
from .harness import report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__)
    parser.add_argument("--inputs", type=int, default=100_000, help="inputs in all")
    parser.add_argument("--seed", type=int, default=0, help="the run's seed (reproducible)")
    parser.add_argument("--only", default="", help="only the targets whose name holds this")
    args = parser.parse_args(argv)
    figures = run(args.inputs, args.seed, args.only)
    report(figures)
    return 1 if any(f.failures for f in figures.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
