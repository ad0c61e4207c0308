"""A table's chat (issue 16): short lines and quick phrases, on two sides that never hear
each other.

A page holding a seat speaks for that seat (the seat to act, if it holds it, else its first)
and is heard by every page holding a seat: the players. A page holding none speaks as
"spectator <n>" (numbered at the table as it first speaks or listens) and is heard by the
spectators only. So spectators chat among themselves, and do not read the players' chat
either: what players say at their table stays between them, and nobody watching can coach
a player (lichess keeps its players' and spectators' chats apart the same way).

Text is kept as text: control, bidirectional-override and hidden format characters are
taken out, a letter keeps at most a few combining marks, and runs of white space are made
one space (seat names are cleaned the same way, web.tables); pages show it as text, never
as markup. The latest
``KEPT`` lines of each side are kept in memory (not in the store) and sent to a page after
its hello. The rate of lines is limited per page, per side of a table and per address
(web.quotas.Gate.chat), so that neither one page nor a crowd of fresh sockets floods a
table. Scaled out, a line reaches the other servers' pages through the relay
(web.relay), as it goes: one said while Redis cannot be reached is heard on its own server
only, and each server numbers its own spectators.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
import weakref
from collections import deque
from typing import Literal

from gamenight.web import outbound
from gamenight.web.outbound import ChatLine
from gamenight.web.protocol import Chat
from gamenight.web.refusals import Code, RefusedError
from gamenight.web.room import Connection, Room, to_json

KEPT = 50  # lines of each side sent to a page after its hello
Side = Literal["players", "spectators"]
# Characters that reorder or hide the text around them.
BIDI = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")
# Format characters kept: the joiners that make emoji sequences (👨‍👩‍👧) and Persian or Indic
# words what they are. Every other one (zero-width spaces, word joiners, byte-order marks,
# soft hyphens, tags) only hides text, or makes a line of nothing.
JOINERS = frozenset("\u200c\u200d")
MARKS = 3  # combining marks kept on one letter: Vietnamese and Indic need 2 or 3
INVISIBLE = frozenset(("Mn", "Me", "Cf", "Zs", "Zl", "Zp"))


def clean(text: str) -> str:
    """``text`` as a line others read (a chat line, a seat's name): no control, direction
    or hidden format characters, at most ``MARKS`` combining marks on a letter (a hundred
    of them draw a tower over the lines above), single spaces."""
    kept: list[str] = []
    marks = 0
    for ch in BIDI.sub("", text):
        category = unicodedata.category(ch)
        if ch.isspace():
            ch = " "
        elif category in ("Cc", "Cs") or (category == "Cf" and ch not in JOINERS):
            continue
        marks = marks + 1 if category in ("Mn", "Me") else 0
        if marks <= MARKS:
            kept.append(ch)
    return " ".join("".join(kept).split())


def visible(text: str) -> bool:
    """Whether ``text`` shows anything: not only spaces, joiners and marks."""
    return any(unicodedata.category(ch) not in INVISIBLE for ch in text)


def side_of(connection: Connection) -> Side:
    return "players" if connection.seats else "spectators"


class TableChat:
    """The chat of one live table."""

    def __init__(self) -> None:
        self.kept: dict[Side, deque[ChatLine]] = {
            "players": deque(maxlen=KEPT),
            "spectators": deque(maxlen=KEPT),
        }
        self.lines = itertools.count(1)
        self.spectators = itertools.count(1)
        self.numbers: weakref.WeakKeyDictionary[Connection, int] = weakref.WeakKeyDictionary()

    def number(self, connection: Connection) -> int:
        """The spectator's number at this table (kept while its page is open)."""
        if connection not in self.numbers:
            self.numbers[connection] = next(self.spectators)
        return self.numbers[connection]

    def welcome(self, connection: Connection) -> None:
        """After a hello: the latest lines of the page's side, if any."""
        kept = self.kept[side_of(connection)]
        if side_of(connection) == "spectators":
            self.number(connection)
        if kept:
            connection.send(outbound.chat(list(kept), history=True))

    def say(
        self, room: Room, connection: Connection, message: Chat, actor: int | None
    ) -> tuple[Side, ChatLine]:
        """``connection``'s line, told to every page of its side here (itself included); its
        side and the line, for the other servers. (Its rate is the gate's: web.quotas.)"""
        if connection not in room.connections:
            detail = "chat: say hello before chatting"
            raise RefusedError(f"bad message ({detail})", Code.BAD_MESSAGE, detail=detail)
        line: ChatLine = {"n": next(self.lines)}
        side = side_of(connection)
        if side == "players":
            seats = connection.seats
            line["seat"] = actor if actor in seats else seats[0]
        else:
            line["spectator"] = self.number(connection)
        if message.phrase is not None:
            line["phrase"] = message.phrase
        else:
            text = clean(message.text or "")
            if not visible(text):
                detail = "text: nothing to say once control and hidden characters are taken out"
                raise RefusedError(f"bad message ({detail})", Code.BAD_MESSAGE, detail=detail)
            line["text"] = text
        self.hear(room, side, line)
        return side, line

    def hear(self, room: Room, side: str, line: ChatLine) -> None:
        """Tell every page here of ``side`` a line said here or (scaled out) on another
        server, and keep it for the pages to come."""
        if side not in self.kept:
            return
        self.kept[side].append(line)
        out = to_json(outbound.chat([line]))
        for other in list(room.connections):
            if not other.gone and side_of(other) == side:
                other.send(out)
