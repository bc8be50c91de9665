"""The ASGI app: HTTP API for creating games, records and replays; one WebSocket per seat.

``create_app(db_url)`` builds everything (store, hub, bot workers); nothing is global, so tests
run several servers side by side.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field, ValidationError

from polis.core.errors import PolisError
from polis.core.protocol import Game
from polis.core.registry import GAME_NAMES
from polis.core.registry import get_game as registry_get_game
from polis.server.bots import LEVELS
from polis.server.hub import Connection, Hub, Room, ServerError
from polis.server.messages import BadMessage, Hello, MoveMsg, Ping, parse_client_message
from polis.server.store import Store, default_db_url

log = logging.getLogger("polis.server")

STATIC = Path(str(resources.files("polis.server") / "static"))
LANGUAGES = ("en", "de", "pl", "it")
HELLO_TIMEOUT = 15.0


class SeatIn(BaseModel):
    name: str = Field(min_length=1, max_length=40)
    kind: Literal["human", "bot"]
    level: Literal["easy", "medium", "hard"] | None = None


class NewGame(BaseModel):
    game: str = Field(max_length=32)
    mode: str = Field(max_length=16)
    seats: list[SeatIn] = Field(min_length=1, max_length=8)
    seed: int | None = Field(default=None, ge=0, lt=2**31 - 1)


class TokensIn(BaseModel):
    tokens: list[str] = Field(min_length=1, max_length=8)


_STATUS = {
    "not_found": 404,
    "bad_token": 403,
    "not_finished": 409,
    "bad_request": 400,
}


def _error(exc: ServerError) -> JSONResponse:
    return JSONResponse({"error": exc.to_message()}, status_code=_STATUS.get(exc.code, 400))


def create_app(
    db_url: str | None = None,
    *,
    get_game: Callable[[str], Game] = registry_get_game,
    game_names: tuple[str, ...] = GAME_NAMES,
    bot_delay: float | None = None,
    bot_workers: int = 2,
) -> FastAPI:
    """The web app with its own store (SQLite file by default, PostgreSQL for postgresql://)."""
    store = Store(db_url or default_db_url())
    if bot_delay is None:
        bot_delay = float(os.environ.get("POLIS_BOT_DELAY", "0.4"))
    executor = ThreadPoolExecutor(max_workers=bot_workers, thread_name_prefix="polis-bot")
    holder: dict[str, Hub] = {}

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        hub = Hub(store, get_game, executor, bot_delay=bot_delay)
        holder["hub"] = hub
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
    app.state.store = store

    def hub() -> Hub:
        return holder["hub"]

    async def room_or_error(game_id: str) -> Room:
        if len(game_id) > 32:
            raise ServerError("not_found", "no such game")
        return await hub().room(game_id)

    @app.exception_handler(ServerError)
    async def _server_error(_req: Request, exc: ServerError) -> JSONResponse:
        return _error(exc)

    @app.exception_handler(PolisError)
    async def _polis_error(_req: Request, exc: PolisError) -> JSONResponse:
        return _error(ServerError("bad_request", exc.message, exc.rule))

    # -- pages ----------------------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # -- API ------------------------------------------------------------------------------------
    @app.get("/api/meta")
    async def meta() -> dict[str, Any]:
        games: dict[str, Any] = {}
        for name in game_names:
            try:
                engine = get_game(name)
            except (ImportError, PolisError):
                continue  # an engine not installed yet
            games[name] = {
                "modes": list(engine.modes),
                "min_players": engine.min_players,
                "max_players": engine.max_players,
            }
        return {"games": games, "levels": list(LEVELS), "languages": list(LANGUAGES)}

    @app.get("/api/boards/{game}")
    async def board(game: str) -> Response:
        """Public component data the client draws from (Metropolys board, Quadropolis mats)."""
        files = {"metropolys": "board.json", "quadropolis": "mats.json"}
        if game not in files or game not in game_names:
            raise ServerError("not_found", f"no board for {game!r}")
        text = (resources.files(f"polis.{game}") / "data" / files[game]).read_text("utf-8")
        return Response(
            text, media_type="application/json", headers={"Cache-Control": "max-age=3600"}
        )

    @app.get("/api/games")
    async def recent() -> dict[str, Any]:
        return {"games": await asyncio.to_thread(store.recent, 30)}

    @app.post("/api/games")
    async def create(body: NewGame, request: Request) -> dict[str, Any]:
        if body.game not in game_names:
            raise ServerError("bad_request", f"unknown game {body.game!r}")
        engine = get_game(body.game)
        if body.mode not in engine.modes:
            raise ServerError(
                "bad_request", f"{body.game} has no mode {body.mode!r} ({', '.join(engine.modes)})"
            )
        if not engine.min_players <= len(body.seats) <= engine.max_players:
            raise ServerError(
                "bad_request",
                f"{body.game} is for {engine.min_players} to {engine.max_players} players",
            )
        seats = [
            {
                "name": s.name.strip() or f"player {i + 1}",
                "kind": s.kind,
                "level": (s.level or "medium") if s.kind == "bot" else None,
            }
            for i, s in enumerate(body.seats)
        ]
        room, tokens = await hub().create(body.game, body.mode, seats, seed=body.seed)
        base = str(request.base_url).rstrip("/")
        gid = room.stored.id
        return {
            "id": gid,
            "seats": [
                {
                    **public,
                    **(
                        {
                            "token": tokens[public["seat"]],
                            "invite": f"{base}/#/game/{gid}/{tokens[public['seat']]}",
                        }
                        if public["seat"] in tokens
                        else {}
                    ),
                }
                for public in room.seats_public()
            ],
            "watch": f"{base}/#/game/{gid}",
        }

    @app.get("/api/games/{game_id}")
    async def summary(game_id: str) -> dict[str, Any]:
        room = await room_or_error(game_id)
        return {
            "id": game_id,
            "game": room.stored.game,
            "mode": room.stored.mode,
            "players": room.stored.players,
            "seats": room.seats_public(),
            "position": room.position,
            "finished": room.state.is_terminal(),
            "rematch_of": room.stored.rematch_of,
            "rematch_id": room.stored.rematch_id,
        }

    def finished_record(room: Room) -> dict[str, Any]:
        if not room.state.is_terminal():
            raise ServerError(
                "not_finished", "the record is available once the game is over (it holds secrets)"
            )
        names = [s.name if s.kind == "human" else f"bot:{s.level}" for s in room.stored.seats]
        return room.state.to_record(names=names, seed=room.stored.seed)

    @app.get("/api/games/{game_id}/record")
    async def record(game_id: str) -> Response:
        room = await room_or_error(game_id)
        data = finished_record(room)
        filename = f"{room.stored.game}-{game_id}.json"
        return Response(
            json.dumps(data, indent=2, ensure_ascii=False),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{filename}"'},
        )

    @app.get("/api/games/{game_id}/replay/{position}")
    async def replay(game_id: str, position: int) -> dict[str, Any]:
        room = await room_or_error(game_id)
        rec = finished_record(room)
        total = len(rec["moves"])
        if not 0 <= position <= total:
            raise ServerError("bad_request", f"position must be between 0 and {total}")
        rec["moves"] = rec["moves"][:position]
        rec.pop("result", None)
        state = await asyncio.to_thread(room.engine.from_record, rec)
        out: dict[str, Any] = {
            "position": position,
            "total": total,
            "view": state.view(None),
            "current_player": state.current_player(),
        }
        if state.is_terminal():
            out["result"] = room.engine.result_json(state.result())
        return out

    @app.post("/api/games/{game_id}/rematch")
    async def rematch(game_id: str, body: TokensIn) -> dict[str, Any]:
        await room_or_error(game_id)
        new_id, tokens = await hub().rematch(game_id, body.tokens)
        return {"id": new_id, "tokens": {str(k): v for k, v in tokens.items()}}

    # -- WebSocket --------------------------------------------------------------------------------
    @app.websocket("/ws/{game_id}")
    async def play(ws: WebSocket, game_id: str) -> None:
        await ws.accept()

        async def send(message: dict[str, Any]) -> None:
            await ws.send_json(message)

        try:
            room = await room_or_error(game_id)
        except ServerError as exc:
            await send(exc.to_message())
            await ws.close(code=4404)
            return
        conn: Connection | None = None
        try:
            try:
                first = await asyncio.wait_for(ws.receive(), HELLO_TIMEOUT)
            except TimeoutError:
                await send(ServerError("malformed", "expected a hello message").to_message())
                await ws.close(code=4400)
                return
            if first.get("type") == "websocket.disconnect":
                return
            try:
                hello = parse_client_message(first.get("text") or first.get("bytes"))
            except BadMessage as exc:
                await send({"type": "error", "code": exc.code, "message": exc.message})
                await ws.close(code=4400)
                return
            if not isinstance(hello, Hello):
                await send(
                    {
                        "type": "error",
                        "code": "malformed",
                        "message": "the first message must be a hello",
                    }
                )
                await ws.close(code=4400)
                return
            seat: int | None = None
            if hello.token is not None:
                try:
                    seat = room.seat_for_token(hello.token)
                except ServerError as exc:
                    await send(exc.to_message())
                    await ws.close(code=4403)
                    return
            conn = Connection(seat, send)
            await send({"type": "welcome", "game_id": game_id, "seat": seat})
            await room.join(conn)
            while True:
                raw = await ws.receive()
                if raw.get("type") == "websocket.disconnect":
                    break
                try:
                    msg = parse_client_message(raw.get("text") or raw.get("bytes"))
                except BadMessage as exc:
                    await send({"type": "error", "code": exc.code, "message": exc.message})
                    continue
                if isinstance(msg, Ping):
                    await send({"type": "pong"})
                elif isinstance(msg, Hello):
                    await send(
                        ServerError(
                            "malformed", "already greeted; open a new connection for another seat"
                        ).to_message()
                    )
                elif isinstance(msg, MoveMsg):
                    try:
                        await room.submit(seat, msg.move, msg.position)
                    except ServerError as exc:
                        await send(exc.to_message())
                        await send(room.snapshot(seat))
        except WebSocketDisconnect:
            pass
        finally:
            if conn is not None:
                await room.leave(conn)
            with contextlib.suppress(Exception):
                await ws.close()

    @app.exception_handler(ValidationError)
    async def _validation(_req: Request, exc: ValidationError) -> JSONResponse:
        return _error(ServerError("bad_request", str(exc)))

    return app
