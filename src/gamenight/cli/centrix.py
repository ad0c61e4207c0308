"""``gamenight centrix …``: play in the terminal, replay a record, perft and bench."""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from rich.columns import Columns
from rich.console import Console
from rich.markup import escape

from gamenight.analysis.report import ROLLOUTS
from gamenight.bots.registry import game_bots
from gamenight.centrix import Bottom, CentrixState, Colour, Rules
from gamenight.centrix.perft import divide, perft_stats
from gamenight.centrix.text import render
from gamenight.cli.analysis import add_command
from gamenight.cli.analysis import run as run_analysis
from gamenight.cli.counts import count, depth, seconds
from gamenight.cli.files import check_writable, read_text
from gamenight.cli.options import check_bot
from gamenight.core.errors import GamenightError, NotationError, RecordError, RulesError, read_field
from gamenight.core.game import SeatSetup, registry
from gamenight.core.numbers import read_whole_number

BOTTOM_HELP = (
    "a bump chain that reaches the bottom: protect (is illegal), knock_off (knocks pawns"
    " off the board) or floor (stops on ring 1) (default %(default)s)"
)


def register(games: Any) -> None:
    parser: argparse.ArgumentParser = games.add_parser(
        "centrix", help="Centrix: spin, climb, leapfrog and bump to the top"
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = commands.add_parser("play", help="a game in the terminal against bots")
    play.add_argument(
        "--players",
        type=int,
        help=f"{registry['centrix'].players_text} players (default 4, or one per --colours letter)",
    )
    play.add_argument("--seat", type=int, default=0, help="your seat, 0 first (default 0)")
    play.add_argument(
        "--colours", help="pawn colours in seat order, letters like RBGY (default: rulebook order)"
    )
    play.add_argument(
        "--first",
        type=int,
        help="the seat that starts: the youngest player (default: asked; 0 without a terminal)",
    )
    play.add_argument("--seed", type=int, help="seed for the shuffle (default: random)")
    play.add_argument(
        "--bottom",
        choices=[b.value for b in Bottom],
        default="protect",
        help=BOTTOM_HELP,
    )
    play.add_argument("--max-turns", type=count, help="end the game after this many turns")
    play.add_argument("--save", type=Path, help="write the game record here at the end")
    # Color City's play calls this --record; either spelling works on both commands.
    play.add_argument("--record", dest="save", type=Path, help=argparse.SUPPRESS)
    play.add_argument(
        "--bot",
        default="level2",
        help="the bots: level1 (random) to level5, or a spec like ismcts:0.25s (default level2)",
    )
    play.set_defaults(run=run_play)

    replay = commands.add_parser("replay", help="step through a game record")
    replay.add_argument("record", type=Path, help="a game record (JSON), as --save writes")
    replay.set_defaults(run=run_replay)

    perft = commands.add_parser("perft", help="count play sequences from a position")
    perft.add_argument("position", help="a position string, or 'new' for a 4-player start")
    perft.add_argument("depth", type=depth, help="plays per sequence, 0 or more")
    perft.add_argument("--divide", action="store_true", help="one count per first play")
    perft.add_argument(
        "--bottom",
        choices=[b.value for b in Bottom],
        default="protect",
        help=BOTTOM_HELP,
    )
    perft.set_defaults(run=run_perft)

    bench = commands.add_parser("bench", help="measure play generation and random games")
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.add_argument(
        "--games", type=count, default=20, help="random games per player count (default 20)"
    )
    bench.add_argument("--positions", type=count, default=60, help="sampled positions (default 60)")
    bench.add_argument(
        "--bot-positions",
        type=count,
        default=12,
        help="4-player midgame positions for the bots (default 12)",
    )
    bench.add_argument(
        "--think", type=seconds, default=0.25, help="ISMCTS seconds per decision (default 0.25)"
    )
    bench.add_argument(
        "--peer-scale",
        type=int,
        choices=(0, 1),
        default=1,
        help="1: the peers' full runs; 0: a token run of each (default 1)",
    )
    bench.set_defaults(run=run_bench)

    analyse = add_command(commands, "Centrix", ROLLOUTS["centrix"])
    analyse.set_defaults(run=run_analyse)

    parser.set_defaults(run=lambda ns: parser.print_help())


def run_analyse(ns: argparse.Namespace) -> int:
    from gamenight.analysis.centrix import analyse

    return run_analysis(ns, analyse)


# ---------------------------------------------------------------- play


def run_play(ns: argparse.Namespace) -> int:
    bot_spec = game_bots("centrix")
    colours: Any = 4 if ns.players is None else ns.players
    if ns.colours:
        colours = read_field("--colours", _read_colours, ns.colours, NotationError)
        if ns.players is not None and ns.players != len(colours):
            raise RulesError(
                f"--players {ns.players} but --colours {ns.colours} is {len(colours)} pawn"
                " colours: give only one of them, or make them agree"
            )
    count = colours if isinstance(colours, int) else len(colours)
    game = registry["centrix"]
    if not game.min_players <= count <= game.max_players:
        option = "--colours" if ns.colours else "--players"
        raise RulesError(f"{option}: Centrix is for {game.players_text} players, not {count}")
    if not 0 <= ns.seat < count:
        raise RulesError(f"--seat must be 0–{count - 1}, not {ns.seat}")
    if ns.first is not None and not 0 <= ns.first < count:
        raise RulesError(f"--first must be 0–{count - 1}, not {ns.first}")
    rules = Rules(bottom=Bottom(ns.bottom), max_turns=ns.max_turns).check_bounds()
    check_bot(bot_spec, ns.bot)  # a bad spec fails before any question
    if ns.save:
        check_writable(ns.save)
    console = Console()
    first = ns.first
    if first is None:
        first = _ask_first(console, count)
    seats = colours if isinstance(colours, int) else [SeatSetup(c.name.lower()) for c in colours]
    state: CentrixState = game.new(seats, rules, ns.seed, first)
    seeds = random.Random(state.seed)
    bots = [bot_spec.bot(ns.bot, seeds.getrandbits(32)) for _ in range(count)]
    names = ["you" if i == ns.seat else f"bot {i}" for i in range(count)]
    console.print(
        f"Centrix, {count} players. You play [bold]{state.players[ns.seat].name.lower()}[/]. "
        "Type a play's number or its notation; 'undo', 'help' or 'quit'."
    )
    # Below, everything printed that is not our own markup goes through escape(): plays,
    # paths and messages may hold brackets, which Rich would read as (broken) markup.
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        if seat != ns.seat:
            play = bots[seat].choose(state.view(seat))
            state.push(play)
            console.print(
                f"  {names[seat]} ({state.players[seat].name.lower()}): {escape(str(play))}"
            )
            continue
        console.print(render(state, seat=ns.seat))
        if not _human_turn(console, state, ns.seat):
            console.print("Game left unfinished.")
            break
    if state.outcome is not None:
        console.print(render(state, seat=ns.seat))
        ranking = state.outcome.ranking()
        console.print(
            "Places: "
            + ", ".join(f"{state.outcome.places[s]}. {names[s]}" for s in ranking)
            + (" (turn cap)" if state.outcome.at_cap else "")
        )
    if ns.save:
        ns.save.write_text(state.record(names).to_json())
        console.print(f"Record written to {escape(str(ns.save))}")
    return 0


def _read_colours(letters: str) -> list[Colour]:
    colours = [Colour.from_letter(c) for c in letters]
    twice = sorted({c.letter for c in colours if colours.count(c) > 1})
    if twice:
        raise RulesError(f"each player needs a colour of their own, not {', '.join(twice)} twice")
    return colours


def _ask_first(console: Console, count: int) -> int:
    if not sys.stdin.isatty():
        return 0
    answer = console.input(f"Who is the youngest and starts? Seat 0–{count - 1} [0]: ").strip()
    first = _typed_number(answer)
    return first if first is not None and first < count else 0


def _typed_number(answer: str) -> int | None:
    """The number a player typed, or None: ASCII digits only, as every notation reads them
    (``int`` would also read '٣', and fail on '²', which ``isdigit`` lets through)."""
    try:
        return read_whole_number(answer, "a number", NotationError)
    except NotationError:
        return None


def _human_turn(console: Console, state: CentrixState, seat: int) -> bool:
    """One play of the human; False when they quit."""
    undo_floor = len(state.plays) - state.plays_done
    legal = state.legal_plays()
    console.print(
        Columns(
            [f"[dim]{i + 1:>3}[/] {escape(str(p))}" for i, p in enumerate(legal)], padding=(0, 2)
        )
    )
    while True:
        try:
            answer = console.input(f"[bold]play ({state.plays_left} left)>[/] ").strip()
        except EOFError:
            return False
        if answer in ("quit", "q", "exit"):
            return False
        if answer in ("help", "?"):
            console.print(
                escape(
                    f"A play's number from the list (1–{len(legal)}), or its notation: "
                    "card [ring±n] [from-to], e.g. 'R2 3+2 c3-d3', 'A off-c1', "
                    "'S 6-5 b6-top'. Squares: slot a–l and ring 1–6, or off / top. "
                    "'undo' takes back a play of this turn, 'quit' leaves the game."
                )
            )
            continue
        if answer == "undo":
            if len(state.plays) > undo_floor and state.to_move == seat:
                console.print(f"took back {escape(str(state.pop()))}")
                return True
            console.print("nothing of this turn to take back")
            continue
        try:
            number = _typed_number(answer)
            if number is not None:
                if not 1 <= number <= len(legal):
                    raise NotationError(f"there is no play {number}: choose 1–{len(legal)}")
                state.push(legal[number - 1])
            else:
                state.push(state.parse_play(answer))
            return True
        except GamenightError as exc:
            console.print(f"[red]{escape(str(exc))}[/]")


# ---------------------------------------------------------------- replay


def run_replay(ns: argparse.Namespace) -> int:
    final = CentrixState.replay(read_text(ns.record, RecordError))
    plays = final.plays
    while final.plays:
        final.pop()
    state = final
    console = Console()
    interactive = sys.stdin.isatty()
    index = 0
    console.print(render(state))
    while True:
        if not interactive:
            if index == len(plays):
                break
            state.push(plays[index])
            index += 1
            console.print(f"{index}. {escape(str(plays[index - 1]))}")
            continue
        answer = console.input(
            f"[dim]{index}/{len(plays)}[/] Enter next, b back, number to jump, q quit> "
        ).strip()
        if answer == "q":
            break
        target = index + 1
        if answer == "b":
            target = index - 1
        elif (typed := _typed_number(answer)) is not None:
            target = typed
        target = max(0, min(len(plays), target))
        while index < target:
            state.push(plays[index])
            index += 1
        while index > target:
            state.pop()
            index -= 1
        console.print(render(state))
        if index:
            console.print(f"last play: {escape(str(plays[index - 1]))}")
    if not interactive:
        console.print(render(state))
    if state.outcome is not None and index == len(plays):
        console.print(
            escape(f"Places by seat: {list(state.outcome.places)} ({state.outcome.reason})")
        )
    return 0


# ---------------------------------------------------------------- perft and bench


def run_perft(ns: argparse.Namespace) -> int:
    rules = Rules(bottom=Bottom(ns.bottom))
    if ns.position == "new":
        state = registry["centrix"].new(4, rules, 0)
    else:
        state = CentrixState.from_position(ns.position, rules)
    if ns.divide and ns.depth < 1:
        # divide splits by the first play, and depth 0 has none.
        raise RulesError("--divide needs a depth of 1 or more")
    start = time.perf_counter()
    if ns.divide:
        rows = divide(state, ns.depth)
        for play, count in rows:
            print(f"{play}: {count}")
        total, generated = sum(c for _, c in rows), 0
    else:
        total, generated = perft_stats(state, ns.depth)
    seconds = time.perf_counter() - start
    print(f"perft({ns.depth}) = {total}")
    if generated:
        print(f"{generated} plays generated in {seconds:.3f} s: {generated / seconds:,.0f} plays/s")
    return 0


def run_bench(ns: argparse.Namespace) -> int:
    from gamenight.bench.centrix import run

    result = run(ns.games, ns.positions, ns.bot_positions, ns.think, ns.peer_scale)
    if ns.json:
        print(json.dumps(result))
        return 0
    path = "the compiled core" if result["compiled"] else "the pure-Python engine (no core built)"
    print(f"Centrix on {path}; `pure` ratios are compiled / pure-Python in this run (CPU time)")
    gen = result["generation"]
    print(f"legal-play generation: {gen['plays_per_s']:,.0f} perft-2 leaves/s (1 core)")
    for players, r in result["random_play"].items():
        print(
            f"random play, {players} players: {r['plays_per_s']:,.0f} plays/s "
            f"({r['stepped_plays_per_s']:,.0f} a push at a time from Python), "
            f"{r['games_per_s']:.2f} games/s, {r['plays_per_game']:.0f} plays and "
            f"{r['turns_per_game']:.0f} turns per game, branching {r['branching']:.1f}"
        )
    b = result["bots"]
    print(
        f"bots, 4-player midgame (CPU per call): sampling a deal {b['sample_us']:.0f} µs, "
        f"scoring every seat {b['scores_us']:.0f} µs; a decision of greedy "
        f"{b['greedy_ms']:.1f} ms, planner2 {b['planner2_ms']:.1f} ms, "
        f"planner {b['planner_ms']:.1f} ms"
    )
    print(
        f"ismcts: {b['ismcts_iterations']:.0f} iterations per decision at {b['ismcts_seconds']:g} s"
    )
    greedy = result["greedy_game"]["4"]
    print(
        f"4-player game of Greedy bots: {greedy['games_per_s']:.2f} games/s, "
        f"{greedy['plays_per_game']:.0f} plays per game; "
        f"ismcts {result['ismcts']['iterations_per_s']:,.0f} iterations/s"
    )
    peers = result["peers"]
    for key, name in (
        ("python_chess_moves_per_s", "python-chess perft leaves/s"),
        ("backgammon_plays_per_s", "OpenSpiel backgammon random plays/s"),
    ):
        value = peers[key]
        print(f"peer: {name}: {'not installed' if value is None else f'{value:,.0f}'}")
    for key, value in result["ratios"].items():
        print(f"ratio {key}: {'-' if value is None else f'{value:.2f}'}")
    return 0
