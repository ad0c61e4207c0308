"""Engine targets: every parser of text or records in gamenight.centrix, .colorcity, .core.

Each parser may raise only the error its docstring names, on any input; a state given an
action it refuses must be left exactly as it was. Inputs are mostly mutations of valid
texts and records taken from real games (so they get past the first checks), the rest
random text and JSON values of every type.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from gamenight.bots.colorcity import SimpleBot
from gamenight.centrix import (
    Card,
    CentrixState,
    Colour,
    IllegalPlayError,
    Rules,
    parse_play,
    parse_square,
)
from gamenight.centrix import Position as CentrixPosition
from gamenight.centrix import PositionError as CentrixPositionError
from gamenight.centrix.cards import parse_cards
from gamenight.centrix.plays import parse_rotation
from gamenight.centrix.record import replay as centrix_replay
from gamenight.colorcity import (
    DEFAULT_TABLE,
    ColorCityState,
    Decision,
    Gang,
    Pitch,
    Pose,
    Shot,
    Skill,
    Table,
    parse_action,
    to_record,
)
from gamenight.colorcity import Position as ColorCityPosition
from gamenight.colorcity import PositionError as ColorCityPositionError
from gamenight.colorcity import replay as colorcity_replay
from gamenight.core.errors import (
    IllegalActionError,
    NotationError,
    RecordError,
    RulesError,
)
from gamenight.core.record import GameRecord

from . import generators as gen
from .harness import Probe, Target

CENTRIX_PLAY_ALPHABET = "RBGOYWAS0123456789+-abcdefghijkl ,T"
CENTRIX_POSITION_ALPHABET = "ROYGBWroygbw.0123456789ab/,-ASTx "
COLORCITY_SHOT_ALPHABET = "0123456789.,- e"
COLORCITY_POSITION_ALPHABET = ".gp/0123456789,LP-:= abcdef"


@dataclass(frozen=True)
class Corpus:
    """Valid material from real games, for the mutations to start from."""

    centrix_states: tuple[CentrixState, ...]
    centrix_positions: tuple[str, ...]
    centrix_plays: tuple[str, ...]
    centrix_records: tuple[dict[str, Any], ...]
    colorcity_states: tuple[ColorCityState, ...]
    colorcity_positions: tuple[str, ...]
    colorcity_actions: tuple[str, ...]
    colorcity_records: tuple[dict[str, Any], ...]


def _centrix_games(
    rng: random.Random,
) -> tuple[list[CentrixState], list[str], list[str], list[dict[str, Any]]]:
    """States, positions, plays and records of random Centrix games of 2 to 6 seats."""
    states: list[CentrixState] = []
    positions: list[str] = []
    plays: list[str] = []
    records: list[dict[str, Any]] = []
    for players, seed in ((2, 1), (3, 2), (4, 3), (6, 4)):
        state = CentrixState.new(players, seed=seed, first=seed % players)
        for _ in range(60 if players < 6 else 30):
            if state.is_over:
                break
            legal = state.legal_plays()
            plays.extend(str(p) for p in rng.sample(legal, min(3, len(legal))))
            state.push(rng.choice(legal))
            positions.append(state.position())
            if rng.random() < 0.2:
                states.append(state.copy())
        states.append(state.copy())
        records.append(state.record(["A"] * players).to_dict())
    return states, positions, plays, records


def _colorcity_games() -> tuple[list[ColorCityState], list[str], list[str], list[dict[str, Any]]]:
    """States, positions, actions and records of two short Color City games between bots."""
    states: list[ColorCityState] = []
    positions: list[str] = []
    actions: list[str] = [d.value for d in Decision]
    records: list[dict[str, Any]] = []
    for seed in (5, 6):
        table = DEFAULT_TABLE.with_(max_turns=6)
        state = ColorCityState.new(
            seed=seed, seats=[(Gang.GREEN, "normal"), (Gang.PURPLE, "exact")], table=table
        )
        bot = SimpleBot(seed)
        while not state.is_over:
            states.append(state.copy())
            action = bot.choose(state.view(state.pitcher))
            actions.append(str(action))
            state.push(action)
            positions.append(state.position())
        states.append(state.copy())
        records.append(to_record(state, ["A", "B"]).to_dict())
    return states, positions, actions, records


@cache
def corpus() -> Corpus:
    c_states, c_positions, c_plays, c_records = _centrix_games(random.Random(20261201))
    k_states, k_positions, k_actions, k_records = _colorcity_games()
    return Corpus(
        tuple(c_states),
        tuple(c_positions),
        tuple(c_plays),
        tuple(c_records),
        tuple(k_states),
        tuple(k_positions),
        tuple(k_actions),
        tuple(k_records),
    )


def _text_input(
    rng: random.Random, valid: tuple[str, ...], alphabet: str, text_only: bool = False
) -> Any:
    """Mostly a mutation of a valid text; sometimes random text, huge text, or (for parsers
    that say what they do with a value that is not text) no text at all."""
    roll = rng.random() * (0.95 if text_only else 1)
    if roll < 0.65:
        return gen.mutate_text(rng.choice(valid), rng, alphabet)
    if roll < 0.9:
        return gen.text(rng, alphabet)
    if roll < 0.95:
        return gen.huge_string(rng)
    return gen.to_python(gen.value(rng))  # not even a str: the parser must say so


def _json_text(rng: random.Random, valid: tuple[dict[str, Any], ...]) -> str:
    """Record JSON: a valid record mutated as a tree or as text, or hostile JSON."""
    roll = rng.random()
    if roll < 0.5:
        return gen.write(gen.mutate_json(rng.choice(valid), rng), rng)
    if roll < 0.7:
        return gen.mutate_text(json.dumps(rng.choice(valid)), rng, '{}[]":,0123456789')
    if roll < 0.8:
        base = dict(rng.choice(valid))
        base[rng.choice(list(base))] = gen.deep(rng)
        return gen.write(base, rng)
    if roll < 0.9:
        base = dict(rng.choice(valid))
        base[rng.choice(("seed", "format", "actions", "rules"))] = rng.choice(gen.HUGE_NUMBERS)
        return gen.write(base, rng)
    return gen.write(gen.value(rng), rng)


def _rules_input(rng: random.Random, valid: dict[str, Any]) -> Any:
    roll = rng.random()
    if roll < 0.7:
        return gen.to_python(gen.mutate_json(valid, rng))
    if roll < 0.85:
        return gen.to_python(gen.mutate_dict(valid, rng))
    return gen.to_python(gen.value(rng))


def expect(
    probe: Probe, call: Callable[[], object], documented: tuple[type[Exception], ...], what: str
) -> bool:
    """Run ``call``; True if it returned, False if it raised a documented error; anything
    else it raises is unhandled."""
    try:
        call()
    except documented:
        return False
    except Exception as exc:
        probe.unhandled(f"{what}: {type(exc).__name__}: {str(exc)[:160]}")
        return False
    return True


def check_position(
    probe: Probe,
    text: Any,
    parse: Callable[[Any], object],
    load: Callable[[Any], object],
    error: type[Exception],
) -> None:
    """A position string read alone (``Position.parse``) and into a state
    (``from_position``): both raise only the game's PositionError."""
    expect(probe, lambda: parse(text), (error,), "Position.parse")
    expect(probe, lambda: load(text), (error,), "from_position")


def _history(state: CentrixState | ColorCityState) -> tuple[str, list[str], list[int]]:
    moves = state.plays if isinstance(state, CentrixState) else state.actions
    return state.position(), [str(m) for m in moves], list(state.movers)


def check_push(
    rng: random.Random,
    probe: Probe,
    states: Sequence[CentrixState | ColorCityState],
    text: Any,
    documented: tuple[type[Exception], ...],
) -> None:
    """``push(text)`` on a copy of one of ``states``: refused only with a documented error,
    and then with the state (position and history) exactly as it was."""
    if not isinstance(text, str):
        return  # push is typed for text and actions, and says nothing of other values
    state = rng.choice(states).copy()
    before = _history(state)
    if not expect(probe, lambda: state.push(text), documented, "push") and (
        _history(state) != before
    ):
        probe.state_changed(f"push({text!r:.80}) was refused but changed the state")


# ---------------------------------------------------------------- Centrix


def centrix_position(rng: random.Random, probe: Probe) -> None:
    text = _text_input(rng, corpus().centrix_positions, CENTRIX_POSITION_ALPHABET)
    check_position(
        probe, text, CentrixPosition.parse, CentrixState.from_position, CentrixPositionError
    )


def centrix_play(rng: random.Random, probe: Probe) -> None:
    text = _text_input(rng, corpus().centrix_plays, CENTRIX_PLAY_ALPHABET)
    expect(probe, lambda: parse_play(text), (NotationError,), "parse_play")
    check_push(rng, probe, corpus().centrix_states, text, (NotationError, IllegalPlayError))


def centrix_notation(rng: random.Random, probe: Probe) -> None:
    """Rotations, cards, squares and colours: the pieces a play and a position are made of."""
    # Typed ``str`` and not promised more: given text only (mypy keeps callers to that).
    text = _text_input(rng, corpus().centrix_plays, CENTRIX_PLAY_ALPHABET, text_only=True)
    piece = rng.choice(text.split() or [text])
    for name, read in (
        ("parse_rotation", parse_rotation),
        ("Card.parse", Card.parse),
        ("parse_cards", parse_cards),
        ("parse_square", parse_square),
        ("Colour.parse", Colour.parse),
        ("Colour.from_letter", Colour.from_letter),
    ):
        expect(probe, lambda read=read: read(piece), (NotationError,), name)  # type: ignore[misc]


def centrix_rules(rng: random.Random, probe: Probe) -> None:
    data = _rules_input(rng, Rules().to_dict())
    expect(probe, lambda: Rules.from_dict(data), (RulesError,), "Rules.from_dict")


def centrix_record(rng: random.Random, probe: Probe) -> None:
    text = _json_text(rng, corpus().centrix_records)
    expect(probe, lambda: centrix_replay(text), (RecordError,), "centrix replay")


# ---------------------------------------------------------------- Color City


def colorcity_position(rng: random.Random, probe: Probe) -> None:
    text = _text_input(rng, corpus().colorcity_positions, COLORCITY_POSITION_ALPHABET)
    check_position(
        probe, text, ColorCityPosition.parse, ColorCityState.from_position, ColorCityPositionError
    )


def colorcity_action(rng: random.Random, probe: Probe) -> None:
    text = _text_input(rng, corpus().colorcity_actions, COLORCITY_SHOT_ALPHABET)
    expect(probe, lambda: parse_action(text), (NotationError,), "parse_action")
    expect(probe, lambda: Shot.parse(text), (NotationError,), "Shot.parse")
    check_push(rng, probe, corpus().colorcity_states, text, (NotationError, IllegalActionError))


def colorcity_notation(rng: random.Random, probe: Probe) -> None:
    """Decisions, skills, gangs, squares and poses."""
    valid = ("lucky-day", "normal", "green", "e5", "g", "1,2,3,1,0,0,0")
    text = _text_input(rng, valid, "", text_only=True)
    for name, read, documented in (
        ("Decision.parse", Decision.parse, (NotationError,)),
        ("Skill.parse", Skill.parse, (NotationError,)),
        ("Gang.parse", Gang.parse, (RulesError,)),
        ("Table.parse_square", DEFAULT_TABLE.parse_square, (RulesError,)),
        ("Pose.parse", Pose.parse, (ValueError,)),  # documented: ValueError naming the problem
    ):
        expect(probe, lambda read=read: read(text), documented, name)  # type: ignore[misc]


def colorcity_table(rng: random.Random, probe: Probe) -> None:
    data = _rules_input(rng, DEFAULT_TABLE.to_dict())
    expect(probe, lambda: Table.from_dict(data), (RulesError,), "Table.from_dict")


def colorcity_record(rng: random.Random, probe: Probe) -> None:
    records = corpus().colorcity_records
    text = _json_text(rng, records)
    expect(probe, lambda: colorcity_replay(text), (RecordError,), "colorcity replay")
    pitches = [a for r in records for a in r["actions"] if isinstance(a, dict)]
    data = gen.to_python(
        gen.mutate_json(rng.choice(pitches), rng) if rng.random() < 0.8 else gen.value(rng)
    )
    expect(probe, lambda: Pitch.from_json(data), (RecordError,), "Pitch.from_json")


# ---------------------------------------------------------------- core


def core_record(rng: random.Random, probe: Probe) -> None:
    records = (*corpus().centrix_records, *corpus().colorcity_records)
    text = _json_text(rng, records)
    expect(probe, lambda: GameRecord.from_json(text), (RecordError,), "GameRecord.from_json")
    data = gen.to_python(gen.mutate_json(rng.choice(records), rng))
    expect(probe, lambda: GameRecord.from_dict(data), (RecordError,), "GameRecord.from_dict")


TARGETS: dict[str, tuple[Target, float]] = {
    # name: (target, share of the engine inputs)
    "centrix position": (centrix_position, 2),
    "centrix play": (centrix_play, 2),
    "centrix notation": (centrix_notation, 1),
    "centrix rules": (centrix_rules, 1),
    "centrix record": (centrix_record, 1.5),
    "colorcity position": (colorcity_position, 2),
    "colorcity action": (colorcity_action, 2),
    "colorcity notation": (colorcity_notation, 1),
    "colorcity table": (colorcity_table, 1),
    "colorcity record": (colorcity_record, 1.5),
    "core record": (core_record, 1),
}
