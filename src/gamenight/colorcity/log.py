"""Color City's log: one entry per pitch or power decision, with what a pitch did.

A pitch's entry holds the seat, the pitch, the squares its cube covered and those of the
other gang among them (lost if the pitch stands: Lucky Day may void it, the next entry); a
decision's, the seat and the decision. The state writes them (``ColorCityState.log``);
pages word them, bots and the analysis can read them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gamenight.colorcity.actions import Decision, Pitch
from gamenight.colorcity.coverage import covered_squares
from gamenight.colorcity.position import EMPTY
from gamenight.colorcity.shots import Shot

if TYPE_CHECKING:  # (the state writes its log with this module)
    from gamenight.colorcity.state import ColorCityState


def shot_text(shot: Shot) -> str:
    """A shot's notation as people read it (the record keeps every digit): the position and
    direction to a tenth, the speed to a hundredth, the spin to a tenth."""
    return str(
        Shot(
            round(shot.position, 1) + 0.0,
            round(shot.direction, 1) + 0.0,
            round(shot.speed, 2),
            round(shot.spin, 1) + 0.0,
        )
    )


@dataclass(frozen=True, slots=True)
class PitchEntry:
    """A pitch in the log: ``seat`` pitched ``pitch``, whose cube covered the squares
    ``covered``, the other gang's ``lost`` among them (named as the table names them)."""

    seat: int
    pitch: Pitch
    covered: tuple[str, ...]
    lost: tuple[str, ...]

    @property
    def notation(self) -> str:
        """The shot, rounded as people read it (``shot_text``)."""
        return shot_text(self.pitch.shot)

    @property
    def fell(self) -> bool:
        """Whether the cube fell off the table (D5)."""
        return not self.pitch.pose.on_table

    def to_dict(self) -> dict[str, Any]:
        """``seat``, ``notation``, ``covered``, ``lost``, and ``fell`` (true) for a cube that
        fell off the table."""
        out: dict[str, Any] = {
            "seat": self.seat,
            "notation": self.notation,
            "covered": list(self.covered),
            "lost": list(self.lost),
        }
        if self.fell:
            out["fell"] = True
        return out


@dataclass(frozen=True, slots=True)
class DecisionEntry:
    """A power decision in the log: ``seat`` decided ``decision``."""

    seat: int
    decision: Decision

    @property
    def notation(self) -> str:
        """The decision's name (``lucky-day``, ``purple-pain``, ``pass``)."""
        return self.decision.value

    def to_dict(self) -> dict[str, Any]:
        """``seat`` and ``notation``."""
        return {"seat": self.seat, "notation": self.notation}


LogEntry = PitchEntry | DecisionEntry


def log_entries(state: ColorCityState, count: int) -> list[LogEntry]:
    """The entries of the last ``count`` actions on ``state``'s stack, read from the
    snapshots beside them (each holds the city and the gang to move as they were before its
    action): the state is untouched."""
    table = state.table
    out: list[LogEntry] = []
    stack = state._stack  # (the package's own state)
    for action, before in stack[len(stack) - count :]:
        seat = state.seat_for_turn(before.gang, before.turn)
        if isinstance(action, Pitch):
            squares = covered_squares(table, action.pose)
            lost = [q for q in squares if before.cells[q] not in (EMPTY, int(before.gang))]
            out.append(
                PitchEntry(
                    seat,
                    action,
                    tuple(table.square_name(q) for q in squares),
                    tuple(table.square_name(q) for q in lost),
                )
            )
        else:
            out.append(DecisionEntry(seat, Decision(action)))
    return out
