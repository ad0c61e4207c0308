"""Who may see a table (issue 14, finding 9).

A table is ``public`` (listed by ``GET /api/tables``, anyone may watch) or ``unlisted``: not
listed, and watching it — its socket, ``GET /api/tables/{id}``, its replay and its record —
needs its spectator link's token (the ``watch`` token its host was given when making it) or
a token that opens one of its seats. A table with an invited seat is unlisted unless its
set-up says otherwise; one without, public. Both are kept in the table's stored ``setup``
(``visibility``, ``watch_hash``: the token's hash, never the token), so no column changes;
a table stored before there was visibility follows the same default and, having no watch
token, can be watched only by its seats.
"""

from __future__ import annotations

from typing import Any, Literal

from gamenight.web.protocol import TableIn
from gamenight.web.seats import hash_keys, hash_token, new_token

Visibility = Literal["public", "unlisted"]


def visibility_of(setup: dict[str, Any], seats: list[dict[str, Any]]) -> Visibility:
    """A stored table's visibility (the default for one that does not say)."""
    chosen = setup.get("visibility")
    if chosen in ("public", "unlisted"):
        return chosen  # type: ignore[no-any-return]
    return "unlisted" if any(seat.get("invite") for seat in seats) else "public"


def new_privacy(body: TableIn) -> tuple[dict[str, str], str | None]:
    """The set-up's privacy to store, and the spectator link's token for the host (None: a
    public table, which anyone may watch)."""
    invited = [{"invite": seat.kind == "invite"} for seat in body.seats]
    visibility = visibility_of({"visibility": body.visibility}, invited)
    if visibility == "public":
        return {"visibility": visibility}, None
    watch = new_token()
    return {"visibility": visibility, "watch_hash": hash_token(watch)}, watch


def may_watch(setup: dict[str, Any], seats: list[dict[str, Any]], keys: list[str]) -> bool:
    """Whether a page bringing ``keys`` (a watch token, seat tokens) may see the table."""
    if visibility_of(setup, seats) == "public":
        return True
    hashes = hash_keys(keys)
    opening = {setup.get("watch_hash"), *(seat.get("token_hash") for seat in seats)}
    return bool(hashes & (opening - {None}))
