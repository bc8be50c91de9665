"""The ASGI app, assembled: store, hub, bot workers, routers, guards and error handlers.

``create_app(db_url)`` builds everything and keeps it on ``app.state``; nothing is global, so
tests run several servers side by side. The routes live in :mod:`polis.server.http.routes`; how
the process is set up (public address, Redis, bots, limits) is a
:class:`~polis.server.config.ServerConfig`.
"""

from __future__ import annotations

import gc
import logging
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import replace

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException

from polis.core.errors import PolisError
from polis.core.protocol import Game
from polis.core.registry import games as registered_games
from polis.server.config import ServerConfig
from polis.server.errors import CODE_OF_STATUS, ServerError
from polis.server.http.inputs import printable
from polis.server.http.middleware import BodyLimit, Forwarded, SecurityHeaders
from polis.server.http.routes import ROUTERS
from polis.server.http.routes.pages import STATIC
from polis.server.http.webfiles import game_client
from polis.server.live.bus import LocalBus, RedisBus
from polis.server.live.hub import Hub
from polis.server.store.faults import transient, unavailable
from polis.server.store.games import Store, default_db_url
from polis.server.wire.http import error_body

log = logging.getLogger("polis.server")


def _error(
    req: Request,
    exc: ServerError,
    status: int | None = None,
    headers: dict[str, str] | None = None,
) -> JSONResponse:
    """The one error shape (:class:`~polis.server.wire.to_client.ErrorBody`), with
    ``Retry-After`` where waiting helps."""
    status = exc.status if status is None else status
    headers = dict(headers or {})
    if status in (429, 503):
        headers.setdefault("Retry-After", "5")
    body = error_body(exc.to_message())
    wire = getattr(req.app.state.hub, "wire", None)
    if wire is not None:
        wire.http_error(body)
    return JSONResponse(body, status_code=status, headers=headers or None)


def create_app(
    db_url: str | None = None,
    *,
    games: Iterable[Game] | None = None,
    bot_delay: float | None = None,
    bot_workers: int | None = None,
    config: ServerConfig | None = None,
) -> FastAPI:
    """The web app with its own store (SQLite file by default, PostgreSQL for postgresql://).

    ``games`` are the games served (default: every registered game); ``config`` the process's
    settings (default: :meth:`ServerConfig.from_env`), ``bot_delay`` and ``bot_workers``
    override two of them.
    """
    served = {g.name: g for g in (registered_games().values() if games is None else games)}
    config = config or ServerConfig.from_env()
    config = replace(
        config,
        bot_delay=config.bot_delay if bot_delay is None else bot_delay,
        bot_workers=config.bot_workers if bot_workers is None else bot_workers,
    )
    store = Store(db_url or default_db_url())
    bus = RedisBus(config.redis_url, config.instance) if config.redis_url else None
    hub = Hub(store, served, config=config, bus=bus or LocalBus(config.instance))

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        if config.tune_gc:
            tune_gc()
        await hub.start()  # serves at once: waiting bots are resumed in the background
        try:
            yield
        finally:
            await hub.close()
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
    app.add_exception_handler(HTTPException, _http_error)
    app.add_exception_handler(PolisError, _polis_error)
    app.add_exception_handler(ValidationError, _validation_error)
    app.add_exception_handler(RequestValidationError, _request_error)
    app.add_exception_handler(SQLAlchemyError, _store_error)
    app.add_exception_handler(Exception, _unexpected)
    # the last added is the outermost: every answer (a 413 too) gets the security headers;
    # the client's address is known before the size limit or any route looks at the request
    app.add_middleware(BodyLimit, limit=config.limits.max_body)
    app.add_middleware(Forwarded, trusted=config.trusted_proxies)
    app.add_middleware(SecurityHeaders)
    return app


def tune_gc() -> None:
    """Shorter, rarer garbage-collector pauses for a long-running server.

    What start-up loaded (modules, tables) stays: frozen, the collector never scans it again.
    Each move leaves a few long-lived objects (a game's new state), which with the default
    thresholds start a full collection (tens of milliseconds, every table waiting) every few
    seconds on a busy server; the last threshold makes that ten times rarer. The young
    generations keep their small default sizes: their collections stay well under a
    millisecond or a few.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(700, 10, 100)


async def _server_error(req: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ServerError)
    return _error(req, exc)


async def _http_error(req: Request, exc: Exception) -> JSONResponse:
    """What the framework refuses itself (no such path or method, a body that is not JSON or
    not UTF-8, a number too long to read), in the same shape as everything else."""
    assert isinstance(exc, HTTPException)
    status = exc.status_code
    code = CODE_OF_STATUS.get(status, "bad_request" if status < 500 else "internal")
    message = {
        400: "the request body could not be read: it must be JSON in UTF-8, with numbers of "
        "at most 4,300 digits",
        404: "there is nothing at this address",
        405: "this address does not take this method",
    }.get(status, str(exc.detail))
    return _error(req, ServerError(code, message), status, dict(exc.headers or {}))


async def _polis_error(req: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, PolisError)
    return _error(req, ServerError("bad_request", exc.message, exc.rule))


async def _validation_error(req: Request, exc: Exception) -> JSONResponse:
    return _error(req, ServerError("bad_request", printable(str(exc))))


async def _request_error(req: Request, exc: Exception) -> JSONResponse:
    """A request body that does not fit: which field and why, never the text sent (it may be
    what cannot be encoded)."""
    assert isinstance(exc, RequestValidationError)
    parts = []
    for error in exc.errors()[:5]:
        where = ".".join(str(p) for p in error.get("loc", ()) if p != "body")
        parts.append(f"{where or 'body'}: {error.get('msg', 'invalid')}")
    return _error(req, ServerError("invalid", printable("; ".join(parts))))


async def _store_error(req: Request, exc: Exception) -> JSONResponse:
    """The store unreachable: 503 with a clear message (and one log line, no traceback)."""
    if transient(exc):
        log.warning("answered 503: the store is unavailable (%s)", type(exc).__name__)
        return _error(req, unavailable())
    log.error("store error", exc_info=exc)
    return _error(req, ServerError("internal", "the server failed on this request (logged)"))


async def _unexpected(req: Request, exc: Exception) -> JSONResponse:
    """A bug: 500 with a message that says so (the traceback goes to the log)."""
    if transient(exc):
        return _error(req, unavailable())
    return _error(req, ServerError("internal", "the server failed on this request (logged)"))
