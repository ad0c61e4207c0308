"""The code in docs/envs.md runs as written.

What runs, each in a fresh interpreter (Gymnasium's registry and imported modules would
otherwise leak in from other tests and hide a missing ``import`` in the doc):

- every fenced ```python block, whole;
- the table's constructors, row by row: the cells' ``import`` spans, then each call, with
  the ecosystems' own modules (``gymnasium``, ``pyspiel``) imported first. The cells list a
  parameter's choices (``2–6``, ``2 or 4``, ``"protect"/"knock_off"/"floor"``); the first
  choice is used.

What is left out: the other inline spans are names and values, not code; the shell command
(``pip install``) and the example scripts the doc names (long runs such as the REINFORCE
training) are run on tiny settings by tests/test_examples.py instead.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "envs.md"
TEXT = DOC.read_text(encoding="utf-8")

PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)
BLOCKS = PYTHON_BLOCK.findall(TEXT)
TABLE_ROWS = ("OpenSpiel", "PettingZoo AEC", "PettingZoo parallel", "Gymnasium")
GYM_IMPORT = re.compile(r"^import gamenight\.envs\.gym\b.*\n", re.MULTILINE)


def run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def first_choice(span: str) -> str:
    """A table span with each list of choices cut to its first."""
    span = re.sub(r"(\d+)–\d+", r"\1", span)
    span = re.sub(r"(\d+) or \d+", r"\1", span)
    return re.sub(r'("[^"]*")(?:/"[^"]*")+', r"\1", span)


def table_row(name: str) -> list[str]:
    """The code spans of the table row ``name``, in order."""
    for line in TEXT.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("|") and cells[0] == name:
            return [span for cell in cells[1:] for span in re.findall(r"`([^`]+)`", cell)]
    raise AssertionError(f"docs/envs.md has no table row {name!r}")


def test_the_doc_has_a_python_example() -> None:
    assert BLOCKS, "docs/envs.md has no ```python block"


@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_each_python_block_runs(code: str) -> None:
    done = run(code)
    assert done.returncode == 0, f"this block of docs/envs.md fails:\n{code}\n{done.stderr}"


def test_without_its_import_the_gymnasium_example_fails() -> None:
    # The fresh interpreter is what makes the test above catch a missing import: check it.
    examples = [code for code in BLOCKS if GYM_IMPORT.search(code)]
    assert examples, "docs/envs.md no longer shows `import gamenight.envs.gym`"
    for code in examples:
        done = run(GYM_IMPORT.sub("", code))
        assert done.returncode != 0
        assert "NamespaceNotFound" in done.stderr


@pytest.mark.parametrize("row", TABLE_ROWS)
def test_the_table_constructors_run(row: str) -> None:
    spans = [first_choice(span) for span in table_row(row)]
    imports = [span for span in spans if span.startswith("import ")]
    calls = [span for span in spans if not span.startswith("import ")]
    assert imports, f"the {row} row names no module to import"
    assert calls, f"the {row} row shows no constructor"
    for call in calls:
        compile(call, "docs/envs.md", "eval")  # a SyntaxError names the span
    lines = ["import gymnasium", "import pyspiel", *dict.fromkeys(imports)]
    # Each call is started too: a constructor that takes its arguments but cannot begin a
    # game is no working example.
    for call in calls:
        lines.append(f"made = {call}")
        lines.append(
            "made.new_initial_state() if hasattr(made, 'new_initial_state') else made.reset(seed=0)"
        )
    code = "\n".join(lines)
    done = run(code)
    assert done.returncode == 0, f"the {row} row of docs/envs.md fails:\n{code}\n{done.stderr}"
