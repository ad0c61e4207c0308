"""The cycle collector as the server runs it (web.collector), in a process of its own: it
collects the young objects far less often, and no collection goes over what was loaded."""

from __future__ import annotations

import json
import subprocess
import sys

PROBE = """
import gc, json, sys
import gamenight.web.app  # what a server loads before serving
from gamenight.web import collector

def collections_while(allocating):
    runs = []
    gc.callbacks.append(lambda phase, info: phase == "start" and runs.append(info))
    kept = [[] for _ in range(allocating)]  # tracked objects, alive: the count only grows
    gc.callbacks.clear()
    return len(runs)

loaded = len(gc.get_objects())
if sys.argv[1] == "settled":
    collector.settle()
print(json.dumps({
    "collections": collections_while(5_000),
    "loaded": loaded,
    "listed": len(gc.get_objects()),
}))
"""


def probe(how: str) -> dict[str, int]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, how], capture_output=True, text=True, check=True
    )
    return dict(json.loads(done.stdout))


def test_a_settled_collector_runs_seldom_and_leaves_what_was_loaded_alone() -> None:
    default, settled = probe("default"), probe("settled")
    # Python's default: a collection every 700 allocations.
    assert default["collections"] >= 5
    assert settled["collections"] == 0
    # What was loaded is frozen: no collection (nor gc.get_objects) goes over it again.
    assert default["listed"] > default["loaded"] // 2
    assert settled["listed"] < settled["loaded"] // 10
