"""Old vs new Centrix speed, interleaved in one run (separate runs mean nothing on a shared
machine): each round runs one measurement of each checkout, alternating which goes first;
figures are process time, best of 3 within a measurement, median over the rounds.

    python docs/results/interleaved_speed.py OLD_SRC NEW_SRC [ROUNDS]

with OLD_SRC/NEW_SRC the ``src`` folders of two checkouts (``git worktree add``).
"""

import json
import statistics
import subprocess
import sys

MEASURE = r'''
"""One measurement of the Centrix engine and Greedy, on process time (the machine is shared)."""
import json, random, time
from gamenight.bench.centrix import midgame_positions, sample_positions
from gamenight.bots.centrix import GreedyBot
from gamenight.centrix.perft import perft_stats
from gamenight.centrix.state import CentrixState

def best(work, repeat=3):
    times = []
    for _ in range(repeat):
        t = time.process_time(); out = work(); times.append(time.process_time() - t)
    return min(times), out

states = sample_positions(30)
sec, generated = best(lambda: sum(perft_stats(s, 2)[1] for s in states))
gen = generated / sec

def games():
    rng = random.Random(7); plays = 0
    for _ in range(6):
        state = CentrixState.new(4, seed=rng.getrandbits(32))
        push = getattr(state, "push_unchecked", None) or state._push
        while not state.is_over:
            push(rng.choice(state.legal_plays())); plays += 1
    return plays
sec, plays = best(games)
rp = plays / sec

mid = midgame_positions(12)
views = [s.view(s.to_move) for s in mid]
def greedy():
    bot = GreedyBot(1)
    for v in views: bot.choose(v)
sec, _ = best(greedy)
greedy_ms = sec / len(views) * 1e3
print(json.dumps({"generation_plays_per_s": gen, "random_plays_per_s": rp, "greedy_ms": greedy_ms}))
'''


def main() -> None:
    old, new = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 7
    results: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
    for r in range(rounds):
        order = [("old", old), ("new", new)] if r % 2 == 0 else [("new", new), ("old", old)]
        for name, src in order:
            out = subprocess.run(
                [sys.executable, "-c", MEASURE],
                env={"PYTHONPATH": src, "PATH": "/usr/bin:/bin"},
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            results[name].append(json.loads(out))
    for key in results["old"][0]:
        o = statistics.median(x[key] for x in results["old"])
        n = statistics.median(x[key] for x in results["new"])
        speed = o / n if key.endswith("_ms") else n / o  # above 1: the new one is faster
        print(f"{key}: old {o:.4g}  new {n:.4g}  speed new/old {speed:.3f}")


if __name__ == "__main__":
    main()
