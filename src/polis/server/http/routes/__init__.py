"""The server's routers: pages and client files, the HTTP API, accounts, open tables, the live
WebSocket, turn notifications, hints and reviews."""

from __future__ import annotations

from polis.server.http.routes import accounts, api, hints, live, pages, push, standins, tables

ROUTERS = (
    pages.router,
    api.router,
    accounts.router,
    tables.router,
    standins.router,
    hints.router,
    live.router,
    push.router,
)

__all__ = ["ROUTERS"]
