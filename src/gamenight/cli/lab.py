"""``gamenight lab run EXPERIMENT.toml`` / ``lab report DIR`` / ``lab show DIR`` /
``lab bench EXPERIMENT.toml``."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from gamenight.cli.counts import count
from gamenight.cli.progress import display
from gamenight.lab.experiment import read_experiment
from gamenight.lab.metrics import compare, sentence, summarise
from gamenight.lab.report import TEXT, summary_rows, write_report
from gamenight.lab.results import load_rows
from gamenight.lab.run import PILOT
from gamenight.lab.run import run as run_experiment
from gamenight.lab.sequential import Verdict


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
    bench = sub.add_parser(
        "bench",
        help="games/s of an experiment played plainly and with --until-significant, as a ratio",
    )
    bench.add_argument("experiment", type=Path, help="the experiment's TOML file")
    bench.add_argument(
        "--games", type=count, default=1000, help="games per variant (default %(default)s)"
    )
    bench.add_argument(
        "--workers", type=count, default=1, help="local processes (default %(default)s)"
    )
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.set_defaults(run=bench_command)
    show = sub.add_parser("show", help="print the summary table")
    show.add_argument("directory", type=Path, help="a run directory")
    show.set_defaults(run=show_command)


def run_command(ns: argparse.Namespace) -> int:
    experiment = read_experiment(ns.experiment)
    out = ns.out or Path(f"lab-{ns.experiment.stem}")
    console = Console(stderr=True)
    arms = len(experiment.variants)
    margin = experiment.metric.margin
    told: list[int] = []

    with display(console, experiment.name) as shown:

        def advance(done: int, total: int, needed: int | None) -> None:
            extra = ""
            if needed is not None:
                extra = f"an answer needs ≈ {needed:,} games in all"
                if not told:
                    told.append(needed)
                    shown.note(estimate(needed // arms, arms, total // arms, margin))
            shown.update(done, total, extra)

        outcome = run_experiment(
            experiment,
            out,
            games=ns.games,
            workers=ns.workers,
            until_significant=ns.until_significant,
            ray_address=ns.ray,
            progress=advance if ns.until_significant else lambda d, t, _: shown.update(d, t),
        )
    counts = sorted(set(outcome.per_variant.values()))
    each = f"{counts[0]:,}" if len(counts) == 1 else f"{counts[0]:,}–{counts[-1]:,}"
    console.print(
        f"{outcome.played:,} games played now; {out} holds {each} games per variant,"
        f" {outcome.total:,} in all",
        highlight=False,
        soft_wrap=True,
    )
    if ns.until_significant:
        for name, v in outcome.verdicts.items():
            console.print(
                f"{name}: {v.state} after {v.n:,} games each (difference {v.difference:+.1%},"
                f" always-valid interval {v.low:+.1%} to {v.high:+.1%})",
                highlight=False,
                soft_wrap=True,
            )
            if not v.settled:
                console.print("  " + why_open(v, margin), highlight=False, soft_wrap=True)
        if outcome.stopped == "significant":
            console.print("stopped: every comparison is settled")
        elif any(not v.settled for v in outcome.verdicts.values()):
            console.print(
                "stopped at the run's games with a comparison open: more --games (the run"
                " resumes here) or a wider metric.margin would settle it",
                highlight=False,
                soft_wrap=True,
            )
    return 0


def estimate(per_variant: int, arms: int, cap: int, margin: float) -> str:
    """The sequential test's estimate, said once it has seen its first rounds."""
    text = (
        f"estimated from the first {PILOT} games per variant: an answer at ±{margin:.0%} needs"
        f" about {per_variant:,} games per variant ({per_variant * arms:,} in all)"
    )
    if per_variant > cap:
        text += (
            f", more than this run's {cap:,} per variant: it will likely stop at {cap:,}"
            " with a comparison open"
        )
    return text


def why_open(v: Verdict, margin: float) -> str:
    """Why a comparison is still open, and what would settle it."""
    if abs(v.difference) < margin / 2:
        head = (
            "open because the difference is near 0: the test can then only show it within"
            f" the margin, once its interval fits inside ±{margin:.0%}, which takes many games"
        )
    else:
        head = f"open because its interval neither excludes 0 nor fits inside ±{margin:.0%}"
    return head + f"; at the rates seen, about {v.needed:,} games per variant"


def bench_command(ns: argparse.Namespace) -> int:
    from gamenight.lab.bench import measure

    r = measure(read_experiment(ns.experiment), ns.games, ns.workers)
    if ns.json:
        print(json.dumps(r))
        return 0
    print(
        f"{r['experiment']}, {r['games_per_variant']:,} games per variant, {r['workers']}"
        f" worker(s), {r['clock']} time, each mode twice: plain {r['plain_games']:,} games,"
        f" {r['plain_games_per_s']:,.1f} games/s; --until-significant {r['sequential_games']:,}"
        f" games ({r['sequential_stopped']}), {r['sequential_games_per_s']:,.1f} games/s;"
        f" ratio {r['ratio']:.3f}"
    )
    print(
        f"commit {r['commit']}, {r['core']} core, {r['cpu']} ({r['cores']} cores),"
        f" load {r['load']} at the end"
    )
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
