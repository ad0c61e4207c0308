"""``gamenight lab run EXPERIMENT.toml`` / ``lab report DIR`` / ``lab show DIR``."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from gamenight.cli.counts import count
from gamenight.lab.experiment import read_experiment
from gamenight.lab.metrics import compare, sentence, summarise
from gamenight.lab.report import TEXT, summary_rows, write_report
from gamenight.lab.results import load_rows
from gamenight.lab.run import run as run_experiment


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "lab",
        help="the designer's lab: rule variants compared over many simulated games",
        description="Experiments in TOML (docs/lab.md): run them, resume them, report them.",
    )
    sub = parser.add_subparsers(dest="lab_command", metavar="COMMAND", required=True)
    run = sub.add_parser("run", help="play an experiment's games (resuming where it stopped)")
    run.add_argument("experiment", type=Path, help="the experiment's TOML file")
    run.add_argument("--games", type=count, help="games per variant (default: the file's)")
    run.add_argument(
        "--workers", type=count, default=1, help="local processes (default %(default)s)"
    )
    run.add_argument("--out", type=Path, help="the run directory (default: lab-<file name>)")
    run.add_argument(
        "--until-significant",
        action="store_true",
        help="stop once the primary metric's comparisons are settled (mixture SPRT)",
    )
    run.add_argument("--ray", metavar="ADDRESS", help="run on a Ray cluster (local: start one)")
    run.set_defaults(run=run_command)
    report = sub.add_parser("report", help="write the HTML report and Markdown summary")
    report.add_argument("directory", type=Path, help="a run directory")
    report.add_argument(
        "--lang", choices=("en", "ko"), default="en", help="en or ko (default %(default)s)"
    )
    report.set_defaults(run=report_command)
    show = sub.add_parser("show", help="print the summary table")
    show.add_argument("directory", type=Path, help="a run directory")
    show.set_defaults(run=show_command)


def run_command(ns: argparse.Namespace) -> int:
    experiment = read_experiment(ns.experiment)
    out = ns.out or Path(f"lab-{ns.experiment.stem}")
    console = Console(stderr=True)
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        "left",
        TimeRemainingColumn(),
        console=console,
    ) as progress:
        task = progress.add_task(experiment.name, total=None)
        first: list[int] = []

        def advance(done: int, total: int) -> None:
            # The estimate counts only games played now, not those resumed from the file.
            if not first:
                first.append(done)
                progress.update(task, total=total - done, completed=0)
            else:
                progress.update(task, completed=done - first[0])

        outcome = run_experiment(
            experiment,
            out,
            games=ns.games,
            workers=ns.workers,
            until_significant=ns.until_significant,
            ray_address=ns.ray,
            progress=advance,
        )
    console.print(f"{outcome.played} games played now, {outcome.total} in {out}")
    if ns.until_significant:
        for name, v in outcome.verdicts.items():
            console.print(
                f"{name}: {v.state} after {v.n} games each (difference {v.difference:+.1%},"
                f" always-valid interval {v.low:+.1%} to {v.high:+.1%})"
            )
        if outcome.stopped == "significant":
            console.print("stopped: every comparison is settled")
    return 0


def report_command(ns: argparse.Namespace) -> int:
    html_path, md_path = write_report(ns.directory, ns.lang)
    print(f"report: {html_path}\nsummary: {md_path}")
    return 0


def show_command(ns: argparse.Namespace) -> int:
    experiment, rows = load_rows(ns.directory)
    summaries = summarise(experiment, rows)
    header, body = summary_rows(summaries, TEXT["en"])
    table = Table(title=f"{experiment.name}: {len(rows)} games")
    for column in header:
        table.add_column(column, justify="left" if column == header[0] else "right")
    for row in body:
        table.add_row(*row)
    console = Console(width=140)
    console.print(table)
    for d in compare(summaries):
        console.print(sentence(d, experiment.metric.label))
    return 0
