"""Table set-ups (``POST /api/tables`` bodies) the web tests share."""

from __future__ import annotations

from typing import Any

# Two humans at Centrix, each on a device of their own: Ann (red), Bo (orange); Ann plays
# first; a fixed deal.
CENTRIX_2: dict[str, Any] = {
    "game": "centrix",
    "seats": [{"kind": "device", "name": "Ann"}, {"kind": "device", "name": "Bo"}],
    "first": 0,
    "seed": 11,
}

# Ann on this device, Bo invited through a link: the server shuffles (no seed can be given).
CENTRIX_INVITE: dict[str, Any] = {
    "game": "centrix",
    "seats": [{"kind": "device", "name": "Ann"}, {"kind": "invite", "name": "Bo"}],
    "first": 0,
}

# Two Centrix bots that play a whole game by themselves.
CENTRIX_BOTS: dict[str, Any] = {
    "game": "centrix",
    "seats": [{"kind": "bot", "level": 2}, {"kind": "bot", "level": 1}],
    "seed": 3,
}

# Color City, both gangs on one device with exact hands (pitches land where predicted).
COLORCITY: dict[str, Any] = {
    "game": "colorcity",
    "seats": [
        {"kind": "device", "name": "Gi", "role": "green", "skill": "exact"},
        {"kind": "device", "name": "Pa", "role": "purple", "skill": "exact"},
    ],
    "first": "green",
    "seed": 5,
}

# Color City: an exact human green gang against a purple bot.
COLORCITY_VS_BOT: dict[str, Any] = {
    "game": "colorcity",
    "seats": [
        {"kind": "device", "role": "green", "skill": "exact"},
        {"kind": "bot", "level": 2, "role": "purple"},
    ],
    "first": "green",
    "seed": 9,
}
