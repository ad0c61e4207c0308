"""How far can looking one round ahead take a bot in four-player Centrix — and what does it
need to see?

Issue 4 asks for first place in half the four-player games against three Greedy bots; the
best honest bots take about 40 %. Every candidate here plans its own whole turn exactly
(the 12 best turns of the turn planner's beam search, ``turn_plans``), then, on each of some
deals, plays the three Greedy replies to every one of those turns and judges the position
where its next turn starts (``centrix_eval.value``); it plays the turn with the best total.
The candidates differ only in the deals they look at:

- ``planner``: no lookahead, the turn planner's best turn (for reference);
- ``sampled``: ``--deals`` deals drawn from its seat's view, the hidden cards at random — an
  honest bot (it models the others exactly as the Greedy bots they are);
- ``sees-hands``: the other seats' true hands, its own next draw shuffled — it cheats;
- ``sees-all``: the true state, the other hands and its own next draw — it cheats.

A cheating candidate is not a bot (a bot only ever gets its seat's view): this script plays
the games itself and hands the candidates the full state. The candidate's seat goes round
the table; a game stops when someone finishes first. Prints, for each candidate, its first
places with a 95 % Wilson interval (docs/ai.md records a run).

    .venv/bin/python examples/centrix_four_player_ceiling.py --games 200 --workers 2
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

from gamenight.bots.centrix import GreedyBot, greedy_play, turn_plans
from gamenight.bots.centrix_eval import value
from gamenight.centrix import CentrixState
from gamenight.centrix.plays import Play
from gamenight.tournament.stats import wilson

PLAYERS = 4
PLANS = 12

Deals = Callable[[CentrixState, int, random.Random, int], list[CentrixState]]


def sampled(state: CentrixState, seat: int, rng: random.Random, deals: int) -> list[CentrixState]:
    view = state.view(seat)
    return [view.sample(rng) for _ in range(deals)]


def sees_hands(
    state: CentrixState, seat: int, rng: random.Random, deals: int
) -> list[CentrixState]:
    out = []
    for _ in range(deals):
        deal = state.copy()
        rng.shuffle(deal.draw)
        out.append(deal)
    return out


def sees_all(state: CentrixState, seat: int, rng: random.Random, deals: int) -> list[CentrixState]:
    return [state.copy()]  # only Greedy's tie-breaks are left to chance


CANDIDATES: dict[str, Deals | None] = {
    "planner": None,
    "sampled": sampled,
    "sees-hands": sees_hands,
    "sees-all": sees_all,
}


def best_turn(
    state: CentrixState, seat: int, deals: Deals | None, rng: random.Random, count: int
) -> list[Play]:
    """The candidate's whole turn: of the planner's best turns, the one whose position at the
    start of its next turn, after the others' Greedy replies, is best over the deals."""
    # Planned on a deal of its own view: nothing hidden matters within one's own turn, but the
    # evaluation counts the next seat's playable cards, which the candidate may not see.
    own_view = state.view(seat).sample(rng)
    plans = [plan for _, plan in turn_plans(own_view, seat, rng)[:PLANS]]
    if deals is None or len(plans) == 1:
        return plans[0]
    totals = [0.0] * len(plans)
    for deal in deals(state, seat, rng, count):
        replies = rng.getrandbits(32)  # the same Greedy tie-breaks after every turn
        for i, plan in enumerate(plans):
            probe = deal.copy()
            for play in plan:
                probe.push(play)
            reply_rng = random.Random(replies)
            while not probe.is_over and probe.to_move != seat:
                probe.push(greedy_play(probe, probe.to_move, reply_rng))
            if probe.places[seat] == 1:
                totals[i] += 100.0
            elif any(place == 1 for place in probe.places):
                totals[i] -= 100.0
            else:
                totals[i] += value(probe, seat)
    return plans[max(range(len(plans)), key=totals.__getitem__)]


def first_place(candidate: str, game: int, seed: int, deals: int) -> bool:
    """One game against three Greedy bots: did the candidate finish first?"""
    rng = random.Random(seed * 1_000_003 + game)
    state = CentrixState.new(PLAYERS, seed=rng.getrandbits(48))
    me = game % PLAYERS
    greedy = [GreedyBot(rng.getrandbits(32)) for _ in range(PLAYERS)]
    while not any(place == 1 for place in state.places):
        seat = state.to_move
        assert seat is not None
        if seat == me:
            for play in best_turn(state, me, CANDIDATES[candidate], rng, deals):
                state.push(play)
        else:
            state.push(greedy[seat].choose(state.view(seat)))
    return state.places[me] == 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument(
        "--deals", type=int, default=4, help="deals per decision (sampled, sees-hands)"
    )
    parser.add_argument("--candidates", default=",".join(CANDIDATES))
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    names = [name.strip() for name in args.candidates.split(",")]
    for name in names:
        if name not in CANDIDATES:
            parser.error(f"no candidate {name!r}: choose from {', '.join(CANDIDATES)}")
    with ProcessPoolExecutor(args.workers) as pool:
        for name in names:
            jobs = [(name, g, args.seed, args.deals) for g in range(args.games)]
            wins = sum(pool.map(first_place, *zip(*jobs, strict=True)))
            low, high = wilson(wins, args.games)
            print(
                f"{name:10s} first in {wins} of {args.games} games against three Greedy: "
                f"{100 * wins / args.games:.1f} % ({100 * low:.1f} %–{100 * high:.1f} %)",
                flush=True,
            )


if __name__ == "__main__":
    main()
