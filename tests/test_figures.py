"""The docs' figures against the registry (docs/figures.json, ``make figures``): every number
of a figure table in the README, docs/benchmarks.md, docs/lab.md and docs/ai.md has a key,
and the registry holds that key at the value the text states, rounded as the text is. No
measuring here: the registry is what ``make figures`` last measured."""

from __future__ import annotations

import re

import pytest

from gamenight.bench import figures
from gamenight.bench.figures import ROOT, Claim, claims, holds, load_registry, rewrite

WHERE = ("value", "unit", "command", "commit", "core", "load", "cpu", "machine", "measured")


def _claims() -> list[Claim]:
    found: list[Claim] = []
    for document in figures.DOCUMENTS:
        found += claims(document, (ROOT / document).read_text())
    return found


def test_every_claim_of_the_docs_is_the_registry_s_figure() -> None:
    registry = load_registry()
    found = _claims()
    assert {c.document for c in found} == set(figures.DOCUMENTS)
    wrong = [
        f"{c.document}:{c.line}: {c.key} says {c.text}, the registry "
        + (f"{registry[c.key]['value']!r}" if c.key in registry else "has no such key")
        for c in found
        if c.key not in registry or not holds(c, registry[c.key]["value"])
    ]
    assert not wrong, "\n".join(wrong)


def test_every_figure_says_where_it_was_measured() -> None:
    registry = load_registry()
    for key, entry in registry.items():
        assert set(WHERE) <= set(entry), key
        assert entry["core"] in ("compiled", "pure", "not used", "pure ÷ compiled"), key


def test_the_registry_holds_every_figure_make_figures_measures() -> None:
    registry = load_registry()
    measured = [f.key for s in figures.sources() if not s.long for f in s.figures]
    assert [k for k in measured if k not in registry] == []
    assert [d.key for d in figures.DERIVED if d.key not in registry] == []


def test_the_registry_holds_no_figure_that_nothing_measures() -> None:
    assert set(load_registry()) <= figures.known_keys()


def test_every_table_of_the_benchmarks_is_a_figure_table() -> None:
    lines = (ROOT / "docs" / "benchmarks.md").read_text().splitlines()
    starts = [
        i
        for i, line in enumerate(lines)
        if line.startswith("|") and (i == 0 or not lines[i - 1].startswith("|"))
    ]
    assert starts
    unmarked = [i + 1 for i in starts if not figures.MARKER.match(lines[i - 1].strip())]
    assert unmarked == []


def test_the_benchmarks_are_a_reference_not_a_diary() -> None:
    headings = [
        line
        for line in (ROOT / "docs" / "benchmarks.md").read_text().splitlines()
        if line.startswith("#")
    ]
    assert [h for h in headings if re.search(r"(morning|evening|late) stop", h, re.I)] == []


TABLE = """\
<!-- figures | ours | peer, same run: .peer | ratio: .ratio -->
| key | what | ours | peer, same run | ratio |
|---|---|---|---|---|
| `a.b` | 4 players | **843,000** plays/s | 54,300 (backgammon) | 12.2× |
| `a.c` | 0.25 s | 0.038 | — | 1.6× |
"""


def test_a_table_s_claims_are_its_marked_columns() -> None:
    found = list(claims("x.md", TABLE))
    assert [(c.key, c.text) for c in found] == [
        ("a.b", "843,000"),
        ("a.b.peer", "54,300"),
        ("a.b.ratio", "12.2"),
        ("a.c", "0.038"),
        ("a.c.ratio", "1.6"),
    ]


@pytest.mark.parametrize(
    ("text", "value", "held"),
    [
        ("843,000", 843_327.85, True),
        ("843,000", 843_600.0, False),
        ("12.2", 12.2499, True),
        ("12.2", 12.26, False),
        ("0.038", 0.0380743, True),
        ("0.038", 0.0394, False),
        ("1,300", 1_287.0, False),
        ("1,290", 1_287.0, True),
        ("20", 20.4, True),
        ("20", 23.0, False),
        ("293", 22.7, False),
        ("14", 24.48, False),
        ("0", 0.0, True),
    ],
)
def test_a_claim_holds_only_its_value_as_rounded(text: str, value: float, held: bool) -> None:
    assert holds(Claim("x.md", 1, "k", text, (0, 0)), value) is held


def test_rewriting_puts_the_registry_s_values_at_the_text_s_rounding() -> None:
    registry = {
        "a.b": {"value": 1_234_567.0},
        "a.b.peer": {"value": 60_123.4},
        "a.b.ratio": {"value": 20.53},
        "a.c": {"value": 0.04149},
        "a.c.ratio": {"value": 1.0},
    }
    new = rewrite(TABLE, "x.md", registry)
    assert "| **1,230,000** plays/s | 60,100 (backgammon) | 20.5× |" in new
    assert "| 0.041 | — | 1.0× |" in new
    assert "| 11.6 |" in rewrite(
        "<!-- figures | s -->\n| k | s |\n|-|-|\n| `k` | 293 |\n", "x", {"k": {"value": 11.57}}
    )
    assert all(holds(c, registry[c.key]["value"]) for c in claims("x.md", new))


def test_rewriting_again_and_again_keeps_every_digit_the_text_showed() -> None:
    text = TABLE
    for value, shown in (
        (1_300.4, "1,300"),
        (1_287.0, "1,290"),
        (23.4, "23.4"),
        (2.345, "2.35"),
        (1_287.0, "1,290"),
    ):
        text = rewrite(text, "x.md", {"a.b.peer": {"value": value}})
        assert f"| {shown} (backgammon) |" in text


def test_a_marked_table_holds_nothing_but_figures() -> None:
    with pytest.raises(ValueError, match="without a `key`"):
        list(claims("x.md", TABLE.replace("`a.c`", "a.c")))
    with pytest.raises(ValueError, match="no figure in column 'ours'"):
        list(claims("x.md", TABLE.replace("0.038", "fast")))
    with pytest.raises(ValueError, match="no such column"):
        list(claims("x.md", TABLE.replace("| ratio |", "| speed-up |")))


def test_the_command_names_its_sources_and_refuses_an_unknown_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from gamenight.cli import main

    assert main(["bench", "figures", "--list"]) == 0
    listed = capsys.readouterr().out
    assert "centrix (make figures): gamenight centrix bench --json" in listed
    assert "memory.table (long, its own command): python -m tests.web.table_memory" in listed
    with pytest.raises(SystemExit, match="no figure source called wizard"):
        main(["bench", "figures", "--only", "wizard"])


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def test_the_links_to_the_figures_and_their_docs_resolve() -> None:
    targets = {"benchmarks.md", "figures.json", "lab.md"}
    pages = [ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *(ROOT / "docs").glob("*/*.md")]
    broken = []
    for page in pages:
        for link in re.findall(r"\]\(([^)\s]+)\)", page.read_text()):
            path, _, anchor = link.partition("#")
            if "://" in link or not path or path.rsplit("/", 1)[-1] not in targets:
                continue
            target = (page.parent / path).resolve()
            if not target.exists():
                broken.append(f"{page.relative_to(ROOT)}: {link}")
            elif anchor:
                headings = [
                    _slug(line.lstrip("#"))
                    for line in target.read_text().splitlines()
                    if line.startswith("#")
                ]
                if anchor not in headings:
                    broken.append(f"{page.relative_to(ROOT)}: {link}")
    assert broken == []


def test_a_figure_the_run_could_not_measure_is_said_and_left_out() -> None:
    source = next(s for s in figures.sources() if s.name == "centrix")
    result = {
        "generation": {"plays_per_s": 10.0},
        "peers": {"python_chess_moves_per_s": None},
        "ratios": {"generation_vs_python_chess": None},
    }
    chess = figures.Source("centrix", source.argv, source.figures[:3])
    where = {"commit": "c", "compiled": True, "load": [1.0, 1.0], "cpu": "x", "machine": "m"}
    said: list[str] = []
    found = figures.figures_of(chess, result, {**where, "measured": "now"}, said.append)
    assert list(found) == ["centrix.vs_chess"]
    assert found["centrix.vs_chess"]["value"] == 10.0
    assert found["centrix.vs_chess"]["core"] == "compiled"
    assert [line.split(":")[0] for line in said] == [
        "centrix.vs_chess.peer",
        "centrix.vs_chess.ratio",
    ]


def test_a_long_source_runs_on_the_services_it_is_given_and_keeps_its_written_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    (source,) = [s for s in figures.sources() if s.name == "server.workers"]
    ran: list[list[str]] = []

    def gamenight(argv: list[str], env: object = ()) -> str:
        ran.append(list(argv))
        return "{}"

    monkeypatch.setattr(figures, "_gamenight", gamenight)
    database = "postgresql+psycopg://postgres@127.0.0.1:5432/bench_x"
    monkeypatch.setattr(
        figures,
        "SERVICES",
        {figures.DATABASE: database, figures.REDIS: "redis://127.0.0.1:6391/0"},
    )
    figures.run_json(source)
    assert database in ran[0]
    assert "redis://127.0.0.1:6391/0" in ran[0]
    assert figures.DATABASE in source.command
    assert figures.REDIS in source.command
