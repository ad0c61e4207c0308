"""What pages and the store receive stays byte-identical: seeded games through the web's
game adapters, digested, against what main 7d6aaa3's adapters gave (see golden_views)."""

from __future__ import annotations

import json

import pytest

from tests.web.golden_views import GOLDEN, PROBE, SCENARIOS, SIMULATED, physics_probe

EXPECTED: dict[str, dict[str, str]] = json.loads(GOLDEN.read_text(encoding="utf-8"))


@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_the_web_sends_what_it_sent_before(scenario: str) -> None:
    if scenario in SIMULATED and physics_probe() != EXPECTED[PROBE]:
        pytest.skip("MuJoCo flicks differently here than where the expectations were written")
    got = SCENARIOS[scenario]()
    expected = EXPECTED[scenario]
    moved = sorted(k for k in got.keys() | expected.keys() if got.get(k) != expected.get(k))
    assert not moved, f"{scenario}: these parts of what the web sends changed: {moved}"
