"""The server's routers: pages and client files, the HTTP API, the live WebSocket."""

from __future__ import annotations

from polis.server.routes import api, live, pages

ROUTERS = (pages.router, api.router, live.router)

__all__ = ["ROUTERS"]
