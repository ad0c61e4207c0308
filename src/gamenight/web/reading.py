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
"""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

PILE = 8  # messages of one socket waiting for the app before its reading stops


class PilingProtocol(WebSocketsSansIOProtocol):
    """uvicorn's ``websockets-sansio`` protocol, reading on until ``PILE`` messages wait."""

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
