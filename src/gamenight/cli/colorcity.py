"""``gamenight colorcity …``: play in the terminal against a bot, replay a record,
bench the physics."""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from gamenight.analysis.report import ROLLOUTS
from gamenight.cli.analysis import add_command
from gamenight.cli.analysis import run as run_analysis
from gamenight.cli.counts import count
from gamenight.cli.files import check_writable, read_text
from gamenight.cli.options import check_bot
from gamenight.core.errors import GamenightError, NotationError, RecordError, read_field
from gamenight.core.game import SeatSetup, registry

QUIT = ("quit", "q", "exit")
UNFINISHED = "Game left unfinished."


def register(games: Any) -> None:
    parser: argparse.ArgumentParser = games.add_parser(
        "colorcity", help="Color City: flick cubes onto the city and paint it"
    )
    parser.set_defaults(run=lambda ns: parser.print_help())
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = commands.add_parser("play", help="play against a bot in the terminal")
    play.add_argument("--seed", type=int, default=None, help="the game's seed (default: random)")
    play.add_argument(
        "--gang", default="green", help="your gang: green or purple (default %(default)s)"
    )
    play.add_argument("--first", default="green", help="the gang that starts (default %(default)s)")
    play.add_argument(
        "--skill",
        default="normal",
        help="your hand: exact/steady/normal/shaky (default %(default)s)",
    )
    play.add_argument(
        "--bot-skill", default="normal", help="the bot's hand, as --skill (default %(default)s)"
    )
    play.add_argument(
        "--bot",
        default="level2",
        help="the bot: level1 (random) to level5, or a spec like planner (default level2)",
    )
    play.add_argument(
        "--max-turns", type=count, default=None, help="end the game at this turn (default: none)"
    )
    play.add_argument("--record", type=Path, default=None, help="write the game's record here")
    # Centrix's play calls this --save; either spelling works on both commands.
    play.add_argument("--save", dest="record", type=Path, help=argparse.SUPPRESS)
    play.add_argument("--plain", action="store_true", help="no colours")
    play.set_defaults(run=_play)

    rep = commands.add_parser("replay", help="replay a JSON record and show the final city")
    rep.add_argument("record", type=Path, help="a game record (JSON), as --record writes")
    rep.add_argument("--plain", action="store_true", help="no colours")
    rep.set_defaults(run=_replay)

    bench = commands.add_parser("bench", help="flicks per second and physics accuracy")
    bench.add_argument("--json", action="store_true", help="print the figures as JSON")
    bench.add_argument(
        "--convergence",
        action="store_true",
        help="also print the convergence table (integrators, start leads, time steps)",
    )
    bench.add_argument(
        "--repeat", type=count, default=3, help="timing rounds, the best is kept (default 3)"
    )
    bench.add_argument(
        "--steps",
        type=count,
        default=0,
        metavar="N",
        help="also flick N random legal shots with shaky hands: the most steps a flick took"
        " (the step cap's margin, D21) and what a fresh MjData costs against a flick",
    )
    bench.add_argument(
        "--workers",
        type=count,
        default=1,
        help="also time the benchmark's flicks spread over this many processes (default 1)",
    )
    bench.set_defaults(run=_bench)

    aims = commands.add_parser(
        "aim",
        help="how often the Planner's shots cover the square they aim at",
        description="Plays GAMES games of a Planner against OPPONENT (the Planner's gang"
        " alternating) and counts, over its pitches, how often the cube covered the target"
        " square of its plan; also its wins, lost cubes and seconds per decision.",
    )
    aims.add_argument("--games", type=count, default=20, help="games to play (default 20)")
    aims.add_argument(
        "--planner",
        default="planner",
        help="a Planner spec, e.g. planner:480it (default %(default)s)",
    )
    aims.add_argument(
        "--opponent", default="random", help="the other bot's spec (default %(default)s)"
    )
    aims.add_argument(
        "--skill",
        default="normal",
        help="both hands: exact/steady/normal/shaky (default %(default)s)",
    )
    aims.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    aims.add_argument("--workers", type=count, default=1, help="local processes (default 1)")
    aims.set_defaults(run=_aim)

    analyse = add_command(commands, "Color City", ROLLOUTS["colorcity"])
    analyse.set_defaults(run=_analyse)


def _analyse(ns: argparse.Namespace) -> int:
    from gamenight.analysis.colorcity import analyse

    return run_analysis(ns, analyse)


def _show(state: Any, plain: bool, out: TextIO) -> None:
    from rich.console import Console

    from gamenight.colorcity.text import render_plain, render_rich

    if plain:
        print(render_plain(state), file=out)
    else:
        Console(file=out, highlight=False).print(render_rich(state))


def _play(ns: argparse.Namespace, inp: TextIO | None = None, out: TextIO | None = None) -> int:
    from gamenight.bots.registry import game_bots
    from gamenight.colorcity import (
        ColorCityState,
        Decision,
        Gang,
        Pitch,
        Shot,
        Skill,
        covered_squares,
    )
    from gamenight.colorcity.record import to_record

    inp = inp or sys.stdin
    out = out or sys.stdout
    me = read_field("--gang", Gang.parse, ns.gang, NotationError)
    first = read_field("--first", Gang.parse, ns.first, NotationError)
    skill = read_field("--skill", Skill.parse, ns.skill, NotationError)
    bot_skill = read_field("--bot-skill", Skill.parse, ns.bot_skill, NotationError)
    bot_spec = game_bots("colorcity")
    check_bot(bot_spec, ns.bot)  # a bad spec fails before the game starts
    if ns.record:
        check_writable(ns.record)
    table = None
    if ns.max_turns is not None:
        from gamenight.colorcity.table import Table

        table = Table(max_turns=ns.max_turns).check_bounds()
    seats = [SeatSetup(me.label, skill.value), SeatSetup(me.other.label, bot_skill.value)]
    if me is Gang.PURPLE:
        seats.reverse()
    state: ColorCityState = registry["colorcity"].new(seats, table, ns.seed, first.label)
    bot = bot_spec.bot(ns.bot, state.seed)
    guide = (
        "A shot is: position (mm, + to your right, within ±"
        f"{state.table.launch_half_width:g}), direction (degrees, + to your left, ±60),"
        " speed (m/s, 0.1–3; about 1.0–1.7 reaches the city) and optional spin (rad/s,"
        " + counter-clockwise). Example: 0 0 1.3 0."
    )
    print(f"Color City. {guide} Type 'help' or 'quit'.", file=out)

    def ask(prompt: str) -> str | None:
        """The next answer; None at the end of input or on 'quit'."""
        while True:
            print(prompt, end="", file=out, flush=True)
            line = inp.readline()
            if not line or line.strip().lower() in QUIT:
                return None
            if line.strip().lower() not in ("help", "?"):
                return line.strip()
            print(
                f"  {guide} At 'Pitch it?', Enter or y pitches the shot and n lets you choose"
                " another. 'quit' leaves the game.",
                file=out,
            )

    while not state.is_over:
        _show(state, ns.plain, out)
        gang = state.to_move
        if gang is not me:
            action = bot.choose(state.view(state.pitcher))
            done = state.push(action)
            who = gang.label if gang is not None else ""
            print(f"Bot ({who}): {_describe(done)}", file=out)
            continue
        if state.expects() == "decision":
            choices = [d.value for d in state.legal_decisions()]
            line = ask(f"Power? ({' / '.join(choices)}) > ")
            if line is None:
                print(UNFINISHED, file=out)
                break
            try:
                state.push(Decision.parse(line))
            except GamenightError as exc:
                print(f"  {exc}", file=out)
            continue
        line = ask("Your shot > ")
        if line is None:
            print(UNFINISHED, file=out)
            break
        try:
            shot = Shot.parse(line).check(state.table)
            flick = state.predict(shot)
        except GamenightError as exc:
            print(f"  {exc}", file=out)
            continue
        squares = covered_squares(state.table, flick.pose)
        where = (
            " ".join(state.table.square_name(s) for s in squares)
            if squares
            else ("off the table" if flick.off_table else "no square (the cube would be lost)")
        )
        print(
            f"  Without noise the cube stops at ({flick.pose.x:.1f}, {flick.pose.y:.1f}) mm,"
            f" covering {where}.",
            file=out,
        )
        confirm = _confirm(ask, out)
        if confirm is None:
            print(UNFINISHED, file=out)
            break
        if not confirm:
            continue
        pitch = state.push(shot)
        assert isinstance(pitch, Pitch)
        pose = pitch.pose
        print(
            f"  Your hand added {pitch.noise.direction:+.2f}°, speed ×"
            f"{pitch.noise.speed_factor:.3f}, spin {pitch.noise.spin:+.2f} rad/s: the cube"
            f" stopped at ({pose.x:.1f}, {pose.y:.1f}) mm.",
            file=out,
        )
    if state.is_over:
        _show(state, ns.plain, out)
    # Written for a game left unfinished too: it replays to where it was left.
    if ns.record is not None:
        ns.record.write_text(to_record(state).to_json() + "\n", encoding="utf-8")
        print(f"Record written to {ns.record}.", file=out)
    return 0


def _confirm(ask: Callable[[str], str | None], out: TextIO) -> bool | None:
    """True to pitch the shot, False to choose another, None to leave the game."""
    while True:
        answer = ask("  Pitch it? [Y/n] ")
        if answer is None:
            return None
        if answer.lower() in ("", "y", "yes"):
            return True
        if answer.lower() in ("n", "no"):
            return False
        # Asked again rather than read as no: a typo should not throw the aimed shot away.
        print(f"  {answer!r}: answer y (or Enter) to pitch it, n to choose another", file=out)


def _describe(action: Any) -> str:
    from gamenight.colorcity import Pitch

    if not isinstance(action, Pitch):
        return str(action)
    shot, pose = action.shot, action.pose
    return (
        f"pitch from {shot.position:+.1f} mm, {shot.direction:+.1f}°, {shot.speed:.2f} m/s,"
        f" spin {shot.spin:+.1f} rad/s; the cube stopped at ({pose.x:.1f}, {pose.y:.1f}) mm"
    )


def _aim(ns: argparse.Namespace) -> int:
    from gamenight.bench.colorcity import aim_stats
    from gamenight.bots.colorcity import PlannerBot
    from gamenight.bots.registry import game_bots
    from gamenight.colorcity import Skill
    from gamenight.tournament.stats import wilson

    # Checked here, so that a bad option is named before any game starts.
    read_field("--skill", Skill.parse, ns.skill, NotationError)
    bots = game_bots("colorcity")
    if not isinstance(check_bot(bots, ns.planner, "--planner"), PlannerBot):
        # Only a Planner says which square it aims at, which is what this command counts.
        raise NotationError(f"--planner: {ns.planner!r} is not a Planner (planner, level4, level5)")
    check_bot(bots, ns.opponent, "--opponent")
    stats = aim_stats(ns.games, ns.planner, ns.opponent, ns.skill, ns.seed, ns.workers)
    low, high = wilson(stats.target_hits, stats.shots)
    seconds = stats.seconds or [0.0]
    cpu = stats.cpu or [0.0]
    print(
        f"{ns.planner} vs {ns.opponent}, {ns.skill} hands, {stats.games} games"
        f" (seeds {ns.seed}–{ns.seed + ns.games - 1}): won {stats.wins:g}"
    )
    print(
        f"target square covered: {stats.target_hits}/{stats.shots}"
        f" = {stats.target_hits / max(1, stats.shots):.1%} (95% interval {low:.1%}–{high:.1%})"
    )
    print(f"cube covered nothing: {stats.lost}/{stats.shots}")
    print(
        f"seconds per Planner decision: mean {sum(seconds) / len(seconds):.3f},"
        f" max {max(seconds):.3f} over {len(stats.seconds)}"
    )
    print(
        f"CPU seconds per Planner decision (one core, whatever else the machine runs):"
        f" mean {sum(cpu) / len(cpu):.3f}, max {max(cpu):.3f}"
    )
    return 0


def _replay(ns: argparse.Namespace) -> int:
    from gamenight.colorcity.record import replay

    state = replay(read_text(ns.record, RecordError))
    _show(state, ns.plain, sys.stdout)
    return 0


def bench_shots() -> list[Any]:
    """The benchmark's shots: a fixed grid over the speeds that reach the city."""
    from gamenight.colorcity import Shot

    return [
        Shot(position, direction, 1.0 + 0.1 * i, spin)
        for i in range(8)
        for direction in (-15.0, 0.0, 15.0)
        for spin in (-10.0, 0.0, 10.0)
        for position in (-50.0, 0.0, 50.0)
    ]


def distance_errors() -> list[tuple[float, float, float]]:
    """(speed, simulated slide, v²/(2μg)) in mm for spin-free straight shots on the default
    table, speeds 0.5–1.8 m/s (those that stay on the table)."""
    from gamenight.colorcity import DEFAULT_TABLE, Gang, Shot, predict, stopping_distance

    rows = []
    for i in range(14):
        v = round(0.5 + 0.1 * i, 10)
        flick = predict(DEFAULT_TABLE, Gang.GREEN, Shot(0.0, 0.0, v, 0.0))
        slid = flick.pose.y + DEFAULT_TABLE.launch_y
        rows.append((v, slid, stopping_distance(DEFAULT_TABLE, v)))
    return rows


CONVERGENCE_STEPS = (0.005, 0.004, 0.003, 0.002, 0.0015, 0.001, 0.0005, 0.00025, 0.0001)
"""The time steps of the convergence table, in seconds."""

CONVERGENCE_SETTINGS = (("euler", 0.0), ("euler", 0.45), ("euler", 0.5), ("rk4", 0.0))
"""The (integrator, start lead) rows of the convergence table: D19's Euler, D24's lead and
the principled ½, and RK4 (implicitfast slides as Euler here: there is no damping to treat
implicitly, docs/benchmarks.md)."""


def convergence(speed: float = 1.3) -> list[tuple[str, float, float, float, float, float, float]]:
    """(integrator, start lead, time step s, slide mm, v²/(2μg) mm, converged slide mm,
    flicks/s) for a spin-free straight shot on the default table with the integrator, lead
    and time step changed; the converged slide is Euler's at 0.05 ms (no lead)."""
    from gamenight.colorcity import DEFAULT_TABLE, Gang, Shot, predict, stopping_distance

    def slide(table: Any) -> tuple[float, float]:
        predict(table, Gang.GREEN, Shot(0.0, 0.0, speed, 0.0))  # build the model first
        start = time.perf_counter()
        flick = predict(table, Gang.GREEN, Shot(0.0, 0.0, speed, 0.0))
        return flick.pose.y + table.launch_y, 1 / (time.perf_counter() - start)

    fine = DEFAULT_TABLE.with_(timestep_s=0.00005, start_lead=0.0, max_flick_steps=20_000)
    converged = slide(fine)[0]
    rows = []
    for integrator, lead in CONVERGENCE_SETTINGS:
        for dt in CONVERGENCE_STEPS:
            table = DEFAULT_TABLE.with_(timestep_s=dt, integrator=integrator, start_lead=lead)
            slid, rate = slide(table)
            rows.append(
                (integrator, lead, dt, slid, stopping_distance(table, speed), converged, rate)
            )
    return rows


def flick_steps(count: int, seed: int = 7) -> dict[str, float]:
    """Steps of ``count`` random legal shots pitched with shaky hands on the default table
    (a quarter of them slow and fully spun, the longest kind), µs a step, and the µs of a
    fresh MjData against a flick's: why each thread keeps its MjData."""
    import random

    import mujoco

    from gamenight.colorcity import DEFAULT_TABLE as T
    from gamenight.colorcity import Gang, Shot, Skill, draw_noise, executed, flick
    from gamenight.colorcity.physics import model_xml

    rng = random.Random(seed)
    key, steps, worst, start = seed, 0, 0, time.perf_counter()
    for i in range(count):
        slow = i % 4 == 0
        shot = Shot(
            rng.uniform(-T.launch_half_width, T.launch_half_width),
            rng.uniform(-T.max_direction_deg, T.max_direction_deg),
            rng.uniform(T.min_speed, 0.6 if slow else T.max_speed),
            rng.choice((-T.max_spin, T.max_spin)) if slow else rng.uniform(-T.max_spin, T.max_spin),
        )
        noise, key = draw_noise(key, Skill.SHAKY)
        taken = flick(T, Gang(i % 2), executed(shot, noise)).steps
        steps, worst = steps + taken, max(worst, taken)
    elapsed = time.perf_counter() - start
    model = mujoco.MjModel.from_xml_string(model_xml(T))
    made = time.perf_counter()
    for _ in range(200):
        mujoco.MjData(model)
    data_us = (time.perf_counter() - made) / 200 * 1e6
    return {
        "flicks": count,
        "most_steps": worst,
        "mean_steps": steps / max(1, count),
        "us_per_step": elapsed / max(1, steps) * 1e6,
        "us_per_flick": elapsed / max(1, count) * 1e6,
        "us_per_mjdata": data_us,
    }


def pure_table() -> Any:
    """The table of the flicks before issue 17 ("today's settings", D19: Euler at 1.5 ms,
    the cube starting where it lies, the solver's warm start on, rest below 1 mm/s and
    0.05 rad/s). ``pure.flicks_per_s`` is timed on it in the same run as the default
    table's (D24) ``flicks_per_s``, and ``ratio`` is theirs."""
    from gamenight.colorcity import DEFAULT_TABLE
    from gamenight.colorcity.table import D19_PHYSICS

    return DEFAULT_TABLE.with_(**D19_PHYSICS)


def time_flicks(runs: list[tuple[Any, int]], shots: list[Any], repeat: int) -> list[float]:
    """Flicks per second (wall clock, best of ``repeat``) of the benchmark's shots, the gangs
    alternating, for each (table, workers) of ``runs`` (over that many processes when 2 or
    more). The runs take turns round by round, so that whatever else loads the machine
    weighs on each alike: their ratios are what count."""
    from gamenight.colorcity import Gang
    from gamenight.colorcity.pool import poses

    pitches = [
        [(Gang(i % 2), shot.check(table)) for i, shot in enumerate(shots)] for table, _ in runs
    ]
    for (table, workers), todo in zip(runs, pitches, strict=True):
        poses(table, todo, workers)  # build and cache the models (in every worker too)
    best = [math.inf] * len(runs)
    for _ in range(max(1, repeat)):
        for k, ((table, workers), todo) in enumerate(zip(runs, pitches, strict=True)):
            start = time.perf_counter()
            poses(table, todo, workers)
            best[k] = min(best[k], time.perf_counter() - start)
    return [len(shots) / b for b in best]


def _bench(ns: argparse.Namespace) -> int:
    from gamenight.colorcity import DEFAULT_TABLE

    shots = bench_shots()
    runs = [(DEFAULT_TABLE, 1), (pure_table(), 1)]
    if ns.workers > 1:
        runs.append((DEFAULT_TABLE, ns.workers))
    rates = time_flicks(runs, shots, ns.repeat)
    flicks_per_s, pure_per_s = rates[0], rates[1]
    parallel = rates[2] if ns.workers > 1 else None
    errors = distance_errors()
    worst = max(abs(slid - ref) / ref * 100 for _, slid, ref in errors)
    steps = flick_steps(ns.steps) if ns.steps else None
    if ns.json:
        figures: dict[str, Any] = {"flicks_per_s": round(flicks_per_s, 1)}
        figures["distance_error_pct"] = worst
        figures["pure.flicks_per_s"] = round(pure_per_s, 1)
        figures["ratio"] = round(flicks_per_s / pure_per_s, 3)
        if parallel is not None:
            figures[f"workers.{ns.workers}.flicks_per_s"] = round(parallel, 1)
            figures[f"workers.{ns.workers}.ratio"] = round(parallel / flicks_per_s, 3)
        print(json.dumps({**figures, **({"steps": steps} if steps else {})}))
        return 0
    print(
        f"flicks/s (one core, {len(shots)} exact flicks 1.0–1.7 m/s, best of"
        f" {max(1, ns.repeat)}): {flicks_per_s:.0f}"
    )
    print(
        f"pure (D19, the settings before issue 17, same run): {pure_per_s:.0f} flicks/s,"
        f" ratio {flicks_per_s / pure_per_s:.2f}"
    )
    if parallel is not None:
        print(
            f"over {ns.workers} processes: {parallel:.0f} flicks/s,"
            f" {parallel / flicks_per_s:.2f}× one process"
        )
    print("spin-free stopping distance vs v²/(2μg):")
    print("  speed m/s   simulated mm   v²/(2μg) mm   error %")
    for v, slid, ref in errors:
        print(f"  {v:9.1f}   {slid:12.2f}   {ref:11.2f}   {(slid - ref) / ref * 100:+7.3f}")
    print(f"worst error: {worst:.3f} %")
    if ns.convergence:
        print("time-step convergence (1.3 m/s, spin-free; converged: Euler at 0.05 ms):")
        print(
            "  integrator  lead  time step ms   slide mm   v²/(2μg) mm   error %"
            "   vs converged %   flicks/s"
        )
        for integrator, lead, dt, slid, ref, converged, rate in convergence():
            print(
                f"  {integrator:10s} {lead:5.2f}  {dt * 1000:12.2f}   {slid:8.2f}   {ref:11.2f}"
                f"   {(slid - ref) / ref * 100:+7.3f}"
                f"   {(slid - converged) / converged * 100:+14.3f}   {rate:8.0f}"
            )
    if steps:
        print(
            f"{steps['flicks']:.0f} shaky flicks: most steps {steps['most_steps']:.0f} (cap"
            f" {DEFAULT_TABLE.max_flick_steps}), mean {steps['mean_steps']:.0f};"
            f" {steps['us_per_step']:.1f} µs a step; a fresh MjData {steps['us_per_mjdata']:.0f}"
            f" µs against {steps['us_per_flick']:.0f} µs a flick"
        )
    return 0
