"""The table's sounds (issue 16), made with the standard library alone and shipped as WAV
files in static/sounds/: your turn (a two-note chime), a bump (a low thud), a cube landing
(a short knock) and a pawn reaching the top (a rising arpeggio).

Made once, and again whenever this file changes: ``python -m gamenight.web.sounds``. The
same bytes every time (the noise is seeded), so a test checks the shipped files are these.
"""

from __future__ import annotations

import io
import math
import random
import struct
import wave
from collections.abc import Callable
from pathlib import Path

RATE = 22050  # samples a second: plenty for short effects, small files
FOLDER = Path(__file__).with_name("static") / "sounds"


def tone(frequency: float, seconds: float, decay: float = 8.0) -> list[float]:
    """A sine note fading out (``decay``: how fast), with a 5 ms attack (no click)."""
    count = int(RATE * seconds)
    return [
        math.sin(2 * math.pi * frequency * i / RATE)
        * math.exp(-decay * i / RATE)
        * min(1.0, i / (0.005 * RATE))
        for i in range(count)
    ]


def sweep(start: float, end: float, seconds: float, decay: float) -> list[float]:
    """A note sliding from ``start`` to ``end`` Hz as it fades."""
    count = int(RATE * seconds)
    phase, out = 0.0, []
    for i in range(count):
        frequency = start + (end - start) * i / count
        phase += 2 * math.pi * frequency / RATE
        out.append(math.sin(phase) * math.exp(-decay * i / RATE) * min(1.0, i / (0.003 * RATE)))
    return out


def noise(seconds: float, decay: float, seed: int) -> list[float]:
    rng = random.Random(seed)
    return [rng.uniform(-1, 1) * math.exp(-decay * i / RATE) for i in range(int(RATE * seconds))]


def mix(*parts: tuple[float, list[float]]) -> list[float]:
    """Parts laid over one another, each ``(gain, samples)``."""
    out = [0.0] * max(len(samples) for _, samples in parts)
    for gain, samples in parts:
        for i, sample in enumerate(samples):
            out[i] += gain * sample
    return out


def turn() -> list[float]:
    return [*tone(660, 0.14, 10), *tone(880, 0.22, 9)]


def bump() -> list[float]:
    return mix((0.9, sweep(160, 55, 0.2, 18)), (0.25, noise(0.05, 60, 1)))


def cube() -> list[float]:
    return mix((0.6, noise(0.06, 90, 2)), (0.5, tone(420, 0.09, 45)), (0.3, tone(1250, 0.04, 80)))


def top() -> list[float]:
    notes = (523.25, 659.25, 783.99, 1046.5)  # C5 E5 G5 C6
    return [sample for n in notes for sample in tone(n, 0.11, 7)] + tone(1046.5, 0.25, 6)


SOUNDS: dict[str, Callable[[], list[float]]] = {
    "turn": turn,
    "bump": bump,
    "cube": cube,
    "top": top,
}


def wav(samples: list[float], volume: float = 0.6) -> bytes:
    """16-bit mono WAV of ``samples``, scaled so the loudest is at ``volume``."""
    peak = max(abs(s) for s in samples) or 1.0
    frames = b"".join(struct.pack("<h", round(32767 * volume * s / peak)) for s in samples)
    out = io.BytesIO()
    with wave.open(out, "wb") as file:
        file.setnchannels(1)
        file.setsampwidth(2)
        file.setframerate(RATE)
        file.writeframes(frames)
    return out.getvalue()


def main() -> None:
    FOLDER.mkdir(exist_ok=True)
    for name, make in SOUNDS.items():
        path = FOLDER / f"{name}.wav"
        path.write_bytes(wav(make()))
        print(f"{path} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
