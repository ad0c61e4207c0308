"""``python -m tests.chaos``: a chaos run from the command line; exits 1 when any table lost,
doubled or misplaced a move, does not replay, or is stuck."""

from __future__ import annotations

import argparse
import sys

from .harness import Config, run


def main(argv: list[str] | None = None) -> int:
    default = Config()
    parser = argparse.ArgumentParser(prog="python -m tests.chaos", description=__doc__)
    parser.add_argument("--kills", type=int, default=100, help="server SIGKILLs (%(default)s)")
    parser.add_argument("--tables", type=int, default=24, help="tables in play (%(default)s)")
    parser.add_argument(
        "--max-tables", type=int, default=2000, help="tables created in all (%(default)s)"
    )
    parser.add_argument("--bot-worker-kills", type=int, default=4, help="per cluster")
    parser.add_argument("--redis-outages", type=int, default=4)
    parser.add_argument("--outage", type=float, default=default.outage_s, help="seconds")
    parser.add_argument("--grace", type=float, default=15.0, help="seconds")
    parser.add_argument("--no-sqlite", action="store_true", help="PostgreSQL servers only")
    parser.add_argument("--seed", type=int)
    parser.add_argument(
        "--server-env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an environment variable for every server (a limit, say); repeatable",
    )
    parser.add_argument("--keep", action="store_true", help="keep the run's logs")
    parser.add_argument("-v", "--verbose", action="store_true", help="say each kill")
    ns = parser.parse_args(argv)
    env = {}
    for item in ns.server_env:
        name, sep, value = item.partition("=")
        if not sep or not name:
            parser.error(f"--server-env takes NAME=VALUE, not {item!r}")
        env[name] = value
    config = Config(
        kills=ns.kills,
        tables=ns.tables,
        max_tables=ns.max_tables,
        bot_worker_kills=ns.bot_worker_kills,
        redis_outages=ns.redis_outages,
        outage_s=ns.outage,
        grace_s=ns.grace,
        sqlite=not ns.no_sqlite,
        seed=ns.seed,
        server_env=env,
        keep=ns.keep,
        verbose=ns.verbose,
    )
    report = run(config)
    print(report.summary(), flush=True)
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
