"""The server's messages to a page are typed (web.outbound): the schema the page's types are
checked against is current, and web.protocol says what each message is. (Every message the
web tests read is checked against its type: tests/web/test_api.py's ``read``.)"""

from __future__ import annotations

import json
import re
import typing

import pytest
from pydantic import ValidationError

from gamenight.web import protocol
from gamenight.web.outbound import OUTBOUND, SCHEMA_FILE, Outbound, schema


def test_the_committed_schema_is_the_messages_types() -> None:
    committed = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    assert committed == schema(), "run: python -m gamenight.web.outbound"


def test_the_protocol_says_what_every_message_is() -> None:
    kinds = [
        typing.get_args(typing.get_type_hints(t)["type"])[0] for t in typing.get_args(Outbound)
    ]
    assert len(kinds) == len(set(kinds)) == 13
    doc = protocol.__doc__ or ""
    server_part = doc[doc.index("Server → client") :]
    assert [k for k in kinds if not re.search(rf"``{k}``", server_part)] == []


@pytest.mark.parametrize(
    "message",
    [
        {"type": "pong", "extra": 1},  # a key the type does not have
        {"type": "accepted", "id": "m1"},  # a key missing
        {"type": "presence", "online": "0"},  # a key of the wrong type
        {"type": "hello"},  # not a server's message
    ],
)
def test_a_message_off_its_type_is_caught(message: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        OUTBOUND.validate_python(message)
