"""Outside policies for the tournament tests: plain callables of a view, as a researcher's
module would hold them."""

from __future__ import annotations

import random
from typing import Any


def legal_plays(view: Any) -> Any:
    # The mover's legal plays follow from its own hand and the board, which any state
    # consistent with its view shares.
    return view.sample(random.Random(0)).legal_plays()


def first_play(view: Any) -> Any:
    """Centrix: the first legal play."""
    return legal_plays(view)[0]


class Greedy:
    """An object with choose(view), like gamenight's bots."""

    @staticmethod
    def choose(view: Any) -> Any:
        return legal_plays(view)[-1]


NOT_A_POLICY = 3
