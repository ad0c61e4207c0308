"""Centrix's touch targets at 390 x 844, measured with Playwright's bounding boxes on a server
running the sources given (so that older code can be measured too): the smallest side of each
kind, in CSS px. ``python tests/browser/measure_targets.py SRC_DIR`` (e.g. ``src``, or an older
commit's ``git archive`` unpacked)."""

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

from playwright.sync_api import sync_playwright

src = sys.argv[1]
s = socket.socket()
s.bind(("127.0.0.1", 0))
port = s.getsockname()[1]
s.close()
data = tempfile.mkdtemp()
env = {**os.environ, "GAMENIGHT_DATA_DIR": data, "GAMENIGHT_BOT_WORKERS": "1", "PYTHONPATH": src}
proc = subprocess.Popen(
    [sys.executable, "-m", "gamenight", "serve", "--port", str(port)],
    env=env,
    stdout=subprocess.DEVNULL,
    stderr=subprocess.DEVNULL,
)
url = f"http://127.0.0.1:{port}"
for _ in range(100):
    try:
        urllib.request.urlopen(url + "/api/tables", timeout=1)
        break
    except OSError:
        time.sleep(0.2)
try:
    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
        )
        page = b.new_page(viewport={"width": 390, "height": 844})
        body = {
            "game": "centrix",
            "seats": [{"kind": "device", "name": "Ann"}] + [{"kind": "bot", "level": 1}] * 3,
            "seed": 5,
        }
        made = page.request.post(url + "/api/tables", data=body).json()
        page.goto(f"{url}/table/{made['id']}#token={made['seats'][0]['token']}")
        page.wait_for_selector(".turn-banner.mine")

        def smallest(sel):
            bs = [e.bounding_box() for e in page.locator(sel).all()]
            bs = [x for x in bs if x]
            return round(min(min(x["width"], x["height"]) for x in bs), 1) if bs else None

        out = {"cards": smallest(".play-card")}
        cards = page.locator(".play-card:not([disabled])")
        for i in range(cards.count()):
            cards.nth(i).click()
            out["cancel"] = smallest("#cancel-play")
            chips = page.locator("[data-rotation]:not([data-rotation='none'])")
            if chips.count():
                out["rotation chips"] = smallest("[data-rotation]")
            if page.locator("[data-rotation='none']").count():
                page.click("[data-rotation='none']")
            if page.locator(".pawn.movable").count() and "pawns to pick" not in out:
                out["pawns to pick"] = smallest(".pawn-hit") or smallest(".pawn.movable")
            if page.locator("button.tray.movable").count():
                out["tray"] = smallest("button.tray.movable")
            page.click("#cancel-play")
        # A destination: from the first card that moves a pawn.
        cards.first.click()
        if page.locator("[data-rotation='none']").count():
            page.click("[data-rotation='none']")
        if page.locator(".pawn.movable").count():
            page.locator(".pawn.movable").first.click()
        else:
            page.click("button.tray.movable")
        page.wait_for_selector(".target-dot")
        out["target dots"] = smallest(".target-dot")
        print(json.dumps(out))
        b.close()
finally:
    proc.terminate()
    proc.wait()
