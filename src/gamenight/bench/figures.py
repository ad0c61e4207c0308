"""The figures registry (``make figures``, ``gamenight bench figures``): every figure the
README and the docs quote, by key, with the command that measures it.

``docs/figures.json`` holds each key's value, unit and command, and where it was measured:
the commit, the core (the compiled Centrix core or the pure-Python engine), the machine's
load average before and after the command, the CPU model and the machine. ``measure``
runs the existing bench commands (each in a process of its own, as a user runs them), reads
their JSON and writes the file; the sources marked ``long`` (over the budget of about ten
minutes for all, or needing a PostgreSQL and a Redis) are only listed, with their commands,
and keep their last values.

The docs' figure tables are marked for ``claims``: an HTML comment right above the table,

    <!-- figures | COLUMN | COLUMN: .SUFFIX | ... -->

names the columns that hold figures, and the key suffix each column's figure has; the
table's first column holds the row's key in backticks. So in a table marked
``| compiled | pure: .pure``, the row ```centrix.generation``` claims ``centrix.generation``
and ``centrix.generation.pure``. A cell's figure is its first number, and it claims the
key's value rounded as written (``843,000`` to the thousand, ``12.2`` to a tenth:
``_place``). ``rewrite`` puts the registry's values in those cells with as many significant
figures as the text showed, so that ``make figures``
leaves the docs stating what it measured (tests/test_figures.py holds docs and registry
together).
"""

from __future__ import annotations

import itertools
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from gamenight.core.provenance import commit, cpu_model, machine

ROOT = Path(__file__).resolve().parents[3]
REGISTRY = ROOT / "docs" / "figures.json"
# The documents whose figure tables are claims against the registry.
DOCUMENTS = ("README.md", "docs/benchmarks.md", "docs/lab.md", "docs/ai.md", "docs/envs.md")

Result = dict[str, Any]


@dataclass(frozen=True)
class Figure:
    """One key: where its value is in the source's result (a path of keys, since the
    benches' own keys hold dots: ``ratios/random_play.4``), or the ratio of two keys of the
    same run (``ratio_of``: numerator, denominator)."""

    key: str
    unit: str
    path: str = ""
    ratio_of: tuple[str, str] | None = None
    pure: bool = False  # measured on the pure-Python engine (GAMENIGHT_PURE or ``native.pure``)


@dataclass(frozen=True)
class Source:
    """A command and the figures its result holds. ``argv`` follows ``gamenight``; ``run``,
    when given, measures in its own way (the lab's runs, which print no JSON)."""

    name: str
    argv: tuple[str, ...]
    figures: tuple[Figure, ...]
    long: bool = False
    env: tuple[tuple[str, str], ...] = ()
    run: Callable[[Source], Result] | None = None
    shell: str = ""  # a command other than ``gamenight …`` (then ``argv`` is empty)
    centrix: bool = True  # whether Centrix's engine runs in it, so whether its core counts

    @property
    def command(self) -> str:
        if self.shell:
            return self.shell
        prefix = " ".join(f"{k}={v}" for k, v in self.env)
        return " ".join(filter(None, (prefix, "gamenight", *self.argv)))


def _gamenight(argv: Iterable[str], env: Iterable[tuple[str, str]] = ()) -> str:
    """Run ``gamenight ARGV`` in a process of its own (this interpreter, these sources)."""
    environ = {**os.environ, **dict(env)}
    source = str(ROOT / "src")
    environ["PYTHONPATH"] = os.pathsep.join(filter(None, (source, environ.get("PYTHONPATH"))))
    done = subprocess.run(
        [sys.executable, "-m", "gamenight", *argv],
        env=environ,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise RuntimeError(f"gamenight {' '.join(argv)} failed:\n{done.stderr[-2000:]}")
    return done.stdout


# The services a long source's command names, as written in the registry; ``measure`` is
# told the ones to run it on (``gamenight bench figures --database-url … --redis-url …``).
DATABASE = "postgresql+psycopg://postgres@127.0.0.1:5432/DB"
REDIS = "redis://127.0.0.1:6379/0"
SERVICES: dict[str, str] = {}  # written value → the one to run with


def run_json(source: Source) -> Result:
    argv = [SERVICES.get(a, a) for a in source.argv]
    out: Result = json.loads(_gamenight(argv, source.env))
    return out


def _lab(source: Source) -> Result:
    """A lab run into a fresh folder: its wall time, its CPU time (the command's process,
    start-up included: what a loaded machine slows least) and its games."""
    with tempfile.TemporaryDirectory() as folder:
        argv = [a.replace("DIR", str(Path(folder) / "run")) for a in source.argv]
        cpu, start = _children_cpu(), time.perf_counter()
        _gamenight(argv, source.env)
        wall, cpu = time.perf_counter() - start, _children_cpu() - cpu
        lines = (Path(folder) / "run" / "results.jsonl").read_text().splitlines()
    actions = sum(json.loads(line)["actions"] for line in lines)
    return {"seconds": wall, "cpu_seconds": cpu, "games": len(lines), "actions": actions}


def _children_cpu() -> float:
    """User and system CPU seconds of this process's finished children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _centrix() -> Source:
    figures: list[Figure] = []
    # engines against their peers, same run: (key, ours, the peer, the bench's ratio)
    chess = ("python_chess_moves_per_s", "generation_vs_python_chess")
    backgammon = ("backgammon_plays_per_s", "random_play.4_vs_backgammon")
    stepped = ("backgammon_plays_per_s", "random_play.4_stepped_vs_backgammon")
    peers = (
        ("vs_chess", "generation/plays_per_s", *chess),
        ("vs_backgammon", "random_play/4/plays_per_s", *backgammon),
        ("stepped_vs_backgammon", "random_play/4/stepped_plays_per_s", *stepped),
    )
    for key, ours, peer, ratio in peers:
        unit = "leaves/s" if "chess" in key else "plays/s"
        figures += [
            Figure(f"centrix.{key}", unit, ours),
            Figure(f"centrix.{key}.peer", unit, f"peers/{peer}"),
            Figure(f"centrix.{key}.ratio", "×", f"ratios/{ratio}"),
        ]
    # the compiled core against the pure-Python engine, same run: (key, path, unit, and the
    # bench's own ratio, or none: then the ratio of the two figures)
    paths = (
        ("generation", "generation/plays_per_s", "leaves/s", "generation"),
        ("random_play.2", "random_play/2/plays_per_s", "plays/s", ""),
        ("random_play.4", "random_play/4/plays_per_s", "plays/s", "random_play.4"),
        ("random_play.6", "random_play/6/plays_per_s", "plays/s", ""),
        ("stepped.4", "random_play/4/stepped_plays_per_s", "plays/s", ""),
        ("greedy_game.4", "greedy_game/4/games_per_s", "games/s", "greedy_game.4"),
        ("ismcts", "ismcts/iterations_per_s", "iterations/s", "ismcts"),
        (
            "ismcts_per_decision",
            "ismcts/iterations_per_decision",
            "iterations",
            "ismcts_per_decision",
        ),
    )
    for key, path, unit, ratio in paths:
        k = f"centrix.{key}"
        figures += [Figure(k, unit, path), Figure(f"{k}.pure", unit, f"pure/{path}", pure=True)]
        if ratio:
            figures.append(Figure(f"{k}.ratio", "×", f"ratios/{ratio}"))
        else:
            figures.append(Figure(f"{k}.ratio", "×", ratio_of=(k, f"{k}.pure")))
    # the bots' costs: the speed-up is pure time ÷ compiled time
    costs = ("sample_us", "scores_us", "greedy_ms", "planner2_ms", "planner_ms")
    for name in costs:
        unit = "µs" if name.endswith("_us") else "ms"
        k = f"centrix.bots.{name}"
        figures += [
            Figure(k, unit, f"bots/{name}"),
            Figure(f"{k}.pure", unit, f"pure/bots/{name}", pure=True),
            Figure(f"{k}.ratio", "×", ratio_of=(f"{k}.pure", k)),
        ]
    return Source("centrix", ("centrix", "bench", "--json"), tuple(figures))


def _colorcity() -> Source:
    steps = ("most_steps", "mean_steps", "us_per_step", "us_per_mjdata", "us_per_flick")
    units = ("steps", "steps", "µs", "µs", "µs")
    return Source(
        "colorcity",
        ("colorcity", "bench", "--json", "--steps", "2000"),
        (
            Figure("colorcity.flicks", "flicks/s", "flicks_per_s"),
            Figure("colorcity.flicks.peer", "flicks/s", "pure.flicks_per_s"),
            Figure("colorcity.flicks.ratio", "×", "ratio"),
            Figure("colorcity.distance_error", "%", "distance_error_pct"),
            *(
                Figure(f"colorcity.steps.{s}", u, f"steps/{s}")
                for s, u in zip(steps, units, strict=True)
            ),
        ),
        centrix=False,
    )


def _envs() -> Source:
    figures: list[Figure] = []
    for game, interfaces in (
        ("centrix", ("openspiel", "pettingzoo", "gymnasium (opponent random)")),
        ("colorcity", ("openspiel", "pettingzoo", "gymnasium (opponent simple)")),
    ):
        native = f"{game}/native/plays_per_s"
        figures += [
            Figure(f"envs.{game}.native", "plays/s", native),
            Figure(f"envs.{game}.native.actions", "actions/s", f"{game}/native/actions_per_s"),
            Figure(f"envs.{game}.native.per_play", "actions", f"{game}/native/actions_per_play"),
        ]
        for interface in interfaces:
            k = f"envs.{game}.{interface.split()[0]}"
            figures += [
                Figure(k, "plays/s", f"{game}/{interface}/plays_per_s"),
                Figure(f"{k}.peer", "plays/s", native),
                Figure(f"{k}.ratio", "×", f"{game}/{interface}/overhead"),
                Figure(f"{k}.actions", "actions/s", f"{game}/{interface}/actions_per_s"),
                Figure(f"{k}.per_play", "actions", f"{game}/{interface}/actions_per_play"),
            ]
    return Source("envs", ("envs", "bench", "--seconds", "3"), tuple(figures))


def _vector() -> Source:
    """The batched Centrix env against ``make_vec`` with the same 64 games, same run."""
    k = "envs.centrix.vector"
    argv = ("envs", "vector-bench", "--num-envs", "64", "--seconds", "6", "--json")
    figures = (
        Figure(k, "steps/s", "batched_steps_per_s"),
        Figure(f"{k}.peer", "steps/s", "make_vec_steps_per_s"),
        Figure(f"{k}.ratio", "×", "ratio"),
    )
    return Source("envs.vector", argv, figures)


def _lab_run(
    name: str, file: str, games: str = "", pure: bool = False, long: bool = False
) -> Source:
    """A lab run: a whole experiment (``lab.FILE.seconds``), or its first ``games`` games of
    each variant (``lab.FILE.first_G``), on the compiled core or the pure-Python engine."""
    count = ("--games", games) if games else ()
    argv = ("lab", "run", f"examples/lab/{file}.toml", *count, "--workers", "1", "--out", "DIR")
    key = f"lab.{file}" + (f".first_{games}" if games else "")
    suffix = ".pure" if pure else ""
    return Source(
        name,
        argv,
        (
            Figure(f"{key}.seconds{suffix}", "s", "seconds", pure=pure),
            Figure(f"{key}.cpu_seconds{suffix}", "s", "cpu_seconds", pure=pure),
            Figure(f"{key}.games{suffix}", "games", "games", pure=pure),
            Figure(f"{key}.actions{suffix}", "actions", "actions", pure=pure),
        ),
        env=(("GAMENIGHT_PURE", "1"),) if pure else (),
        run=_lab,
        long=long,
        centrix=file.startswith("centrix"),
    )


def _server(name: str, key: str, extra: tuple[str, ...] = (), long: bool = False) -> Source:
    pairs = (
        ("moves_per_s", "moves/s", "echo_moves_per_s", "messages/s", "ratio_moves_to_echo"),
        ("p99_ms", "ms", "echo_p99_ms", "ms", "ratio_p99_to_echo"),
    )
    figures: list[Figure] = []
    for ours, unit, echo, echo_unit, ratio in pairs:
        k = f"server.{key}.{ours}"
        figures += [
            Figure(k, unit, ours),
            Figure(f"{k}.peer", echo_unit, echo),
            Figure(f"{k}.ratio", "×", ratio),
        ]
    figures += [
        Figure(f"server.{key}.cpu_ms_per_move", "ms", "cpu_ms_per_move"),
        Figure(f"server.{key}.errors", "errors", "errors"),
    ]
    if not extra:
        figures += [
            Figure("memory.pages_mb", "MB", "pages_rss_above_idle_mb"),
            Figure("memory.after_play_mb", "MB", "rss_above_idle_mb"),
        ]
    argv = ("bench", "server", "--tables", "500", "--seconds", "20", *extra, "--json")
    return Source(name, argv, tuple(figures), long=long)


def _workers(name: str, extra: tuple[str, ...]) -> Source:
    """``--workers 2`` against one process in the same run (issue 28): the closed loop's
    moves/s, a move's p99 on a page off its table's home against on it, the better of the
    two runs against its own echo; the open loop's tables held at a move p99 of 100 ms."""
    closed = ("bench", "server", "--tables", "500", "--seconds", "20", *extra, "--json")
    figures = (
        Figure("server.workers.moves_per_s", "moves/s", "moves_per_s"),
        Figure("server.workers.moves_per_s.peer", "moves/s", "one_worker/moves_per_s"),
        Figure("server.workers.moves_per_s.ratio", "×", "ratio_moves_per_s_to_one_worker"),
        Figure("server.workers.cross_process_p99_ms", "ms", "cross_process_p99_ms"),
        Figure("server.workers.cross_process_p99_ms.peer", "ms", "same_process_p99_ms"),
        Figure("server.workers.cross_process_p99_ms.ratio", "×", "ratio_cross_to_same_p99"),
        Figure("server.workers.best_ratio_moves_to_echo", "×", "best_ratio_moves_to_echo"),
        Figure("server.workers.errors", "errors", "errors"),
        Figure("server.workers.one_worker_errors", "errors", "one_worker/errors"),
    )
    return Source(name, closed, figures, long=True)


def _pace(name: str, extra: tuple[str, ...]) -> Source:
    argv = ("bench", "server", "--pace", "5", "--tables", "100", "--seconds", "10", *extra)
    key = "server.pace.tables_held"
    figures = (
        Figure(key, "tables", "tables_held_at_p99_100ms"),
        Figure(f"{key}.peer", "tables", "one_worker/tables_held_at_p99_100ms"),
        Figure(f"{key}.ratio", "×", "ratio_tables_held_at_p99_100ms_to_one_worker"),
    )
    return Source(name, (*argv, "--json"), figures, long=True)


def _memory(name: str, module: str, keys: tuple[str, ...]) -> Source:
    """The memory scripts beside the web tests: they print tables, not JSON (long here)."""
    figures = tuple(Figure(f"memory.{k}", k.rsplit("_", 1)[1].upper()) for k in keys)
    return Source(name, (), figures, long=True, shell=f"python -m {module}")


@dataclass(frozen=True)
class Derived:
    """A figure worked out from others of the same ``measure`` run (``inputs``, in the
    order ``of`` takes them)."""

    key: str
    unit: str
    core: str
    inputs: tuple[str, ...]
    of: Callable[..., float]
    what: str


def _lab_derived() -> tuple[Derived, ...]:
    """The lab's CPU a game on each path, from its first 10 and first 20 games of each
    variant (30 and 60 games): the difference of the two runs' CPU over the actions played
    between them cancels the start-up (and games of different lengths weigh as long as
    they are); a game is the 60 games' mean number of actions. The start-up is then what
    the shorter run spent beyond its actions."""
    base = "lab.centrix-bottom"

    def per_game(c20: float, a20: float, g20: float, c10: float, a10: float) -> float:
        return 1000 * (c20 - c10) / (a20 - a10) * a20 / g20

    def startup(c20: float, a20: float, g20: float, c10: float, a10: float) -> float:
        return c10 - a10 * (c20 - c10) / (a20 - a10)

    out: list[Derived] = []
    for suffix, core in (("", "compiled"), (".pure", "pure")):
        inputs = tuple(
            f"{base}.first_{n}.{k}{suffix}"
            for n, k in (
                (20, "cpu_seconds"),
                (20, "actions"),
                (20, "games"),
                (10, "cpu_seconds"),
                (10, "actions"),
            )
        )
        out.append(
            Derived(
                f"{base}.ms_per_game{suffix}",
                "ms",
                core,
                inputs,
                per_game,
                "CPU an action between the first 30 and 60 games × the 60 games' mean actions",
            )
        )
        out.append(
            Derived(
                f"{base}.startup_seconds{suffix}",
                "s",
                core,
                inputs,
                startup,
                "the first 30 games' run less its actions at the CPU an action",
            )
        )
    for key in ("ms_per_game", "first_20.cpu_seconds"):
        out.append(
            Derived(
                f"{base}.{key}.ratio",
                "×",
                "pure ÷ compiled",
                (f"{base}.{key}.pure", f"{base}.{key}"),
                lambda pure, compiled: pure / compiled,
                "the pure-Python engine's over the compiled core's",
            )
        )
    return tuple(out)


DERIVED = _lab_derived()


def sources() -> tuple[Source, ...]:
    """Every source, in the order ``measure`` runs them (the long ones are not run)."""
    database = DATABASE
    redis = ("--redis-url", REDIS)
    two = ("--servers", "2", "--database-url", database, *redis)
    workers = ("--workers", "2", "--database-url", database, *redis)
    return (
        _centrix(),
        _colorcity(),
        _envs(),
        _vector(),
        _lab_run("lab.centrix-bottom", "centrix-bottom"),
        _lab_run("lab.centrix-bottom.first", "centrix-bottom", games="10"),
        _lab_run("lab.centrix-bottom.first", "centrix-bottom", games="20"),
        _lab_run("lab.centrix-bottom.first.pure", "centrix-bottom", games="10", pure=True),
        _lab_run("lab.centrix-bottom.first.pure", "centrix-bottom", games="20", pure=True),
        _lab_run("lab.centrix-seats", "centrix-seats"),
        _server("server.sqlite", "sqlite"),
        _server("server.postgresql", "postgresql", ("--database-url", database), long=True),
        _server("server.two_servers", "two_servers", two, long=True),
        _workers("server.workers", workers),
        _pace("server.pace", workers),
        _lab_run("lab.colorcity-powers", "colorcity-powers", long=True),
        _lab_run("lab.colorcity-green-purple", "colorcity-green-purple", long=True),
        _lab_run("lab.colorcity-levels", "colorcity-levels", long=True),
        _memory("memory.page", "tests.web.page_memory", ("page_kb", "pages_alone_mb")),
        _memory("memory.table", "tests.web.table_memory", ("centrix_state_kb", "centrix_table_kb")),
    )


# ------------------------------------------------------------------- where it was measured


def compiled_core() -> bool:
    from gamenight.centrix import native

    return bool(native.COMPILED) and not os.environ.get("GAMENIGHT_PURE")


def _load() -> float:
    return round(os.getloadavg()[0], 2)


# ------------------------------------------------------------------------------ measuring


def _at(result: Result, path: str) -> float | None:
    """The figure at ``path``; None where the bench had nothing to measure (a peer whose
    package is not installed gives None, and so does its ratio)."""
    value: Any = result
    for part in path.split("/"):
        value = value[part]
    return None if value is None else float(value)


def figures_of(
    source: Source, result: Result, where: dict[str, Any], say: Callable[[str], None] = print
) -> dict[str, Result]:
    """The registry's entries for one run of ``source``; a figure the run could not measure
    is said and left out (the registry keeps its last value, with that value's commit)."""
    out: dict[str, Result] = {}
    for figure in source.figures:
        value: float | None
        if figure.ratio_of:
            top, bottom = (out[k]["value"] if k in out else None for k in figure.ratio_of)
            value = top / bottom if top is not None and bottom else None
        else:
            value = _at(result, figure.path)
        if value is None:
            say(f"{figure.key}: not measured by `{source.command}` (its peer not installed?)")
            continue
        if not source.centrix:
            core = "not used"
        else:
            core = "pure" if figure.pure or not where["compiled"] else "compiled"
        out[figure.key] = {
            "value": value,
            "unit": figure.unit,
            "command": source.command,
            "commit": where["commit"],
            "core": core,
            "load": where["load"],
            "cpu": where["cpu"],
            "machine": where["machine"],
            "measured": where["measured"],
        }
    return out


def measure(only: Iterable[str] = (), say: Callable[[str], None] = print) -> dict[str, Result]:
    """Run every source that is not long (or those named in ``only``) and return their
    figures; each is said as it comes, with where it was measured."""
    wanted = set(only)
    base = {"commit": commit(), "cpu": cpu_model(), "machine": machine()}
    out: dict[str, Result] = {}
    for source in sources():
        if (wanted and source.name not in wanted) or (not wanted and source.long):
            continue
        if source.shell:
            raise SystemExit(f"{source.name} is measured by `{source.shell}`, not here")
        before = _load()
        started = datetime.now(UTC).strftime("%Y-%m-%dT%H:%MZ")
        result = (source.run or run_json)(source)
        where = {**base, "compiled": compiled_core(), "load": [before, _load()]}
        where["measured"] = started
        found = figures_of(source, result, where, say)
        for key, entry in found.items():
            say(describe(key, entry))
        out.update(found)
    for derived in DERIVED:
        if all(k in out for k in derived.inputs):
            first = out[derived.inputs[0]]
            entry = {**first, "value": derived.of(*(out[k]["value"] for k in derived.inputs))}
            commands = dict.fromkeys(out[k]["command"] for k in derived.inputs)
            entry.update(unit=derived.unit, core=derived.core, how=derived.what)
            entry["command"] = "; ".join(commands)
            loads = [out[k]["load"] for k in derived.inputs]
            entry["load"] = [min(a for a, _ in loads), max(b for _, b in loads)]
            out[derived.key] = entry
            say(describe(derived.key, entry))
    return out


def describe(key: str, entry: Result) -> str:
    load = entry.get("load")
    loads = "–".join(f"{x:g}" for x in load) if isinstance(load, list) else str(load)
    value = entry["value"]
    shown = f"{value:,.1f}" if abs(value) >= 100 else f"{value:.4g}"
    return (
        f"{key} = {shown} {entry['unit']}  [{entry['command']}; commit"
        f" {entry['commit']}, {entry['core']} core, load {loads}, {entry['cpu']}]"
    )


def load_registry(path: Path = REGISTRY) -> dict[str, Result]:
    if not path.exists():
        return {}
    data: dict[str, Result] = json.loads(path.read_text())["figures"]
    return data


def save_registry(figures: dict[str, Result], path: Path = REGISTRY) -> None:
    ordered = dict(sorted(figures.items()))
    text = json.dumps({"figures": ordered}, indent=1, ensure_ascii=False)
    path.write_text(text + "\n")


def known_keys() -> set[str]:
    """Every key a source or a ratio of two defines: the registry holds these and no other."""
    return {f.key for s in sources() for f in s.figures} | {d.key for d in DERIVED}


def merged(old: dict[str, Result], new: dict[str, Result]) -> dict[str, Result]:
    """The registry after a run: the new figures over the old, less any key no source
    defines any more (a figure dropped from the sources leaves the file with it)."""
    keys = known_keys()
    return {k: v for k, v in {**old, **new}.items() if k in keys}


def long_sources() -> list[Source]:
    return [s for s in sources() if s.long]


# ------------------------------------------------------------------ the docs' claims


@dataclass(frozen=True)
class Claim:
    """A figure a document states: the key, the text of its number, where it is."""

    document: str
    line: int  # 1-based
    key: str
    text: str
    span: tuple[int, int] = field(compare=False)  # the number's place in the line


MARKER = re.compile(r"^<!--\s*figures\s*\|(?P<columns>.*?)-->\s*$")
KEY = re.compile(r"^`(?P<key>[A-Za-z0-9_.\-]+)`$")
NUMBER = re.compile(r"(?<![\w.])[−-]?\d[\d,]*(?:\.\d+)?")


def _cells(line: str) -> list[tuple[str, int]]:
    """A table row's cells with the offset where each begins (a figure table's cells hold
    no ``|`` of their own)."""
    pipes = [i for i, c in enumerate(line) if c == "|"]
    return [(line[a + 1 : b], a + 1) for a, b in itertools.pairwise(pipes)]


def claims(document: str, text: str) -> Iterator[Claim]:
    """Every claim of the marked figure tables of one document. A marked table's row
    without a key, or a figure cell without a number (other than ``—``), is an error:
    a table that says it holds figures holds nothing else."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        marker = MARKER.match(lines[i].strip())
        i += 1
        if not marker:
            continue
        wanted: dict[str, str] = {}
        for item in marker["columns"].split("|"):
            if item.strip():
                name, _, suffix = item.partition(":")
                wanted[name.strip()] = suffix.strip()
        header = [c.strip() for c, _ in _cells(lines[i])]
        missing = set(wanted) - set(header)
        if missing:
            raise ValueError(f"{document}:{i + 1}: the marker names no such column {missing}")
        i += 2  # the header and the |---| line
        while i < len(lines) and lines[i].lstrip().startswith("|"):
            cells = _cells(lines[i])
            key = KEY.match(cells[0][0].strip())
            if not key:
                raise ValueError(f"{document}:{i + 1}: a figure row without a `key` first")
            for (cell, offset), name in zip(cells, header, strict=True):
                if name not in wanted or cell.strip() in ("—", ""):
                    continue
                number = NUMBER.search(cell)
                if not number:
                    raise ValueError(f"{document}:{i + 1}: no figure in column {name!r}")
                span = (offset + number.start(), offset + number.end())
                yield Claim(document, i + 1, key["key"] + wanted[name], number[0], span)
            i += 1


def _decimal(text: str) -> Decimal:
    return Decimal(text.replace(",", "").replace("−", "-"))


def _place(text: str) -> int:
    """The power of ten a number's text is rounded to: its last decimal (``12.25`` → −2),
    and for a whole number at least three significant figures (``843,000`` → 3, ``1,300``
    → 1, ``20`` → 0), so that rewriting a figure never loses a digit the text showed."""
    digits = text.replace(",", "").lstrip("−-")
    if "." in digits:
        return -len(digits.split(".")[1])
    significant = len(digits.rstrip("0")) or 1
    return max(0, len(digits) - max(3, significant))


def rounded(value: float, place: int) -> Decimal:
    quantum = Decimal(1).scaleb(place)
    return (Decimal(repr(value)) / quantum).quantize(Decimal(1), ROUND_HALF_UP) * quantum


def holds(claim: Claim, value: float) -> bool:
    """Whether the claim's text is ``value`` rounded as the text is."""
    return rounded(value, _place(claim.text)) == _decimal(claim.text)


def _significant(text: str) -> int:
    """How many significant figures a number's text shows (``0.038`` → 2, ``843,000`` → 3)."""
    digits = text.replace(",", "").lstrip("−-")
    shown = (
        digits.replace(".", "").lstrip("0")
        if "." in digits
        else digits[: len(digits) - _place(text)]
    )
    return max(1, len(shown))


def render(value: float, like: str) -> str:
    """``value`` written with as many significant figures as ``like`` shows (a whole number
    at least three), with thousands separators: so its text claims it as ``_place`` reads
    it, whatever its size against the old figure's."""
    if value == 0:
        return "0" if "." not in like else f"{0:.{-_place(like)}f}"
    magnitude = Decimal(repr(abs(value))).adjusted()
    place = magnitude + 1 - _significant(like)
    if place >= 0:
        place = max(0, magnitude + 1 - max(3, _significant(like)))
    number = rounded(value, place)
    body = f"{number:,.{-place}f}" if place < 0 else f"{int(number):,}"
    return ("−" + body[1:]) if like.startswith("−") and body.startswith("-") else body


def rewrite(text: str, document: str, figures: dict[str, Result]) -> str:
    """The document with every claim's number replaced by the registry's value."""
    lines = text.splitlines(keepends=True)
    for claim in sorted(claims(document, text), key=lambda c: (c.line, -c.span[0])):
        if claim.key not in figures:
            continue
        row = lines[claim.line - 1]
        new = render(figures[claim.key]["value"], claim.text)
        lines[claim.line - 1] = row[: claim.span[0]] + new + row[claim.span[1] :]
    return "".join(lines)
