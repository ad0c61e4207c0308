"""``gamenight tournament GAME --bots … --players N --games G --workers W``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from gamenight.bots.registry import game_bots
from gamenight.cli.counts import count
from gamenight.cli.files import check_writable, read_text
from gamenight.cli.options import check_bot
from gamenight.cli.progress import display
from gamenight.core.errors import NotationError, RulesError
from gamenight.core.game import registry
from gamenight.core.jsontext import read_json
from gamenight.tournament import GameResult, Summary, Tournament, rotation, summarise


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "tournament",
        help="bots against bots: win rates with 95%% intervals and ratings",
        description="Every bot entry plays every seat equally often (list a bot twice to "
        "field it twice). Results are appended to a JSON-lines file.",
    )
    parser.add_argument("game", choices=registry.names(), help="the game to play")
    parser.add_argument(
        "--bots",
        required=True,
        help="comma-separated bot specs or levels, e.g. ismcts:0.25s,greedy or level3,level1;"
        " outside policies as py:module:callable (a function of a seat's view) or"
        " sb3:policy.zip (a saved MaskablePPO/PPO policy)",
    )
    parser.add_argument(
        "--players", type=int, default=2, help="players per game (default %(default)s)"
    )
    parser.add_argument(
        "--games",
        type=count,
        default=100,
        help="games to play, best a multiple of the number of bots (default %(default)s)",
    )
    parser.add_argument(
        "--workers", type=count, default=1, help="local processes (default %(default)s)"
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of the game seeds (default %(default)s)"
    )
    parser.add_argument("--out", type=Path, help="JSON-lines results (default: results-*.jsonl)")
    parser.add_argument("--rules", help='rules as JSON, e.g. \'{"bottom": "floor"}\'')
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.set_defaults(run=run)

    results = commands.add_parser(
        "results", help="the summary of tournament results (JSON lines) written earlier"
    )
    results.add_argument("files", type=Path, nargs="+", help="results files a tournament wrote")
    results.add_argument("--json", action="store_true", help="print the summary as JSON")
    results.set_defaults(run=run_results)


def run_results(ns: argparse.Namespace) -> int:
    games: list[GameResult] = []
    for path in ns.files:
        games += load(path)
    summary = summarise(games)
    if ns.json:
        print(json.dumps(summary_dict(summary)))
    else:
        print_summary(Console(width=110), summary)
    return 0


def run(ns: argparse.Namespace) -> int:
    rules = read_rules(ns.rules) if ns.rules else None
    bots = [b for b in ns.bots.split(",") if b.strip()]
    if not bots:
        raise NotationError(f"--bots names no bot: {ns.bots!r}")
    try:
        registry[ns.game].check_players(ns.players)
    except RulesError as exc:
        raise RulesError(f"--players: {exc}") from None
    spec = game_bots(ns.game)
    for entry in bots:
        check_bot(spec, entry, "--bots")
    try:
        tournament = Tournament(ns.game, bots, ns.players, ns.games, ns.seed, rules)
    except ValueError as exc:
        raise NotationError(str(exc)) from exc
    out = ns.out or Path(f"results-{ns.game}-{ns.players}p-seed{ns.seed}.jsonl")
    check_writable(out)
    period = rotation(bots)
    if ns.games % period:
        # A warning, not a refusal: an uneven share is only a small bias on a long run.
        below, above = ns.games // period * period, -(-ns.games // period) * period
        multiple = f"{below} or {above}" if below else f"{above}"
        print(
            f"gamenight: warning: {ns.games} games do not share the seats evenly among the"
            f" bots (the seating repeats every {period} games): use {multiple} games for that",
            file=sys.stderr,
        )
    console = Console(stderr=True, quiet=ns.json)
    with display(console, f"{ns.game} games") as shown:
        done = [0]

        def advance(_: Any) -> None:
            done[0] += 1
            shown.update(done[0], ns.games)

        shown.update(0, ns.games)
        results = tournament.run(ns.workers, out, progress=advance)
    summary = summarise(results)
    if ns.json:
        print(json.dumps(summary_dict(summary)))
    else:
        print_summary(Console(width=110), summary, out)
    return 0


def read_rules(text: str) -> dict[str, Any]:
    rules = read_json(text, "--rules", NotationError)
    if not isinstance(rules, dict):
        raise NotationError(f'--rules must be a JSON object, like {{"bottom": "floor"}}: {text}')
    return rules


def summary_dict(summary: Summary) -> dict[str, Any]:
    def row(r: Any) -> dict[str, Any]:
        low, high = r.interval
        return {
            "label": r.label,
            "games": r.games,
            "wins": r.wins,
            "win_rate": r.win_rate,
            "ci95": [low, high],
            "mean_place": r.mean_place,
            "rating": r.rating,
        }

    return {
        "games": summary.games,
        "by_bot": [row(r) for r in summary.by_bot],
        "by_seat": [row(r) for r in summary.by_seat],
        "mean_actions": summary.mean_actions,
        "seconds_per_decision": summary.mean_think,
    }


def print_summary(console: Console, summary: Summary, out: Path | None = None) -> None:
    for title, rows in (("by bot", summary.by_bot), ("by seat", summary.by_seat)):
        table = Table(title=f"{summary.games} games — {title}")
        for column in ("", "seats", "wins", "win rate", "95% interval", "mean place"):
            table.add_column(column, justify="left" if not column else "right")
        if title == "by bot":
            table.add_column("rating", justify="right")
            table.add_column("s/decision", justify="right")
        for r in rows:
            low, high = r.interval
            cells = [
                r.label,
                str(r.games),
                f"{r.wins:g}",
                f"{r.win_rate:.1%}",
                f"{low:.1%}–{high:.1%}",
                f"{r.mean_place:.2f}",
            ]
            if title == "by bot":
                cells.append(f"{r.rating:.1f}" if r.rating is not None else "")
                think = summary.mean_think.get(r.label)
                cells.append(f"{think:.3f}" if think is not None else "")
            table.add_row(*cells)
        console.print(table)
    console.print(f"mean actions per game: {summary.mean_actions:.0f}")
    if out:
        console.print(f"results: {out}")


def load(path: Path) -> list[GameResult]:
    """The games of a results file; NotationError names the file, the line and the fault."""
    games = []
    for number, line in enumerate(read_text(path).splitlines(), 1):
        if line.strip():
            try:
                games.append(GameResult.from_json(line))
            except ValueError as exc:
                raise NotationError(f"{path}, line {number}: {exc}") from None
    return games
