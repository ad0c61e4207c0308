"""The page's touch targets, measured: every control of the page's chrome (buttons, links,
selects, text fields, tabs, the language switch; a radio button or a check box by its label)
that is on the page, with its box. Not the board's own marks (what a game draws in its SVG),
nor a Color City aiming slider (the games' owners measure those).

``python -m tests.browser.touch URL``: the figures for a running server (before and after a
change), printed as one line per target under 44 × 44 CSS px at 390 × 844.
"""

from __future__ import annotations

import sys
from typing import Any

from playwright.sync_api import Page

TARGET_PX = 44  # the least width and height of a touch target (WCAG 2.5.5, Apple's HIG)
PHONE = {"width": 390, "height": 844}
# Ann on this device, first, against a bot: her choices are on screen at once.
CENTRIX_VS_BOT: dict[str, Any] = {
    "game": "centrix",
    "seats": [{"kind": "device", "name": "Ann"}, {"kind": "bot", "level": 1}],
    "first": 0,
    "seed": 11,
}

MEASURE = """() => {
  const controls = "button, a[href], select, input, textarea, summary, [role=tab], [role=radio]";
  const seen = new Set();
  const out = [];
  for (let node of document.querySelectorAll(controls)) {
    if (node.closest("svg")) continue; // the board's own marks
    if (node.matches("input[type=range]")) continue;
    // A radio button or a check box is touched through its label.
    if (node.matches("input[type=radio], input[type=checkbox]") && node.closest("label")) {
      node = node.closest("label");
    }
    if (seen.has(node)) continue;
    seen.add(node);
    const style = getComputedStyle(node);
    if (style.visibility === "hidden" || node.closest("[hidden]")) continue;
    const r = node.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    const classes = typeof node.className === "string" ? node.className.trim().split(/\\s+/) : [];
    const dotted = classes.filter(Boolean).map((c) => `.${c}`).join("");
    const label = (node.id ? `#${node.id}` : "") + dotted;
    const words = node.innerText || node.value || node.getAttribute("aria-label") || "";
    const text = words.trim().replace(/\\s+/g, " ").slice(0, 24);
    const what = `${node.tagName.toLowerCase()}${label} "${text}"`;
    out.push({ what, width: r.width, height: r.height });
  }
  return out;
}"""

# Whether a select shows its chosen option whole (not "Normal han…"): its text's width
# against the room inside the select (its width less padding, border and the arrow).
MEASURE_SELECTS = """() => [...document.querySelectorAll("select")]
.filter((s) => s.offsetParent).map((select) => {
  const probe = document.createElement("span");
  const style = getComputedStyle(select);
  probe.style.font = style.font;
  probe.style.whiteSpace = "pre";
  probe.style.position = "absolute";
  probe.textContent = select.options[select.selectedIndex]?.text || "";
  document.body.append(probe);
  const text = probe.getBoundingClientRect().width;
  probe.remove();
  const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
  const room = select.clientWidth - padding - 20;
  return { what: `select#${select.id} "${probe.textContent}"`, text, room };
})"""


def targets(page: Page) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate(MEASURE)
    return found


def too_small(page: Page, besides: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """The targets under 44 × 44 px (a hairline of rounding allowed), but for those whose
    description holds one of ``besides``."""
    return [
        t
        for t in targets(page)
        if (t["width"] < TARGET_PX - 0.5 or t["height"] < TARGET_PX - 0.5)
        and not any(b in t["what"] for b in besides)
    ]


def cut_off(page: Page) -> list[dict[str, Any]]:
    """The selects too narrow for the option they show."""
    found: list[dict[str, Any]] = page.evaluate(MEASURE_SELECTS)
    return [s for s in found if s["text"] > s["room"]]


def report(page: Page, where: str) -> list[str]:
    """One line per target too small at ``where``, and a summary line."""
    small = too_small(page)
    lines = [f"{where}: {len(small)} of {len(targets(page))} targets under {TARGET_PX} px"]
    lines += [f"  {t['width']:6.1f} × {t['height']:5.1f}  {t['what']}" for t in small]
    lines += [
        f"  cut off: {s['what']} ({s['text']:.0f} px of text in {s['room']:.0f})"
        for s in cut_off(page)
    ]
    return lines


def main(base: str) -> None:
    from playwright.sync_api import sync_playwright

    from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, create_table

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for locale in ("en-US", "ko-KR"):
            page = browser.new_context(viewport=PHONE, locale=locale).new_page()
            page.goto(base)
            page.wait_for_selector("#seat-0-kind")
            print("\n".join(report(page, f"home centrix {locale}")))
            page.click("#choose-colorcity")
            page.wait_for_selector("#seat-0-skill")
            page.click(".variants summary")
            print("\n".join(report(page, f"home colorcity {locale}")))
            page.select_option("#seat-1-kind", "invite")
            page.click("#start")
            page.wait_for_selector("#invite-list .invite-row")
            print("\n".join(report(page, f"home invitations {locale}")))
            page.click("#go-table")
            page.wait_for_selector(".turn-banner")
            print("\n".join(report(page, f"table colorcity {locale}")))
            page.click("#show-invites")
            page.wait_for_selector("#dialog .invite-row")
            print("\n".join(report(page, f"table invite dialog {locale}")))
            made = create_table(base, CENTRIX_VS_BOT)
            page.goto(f"{base}/table/{made['id']}#token={made['seats'][0]['token']}")
            page.wait_for_selector(".turn-banner.mine")
            page.locator(".play-card:not([disabled])").first.click()
            print("\n".join(report(page, f"table centrix, a card chosen {locale}")))
            page.context.close()
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1].rstrip("/"))
