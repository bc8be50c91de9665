"""The server's routers: pages and client files, the HTTP API, accounts and their passkeys,
the bot API, events, open tables, the live WebSocket, turn notifications, hints and reviews,
the tutorials."""

from __future__ import annotations

from polis.server.http.routes import (
    accounts,
    api,
    bots,
    challenges,
    events,
    hints,
    learn,
    live,
    pages,
    passkeys,
    people,
    players,
    push,
    standins,
    tables,
)

ROUTERS = (
    pages.router,
    api.router,
    accounts.router,
    challenges.router,
    bots.router,
    events.router,
    people.router,
    passkeys.router,
    players.router,
    tables.router,
    standins.router,
    hints.router,
    learn.router,
    live.router,
    push.router,
)

__all__ = ["ROUTERS"]
