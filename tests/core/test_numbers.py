"""The one reader of numbers in text: ASCII digits only, bounded, failing with the caller's
error."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamenight.core.errors import NotationError, RecordError
from gamenight.core.numbers import MAX_DIGITS, read_decimal, read_whole_number
from tests.parsing import SETTINGS, any_text, only_raises


@pytest.mark.parametrize("text", ["²", "٣", "０", "1_0", " 1", "1 ", "+1", "-1", "", "0x1f", "1.0"])
def test_whole_numbers_are_ascii_digits_and_nothing_else(text: str) -> None:
    with pytest.raises(NotationError, match="the turn must be a whole number"):
        read_whole_number(text, "the turn", NotationError)


def test_whole_numbers_read_as_int_reads_them() -> None:
    assert read_whole_number("007", "n", NotationError) == 7
    assert read_whole_number("-12", "n", NotationError, signed=True) == -12
    assert read_whole_number("9F3c", "key", NotationError, base=16) == 0x9F3C
    with pytest.raises(RecordError, match="at most 100 digits"):
        read_whole_number("9" * 5000, "the seed", RecordError)
    assert read_whole_number("9" * MAX_DIGITS, "n", NotationError) == 10**MAX_DIGITS - 1
    with pytest.raises(NotationError, match="written as text, not int"):
        read_whole_number(5, "n", NotationError)


@pytest.mark.parametrize(
    "text", ["nan", "inf", "-Infinity", "1e400", "1_0", "１", "1,5", ".", "e5", " 1"]
)
def test_decimals_are_finite_ascii_numbers(text: str) -> None:
    with pytest.raises(NotationError, match="the shot's speed must be"):
        read_decimal(text, "the shot's speed", NotationError)


@pytest.mark.parametrize("value", [0.1, -12.5, 1e-05, 1.5e20, -0.0, 3.0, 2.0005])
def test_decimals_read_every_float_repr_writes(value: float) -> None:
    assert read_decimal(repr(value), "x", NotationError) == value
    assert read_decimal(".5", "x", NotationError) == 0.5
    assert read_decimal("5.", "x", NotationError) == 5.0


@settings(**SETTINGS)
@given(st.one_of(any_text, st.integers().map(str), st.floats().map(repr)))
def test_any_text_gives_the_number_or_the_callers_error(text: str) -> None:
    whole = only_raises(NotationError, lambda t: read_whole_number(t, "n", NotationError), text)
    if whole is not None:
        assert re.fullmatch("[0-9]+", text)
        assert whole == int(text)
    decimal = only_raises(NotationError, lambda t: read_decimal(t, "x", NotationError), text)
    if decimal is not None:
        assert text.isascii()
        assert decimal == float(text)
