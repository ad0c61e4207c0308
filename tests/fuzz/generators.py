"""Seeded generators of hostile input: JSON text, values of every wrong type, mutated text.

Everything here draws from one ``random.Random`` passed in, so a run is reproduced by its
seed. JSON is written by hand (``Raw`` tokens), because the inputs that matter most are
the ones ``json.dumps`` cannot write: integers of thousands of digits, ``NaN``, ``-0``,
lone surrogates, nesting deeper than any recursion limit.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Raw:
    """JSON text put into a document as it is (a number or literal json.dumps cannot write)."""

    text: str


# Numbers at every edge a parser may trip on: Python's 4,300-digit int limit, floats that
# overflow to infinity, negative zero, the non-standard literals Python's json accepts.
HUGE_NUMBERS = (
    Raw("1" + "0" * 5000),
    Raw("-" + "9" * 4301),
    Raw("1" + "0" * 4299),
    Raw("1e308"),
    Raw("1e309"),
    Raw("-1e400"),
    Raw("1e-400"),
    Raw("-0"),
    Raw("-0.0"),
    Raw("NaN"),
    Raw("Infinity"),
    Raw("-Infinity"),
    Raw(str(2**63)),
    Raw(str(-(2**63) - 1)),
    Raw(str(2**64)),
    Raw("0.1e1"),
    Raw("123456789012345678901234567890.5"),
)

# Text that looks like numbers to ``str.isdigit`` or ``float`` but not to a careful reader.
TRICKY_TEXT = (
    "²",
    "³4",
    "١٢٣",  # Arabic-Indic digits
    "１２",  # full-width digits
    "߀",
    "𝟙",
    "Ⅻ",
    "½",
    "1_000",
    "0x1f",
    "1e5",
    "nan",
    "inf",
    "-inf",
    "+1",
    "-0",
    " 1 ",
    "\u00a01",
    "1\u200b",
    "\x00",
    "\ud800",  # a lone surrogate: valid in a Python str, not in UTF-8
    "\udfff1",
    "\ufeff",
    "\n",
    "\t",
    "\r\n",
    "",
    " ",
    "—",
    "ß",
    "İ",
    "ﬃ",
    "💥",
    "9" * 5000,
    "1" + "0" * 4300,
)

KEYS = (
    "type",
    "seat",
    "action",
    "tokens",
    "shot",
    "rotation",
    "revision",
    "id",
    "game",
    "seats",
    "kind",
    "level",
    "role",
    "skill",
    "name",
    "first",
    "rules",
    "seed",
    "renew",
    "format",
    "actions",
    "setup",
    "outcome",
    "final_position",
    "__proto__",
    "",
)


def write(value: Any, rng: random.Random | None = None) -> str:
    """``value`` as JSON text, ``Raw`` tokens as they are; strings sometimes written with
    ``\\u`` escapes (when ``rng`` is given), so that lone surrogates reach the parser."""
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, dict):
        return (
            "{" + ",".join(f"{write(str(k), rng)}:{write(v, rng)}" for k, v in value.items()) + "}"
        )
    if isinstance(value, list | tuple):
        return "[" + ",".join(write(v, rng) for v in value) + "]"
    if isinstance(value, str):
        ascii_only = rng is not None and rng.random() < 0.5
        try:
            return json.dumps(value, ensure_ascii=ascii_only)
        except UnicodeEncodeError:
            return json.dumps(value, ensure_ascii=True)
    if isinstance(value, float) and value != value:
        return "NaN"
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**4000:
        return str(value) if value.bit_length() < 14000 else "1" + "0" * 5000
    return json.dumps(value)


def to_python(value: Any) -> Any:
    """A tree with ``Raw`` tokens as the Python values they stand for (what ``from_dict``
    parsers are given): huge integers as ints, NaN and infinities as floats, deep nesting as
    deep lists and dicts (built without recursion: no parser's limit is ours)."""
    if isinstance(value, dict):
        return {k: to_python(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_python(v) for v in value]
    if not isinstance(value, Raw):
        return value
    text = value.text
    digits = text.lstrip("-")
    if digits.isdigit() and len(digits) > 4000:
        return (-1 if text.startswith("-") else 1) * 10 ** (len(digits) - 1)
    if text[:1] in "[{":
        inner: Any = 0
        core = min(i for i in (text.find("0"), text.find("1")) if i >= 0)
        for opener in reversed(text[:core]):
            if opener == "[":
                inner = [inner]
            elif opener == "{":
                inner = {"a": inner}
        return inner
    return json.loads(text)


def nested(depth: int, rng: random.Random) -> Raw:
    """A value nested ``depth`` deep, as lists or objects (or a mix)."""
    shape = rng.choice(("list", "object", "mixed"))
    if shape == "list":
        return Raw("[" * depth + "0" + "]" * depth)
    if shape == "object":
        return Raw('{"a":' * depth + "0" + "}" * depth)
    opens, closes = [], []
    for _ in range(depth):
        if rng.random() < 0.5:
            opens.append("[")
            closes.append("]")
        else:
            opens.append('{"type":')
            closes.append("}")
    return Raw("".join(opens) + "1" + "".join(reversed(closes)))


def deep(rng: random.Random) -> Raw:
    """Nesting around and beyond every parser's recursion limit, up to 10,000 levels."""
    return nested(rng.choice((100, 200, 256, 999, 1000, 1001, 3000, 10_000)), rng)


def huge_string(rng: random.Random) -> str:
    size = rng.choice((201, 1000, 10_000, 100_000, 1_000_000))
    return rng.choice("a1 .é💥") * size


def text(rng: random.Random, alphabet: str = "") -> str:
    """Short random text: from ``alphabet`` (what a notation is written in), tricky
    characters, or any code point."""
    roll = rng.random()
    if roll < 0.15:
        return rng.choice(TRICKY_TEXT)
    n = rng.choice((0, 1, 2, 3, 5, 8, 13, 30))
    if roll < 0.6 and alphabet:
        return "".join(rng.choice(alphabet) for _ in range(n))
    if roll < 0.85:
        return "".join(chr(rng.randrange(32, 127)) for _ in range(n))
    return "".join(chr(rng.randrange(0, 0x110000)) for _ in range(n))


def scalar(rng: random.Random) -> Any:
    roll = rng.randrange(10)
    if roll == 0:
        return None
    if roll == 1:
        return rng.choice((True, False))
    if roll == 2:
        return rng.choice((0, 1, -1, 2, 3, 7, 15, 16, 255, 2**31, -(2**31), 2**53 + 1, 2**62))
    if roll == 3:
        return rng.randint(-1000, 1000)
    if roll == 4:
        return rng.choice((0.0, -0.0, 0.5, 1.3, 1e-9, 1e30, -1e30, 3.141592653589793))
    if roll == 5:
        return rng.choice(HUGE_NUMBERS)
    if roll == 6:
        return rng.choice(TRICKY_TEXT)
    return text(rng)


def value(rng: random.Random, depth: int = 0) -> Any:
    """A random JSON value: scalars mostly, small lists and objects, now and then very deep
    nesting or a huge string."""
    roll = rng.random()
    if roll < 0.02:
        return deep(rng)
    if roll < 0.04:
        return huge_string(rng)
    if depth >= 3 or roll < 0.6:
        return scalar(rng)
    if roll < 0.8:
        return [value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(KEYS): value(rng, depth + 1) for _ in range(rng.randrange(4))}


def mutate_dict(base: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """``base`` with one to three changes: a key dropped, added or given a wrong value."""
    out = dict(base)
    for _ in range(rng.randint(1, 3)):
        roll = rng.random()
        if roll < 0.2 and out:
            del out[rng.choice(list(out))]
        elif roll < 0.35:
            out[rng.choice(KEYS)] = value(rng)
        elif out:
            out[rng.choice(list(out))] = value(rng)
    return out


# Characters ``str.isdigit`` accepts that ``int`` does not (or reads as another number).
UNICODE_DIGITS = "²³¹١٣١２９𝟙߀৩๓"


def mutate_text(base: str, rng: random.Random, alphabet: str = "") -> str:
    """``base`` with a few characters or fields changed, inserted, removed or repeated."""
    chars = list(base)
    for _ in range(rng.randint(1, 4)):
        roll = rng.random()
        i = rng.randrange(len(chars) + 1)
        digits = [j for j, ch in enumerate(chars) if ch in "0123456789"]
        if roll < 0.1 and digits:
            chars[rng.choice(digits)] = rng.choice(UNICODE_DIGITS)
        elif roll < 0.25 and chars:
            del chars[min(i, len(chars) - 1)]
        elif roll < 0.5:
            chars[i:i] = list(text(rng, alphabet))
        elif roll < 0.7 and chars:
            pool = (alphabet or "0a ") if rng.random() < 0.6 else TRICKY_TEXT
            chars[min(i, len(chars) - 1)] = rng.choice(pool)
        elif roll < 0.8:
            fields = "".join(chars).split(" ")
            j = rng.randrange(len(fields))
            fields[j] = rng.choice((*TRICKY_TEXT[:20], "", "-", "1" + "0" * 5000))
            chars = list(" ".join(fields))
        elif roll < 0.9:
            fields = "".join(chars).split(" ")
            if len(fields) > 1:
                j = rng.randrange(len(fields))
                if rng.random() < 0.5:
                    del fields[j]
                else:
                    fields.insert(j, fields[j])
            chars = list(" ".join(fields))
        else:
            chars = chars * rng.randint(2, 5)
    return "".join(chars)


def mutate_json(tree: Any, rng: random.Random) -> Any:
    """A copy of a JSON tree with one node somewhere replaced by a random value."""
    if isinstance(tree, dict) and tree and rng.random() < 0.8:
        key = rng.choice(list(tree))
        return {**tree, key: mutate_json(tree[key], rng)}
    if isinstance(tree, list) and tree and rng.random() < 0.8:
        i = rng.randrange(len(tree))
        return [*tree[:i], mutate_json(tree[i], rng), *tree[i + 1 :]]
    if isinstance(tree, str) and rng.random() < 0.5:
        return mutate_text(tree, rng)
    return value(rng)


def invalid_utf8(rng: random.Random) -> bytes:
    """Bytes that are not UTF-8 (alone or inside an otherwise good message)."""
    bad = rng.choice(
        (b"\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80", b"\xc0\xaf")
    )
    roll = rng.random()
    if roll < 0.4:
        return b'{"type": "ping' + bad + b'"}'
    if roll < 0.7:
        return b'{"type": "act", "seat": 0, "action": "' + bad + b'"}'
    return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64))) + bad
