"""``gamenight bench …``: benchmarks of the whole system (each game's own are
``gamenight centrix bench`` and ``gamenight colorcity bench``).

- ``gamenight bench server --tables N --seconds S [--servers K | --workers N]
  [--pace S [--max-tables M] [--ramp F]] [--database-url URL] [--redis-url URL]
  [--sqlite-synchronous FULL|NORMAL] [--json] [--profile FILE [--profile-clock wall|cpu]]``:
  the table server's moves per second, latency and cost per move against its own stack's
  echo (gamenight.bench.server); ``--workers N``, one process against N in the same run;
  ``--pace S``, the open loop, the most tables held at a move p99 of 100 ms
  (gamenight.bench.pace).
- ``gamenight bench figures [--only SOURCE …] [--list] [--json] [--no-docs]`` (also
  ``gamenight bench all``; what ``make figures`` runs): every figure the README and the docs
  quote, measured again by the commands above and each game's own bench, written to
  docs/figures.json and into the docs' figure tables (gamenight.bench.figures).
- ``gamenight bench bots [--seconds S] [--workers N] [--think-seconds T] [--json]``: how an
  unrelated table's bot fares beside a level-5 Color City bot at the slowest rules allowed
  (gamenight.bench.bots).
- ``gamenight bench analyse [--seed N] [--json]``: the analysis after the game of a
  4-player Centrix game of about 450 turns and of a Color City game (gamenight.bench.analysis).
- ``gamenight bench calibration [--centrix-games N] [--colorcity-games N] [--json]``: the
  analysis' chance to win against who won, over games of the ladder's bots
  (gamenight.analysis.calibration).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from gamenight.cli.counts import count, seconds
from gamenight.cli.files import check_writable

# web.store.sql.SYNCHRONOUS, which the servers hold to (not imported: the command line starts
# without the web's database libraries).
SYNCHRONOUS = ("FULL", "NORMAL")


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "bench", help="benchmarks of the whole system: the table server"
    )
    sub = parser.add_subparsers(dest="bench_command", metavar="COMMAND", required=True)
    server = sub.add_parser(
        "server",
        help="moves/s, latency and cost per move of the web server, against an echo",
    )
    server.add_argument(
        "--tables", type=count, default=100, help="live tables (default %(default)s)"
    )
    server.add_argument(
        "--seconds", type=seconds, default=10.0, help="per measurement (default %(default)s)"
    )
    server.add_argument(
        "--servers",
        type=count,
        default=1,
        help="server processes; above 1 the pages of each table are split across them"
        " (needs --redis-url and a PostgreSQL --database-url) (default %(default)s)",
    )
    server.add_argument(
        "--workers",
        type=count,
        default=1,
        help="above 1: the same run on one server process and then on N, the pages of each"
        " table on two of them (needs --redis-url and a PostgreSQL --database-url)"
        " (default %(default)s)",
    )
    server.add_argument(
        "--pace",
        type=seconds,
        metavar="S",
        help="the open loop: each table moves at random moments, S seconds apart on average;"
        " the tables are ramped up (from --tables, --seconds a step) to the most held at a"
        " move p99 of 100 ms",
    )
    server.add_argument(
        "--max-tables",
        type=count,
        default=5000,
        help="with --pace: the most tables the ramp goes to (default %(default)s)",
    )
    server.add_argument(
        "--ramp",
        type=float,
        default=1.5,
        help="with --pace: each step's tables over the last's, until one fails"
        " (default %(default)s)",
    )
    server.add_argument(
        "--database-url", help="the servers' database (default: SQLite in a temporary folder)"
    )
    server.add_argument("--redis-url", help="the Redis the servers share live tables through")
    server.add_argument(
        "--sqlite-synchronous",
        type=str.upper,
        choices=SYNCHRONOUS,
        default="FULL",
        help="SQLite's PRAGMA synchronous for the servers (docs/reliability.md)"
        " (default %(default)s)",
    )
    server.add_argument("--json", action="store_true", help="print one JSON object")
    server.add_argument(
        "--profile",
        type=Path,
        help="write the (first) server's cProfile statistics of the measured play here",
    )
    server.add_argument(
        "--profile-clock",
        choices=("wall", "cpu"),
        default="wall",
        help="the profile's clock: wall (GIL waits counted in the call that waited) or cpu"
        " (the event loop thread's own CPU) (default %(default)s)",
    )
    server.add_argument(
        "--seed", type=int, default=2026, help="seed of the run (default %(default)s)"
    )
    server.set_defaults(run=_server)
    figures = sub.add_parser(
        "figures",
        aliases=["all"],
        help="measure every figure the docs quote (docs/figures.json, the docs' tables)",
    )
    figures.add_argument(
        "--only",
        nargs="+",
        metavar="SOURCE",
        help="measure only these sources (`--list` names them), long ones included"
        " (default: every source but the long ones)",
    )
    figures.add_argument(
        "--list", action="store_true", help="name the sources and their commands, measure none"
    )
    figures.add_argument("--json", action="store_true", help="print the figures measured as JSON")
    figures.add_argument(
        "--no-docs", action="store_true", help="write docs/figures.json but leave the docs"
    )
    figures.add_argument(
        "--docs-only",
        action="store_true",
        help="measure nothing: write docs/figures.json's values into the docs' tables",
    )
    figures.add_argument(
        "--database-url",
        help="the PostgreSQL a long source's command runs on (the registry keeps its command"
        " with DB for the database)",
    )
    figures.add_argument(
        "--redis-url", help="the Redis a long source's command runs on (the registry keeps its own)"
    )
    figures.set_defaults(run=_figures)
    bots = sub.add_parser(
        "bots", help="an unrelated table's bot beside the hardest bot and rules allowed"
    )
    bots.add_argument("--seconds", type=seconds, default=20.0, help="(default %(default)s)")
    bots.add_argument(
        "--workers", type=count, help="bot worker processes (default: the server's, a core each)"
    )
    bots.add_argument(
        "--think-seconds",
        type=float,
        default=3.0,
        help="each decision's think time, 0 for none (the server's; default %(default)s)",
    )
    bots.add_argument("--json", action="store_true", help="print one JSON object")
    bots.set_defaults(run=_bots)
    sqlite = sub.add_parser(
        "sqlite",
        help="may several server processes share one SQLite file? moves/s of 1 and N",
    )
    sqlite.add_argument(
        "--processes",
        type=count,
        nargs="+",
        default=[1, 2],
        help="the process counts to compare, in one run (default %(default)s)",
    )
    sqlite.add_argument("--seconds", type=seconds, default=5.0, help="each (default %(default)s)")
    sqlite.add_argument("--json", action="store_true", help="print one JSON object")
    sqlite.set_defaults(run=_sqlite)
    analyse = sub.add_parser(
        "analyse",
        aliases=["analyze"],
        help="the analysis after the game: a 450-turn Centrix game and a Color City game",
    )
    analyse.add_argument("--seed", type=int, default=0, help="the games' first seed (default 0)")
    analyse.add_argument("--json", action="store_true", help="print one JSON object")
    analyse.set_defaults(run=_analyse)
    calibration = sub.add_parser(
        "calibration",
        help="is the analysis' chance to win calibrated? games of the ladder's bots",
    )
    calibration.add_argument(
        "--centrix-games",
        type=count,
        default=200,
        help="Centrix games, half with 2 players, half with 4 (default %(default)s)",
    )
    calibration.add_argument(
        "--colorcity-games", type=count, default=200, help="(default %(default)s)"
    )
    calibration.add_argument("--seed", type=int, default=0, help="the first game's seed")
    calibration.add_argument("--json", action="store_true", help="print one JSON object")
    calibration.add_argument(
        "--fit",
        action="store_true",
        help="fit the tempering to these games and judge them with it (run with another"
        " --seed than the one judged)",
    )
    calibration.set_defaults(run=_calibration)


def _calibration(ns: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from gamenight.analysis.calibration import fit, play, summary
    from gamenight.analysis.report import TEMPER

    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
    ) as bar:
        task = bar.add_task("games", total=ns.centrix_games + ns.colorcity_games)
        games = play(
            ns.centrix_games,
            ns.colorcity_games,
            ns.seed,
            progress=lambda done, _: bar.update(task, completed=done),
        )
    temper = {**TEMPER, **fit(games)} if ns.fit else TEMPER
    s = summary(games, temper)
    s["temper"] = temper
    if ns.json:
        print(json.dumps(s, ensure_ascii=False))
        return 0 if s["calibrated"] and s["sharper"] else 1
    print("games: " + ", ".join(f"{n} {kind}" for kind, n in s["games"].items()))
    print("tempering (ε, β): " + ", ".join(f"{g} {e:g}, {b:g}" for g, (e, b) in temper.items()))
    _judged("all games, each over its whole length", s)
    for name in ("centrix", "colorcity", "centrix_until_won"):
        if name in s:
            _judged(name.replace("_", " "), s[name])
    return 0 if s["calibrated"] and s["sharper"] else 1


def _judged(title: str, s: dict[str, Any]) -> None:
    from gamenight.analysis.calibration import LEAST, WITHIN

    print(f"\n{title}:")
    print("| predicted | predictions | mean predicted | observed | within 0.1 |")
    print("|---|---|---|---|---|")
    for t in s["tenths"]:
        judged = ("yes" if t["calibrated"] else "NO") if t["judged"] else f"(< {LEAST})"
        print(
            f"| {t['tenth']} | {t['predictions']} | {t['mean']:.3f} | {t['observed']:.3f}"
            f" | {judged} |"
        )
    print("| mark | Brier | uniform 1/n | better by |")
    print("|---|---|---|---|")
    for mark, b in s["brier"].items():
        print(
            f"| {mark.replace('_', ' ')} | {b['brier']:.4f} | {b['uniform']:.4f}"
            f" | {b['better_by']:.1%} |"
        )
    print(
        f"calibrated (every tenth of ≥ {LEAST} predictions within {WITHIN}): {s['calibrated']};"
        f" sharper than 1/n (and by ≥ 30 % at three quarters): {s['sharper']}"
    )


def _analyse(ns: argparse.Namespace) -> int:
    from gamenight.bench.analysis import run

    r = run(ns.seed)
    if ns.json:
        print(json.dumps(r))
        return 0
    c, cc = r["centrix"], r["colorcity"]
    print(f"commit {r['commit']}, {r['core']} core, {r['machine']}, load {r['load_average']}")
    print(
        f"Centrix, 4 players, {c['turns']} turns ({c['plays']} plays, seed {c['seed']}),"
        f" {c['rollouts']} rollouts a position: {c['wall_s']} s ({c['cpu_s']} s CPU,"
        f" one core; bar {c['bar_s']} s)"
    )
    print(
        f"Color City, level 5 against level 5, {cc['turns']} turns ({cc['actions']} actions,"
        f" seed {cc['seed']}), {cc['rollouts']} rollouts a position: {cc['wall_s']} s"
        f" ({cc['cpu_s']} s CPU, one core; bar {cc['bar_s']} s)"
    )
    return 0


def _bots(ns: argparse.Namespace) -> int:
    import os

    from gamenight.bench.bots import run

    if ns.think_seconds < 0:
        raise SystemExit("--think-seconds must be 0 (none) or more")
    workers = ns.workers or os.cpu_count() or 1
    r = run(ns.seconds, workers, ns.think_seconds or None)
    if ns.json:
        print(json.dumps(r))
        return 0
    print(
        f"{r['workers']} worker(s), think time {r['think_seconds'] or 'none'}, {r['seconds']:g} s:"
        f" the unrelated table made {r['easy_decisions']} decisions"
        f" ({r['easy_decisions_per_s']}/s), the longest waited {r['easy_longest_wait_s']} s;"
        f" the hard table made {r['hard_decisions']}, the longest took {r['hard_longest_s']} s"
    )
    return 0


def _sqlite(ns: argparse.Namespace) -> int:
    from gamenight.bench.sqlite_share import run

    r = run(ns.processes, ns.seconds)
    if ns.json:
        print(json.dumps(r))
        return 0
    print(
        f"one SQLite file, {r['tables_per_process']} tables a process appending at once,"
        f" {r['seconds']:g} s each; {r['commit']}, {r['cpu']}, {r['machine']}, load {r['load']}"
    )
    for row in r["runs"]:
        print(
            f"  {row['processes']} process(es): {row['moves_per_s']} moves/s,"
            f" p50 {row['p50_ms']} ms, p99 {row['p99_ms']} ms, refused {row['refused']}"
        )
    return 0


def _server(ns: argparse.Namespace) -> int:
    from gamenight.bench.server import run

    if ns.profile:
        check_writable(ns.profile)
    if ns.pace is not None:
        return _paced(ns)
    result = run(
        ns.tables,
        ns.seconds,
        ns.servers,
        ns.database_url,
        ns.redis_url,
        ns.profile.resolve() if ns.profile else None,
        ns.seed,
        ns.sqlite_synchronous,
        ns.profile_clock,
        ns.workers,
    )
    if ns.json:
        print(json.dumps(result))
        return 0
    if "one_worker" in result:
        print("one process:")
        _closed_report(ns, result["one_worker"])
        print(f"{ns.workers} processes:")
    _closed_report(ns, result)
    if "one_worker" in result:
        print(
            f"{ns.workers} processes ÷ one: moves/s {result['ratio_moves_per_s_to_one_worker']};"
            f" the better ÷ its echo {result['best_ratio_moves_to_echo']}"
        )
    return 0


def _paced(ns: argparse.Namespace) -> int:
    from gamenight.bench import pace
    from gamenight.bench.server import Setup

    if ns.ramp <= 1:
        raise SystemExit("--ramp must be above 1")
    setup = Setup(
        ns.database_url,
        ns.redis_url,
        ns.sqlite_synchronous,
        ns.profile.resolve() if ns.profile else None,
        ns.profile_clock,
    )
    result = pace.run(
        setup,
        ns.pace,
        ns.tables,
        ns.seconds,
        ns.max_tables,
        ns.ramp,
        ns.seed,
        ns.workers,
        ns.servers,
    )
    if ns.json:
        print(json.dumps(result))
        return 0
    runs = [("one process", result["one_worker"])] if "one_worker" in result else []
    runs.append((f"{result['servers']} process(es)", result))
    for name, r in runs:
        print(f"{name}, a move every {r['pace_s']} s a table on average:")
        for step in r["curve"]:
            print(
                f"  {step['tables']:>6} tables: {step['moves_per_s']:,.1f} moves/s, p50"
                f" {step['p50_ms']} ms, p99 {step['p99_ms']} ms (same process"
                f" {step['same_process_p99_ms']}, other {step['cross_process_p99_ms']}),"
                f" errors {step['errors']}{'' if step['held'] else '  — not held'}"
            )
        print(f"  held at p99 ≤ 100 ms: {r['tables_held_at_p99_100ms']} tables")
    if "one_worker" in result:
        print(
            f"{ns.workers} processes ÷ one, tables held:"
            f" {result['ratio_tables_held_at_p99_100ms_to_one_worker']}"
        )
    print(f"load average at the start {result['load_average']}")
    return 0


def _closed_report(ns: argparse.Namespace, r: dict[str, Any]) -> None:
    print(
        f"{ns.tables} tables on {r['servers']} server process(es), {r['seconds']:.1f} s:"
        f" {r['moves']} moves, {r['games_finished']} games finished, {r['tables_made']} tables made"
    )
    print(
        f"moves/s {r['moves_per_s']:,.1f}; latency p50 {r['p50_ms']} ms, p95 {r['p95_ms']} ms,"
        f" p99 {r['p99_ms']} ms; errors {r['errors']} {r['error_codes'] or ''}"
    )
    if "cross_p99_ms" in r:
        print(
            f"cross-server delay p50 {r['cross_p50_ms']} ms, p95 {r['cross_p95_ms']} ms,"
            f" p99 {r['cross_p99_ms']} ms"
        )
    print(
        f"CPU per move: server {r['cpu_ms_per_move']} ms, client {r['client_cpu_ms_per_move']} ms;"
        f" server memory above idle {r['rss_above_idle_mb']} MB (idle {r['idle_rss_mb']} MB)"
    )
    print(
        f"bytes per message {r['bytes_per_message']:,.0f}, messages per move"
        f" {r['messages_per_move']}; the pages' socket extensions: {r['ws_extensions'] or 'none'}"
    )
    print(
        f"echo, same clients: {r['echo_moves_per_s']:,.1f} messages/s, p50 {r['echo_p50_ms']} ms,"
        f" p99 {r['echo_p99_ms']} ms, server CPU {r['echo_cpu_ms_per_message']} ms per message,"
        f" errors {r['echo_errors']}"
    )
    print(
        f"sockets open: play {r['sockets']} {r['sockets_per_server']},"
        f" echo {r['echo_sockets']} {r['echo_sockets_per_server']} (per server)"
    )
    line = (
        f"ratios: moves/s ÷ echo {r['ratio_moves_to_echo']}, p99 ÷ echo p99"
        f" {r['ratio_p99_to_echo']}"
    )
    if "ratio_cross_p99_to_echo" in r:
        line += f", cross-server p99 ÷ echo p99 {r['ratio_cross_p99_to_echo']}"
    print(line)
    print(
        f"a move seen on a page on its home process: p99 {r['same_process_p99_ms']} ms; on"
        f" another: {r['cross_process_p99_ms']} ms (÷ {r['ratio_cross_to_same_p99']})"
    )
    print(
        f"the machine's {r['cores']} cores: busy {r['machine_busy_pct']} % in the play,"
        f" {r['echo_machine_busy_pct']} % in the echo; the servers' loops waited for a core"
        f" {r['loop_waiting_for_cpu_pct']} % of the play; the play's CPU a move (server and"
        f" client) allows at most {r['cpu_ceiling_moves_per_s']:,.1f} moves/s,"
        f" {r['ceiling_ratio_moves_to_echo']} of the echo's rate"
    )
    print(
        f"tracebacks in the servers' logs {r['server_tracebacks']};"
        f" load average at the start {r.get('load_average', '')}"
    )


def _figures(ns: argparse.Namespace) -> int:
    from gamenight.bench import figures

    if not figures.REGISTRY.parent.is_dir():
        docs = figures.REGISTRY.parent
        raise SystemExit(f"gamenight bench figures measures a source checkout's docs: no {docs}")
    names = {s.name for s in figures.sources()}
    unknown = sorted(set(ns.only or ()) - names)
    if unknown:
        raise SystemExit(f"no figure source called {', '.join(unknown)} (see --list)")
    if ns.list:
        for source in figures.sources():
            mark = "long, its own command" if source.long else "make figures"
            print(f"{source.name} ({mark}): {source.command}")
        return 0
    say = (lambda _: None) if ns.json else print
    if ns.database_url:
        figures.SERVICES[figures.DATABASE] = ns.database_url
    if ns.redis_url:
        figures.SERVICES[figures.REDIS] = ns.redis_url
    measured = {} if ns.docs_only else figures.measure(ns.only or (), say)
    registry = figures.merged(figures.load_registry(), measured)
    figures.save_registry(registry)
    if not ns.no_docs:
        for document in figures.DOCUMENTS:
            path = figures.ROOT / document
            text = path.read_text()
            new = figures.rewrite(text, document, registry)
            if new != text:
                path.write_text(new)
    if ns.json:
        print(json.dumps(measured))
        return 0
    print(f"written: {figures.REGISTRY.relative_to(figures.ROOT)}; not measured here (long):")
    for source in figures.long_sources():
        print(f"  {source.name}: {source.command}")
    return 0
