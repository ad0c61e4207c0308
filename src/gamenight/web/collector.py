"""Python's cycle collector as a long-running server needs it.

With the collector's defaults a collection of the youngest objects ran every 700
allocations, and a busy server allocates thousands a move (views, messages, the write's
values) that its reference counts free anyway. Each collection is a pass over every young
object still alive, and now and then over every object of the process: a full pass stopped
the loop for about 0.2 s at 500 live tables, and settling the collector took 18–27 % off
the loop's CPU a move (docs/benchmarks.md). A table the server drops and a page that closes
leave no cycle behind (tests/web/test_memory.py), so the collector may run far less often;
and what the process loaded before serving (some 150,000 objects: the app, the libraries,
the engines) lives as long as the process, so no full pass need go over it again.
"""

from __future__ import annotations

import gc

# Allocations (less deallocations) between two collections of the youngest objects; and, as
# Python counts them, collections of one generation between two of the next.
YOUNG = 20_000
OLDER = 20


def settle() -> None:
    """Tune the collector for serving, once the app is loaded: collect less often, and
    leave what is loaded now out of every collection from now on."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, OLDER, OLDER)
