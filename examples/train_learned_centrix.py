"""Train the learned Centrix bot (gamenight.bots.learned) by expert iteration.

Iteration 0 imitates a teacher bot (``--teacher``, default ``planner``, level 5): for each
of its decisions the network sees the afterstates of the legal plays (the teacher's choice
and up to ``--candidates`` − 1 others: the best by the one-ply evaluation, then random
ones) and learns to rank the teacher's first (a softmax over them); the value head learns
who won from every afterstate, from every seat's side. Each later iteration is
self-play by the search with the current network (``learned:search`` with
``--search-iterations`` iterations a play, both seats): the search's choices become the
policy's targets and the games' outcomes the value's. Training data of the last
``--window`` iterations is kept.

Seeded (games from ``--seed`` and the iteration, torch on one thread): the same arguments
give the same weights. Resumable: after every iteration the run folder holds a checkpoint
(``checkpoint.pt``), the iteration's data and weights (``weights-NNN.npz``, numpy only); a
second run with the same folder carries on from the last finished iteration, up to
``--iterations``. Logs one line per iteration to stdout and to ``curve.csv`` and
``curve.jsonl`` in the run folder (the win rate of the network alone against
``--eval-opponent`` over ``--eval-games`` games, seats swapped, the losses and the
agreement with the teacher on held-out decisions, wall and CPU seconds in all).

    .venv/bin/python examples/train_learned_centrix.py --run runs/learned --iterations 3
    cp runs/learned/weights-002.npz src/gamenight/bots/learned.npz

Needs the ``train`` extra (torch 2.13.0 CPU). Two players (the features read any count).
"""

# ruff: noqa: E402 — the imports follow the threads' setting
from __future__ import annotations

import os

# One thread for numpy's BLAS and torch, set before they load: on a shared machine a BLAS
# threaded over both cores waits for the other's load far longer than it computes.
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import argparse
import csv
import json
import random
import resource
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from gamenight.bots.learned import FEATURES, VERSION, afterstates, features
from gamenight.bots.registry import game_bots
from gamenight.centrix import native
from gamenight.centrix.state import CentrixState
from gamenight.tournament.runner import play_game
from gamenight.tournament.stats import wilson


@dataclass
class Args:
    run: str = "runs/learned"
    iterations: int = 3  # in all, counting those a resumed run has already made
    seed: int = 1
    players: int = 2
    teacher: str = "planner"
    teacher_games: int = 600
    explore: float = 0.1  # the share of plays made at random in the data's games
    selfplay_games: int = 100
    search_iterations: int = 60
    candidates: int = 16
    window: int = 3
    epochs: int = 6
    batch: int = 256
    lr: float = 1e-3
    hidden: int = 256
    eval_opponent: str = "greedy"
    eval_games: int = 60
    holdout: float = 0.1


def parse() -> Args:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    for name, default in vars(Args()).items():
        parser.add_argument(f"--{name.replace('_', '-')}", type=type(default), default=default)
    return Args(**vars(parser.parse_args()))


# ------------------------------------------------------------------------------ the data


def candidates(
    state: CentrixState, seat: int, chosen: int, k: int, rng: random.Random
) -> list[int]:
    """Indices into ``state.legal_plays()``: the chosen one first, then the best others by
    the one-ply evaluation (half the room), then random others."""
    n = len(state.legal_plays())
    others = [i for i in range(n) if i != chosen]
    if n <= k:
        return [chosen, *others]
    values = native.play_values(state, 9.0, 0.5, 0.8)
    if values is not None:
        others.sort(key=lambda i: -(values[i] if values[i] == values[i] else -1e9))
    best = others[: k // 2]
    rest = others[k // 2 :]
    return [chosen, *best, *rng.sample(rest, k - 1 - len(best))]


def game_data(
    lineup: list[Any], seed: int, args: Args
) -> tuple[list[np.ndarray], list[np.ndarray], list[float]]:
    """One game of ``lineup`` (bots): each decision's candidates' features (the target
    first), and every afterstate's features from every seat's side with that seat's result."""
    rng = random.Random(seed)
    state = CentrixState.new(args.players, seed=seed, first=seed % args.players)
    decisions: list[np.ndarray] = []
    after: list[tuple[int, np.ndarray]] = []
    n = args.players
    rows = np.zeros((n, FEATURES), np.float32)
    while (seat := state.actor) is not None:
        plays = state.legal_plays()
        target = lineup[seat].choose(state.view(seat))
        chosen = plays.index(target)
        if len(plays) > 1:
            picked = candidates(state, seat, chosen, args.candidates, rng)
            decisions.append(
                afterstates(state, seat, [plays[i] for i in picked]).astype(np.float16)
            )
        play = rng.choice(plays) if rng.random() < args.explore else target
        state.push(play)
        for s in range(n):
            features(state, s, rows[s])
            after.append((s, rows[s].astype(np.float16)))
    outcome = state.outcome
    assert outcome is not None
    result = [(n - place) / (n - 1) for place in outcome.places]
    return decisions, [x for _, x in after], [result[s] for s, _ in after]


def generate(iteration: int, args: Args, net_path: Path | None) -> dict[str, np.ndarray]:
    spec = game_bots("centrix")
    games = args.teacher_games if iteration == 0 else args.selfplay_games
    decisions: list[np.ndarray] = []
    value_x: list[np.ndarray] = []
    value_y: list[float] = []
    for g in range(games):
        seed = args.seed * 1_000_003 + iteration * 10_007 + g
        if iteration == 0:
            lineup = [spec.bot(args.teacher, seed * 7 + s) for s in range(args.players)]
        else:
            lineup = [
                spec.bot(
                    f"learned:{args.search_iterations}it:search=1:weights={net_path}",
                    seed * 7 + s,
                )
                for s in range(args.players)
            ]
        d, x, y = game_data(lineup, seed, args)
        decisions += d
        value_x += x
        value_y += y
    k = args.candidates
    policy_x = np.zeros((len(decisions), k, FEATURES), np.float16)
    policy_mask = np.zeros((len(decisions), k), np.bool_)
    for i, d in enumerate(decisions):
        policy_x[i, : len(d)] = d
        policy_mask[i, : len(d)] = True
    return {
        "policy_x": policy_x,
        "policy_mask": policy_mask,
        "value_x": np.stack(value_x) if value_x else np.zeros((0, FEATURES), np.float16),
        "value_y": np.asarray(value_y, np.float32),
        "games": np.asarray(games),
    }


# ------------------------------------------------------------------------------ the net


class Net(nn.Module):
    def __init__(self, hidden: int, mean: torch.Tensor, scale: torch.Tensor) -> None:
        super().__init__()
        self.register_buffer("mean", mean)
        self.register_buffer("scale", scale)
        self.trunk = nn.Sequential(
            nn.Linear(FEATURES, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU()
        )
        self.policy = nn.Linear(hidden, 1)
        self.value = nn.Linear(hidden, 1)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.trunk((x - self.mean) * self.scale)
        return self.policy(h).squeeze(-1), self.value(h).squeeze(-1)

    def export(self, path: Path) -> None:
        """The weights as gamenight.bots.learned.Net reads them (numpy, float32)."""
        linear = [m for m in self.trunk if isinstance(m, nn.Linear)]
        arrays: dict[str, np.ndarray] = {
            "version": np.asarray(VERSION),
            "features": np.asarray(FEATURES),
            "mean": self.mean.numpy(),
            "scale": self.scale.numpy(),
            "wp": self.policy.weight.detach().numpy().T.copy(),
            "bp": self.policy.bias.detach().numpy().copy(),
            "wv": self.value.weight.detach().numpy().T.copy(),
            "bv": self.value.bias.detach().numpy().copy(),
        }
        for k, m in enumerate(linear):
            arrays[f"w{k}"] = m.weight.detach().numpy().T.copy()
            arrays[f"b{k}"] = m.bias.detach().numpy().copy()
        np.savez_compressed(path, **arrays)


def split(data: dict[str, np.ndarray], holdout: float) -> tuple[np.ndarray, np.ndarray]:
    n = len(data["policy_x"])
    cut = n - int(n * holdout)
    return np.arange(cut), np.arange(cut, n)


def policy_loss(net: Net, x: np.ndarray, mask: np.ndarray) -> tuple[torch.Tensor, torch.Tensor]:
    xt = torch.from_numpy(x.astype(np.float32))
    logits, _ = net(xt)
    logits = logits.masked_fill(~torch.from_numpy(mask), -1e9)
    loss = nn.functional.cross_entropy(logits, torch.zeros(len(x), dtype=torch.long))
    agree = (logits.argmax(dim=1) == 0).float().mean()
    return loss, agree


def value_loss(net: Net, x: np.ndarray, y: np.ndarray) -> torch.Tensor:
    _, v = net(torch.from_numpy(x.astype(np.float32)))
    return nn.functional.binary_cross_entropy_with_logits(v, torch.from_numpy(y))


def train(
    net: Net,
    opt: torch.optim.Optimizer,
    window: list[dict[str, np.ndarray]],
    args: Args,
    rng: np.random.Generator,
) -> dict[str, float]:
    train_p = [(d, split(d, args.holdout)[0]) for d in window]
    held = window[-1]
    _, held_idx = split(held, args.holdout)
    px = np.concatenate([d["policy_x"][i] for d, i in train_p])
    pm = np.concatenate([d["policy_mask"][i] for d, i in train_p])
    vx = np.concatenate([d["value_x"] for d in window])
    vy = np.concatenate([d["value_y"] for d in window])
    steps = max(1, len(px) // args.batch)
    for _ in range(args.epochs):
        order = rng.permutation(len(px))
        v_order = rng.permutation(len(vx))
        v_batch = max(1, len(vx) // steps)
        for s in range(steps):
            idx = order[s * args.batch : (s + 1) * args.batch]
            vidx = v_order[s * v_batch : (s + 1) * v_batch]
            lp, _ = policy_loss(net, px[idx], pm[idx])
            lv = value_loss(net, vx[vidx], vy[vidx])
            opt.zero_grad()
            (lp + lv).backward()
            opt.step()
    with torch.no_grad():
        if len(held_idx):
            lp, agree = policy_loss(net, held["policy_x"][held_idx], held["policy_mask"][held_idx])
        else:
            lp, agree = torch.tensor(float("nan")), torch.tensor(float("nan"))
        lv = value_loss(net, vx[-5000:], vy[-5000:])
    return {
        "policy_loss": round(float(lp), 4),
        "held_out_agreement": round(float(agree), 4),
        "value_loss": round(float(lv), 4),
        "decisions_trained": len(px),
    }


def evaluate(weights: Path, iteration: int, args: Args) -> dict[str, Any]:
    """The network alone against ``--eval-opponent``, seats swapped game by game."""
    wins = 0
    learned = f"learned:weights={weights}"
    for g in range(args.eval_games):
        lineup = [learned, args.eval_opponent] if g % 2 == 0 else [args.eval_opponent, learned]
        result = play_game("centrix", lineup, 900_000 + args.seed * 10_007 + iteration * 1000 + g)
        wins += result.places[lineup.index(learned)] == 1
    low, high = wilson(wins, args.eval_games) if args.eval_games else (float("nan"),) * 2
    return {
        "eval_wins": wins,
        "eval_games": args.eval_games,
        "eval_win_rate": round(wins / args.eval_games, 4) if args.eval_games else None,
        "eval_low": round(low, 4),
        "eval_high": round(high, 4),
    }


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


def main() -> None:
    args = parse()
    torch.set_num_threads(1)
    run = Path(args.run)
    run.mkdir(parents=True, exist_ok=True)
    checkpoint = run / "checkpoint.pt"
    if checkpoint.exists():
        saved = torch.load(checkpoint, weights_only=False)
        if {k: v for k, v in saved["args"].items() if k != "iterations"} != {
            k: v for k, v in asdict(args).items() if k != "iterations"
        }:
            raise SystemExit(f"{run} was started with other arguments: {saved['args']}")
        start = saved["iteration"] + 1
        net = Net(args.hidden, saved["model"]["mean"], saved["model"]["scale"])
        net.load_state_dict(saved["model"])
        opt = torch.optim.Adam(net.parameters(), lr=args.lr)
        opt.load_state_dict(saved["optimizer"])
        torch.set_rng_state(saved["torch_rng"])
        spent = saved["spent"]
        print(f"resuming {run} at iteration {start}", flush=True)
    else:
        start, net, opt, spent = 0, None, None, {"wall": 0.0, "cpu": 0.0}
    for iteration in range(start, args.iterations):
        began_wall, began_cpu = time.perf_counter(), cpu_seconds()
        torch.manual_seed(args.seed * 1000 + iteration)
        np_rng = np.random.default_rng(args.seed * 1000 + iteration)
        previous = run / f"weights-{iteration - 1:03d}.npz" if iteration else None
        data = generate(iteration, args, previous)
        np.savez(run / f"data-{iteration:03d}.npz", **data)
        if net is None:
            vx = data["value_x"].astype(np.float32)
            mean = torch.from_numpy(vx.mean(axis=0))
            scale = torch.from_numpy(1.0 / np.maximum(vx.std(axis=0), 0.05))
            net = Net(args.hidden, mean, scale)
            opt = torch.optim.Adam(net.parameters(), lr=args.lr)
        assert opt is not None
        window = []
        for k in range(max(0, iteration - args.window + 1), iteration + 1):
            with np.load(run / f"data-{k:03d}.npz") as stored:
                window.append({key: stored[key] for key in stored.files})
        losses = train(net, opt, window, args, np_rng)
        weights = run / f"weights-{iteration:03d}.npz"
        net.export(weights)
        scores = evaluate(weights, iteration, args)
        # The evaluation is counted too: the whole run's time, as the bar asks.
        generated_wall = time.perf_counter() - began_wall
        generated_cpu = cpu_seconds() - began_cpu
        spent = {"wall": spent["wall"] + generated_wall, "cpu": spent["cpu"] + generated_cpu}
        row = {
            "iteration": iteration,
            "teacher": args.teacher if iteration == 0 else f"learned:{args.search_iterations}it",
            "games": int(data["games"]),
            "decisions": len(data["policy_x"]),
            **losses,
            **scores,
            "eval_opponent": args.eval_opponent,
            "train_wall_seconds": round(spent["wall"], 1),
            "train_cpu_seconds": round(spent["cpu"], 1),
            "weights": str(weights),
        }
        torch.save(
            {
                "args": asdict(args),
                "iteration": iteration,
                "model": net.state_dict(),
                "optimizer": opt.state_dict(),
                "torch_rng": torch.get_rng_state(),
                "spent": spent,
            },
            checkpoint,
        )
        print(json.dumps(row), flush=True)
        with open(run / "curve.jsonl", "a") as out:
            out.write(json.dumps(row) + "\n")
        new = not (run / "curve.csv").exists()
        with open(run / "curve.csv", "a", newline="") as out:
            writer = csv.DictWriter(out, fieldnames=list(row))
            if new:
                writer.writeheader()
            writer.writerow(row)


if __name__ == "__main__":
    main()
