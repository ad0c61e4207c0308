"""``gamenight envs …``: the research adapters' long runs (needs the ``rl`` extra).

- ``gamenight envs compare --games 100 --seconds 0.25 --workers 2 --out FILE``: gamenight's
  ISMCTS against OpenSpiel's Python ISMCTSBot on Centrix (see gamenight.envs.compare);
- ``gamenight envs bench``: steps per second through each adapter against the native engine;
- ``gamenight envs vector-bench --num-envs 64``: the batched Centrix env's steps/s against
  ``gymnasium.make_vec`` with the same games, in the same run.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from gamenight.cli.counts import count, seconds
from gamenight.cli.files import check_writable


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "envs", help="research adapters (OpenSpiel, PettingZoo, Gymnasium): comparisons, speed"
    )
    sub = parser.add_subparsers(dest="envs_command", metavar="COMMAND", required=True)
    compare = sub.add_parser(
        "compare", help="gamenight ISMCTS vs OpenSpiel's ISMCTSBot on Centrix, equal time"
    )
    compare.add_argument("--games", type=count, default=100, help="games (default %(default)s)")
    compare.add_argument(
        "--seconds", type=seconds, default=0.25, help="per decision (default %(default)s)"
    )
    compare.add_argument(
        "--workers", type=count, default=1, help="local processes (default %(default)s)"
    )
    compare.add_argument(
        "--seed", type=int, default=2026, help="seed of the run (default %(default)s)"
    )
    compare.add_argument(
        "--max-turns", type=count, default=200, help="the rules' turn cap (default %(default)s)"
    )
    compare.add_argument("--out", help="JSON file of every game and the summary")
    compare.set_defaults(run=_compare)
    bench = sub.add_parser("bench", help="steps per second: native engine and each adapter")
    bench.add_argument(
        "--seconds", type=seconds, default=3.0, help="per measurement (default %(default)s)"
    )
    bench.set_defaults(run=_bench)
    vector = sub.add_parser(
        "vector-bench",
        help="steps/s of the batched Centrix env against make_vec, same games, same run",
    )
    vector.add_argument(
        "--num-envs", type=count, default=64, help="games stepped at once (default %(default)s)"
    )
    vector.add_argument(
        "--seconds", type=seconds, default=6.0, help="per env kind (default %(default)s)"
    )
    vector.add_argument(
        "--opponents", default="random", help="the opponents' bot spec (default %(default)s)"
    )
    vector.add_argument("--json", action="store_true", help="print one JSON object")
    vector.set_defaults(run=_vector_bench)


def _compare(ns: argparse.Namespace) -> int:
    from gamenight.envs.compare import run

    if ns.out:
        check_writable(Path(ns.out))
    summary = run(ns.games, ns.seconds, ns.workers, ns.seed, ns.out, ns.max_turns)
    print(json.dumps(summary, indent=1))
    return 0


def _vector_bench(ns: argparse.Namespace) -> int:
    from gamenight.envs.bench import vector_rates
    from gamenight.lab.bench import provenance

    r = {**vector_rates(ns.num_envs, ns.seconds, ns.opponents), **provenance()}
    if ns.json:
        print(json.dumps(r))
        return 0
    print(
        f"{r['num_envs']} Centrix games against {r['opponents']} opponents, uniformly random"
        f" masked actions, CPU time: batched {r['batched_steps_per_s']:,} steps/s, make_vec"
        f" {r['make_vec_steps_per_s']:,} steps/s; ratio {r['ratio']}"
    )
    print(
        f"commit {r['commit']}, {r['core']} core, {r['cpu']} ({r['cores']} cores), load {r['load']}"
    )
    return 0


def _bench(ns: argparse.Namespace) -> int:
    from gamenight.envs.bench import run

    print(json.dumps(run(ns.seconds), indent=1))
    return 0
