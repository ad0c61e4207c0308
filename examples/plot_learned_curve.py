"""Plot the training curve of examples/train_learned_centrix.py (its ``curve.jsonl``): the
network alone's win rate against the evaluation opponent with 95 % Wilson intervals, and
its agreement with the teacher on held-out decisions, against the training's CPU time.

    .venv/bin/python examples/plot_learned_curve.py runs/learned/curve.jsonl docs/learned-curve.png
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("curve", type=Path)
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.curve.read_text().splitlines() if line.strip()]
    minutes = [row["train_cpu_seconds"] / 60 for row in rows]
    rate = [row["eval_win_rate"] for row in rows]
    low = [row["eval_win_rate"] - row["eval_low"] for row in rows]
    high = [row["eval_high"] - row["eval_win_rate"] for row in rows]
    fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=100)
    opponent = rows[0]["eval_opponent"]
    ax.errorbar(
        minutes,
        rate,
        yerr=[low, high],
        marker="o",
        capsize=3,
        label=f"network alone vs {opponent} (95 % Wilson)",
    )
    ax.plot(
        minutes,
        [row["held_out_agreement"] for row in rows],
        marker="s",
        linestyle="--",
        label="agreement with the teacher (held out)",
    )
    for m, row in zip(minutes, rows, strict=True):
        ax.annotate(
            str(row["iteration"]),
            (m, row["eval_win_rate"]),
            textcoords="offset points",
            xytext=(4, 4),
            fontsize=8,
        )
    ax.axhline(0.6, color="grey", linewidth=0.8, linestyle=":")
    ax.set_xlabel("training CPU minutes (iterations numbered)")
    ax.set_ylim(0, 1)
    ax.legend(loc="lower right", fontsize=8)
    ax.set_title("learned Centrix bot, 2 players")
    fig.tight_layout()
    fig.savefig(args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
