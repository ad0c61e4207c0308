"""The report of a run: one self-contained HTML file (plots embedded as PNG) and a Markdown
summary, in English or Korean.

Korean plot labels need a CJK font: the report looks for one installed on the system (Nanum,
Noto CJK, …) and, finding none, draws the plots with English labels and says so in the page.
"""

from __future__ import annotations

import base64
import html
import io
from pathlib import Path
from typing import Any

from gamenight.lab.experiment import Experiment
from gamenight.lab.metrics import (
    Rate,
    Summary,
    compare,
    fairness,
    length_sentence,
    sentence,
    summarise,
)
from gamenight.lab.results import load_rows

CJK_FONTS = ("NanumGothic", "NanumBarunGothic", "Noto Sans CJK KR", "Noto Sans KR", "UnDotum")

TEXT: dict[str, dict[str, str]] = {
    "en": {
        "title": "Lab report",
        "games": "games",
        "variant": "variant",
        "seat_wins": "Win rate by seat (95 % Wilson intervals)",
        "first": "first player's win rate",
        "advantage": "first-player advantage",
        "balance": "balance",
        "turns": "turns",
        "actions": "actions",
        "length": "Game length (turns)",
        "endings": "How games ended",
        "lead": "lead changes",
        "drama": "drama (winner behind late)",
        "decided": "decided at (share of game)",
        "counts": "Per game (means, 95 % bootstrap intervals)",
        "compare": "Variants against the baseline",
        "fair": "Is the first player favoured?",
        "played": "of play",
        "source": "The experiment",
        "summary": "Summary",
        "seat": "seat",
        "bots": "Skill against luck: win rate by bot",
        "upsets": "a weaker bot won",
        "game_rates": "The game's own rates",
        "no_font": "No CJK font was found on this system: the plots are labelled in English.",
        "same_bots": "Every seat holds the same bot: seat differences are the seat's and luck's.",
        "mean": "mean",
        "sd": "sd",
        "interval": "95 % interval",
        "rate": "rate",
    },
    "ko": {
        "title": "실험실 보고서",
        "games": "게임",
        "variant": "변형",
        "seat_wins": "좌석별 승률 (95 % 윌슨 구간)",
        "first": "선 플레이어 승률",
        "advantage": "선 플레이어 이점",
        "balance": "균형",
        "turns": "턴",
        "actions": "행동",
        "length": "게임 길이 (턴)",
        "endings": "게임이 끝난 방식",
        "lead": "선두 교체",
        "drama": "역전 (승자가 후반에 뒤짐)",
        "decided": "승부가 정해진 시점 (게임 중 비율)",
        "counts": "게임당 (평균, 95 % 부트스트랩 구간)",
        "compare": "기준 변형과의 비교",
        "fair": "선 플레이어가 유리한가?",
        "played": "동안 플레이",
        "source": "실험 파일",
        "summary": "요약",
        "seat": "좌석",
        "bots": "실력 대 운: 봇별 승률",
        "upsets": "약한 봇이 이긴 비율",
        "game_rates": "게임 고유의 비율",
        "no_font": "이 시스템에서 CJK 글꼴을 찾지 못해 그림의 글자는 영어로 표시합니다.",
        "same_bots": "모든 좌석에 같은 봇이 앉았습니다: 좌석 간 차이는 좌석과 운의 몫입니다.",
        "mean": "평균",
        "sd": "표준편차",
        "interval": "95 % 구간",
        "rate": "비율",
    },
}


def cjk_font() -> str | None:
    """The name of a CJK font matplotlib can use, or None."""
    from matplotlib import font_manager

    names = {f.name for f in font_manager.fontManager.ttflist}
    return next((name for name in CJK_FONTS if name in names), None)


def _pct(rate: Rate) -> str:
    low, high = rate.interval
    if rate.trials == 0:
        return "–"
    return f"{rate.value:.1%} ({low:.1%}–{high:.1%})"


def _mean(value: Any) -> str:
    low, high = value.interval
    if not value.n:
        return "–"
    return f"{value.value:.2f} ({low:.2f}–{high:.2f})"


def summary_rows(summaries: list[Summary], t: dict[str, str]) -> tuple[list[str], list[list[str]]]:
    """The summary table: one row per variant."""
    header = [t["variant"], t["games"], t["first"], t["balance"], t["turns"], t["actions"]]
    header += [t["lead"], t["drama"], t["decided"]]
    rows = [
        [
            s.variant,
            str(s.games),
            _pct(s.first_wins),
            f"{s.balance:.2f}",
            _mean(s.turns),
            _mean(s.actions),
            _mean(s.lead_changes),
            _pct(s.drama),
            _mean(s.decided_at),
        ]
        for s in summaries
    ]
    return header, rows


def tables(
    summaries: list[Summary], t: dict[str, str]
) -> list[tuple[str, list[str], list[list[str]]]]:
    """(title, header, rows) of every table the report shows, Markdown and HTML alike."""
    header, rows = summary_rows(summaries, t)
    out = [(t["summary"], header, rows)]
    seats = max((s.players for s in summaries), default=0)
    out.append(
        (
            t["seat_wins"],
            [t["variant"], *[f"{t['seat']} {i}" for i in range(seats)]],
            [
                [s.variant, *[_pct(r) for r in s.seat_wins], *[""] * (seats - s.players)]
                for s in summaries
            ],
        )
    )
    for title, attribute, shown in (
        (t["counts"], "counts", _mean),
        (t["game_rates"], "extra", _pct),
    ):
        names = sorted({k for s in summaries for k in getattr(s, attribute)})
        if names:
            body = [
                [
                    s.variant,
                    *[
                        shown(getattr(s, attribute)[n]) if n in getattr(s, attribute) else "–"
                        for n in names
                    ],
                ]
                for s in summaries
            ]
            out.append((title, [t["variant"], *names], body))
    return out


def notes(
    experiment: Experiment, summaries: list[Summary], lang: str
) -> list[tuple[str, list[str]]]:
    """(title, lines) of the report's lists: endings, skill against luck, comparisons."""
    t = TEXT[lang]
    endings = [
        f"{s.variant}: " + ", ".join(f"{k} {_pct(r)}" for k, r in s.endings.items())
        for s in summaries
    ]
    bots = []
    for s in summaries:
        upsets = s.upsets
        note = f"; {t['upsets']} {_pct(upsets)}" if upsets else f" — {t['same_bots']}"
        bots.append(
            f"{s.variant}: " + ", ".join(f"{b} {_pct(r)}" for b, r in s.by_bot.items()) + note
        )
    out = [
        (t["fair"], [fairness(s, lang) for s in summaries]),
        (t["endings"], endings),
        (t["bots"], bots),
    ]
    diffs = compare(summaries)
    if diffs:
        lines = [sentence(d, experiment.metric.text(lang), lang) for d in diffs]
        lines += [length_sentence(summaries[0], s, lang) for s in summaries[1:]]
        out.insert(0, (t["compare"], lines))
    return out


def markdown(experiment: Experiment, summaries: list[Summary], lang: str = "en") -> str:
    """The Markdown summary of a run."""
    t = TEXT[lang]
    lines = [f"# {experiment.name} — {t['summary']}"]
    for title, header, rows in tables(summaries, t):
        lines += ["", f"## {title}", "", _md_row(header), _md_row(["---"] * len(header))]
        lines += [_md_row(r) for r in rows]
    for title, items in notes(experiment, summaries, lang):
        lines += ["", f"## {title}", "", *[f"- {item}" for item in items]]
    return "\n".join(lines) + "\n"


def _md_row(cells: list[str]) -> str:
    return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"


# ---------------------------------------------------------------- plots


def plots(
    summaries: list[Summary], rows: list[dict[str, Any]], lang: str
) -> tuple[list[tuple[str, str]], bool]:
    """(title, base64 PNG) of each plot, and whether the labels are in ``lang`` (False:
    Korean asked for, no CJK font found, English used)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    font = cjk_font() if lang == "ko" else None
    labelled = lang != "ko" or font is not None
    t = TEXT[lang if labelled else "en"]
    style: Any = {"font.family": [font, "DejaVu Sans"]} if font else {}
    out: list[tuple[str, str]] = []
    with plt.rc_context(style):
        # Win rate by seat, each variant's bars side by side with their intervals.
        fig, ax = plt.subplots(figsize=(7, 3.6))
        width = 0.8 / max(1, len(summaries))
        for k, s in enumerate(summaries):
            xs = [i + k * width for i in range(s.players)]
            values = [r.value for r in s.seat_wins]
            # Clamped: at 0 % or 100 % rounding can put an end a hair inside the value.
            errors = [
                [max(0.0, r.value - r.interval[0]) for r in s.seat_wins],
                [max(0.0, r.interval[1] - r.value) for r in s.seat_wins],
            ]
            ax.bar(xs, values, width, yerr=errors, capsize=3, label=s.variant)
            ax.axhline(1 / s.players, color="grey", lw=0.7, ls="--")
        ax.set_xlabel(t["seat"])
        ax.set_ylabel(t["rate"])
        ax.set_ylim(0, 1)
        ax.set_xticks(
            [i + width * (len(summaries) - 1) / 2 for i in range(max(s.players for s in summaries))]
        )
        ax.set_xticklabels([str(i) for i in range(max(s.players for s in summaries))])
        ax.legend(fontsize=7)
        ax.set_title(t["seat_wins"])
        out.append((t["seat_wins"], _png(fig)))
        # Game length: a histogram of turns per variant.
        fig, ax = plt.subplots(figsize=(7, 3.2))
        for s in summaries:
            turns = [r["turns"] for r in rows if r["variant"] == s.variant]
            # Outlines, not filled bars: several variants stay readable on one axis.
            bins = min(30, max(5, len(set(turns))))
            ax.hist(turns, bins=bins, histtype="step", lw=1.5, label=s.variant)
        ax.set_xlabel(t["turns"])
        ax.set_ylabel(t["games"])
        ax.legend(fontsize=7)
        ax.set_title(t["length"])
        out.append((t["length"], _png(fig)))
        # How the games ended.
        fig, ax = plt.subplots(figsize=(7, 3.2))
        reasons = sorted({k for s in summaries for k in s.endings})
        bottom = [0.0] * len(summaries)
        for reason in reasons:
            values = [s.endings[reason].value if reason in s.endings else 0.0 for s in summaries]
            ax.barh([s.variant for s in summaries], values, left=bottom, label=reason)
            bottom = [a + b for a, b in zip(bottom, values, strict=True)]
        ax.set_xlim(0, 1)
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
        ax.set_title(t["endings"])
        out.append((t["endings"], _png(fig)))
    return out, labelled


def _png(fig: Any) -> str:
    from matplotlib import pyplot as plt

    buffer = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buffer, format="png", dpi=90)
    plt.close(fig)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


# ---------------------------------------------------------------- HTML


def write_report(directory: Path, lang: str = "en") -> tuple[Path, Path]:
    """Write ``report[.ko].html`` and ``summary[.ko].md`` into the run directory."""
    experiment, rows = load_rows(directory)
    summaries = summarise(experiment, rows)
    suffix = "" if lang == "en" else f".{lang}"
    md = markdown(experiment, summaries, lang)
    md_path = directory / f"summary{suffix}.md"
    md_path.write_text(md, "utf-8")
    html_path = directory / f"report{suffix}.html"
    html_path.write_text(page(experiment, summaries, rows, lang), "utf-8")
    return html_path, md_path


def page(
    experiment: Experiment, summaries: list[Summary], rows: list[dict[str, Any]], lang: str
) -> str:
    t = TEXT[lang]
    images, labelled = plots(summaries, rows, lang) if summaries else ([], True)
    parts = [
        "<!doctype html>",
        f'<html lang="{lang}"><head><meta charset="utf-8">',
        f"<title>{html.escape(experiment.name)} — {t['title']}</title>",
        "<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;"
        "padding:0 1rem}table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid"
        " #ccc;padding:.25rem .5rem;text-align:right}th:first-child,td:first-child{text-align:"
        "left}img{max-width:100%}.note{color:#a40}</style></head><body>",
        f"<h1>{html.escape(experiment.name)}</h1>",
        f"<p>{experiment.game} · {sum(s.games for s in summaries)} {t['games']} ·"
        f" {sum(r.get('seconds', 0) for r in rows):.0f} s {t['played']}</p>",
    ]
    if not labelled:
        parts.append(f'<p class="note">{t["no_font"]}</p>')
    for number, (title, header, body) in enumerate(tables(summaries, t)):
        parts.append(f"<h2>{html.escape(title)}</h2>" + _table(header, body))
        if number == 0:  # the plots under the summary table
            parts += [
                f'<figure><img class="plot" alt="{html.escape(caption)}" '
                f'src="data:image/png;base64,{data}">'
                f"<figcaption>{html.escape(caption)}</figcaption></figure>"
                for caption, data in images
            ]
    for title, items in notes(experiment, summaries, lang):
        parts.append(f"<h2>{html.escape(title)}</h2><ul>")
        parts += [f"<li>{html.escape(item)}</li>" for item in items]
        parts.append("</ul>")
    # The experiment as it was run: the page alone is enough to run it again.
    parts.append(f"<h2>{t['source']}</h2><pre>{html.escape(experiment.source)}</pre>")
    parts.append("</body></html>")
    return "\n".join(parts)


def _table(header: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
