"""``gamenight <game> analyse RECORD``: the analysis of a finished game, with a progress bar.

The bar is rich's on a terminal; elsewhere a plain line every tenth of the way. Both go to
stderr, so that ``--json`` prints only its one object on stdout.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

from gamenight.analysis.report import Analysis
from gamenight.cli.counts import count
from gamenight.cli.files import read_text
from gamenight.core.errors import RecordError

Analyse = Callable[..., Analysis]


def add_command(commands: Any, game: str, rollouts: int) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = commands.add_parser(
        "analyse",
        aliases=["analyze"],
        help="a finished game's chances, turning points and mistakes, by the bots",
    )
    parser.add_argument("record", type=Path, help=f"a finished {game} game record (JSON)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--rollouts",
        type=count,
        default=rollouts,
        help="rollouts per position (default %(default)s)",
    )
    parser.add_argument("--seed", type=int, default=0, help="the rollouts' seed (default 0)")
    return parser


def run(ns: argparse.Namespace, analyse: Analyse) -> int:
    text = read_text(ns.record, RecordError)
    err = Console(stderr=True)
    if err.is_terminal:
        with Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=err,
        ) as bar:
            task = bar.add_task("analysing plays", total=None)
            result = analyse(
                text,
                rollouts=ns.rollouts,
                seed=ns.seed,
                progress=lambda done, total: bar.update(task, completed=done, total=total),
            )
    else:
        result = analyse(text, rollouts=ns.rollouts, seed=ns.seed, progress=plain_lines())
    if ns.json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        show(Console(), result)
    return 0


def plain_lines() -> Callable[[int, int], None]:
    """A progress report of one line per tenth of the plays, on stderr."""
    told = [-1]

    def progress(done: int, total: int) -> None:
        tenth = done * 10 // max(1, total)
        if tenth != told[0] or done == total:
            told[0] = tenth
            print(f"analysed {done}/{total} plays", file=sys.stderr, flush=True)

    return progress


def show(console: Console, result: Analysis) -> None:
    seats = result.seats
    console.print(f"[bold]{result.game}[/] — {len(result.chances) - 1} plays; {result.method}")
    marks = [0, len(result.chances) // 4, len(result.chances) // 2, 3 * len(result.chances) // 4]
    marks.append(len(result.chances) - 1)
    console.print("chance to win after play " + ", ".join(str(m) for m in marks) + ":")
    for seat, name in enumerate(seats):
        row = " ".join(f"{result.chances[m][seat]:4.0%}" for m in marks)
        console.print(f"  {name:>10}  {row}{'  (won)' if result.winner == seat else ''}")
    console.print("[bold]turning points[/]" + ("" if result.turning_points else ": none"))
    for t in result.turning_points:
        moved = ", ".join(f"{seats[s]} {d:+.0%}" for s, d in enumerate(t.swing) if abs(d) >= 0.05)
        console.print(f"  {t.ply}. {seats[t.seat]} {t.played}: {moved}", markup=False)
    console.print(f"[bold]mistakes[/]: {len(result.mistakes)}")
    for m in result.mistakes:
        console.print(f"  {m.words} (−{m.loss:.0%})", markup=False)
    for aim in result.extra.get("aims", []):
        console.print(
            f"  pitch {aim['ply']}: aimed at {' '.join(aim['aimed']) or 'off the city'},"
            f" stopped on {' '.join(aim['stopped']) or 'nothing (destroyed)'};"
            f" the planner's best aimed at {' '.join(aim['best_aimed']) or 'off the city'}",
            markup=False,
        )
