"""A Centrix play in words, from the player's own view: what it turns, where the pawn goes
and whom it bumps ("bumps blue's pawn two levels and climbs to level 4"), in English and
Korean. For hints and the analysis' mistakes; it reads the board and the play only, never a
hand.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from gamenight.centrix.board import NUM_SLOTS, OFF, TOP
from gamenight.centrix.plays import Play
from gamenight.centrix.state import CentrixView


class Words(NamedTuple):
    """A sentence in English and in Korean."""

    en: str
    ko: str

    def __str__(self) -> str:
        return self.en


def spelled(n: int) -> str:
    """Small counts in words, as a sentence has them."""
    return ("zero", "one", "two", "three", "four", "five", "six")[n] if 0 <= n <= 6 else str(n)


def level(sq: int) -> int:
    """A square's level: 0 off the board, rings 1–6, 7 the top."""
    if sq == OFF:
        return 0
    if sq == TOP:
        return 7
    return sq // NUM_SLOTS + 1


def play_words(view: CentrixView, play: Play) -> Words:
    """What ``play`` does, for the seat to move in ``view`` (its own view suffices: the
    effects of a play depend on the board and the play alone). Raises IllegalPlayError for
    a play that is not legal there."""
    # Any deal consistent with the view will do: a play's effects never depend on a hand.
    state = view.sample(random.Random(0))
    effects = state.effects(play)
    en: list[str] = []
    ko: list[str] = []
    rotation = play.rotation
    if rotation is not None:
        slots = abs(rotation.amount)
        way = "clockwise" if rotation.amount > 0 else "anticlockwise"
        en.append(f"turns ring {rotation.ring} {spelled(slots)} slot{'s' * (slots != 1)} {way}")
        way_ko = "시계 방향" if rotation.amount > 0 else "반시계 방향"
        ending = "돌리고" if effects else "돌립니다"
        ko.append(f"{rotation.ring}번 링을 {way_ko}으로 {slots}칸 {ending}")
    if effects:
        _, frm, to = effects[0]
        for seat, at, dropped in effects[1:]:
            colour = view.players[seat]
            name, name_ko = colour.name.lower(), colour.ko
            if dropped == OFF:
                en.append(f"knocks {name}'s pawn off the board")
                ko.append(f"{name_ko} 말을 보드 밖으로 밀어내고")
            else:
                drop = level(at) - level(dropped)
                en.append(f"bumps {name}'s pawn {spelled(drop)} level{'s' * (drop != 1)}")
                ko.append(f"{name_ko} 말을 {drop}층 밀어내리고")
        start, end = level(frm), level(to)
        if to == TOP:
            en.append("reaches the top")
            ko.append("꼭대기에 오릅니다")
        elif frm == OFF:
            en.append(f"enters a pawn on level {end}")
            ko.append(f"새 말을 {end}층에 들여놓습니다")
        elif end > start:
            en.append(f"climbs to level {end}")
            ko.append(f"{end}층으로 올라갑니다")
        elif end < start:
            en.append(f"steps down to level {end}")
            ko.append(f"{end}층으로 내려갑니다")
        else:
            en.append(f"moves along level {end}")
            ko.append(f"{end}층에서 옆으로 갑니다")
    text = ", ".join(en[:-1]) + (" and " if len(en) > 1 else "") + en[-1]
    return Words(text, " ".join(ko))
