"""Near-complete lines and blocks (``threats``): the engine's reading of the city that the
web app shows, from the same winning sets and gaps as the victory check (D10–D11)."""

from __future__ import annotations

import random

import pytest

from gamenight.colorcity import Gang, completed_sets, threats, winning_sets
from gamenight.colorcity.position import EMPTY
from gamenight.colorcity.table import DEFAULT_TABLE

G, P = Gang.GREEN, Gang.PURPLE
T = DEFAULT_TABLE
SIZE = T.city_size


def city(**owners: Gang) -> list[int]:
    cells = [EMPTY] * T.num_squares
    for name, gang in owners.items():
        cells[T.parse_square(name)] = int(gang)
    return cells


def row(number: int, gang: Gang, *, but: str) -> dict[str, Gang]:
    return {f"{c}{number}": gang for c in "abcdefghi" if c not in but}


def test_an_empty_city_threatens_nothing() -> None:
    assert threats(city(), SIZE) == {G: (), P: ()}


@pytest.mark.parametrize("lacking", ["e", "ai"])
def test_a_line_lacking_one_or_two_squares_is_a_threat(lacking: str) -> None:
    found = threats(city(**row(5, G, but=lacking)), SIZE)
    assert sorted(T.square_name(q) for q in found[G]) == [f"{c}5" for c in lacking]
    assert found[P] == ()


def test_three_missing_squares_are_no_threat() -> None:
    assert threats(city(**row(5, G, but="aei")), SIZE) == {G: (), P: ()}


def test_the_other_gangs_squares_are_missing_too() -> None:
    owners = {**row(2, P, but="c"), "c2": G}
    found = threats(city(**owners), SIZE)
    assert [T.square_name(q) for q in found[P]] == ["c2"]
    assert found[G] == ()


def test_blocks_count_like_lines() -> None:
    block = {f"{c}{r}": P for c in "fghi" for r in (6, 7, 8, 9)}
    del block["g7"]
    found = threats(city(**block), SIZE)
    assert [T.square_name(q) for q in found[P]] == ["g7"]


def test_within_sets_how_many_missing_squares_still_threaten() -> None:
    cells = city(**row(5, G, but="aei"))
    assert sorted(T.square_name(q) for q in threats(cells, SIZE, within=3)[G]) == [
        "a5",
        "e5",
        "i5",
    ]
    assert threats(cells, SIZE, within=1) == {G: (), P: ()}


def test_a_negative_count_of_missing_squares_is_refused() -> None:
    with pytest.raises(ValueError, match="not -1"):
        threats(city(), SIZE, within=-1)


def test_filling_a_single_gap_completes_the_set_the_victory_check_sees() -> None:
    """The threats and the victory check read one set of gaps: taking a square that is a
    set's only gap completes it, for that gang, and a threat is always one of a set's gaps."""
    rng = random.Random(4)
    for _ in range(200):
        cells = [rng.choice((EMPTY, 0, 1)) if rng.random() < 0.8 else EMPTY for _ in range(81)]
        if completed_sets(cells, SIZE):
            continue
        found = threats(cells, SIZE, within=1)
        for gang in Gang:
            for q in found[gang]:
                taken = list(cells)
                taken[q] = int(gang)
                assert gang in completed_sets(taken, SIZE)
            gaps = {
                q
                for _, squares in winning_sets(SIZE)
                for q in squares
                if cells[q] != gang and sum(cells[s] != gang for s in squares) == 1
            }
            assert set(found[gang]) == gaps
