"""Hostile input for the parsers' tests: arbitrary text and JSON-like values, and mutations
of valid texts and records, weighted toward what broke parsers before (Unicode digits,
surrogates, huge integers, NaN, deep nesting, wrong types)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

SETTINGS = {"max_examples": 300, "deadline": None}

# Characters that look like digits, signs or separators to some reader but not to a notation.
TRICKY = "0123456789+-.,:/_eE xX²³¹٣൧０１ ⁰\u00a0\t\n\ud800\udfffinfNa"

tricky_text = st.text(alphabet=TRICKY, max_size=30)
any_text = st.one_of(st.text(max_size=60), tricky_text, st.just("9" * 5000), st.just("٣" * 3))


class Nested(list[Any]):
    """A list nested ``depth`` deep, built without recursion, that prints short (printing
    it whole, as hypothesis does with a failing example, would exhaust the stack)."""

    def __init__(self, depth: int) -> None:
        value: list[Any] = []
        for _ in range(depth - 1):
            value = [value]
        super().__init__([value])
        self.depth = depth

    def __repr__(self) -> str:
        return f"Nested({self.depth})"


scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from([5000, -5000, 64]).map(lambda e: 10 ** abs(e) * (1 if e > 0 else -1)),
    st.floats(),  # NaN and ±infinity included
    any_text,
)
json_shallow = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.text(max_size=8) | st.integers(), children, max_size=4)
    ),
    max_leaves=12,
)
"""JSON-like values that json.dumps can still write (deep nesting is in hostile texts)."""
json_like = json_shallow | st.integers(1000, 3000).map(Nested)


def hostile_json_texts() -> st.SearchStrategy[str | bytes]:
    """Text that is, or is nearly, JSON: deep nesting, huge integers, constants, bytes."""
    return st.one_of(
        any_text,
        st.integers(50, 100_000).map(lambda d: "[" * d + "]" * d),
        st.integers(50, 10_000).map(lambda d: '{"a":' * d + "1" + "}" * d),
        st.sampled_from(["NaN", "Infinity", "-Infinity", "1e400", "-1e999", '"\\ud800"']),
        st.integers(4300, 6000).map(lambda n: "9" * n),
        st.binary(max_size=40),
        st.text(max_size=40).map(lambda t: t.encode("utf-16")),
    )


@st.composite
def mutated_text(draw: st.DrawFn, valid: str) -> str:
    """``valid`` with a few characters replaced, removed or inserted, or a field swapped."""
    text = valid
    for _ in range(draw(st.integers(1, 3))):
        fields = text.split(" ")
        kind = draw(st.sampled_from(["replace", "delete", "insert", "field"]))
        at = draw(st.integers(0, max(0, len(text) - 1)))
        if kind == "replace" and text:
            text = text[:at] + draw(st.text(TRICKY, min_size=1, max_size=3)) + text[at + 1 :]
        elif kind == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 5)) :]
        elif kind == "insert":
            text = text[:at] + draw(tricky_text) + text[at:]
        else:
            i = draw(st.integers(0, len(fields) - 1))
            fields[i] = draw(any_text | st.sampled_from(fields))
            text = " ".join(fields)
    return text


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place inside a JSON-like value down to six levels, the value itself first
    (deeper, a mutation's own deep nesting would exhaust the stack here)."""
    found = [prefix]
    if len(prefix) >= 6:
        return found
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, (*prefix, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += paths(item, (*prefix, i))
    return found


@st.composite
def mutated_value(draw: st.DrawFn, valid: Any, values: st.SearchStrategy[Any] = json_like) -> Any:
    """A deep copy of ``valid`` with one to three places replaced by arbitrary values (or,
    in an object, removed or joined by an unknown key)."""
    value = json.loads(json.dumps(valid))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(paths(value)))
        if not path:
            return draw(values)
        parent = value
        for step in path[:-1]:
            parent = parent[step]
        kind = draw(st.sampled_from(["replace", "replace", "remove", "add"]))
        if kind == "remove":
            del parent[path[-1]]
        elif kind == "add" and isinstance(parent, dict):
            parent[draw(st.text(max_size=6))] = draw(values)
        else:
            parent[path[-1]] = draw(values)
    return value


def dumps(value: Any) -> str:
    """``value`` as JSON text, huge integers written out in full (json.dumps refuses them
    by default, and they are exactly what a reader must survive)."""
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return json.dumps(value)
    finally:
        sys.set_int_max_str_digits(limit)


def only_raises(error: type[Exception], parse: Callable[[Any], Any], value: Any) -> Any:
    """``parse(value)``, or None if it raised ``error``; any other exception fails the test
    (pytest shows it with its traceback)."""
    try:
        return parse(value)
    except error:
        return None
