"""A time limit on a request's headers, which uvicorn does not have.

uvicorn closes a kept-alive connection that stays quiet, but a client that connects and then
sends nothing, or sends its headers one byte at a time, is kept forever: a thousand such
sockets hold a thousand file descriptors and buffers. This protocol (uvicorn's own, with a
timer) closes a connection whose request headers are not complete within ``header_timeout``
seconds of the connection or of the request's first byte.
"""

from __future__ import annotations

import asyncio
from typing import Any


def guarded_protocol(header_timeout: float) -> type[asyncio.Protocol] | str:
    """uvicorn's HTTP protocol class with the header time limit (``"auto"``, no limit, where
    uvicorn runs without httptools)."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # pragma: no cover - uvicorn without its standard extras
        return "auto"

    class HeaderTimeoutProtocol(HttpToolsProtocol):
        _header_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            if self._header_timer is None:
                self._arm()

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self._header_timer is not None and self.transport.is_closing():
                self._disarm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            self._disarm()
            self._header_timer = self.loop.call_later(header_timeout, self._too_slow)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _too_slow(self) -> None:
            self._header_timer = None
            if not self.transport.is_closing():
                self.transport.close()

    return HeaderTimeoutProtocol
