"""The ASGI app, assembled: store, hub, bot workers, routers and error handlers.

``create_app(db_url)`` builds everything and keeps it on ``app.state``; nothing is global, so
tests run several servers side by side. The routes live in :mod:`polis.server.routes`.
"""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncIterator, Iterable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError

from polis.core.errors import PolisError
from polis.core.protocol import Game
from polis.core.registry import games as registered_games
from polis.server.errors import ServerError
from polis.server.hub import Hub
from polis.server.routes import ROUTERS
from polis.server.routes.pages import STATIC
from polis.server.store import Store, default_db_url
from polis.server.webfiles import game_client

log = logging.getLogger("polis.server")


def _error(exc: ServerError) -> JSONResponse:
    return JSONResponse({"error": exc.to_message()}, status_code=exc.status)


def create_app(
    db_url: str | None = None,
    *,
    games: Iterable[Game] | None = None,
    bot_delay: float | None = None,
    bot_workers: int = 2,
) -> FastAPI:
    """The web app with its own store (SQLite file by default, PostgreSQL for postgresql://).

    ``games`` are the games served (default: every registered game).
    """
    served = {g.name: g for g in (registered_games().values() if games is None else games)}
    store = Store(db_url or default_db_url())
    if bot_delay is None:
        bot_delay = float(os.environ.get("POLIS_BOT_DELAY", "0.4"))
    executor = ThreadPoolExecutor(max_workers=bot_workers, thread_name_prefix="polis-bot")
    hub = Hub(store, served, executor, bot_delay=bot_delay)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        resumed = await hub.resume_all()
        if resumed:
            log.info("resumed %d unfinished games", resumed)
        try:
            yield
        finally:
            await hub.close()
            executor.shutdown(wait=False, cancel_futures=True)
            store.close()

    app = FastAPI(title="polis", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.state.hub = hub
    app.state.clients = {
        name: client for name, game in served.items() if (client := game_client(game))
    }
    for router in ROUTERS:
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_exception_handler(ServerError, _server_error)
    app.add_exception_handler(PolisError, _polis_error)
    app.add_exception_handler(ValidationError, _validation_error)
    return app


async def _server_error(_req: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ServerError)
    return _error(exc)


async def _polis_error(_req: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, PolisError)
    return _error(ServerError("bad_request", exc.message, exc.rule))


async def _validation_error(_req: Request, exc: Exception) -> JSONResponse:
    return _error(ServerError("bad_request", str(exc)))
