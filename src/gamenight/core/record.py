"""The JSON game record both games share: set-up, seed, seats, actions, outcome.

A record replays exactly: the set-up plus the seed decides every random event, and the
actions are stored in each game's own text notation (plus whatever a game must keep to
stay independent of library versions, such as Color City's flick results).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from gamenight.core.errors import RecordError, shown
from gamenight.core.jsontext import check_json_value, read_json
from gamenight.core.outcome import Outcome

FORMAT_VERSION = 1


def check_whole(forgotten: int) -> None:
    """A record holds every action from the set-up: refuse to write one from a state that
    has forgotten its first ``forgotten`` (``clear_stack``), rather than a record that does
    not replay."""
    if forgotten:
        raise RecordError(
            f"the game's first {forgotten} actions were forgotten (clear_stack): this state"
            " cannot write its record"
        )


@dataclass
class GameRecord:
    """One game as data: its rules, seed, seats and set-up, every action, and how it ended.

    ``actions`` are in the game's own notation; ``outcome`` and ``final_position`` (when
    present) are what a replay must reach.
    """

    game: str
    rules: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    actions: list[Any] = field(default_factory=list)
    setup: dict[str, Any] = field(default_factory=dict)
    outcome: Outcome | None = None
    final_position: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON-ready data, stamped with the format version."""
        return {
            "format": FORMAT_VERSION,
            "game": self.game,
            "rules": self.rules,
            "seed": self.seed,
            "seats": self.seats,
            "setup": self.setup,
            "actions": self.actions,
            "outcome": self.outcome.to_dict() if self.outcome else None,
            "final_position": self.final_position,
        }

    def to_json(self, indent: int | None = 2) -> str:
        """The record as JSON text (``indent=None``: one line)."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: Any, game: str | None = None) -> GameRecord:
        """The record in ``data``, checked field by field (and that it is of ``game`` if
        given); raises RecordError naming the first problem, and nothing else, for any
        ``data``. What the rules, seats, set-up and actions hold is the game's to check."""
        # Whatever is accepted here must write as JSON and read back the same.
        check_json_value(data, "the record", RecordError)
        return cls._from_json_value(data, game)

    @classmethod
    def _from_json_value(cls, data: Any, game: str | None) -> GameRecord:
        # ``data`` has passed check_json_value; the fields are checked here.
        if not isinstance(data, dict):
            raise RecordError("a game record is a JSON object")
        if data.get("format") != FORMAT_VERSION:
            found = data.get("format")
            raise RecordError(f"unknown record format {shown(found)} (this reads {FORMAT_VERSION})")
        if game is not None and data.get("game") != game:
            raise RecordError(
                f"this is a record of {shown(data.get('game'))}, not of {shown(game)}"
            )
        for key, kind, name in (
            ("game", str, "a string"),
            ("rules", dict, "an object"),
            ("seed", int, "a whole number"),
            ("seats", list, "a list"),
            ("actions", list, "a list"),
        ):
            if not isinstance(data.get(key), kind) or isinstance(data.get(key), bool):
                raise RecordError(f"the record's {shown(key)} must be {name}")
        if not all(isinstance(seat, dict) for seat in data["seats"]):
            raise RecordError("each of the record's 'seats' must be an object")
        setup = data.get("setup", {})
        if not isinstance(setup, dict):
            raise RecordError("the record's 'setup' must be an object")
        raw_outcome = data.get("outcome")
        final = data.get("final_position")
        if final is not None and not isinstance(final, str):
            raise RecordError("the record's 'final_position' must be a string")
        return cls(
            game=data["game"],
            rules=data["rules"],
            seed=data["seed"],
            seats=data["seats"],
            actions=data["actions"],
            setup=setup,
            outcome=Outcome.from_dict(raw_outcome) if raw_outcome is not None else None,
            final_position=final,
        )

    @classmethod
    def from_json(cls, text: str | bytes, game: str | None = None) -> GameRecord:
        """The record in JSON ``text`` (or UTF-8 bytes), as ``from_dict``; raises
        RecordError, and nothing else, for any input (see ``core.jsontext.read_json``)."""
        return cls._from_json_value(read_json(text, "the record", RecordError), game)
