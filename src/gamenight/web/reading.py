"""The WebSocket protocol the server runs: uvicorn's own (websockets' sans-I/O parser), which
stops reading a page's socket only once its messages pile up.

uvicorn's protocol stops reading a socket as soon as one message waits for the app, and
reads again when the app takes it: for every message a page sends, the event loop takes its
socket out of epoll and puts it back (two ``epoll_ctl`` calls and asyncio's bookkeeping of
them), which was about a sixth of the loop's time under load (docs/benchmarks.md). A page
waits for the answer to its move before it sends the next, so its messages hardly ever pile
up. This one stops reading a socket once ``PILE`` messages wait for the app, and reads again
once the app has taken them all: a page that floods the server is still held back, after a
few messages instead of one.

It also tells a page that is gone from one that is quiet, soon. A page can vanish without
closing its socket (a laptop's lid shut, a phone in a tunnel, a browser frozen): the TCP
connection stays open and says nothing, and uvicorn's keepalive (a ping every 20 s, 20 s to
answer) kept such a page's seats present to the other players for up to 40 s. Here a page
not heard from for half the silence allowed (``Limits.silence_seconds``, uvicorn's
``ws_ping_interval``) is sent a ping, which the browser answers by itself, and if it does not
within the other half (``ws_ping_timeout``) its socket is closed: its seats show away, and
the page, if it comes back, reconnects. A page that is sending is not pinged at all, and one
whose messages pile up is plainly there (its pong waits unread behind them).
"""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

PILE = 8  # messages of one socket waiting for the app before its reading stops


class PilingProtocol(WebSocketsSansIOProtocol):
    """uvicorn's ``websockets-sansio`` protocol, reading on until ``PILE`` messages wait, and
    pinging a page only once it has been silent for the ping interval."""

    heard_at = 0.0  # (the loop's time) when the page last sent anything

    def data_received(self, data: bytes) -> None:
        self.heard_at = self.loop.time()
        super().data_received(data)

    def send_keepalive_ping(self) -> None:
        assert self.ping_interval is not None
        quiet = self.loop.time() - self.heard_at
        if self.read_paused or quiet < self.ping_interval:
            # Heard from lately (or its messages pile up): ask once it has been quiet long.
            wait = self.ping_interval - quiet if not self.read_paused else self.ping_interval
            self.ping_timer = self.loop.call_later(max(0.0, wait), self.send_keepalive_ping)
            return
        super().send_keepalive_ping()

    def keepalive_timeout(self) -> None:
        if self.read_paused or self.heard_at > self.ping_sent_at:
            # Its pong is behind its piled-up messages, or it spoke since: it is there.
            self.pong_timer, self.pending_ping_payload = None, None
            self.schedule_ping()
            return
        super().keepalive_timeout()

    def send_receive_event_to_app(self) -> None:
        # uvicorn's method queues the message, then stops reading unless it was stopped
        # already: it is told it was, and the pile decides.
        stopped = self.read_paused
        self.read_paused = True
        try:
            super().send_receive_event_to_app()
        finally:
            self.read_paused = stopped
        # Once the server has sent its close, it reads on until the page's close reply
        # comes, as uvicorn's does: the app takes no more messages to start it again.
        if not stopped and not self.close_sent and self.queue.qsize() >= PILE:
            # (reading starts again when the app has taken every message: uvicorn's receive)
            self.read_paused = True
            self.transport.pause_reading()
