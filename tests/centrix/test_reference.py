"""legal_plays() against a slow, independent generator written from the rules' text.

The reference walks straight lines in (level, slot) coordinates and simulates bump chains on
a dictionary board; it shares nothing with the engine's generator but the value types.
"""

from __future__ import annotations

import random

import pytest

from gamenight.centrix import (
    OFF,
    TOP,
    Bottom,
    Card,
    CentrixState,
    Move,
    Play,
    Rotation,
    square,
)
from tests.centrix.helpers import random_positions

Where = tuple[int, int]  # (level 1–6, slot)


def reference_plays(state: CentrixState) -> set[Play]:
    seat = state.to_move
    assert seat is not None
    layout = state.rules.layout
    own_colour = state.players[seat]
    board: dict[Where, int] = {
        (sq // 12 + 1, sq % 12): owner for sq, owner in enumerate(state.cells) if owner >= 0
    }
    off = 3 - state.top[seat] - sum(1 for o in board.values() if o == seat)
    out: set[Play] = set()
    for card in set(state.hands[seat]):
        rotations: list[tuple[int, int] | None] = [None]
        my_rings = {lvl for (lvl, _), o in board.items() if o == seat}
        if card is Card.SPIN:
            rotations += [(r, a) for r in my_rings for a in range(-5, 7) if a]
        elif card is not Card.ANY:
            rotations += [(r, a) for r in my_rings for a in (card.number, -card.number)]
        for rot in rotations:
            b = dict(board)
            offsets = list(state.offsets)
            if rot is not None:
                r, a = rot
                b = {
                    ((lvl, (s + a) % 12) if lvl == r else (lvl, s)): o for (lvl, s), o in b.items()
                }
                offsets[r - 1] = (offsets[r - 1] + a) % 12
                out.add(Play(card, Rotation(r, a)))

            def colour_ok(
                dest: Where | None, card: Card = card, offsets: list[int] = offsets
            ) -> bool:
                if card.is_wild:
                    return True
                if dest is None:  # the top
                    return card.colour == own_colour
                lvl, s = dest
                return layout.colour(lvl, s, offsets[lvl - 1]) == card.colour

            starts: list[tuple[int, list[list[Where | None]]]] = []
            for (lvl, s), o in b.items():
                if o != seat:
                    continue
                up: list[Where | None] = [(x, s) for x in range(lvl + 1, 7)] + [None]
                down: list[Where | None] = [(x, s) for x in range(lvl - 1, 0, -1)]
                cw: list[Where | None] = [(lvl, (s + k) % 12) for k in range(1, 12)]
                ccw: list[Where | None] = [(lvl, (s - k) % 12) for k in range(1, 12)]
                starts.append((square(lvl, s), [up, down, cw, ccw]))
            if off:
                entries: list[list[Where | None]] = [
                    [(x, s) for x in range(1, 7)] + [None] for s in range(12)
                ]
                starts.append((OFF, entries))
            for frm, lines in starts:
                for line in lines:
                    if not line:
                        continue
                    first = line[0]
                    if first is None or first not in b:
                        if colour_ok(first):
                            out.add(Play(card, _rot(rot), Move(frm, _sq(first))))
                        continue
                    bump = frm != OFF and bump_is_legal(b, first, frm, state.rules.bottom)
                    if bump and colour_ok(first):
                        out.add(Play(card, _rot(rot), Move(frm, _sq(first))))
                    for dest in line[1:]:
                        if dest is not None and dest in b:
                            continue
                        if colour_ok(dest):
                            out.add(Play(card, _rot(rot), Move(frm, _sq(dest))))
                        break
    return out


def bump_is_legal(board: dict[Where, int], target: Where, frm: int, bottom: Bottom) -> bool:
    origin = (frm // 12 + 1, frm % 12)
    occupied = {w for w in board if w != origin}
    lvl, s = target
    if lvl == 1:
        return False
    while (lvl, s) in occupied:
        if bottom is Bottom.FLOOR and lvl == 1:
            return False
        new = lvl - 2
        if new < 1:
            if bottom is Bottom.PROTECT:
                return False
            if bottom is Bottom.KNOCK_OFF:
                return True
            new = 1
        lvl = new
    return True


def _sq(where: Where | None) -> int:
    return TOP if where is None else square(*where)


def _rot(rot: tuple[int, int] | None) -> Rotation | None:
    return None if rot is None else Rotation(*rot)


@pytest.mark.parametrize("bottom", list(Bottom))
def test_legal_plays_match_the_reference(bottom: Bottom) -> None:
    for state in random_positions(40, seed=len(bottom.value), bottoms=(bottom,), max_plays=900):
        listed = state.legal_plays()
        assert len(listed) == len(set(listed)), state.position()
        assert set(listed) == reference_plays(state), state.position()


def test_every_listed_play_is_legal_and_others_are_not() -> None:
    rng = random.Random(5)
    for state in random_positions(15, seed=17, bottoms=(Bottom.PROTECT,), max_plays=900):
        legal = set(state.legal_plays())
        for play in legal:
            assert state.is_legal(play)
        seat = state.to_move
        assert seat is not None
        # Candidate plays from every card: any listed one is legal, any other is refused.
        for _ in range(200):
            card = rng.choice(list(Card))
            move = Move(rng.choice([*range(72), OFF]), rng.choice([*range(72), TOP]))
            play = Play(card, None, move)
            assert state.is_legal(play) == (play in legal)
