"""The address friends' devices reach the server at, and which links are the server's own.

Invite and spectator links are built by the page as ``{base}/table/{id}#token=…`` (or
``#watch=…``). The base is, in order: ``GAMENIGHT_PUBLIC_URL`` (a proxy's address), else with
``gamenight serve --lan`` the machine's address on the local network, else the address the
page itself was opened with. The server tells the page the first two as ``public_url``
(``GET /api/links``), and draws a QR code only for links with one of these bases
(``GET /api/qr``), so that it is no QR code service for anyone's text.

The LAN address is found without sending anything: connecting a UDP socket only asks the
kernel which address it would send from (a UDP connect sends no packet), and the host's own
name may resolve to its addresses too. The choice among what is found is a pure function,
tested with made-up addresses.
"""

from __future__ import annotations

import io
import ipaddress
import re
import socket
from collections.abc import Iterable
from typing import Annotated
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field

from gamenight.core.errors import RulesError
from gamenight.web.refusals import Code, RefusedError

# A private address the UDP socket is connected to, to learn the address the machine would
# reach its local network from. Nothing is sent to it.
_PROBE = ("10.254.254.254", 1)
_PRIVATE = tuple(ipaddress.ip_network(n) for n in ("192.168.0.0/16", "10.0.0.0/8", "172.16.0.0/12"))
# The longest text a QR code is drawn for (a link of ours is about 90 characters).
QR_TEXT = 400
_TOKEN = r"[A-Za-z0-9_-]{1,100}"
_OUR_PATH = re.compile(rf"/table/(?P<table>{_TOKEN})")
_OUR_FRAGMENT = re.compile(rf"(token|watch)={_TOKEN}")


class InviteCheckIn(BaseModel):
    """``POST /api/tables/{id}/check-invite``: an invite link's token, and the tokens the
    asking device already holds for the table (it may be the device that used the link)."""

    model_config = ConfigDict(extra="forbid")
    token: str = Field(min_length=1, max_length=200)
    keys: list[Annotated[str, Field(max_length=200)]] = Field(default_factory=list, max_length=8)


def choose_lan_address(candidates: Iterable[str]) -> str | None:
    """The address on the local network, among ``candidates`` (IPv4 addresses of the
    machine, the most likely first: the one its route leaves from): the first private one
    (192.168/16, 10/8, 172.16/12: a home or office network), else the first other one that is
    not loopback, link-local or unspecified; None when there is none."""
    ranked: list[tuple[int, int, str]] = []
    for order, text in enumerate(candidates):
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            continue
        if not isinstance(address, ipaddress.IPv4Address):
            continue
        if address.is_loopback or address.is_link_local or address.is_unspecified:
            continue
        if address.is_multicast or address.is_reserved:
            continue
        private = any(address in network for network in _PRIVATE)
        ranked.append((0 if private else 1, order, str(address)))
    return min(ranked)[2] if ranked else None


def machine_addresses() -> list[str]:
    """The machine's IPv4 addresses that might face its local network (none sent anything)."""
    found: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_PROBE)  # UDP: the kernel picks a route, no packet leaves
            found.append(str(probe.getsockname()[0]))
    except OSError:
        pass  # no route at all (no network): the host's name may still tell
    try:
        for *_, sockaddr in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(sockaddr[0]))
    except OSError:
        pass
    return found


def lan_url(port: int, candidates: Iterable[str] | None = None) -> str | None:
    """``http://<LAN address>:<port>`` (None: no address on a local network was found)."""
    address = choose_lan_address(machine_addresses() if candidates is None else candidates)
    return None if address is None else f"http://{address}:{port}"


def read_public_url(text: str, name: str = "GAMENIGHT_PUBLIC_URL") -> str:
    """A public URL as the links' base: ``http(s)://host[:port]``, without a trailing slash
    (a path after the host is refused: the pages live at the root of the server)."""
    parts = urlsplit(text.strip())
    try:
        port_ok = parts.port is None or parts.port > 0
    except ValueError:
        port_ok = False
    if (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or not port_ok
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
        or parts.username
        or parts.password
    ):
        raise RulesError(
            f"{name} must be an address like https://games.example.org or"
            f" http://192.168.1.20:8000 (no path), not {text!r}"
        )
    return f"{parts.scheme}://{parts.netloc}"


def our_link(text: str, bases: Iterable[str]) -> str:
    """``text`` if it is an invite or spectator link of this server (its base one of
    ``bases``), else a RefusedError (``not_our_link``)."""
    refused = RefusedError(
        "a QR code is drawn only for this server's invite and spectator links",
        Code.NOT_OUR_LINK,
    )
    if len(text) > QR_TEXT:
        raise refused
    parts = urlsplit(text)
    base = f"{parts.scheme}://{parts.netloc}"
    if (
        base not in {b.rstrip("/") for b in bases}
        or not _OUR_PATH.fullmatch(parts.path)
        or parts.query
        or not _OUR_FRAGMENT.fullmatch(parts.fragment)
    ):
        raise refused
    return text


def qr_svg(text: str) -> bytes:
    """``text`` as a QR code drawn in SVG (sized by the page: a viewBox, no width), dark on
    white with the quiet zone a camera needs around it."""
    import segno  # (only the server draws QR codes)

    buffer = io.BytesIO()
    segno.make(text, error="m", micro=False).save(
        buffer, kind="svg", xmldecl=False, border=4, omitsize=True, dark="#1b1b1b", light="#fff"
    )
    return buffer.getvalue()
