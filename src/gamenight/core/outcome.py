"""How a game ended: a place for every seat and the reason."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gamenight.core.errors import RecordError


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game.

    ``places[seat]`` is that seat's place, 1 being first. Seats that tie share a place
    and the next place is skipped ("1, 2, 2, 4"). ``reason`` says why the game ended;
    each game documents its reasons, and ``"turn_cap"`` always means the turn cap. A table
    may end a game its rules have not ended (gamenight.core.endings: a seat resigned, ran
    out of time, the table was abandoned); ``seats`` then names the seats the reason is
    about (who resigned, whose time ran out), and is empty for every other reason.
    """

    places: tuple[int, ...]
    reason: str
    seats: tuple[int, ...] = ()

    @property
    def at_cap(self) -> bool:
        """Whether the game ended at the turn cap."""
        return self.reason == "turn_cap"

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats in first place, in seat order."""
        return tuple(seat for seat, place in enumerate(self.places) if place == 1)

    @property
    def winner(self) -> int | None:
        """The single winning seat, or None for a shared first place."""
        winners = self.winners
        return winners[0] if len(winners) == 1 else None

    @property
    def is_draw(self) -> bool:
        """Whether more than one seat shares first place."""
        return len(self.winners) > 1

    def ranking(self) -> list[int]:
        """Seats from first place to last (ties in seat order)."""
        return sorted(range(len(self.places)), key=lambda seat: (self.places[seat], seat))

    def to_dict(self) -> dict[str, Any]:
        """The outcome as JSON-ready data; ``from_dict`` reads it back."""
        data: dict[str, Any] = {"places": list(self.places), "reason": self.reason}
        if self.seats:  # (absent otherwise: every record written before reads the same)
            data["seats"] = list(self.seats)
        return data

    @classmethod
    def from_dict(cls, data: Any) -> Outcome:
        """An outcome from data shaped like ``to_dict``'s: a place from 1 to the number of
        seats for each seat, a reason in text, perhaps ``seats`` (distinct seat numbers);
        raises RecordError, and nothing else, for any other ``data``."""
        if isinstance(data, dict) and isinstance(data.get("reason"), str):
            places = data.get("places")
            seats = data.get("seats", [])
            if (
                isinstance(places, list)
                and places
                and all(_whole(p) and 1 <= p <= len(places) for p in places)
                and isinstance(seats, list)
                and all(_whole(s) and 0 <= s < len(places) for s in seats)
                and len(set(seats)) == len(seats)
            ):
                return cls(tuple(places), data["reason"], tuple(seats))
        raise RecordError(
            "an outcome is an object with 'places' (a place from 1 to the number of seats for"
            " each seat), 'reason' (text) and perhaps 'seats' (distinct seat numbers)"
        )

    @staticmethod
    def places_from_scores(scores: list[tuple[float, ...]], first_place: int = 1) -> list[int]:
        """Competition ranking of score tuples (higher is better), starting at first_place."""
        order = sorted(range(len(scores)), key=lambda i: scores[i], reverse=True)
        places = [0] * len(scores)
        for rank, i in enumerate(order):
            if rank and scores[i] == scores[order[rank - 1]]:
                places[i] = places[order[rank - 1]]
            else:
                places[i] = first_place + rank
        return places


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def win_share(places: Sequence[int], seat: int) -> float:
    """The seat's share of a win: 1 alone in first place, 1/k when k seats share it, else 0."""
    if places[seat] != 1:
        return 0.0
    return 1.0 / sum(1 for p in places if p == 1)
