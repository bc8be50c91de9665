"""The bot API over HTTP, in the manner of lichess's: bot accounts, their tokens, and playing.

With the account's session (and its CSRF token, like every account route):

* ``POST /api/account/bot``: the account becomes a bot account (only one that has played no
  game; for good);
* ``GET /api/account/tokens``, ``POST /api/account/tokens`` ``{"label"}`` (the answer holds the
  token, the one time it is shown), ``POST /api/account/tokens/{id}/revoke``.

With ``Authorization: Bearer <token>`` (:mod:`polis.server.accounts.bots`):

* ``GET /api/bot/account``: whom the token acts for;
* ``GET /api/bot/stream``: the event stream, NDJSON (:mod:`polis.server.live.bot_streams`);
* ``GET /api/bot/games/{id}/stream``: the bot's seat's state messages, NDJSON;
* ``POST /api/bot/games/{id}/move`` ``{"move", "position"}``: a move, in notation or as an
  action id, made exactly as a person's WebSocket move is
  (:func:`polis.server.http.routes.live.client_move`);
* ``POST /api/bot/challenges/{id}/accept`` and ``/decline``
  (:mod:`polis.server.accounts.challenges`);
* ``GET /api/bot/tables``: listed tables whose open seats bots may take;
  ``POST /api/bot/games/{id}/seats`` ``{"seat"?}``: take one
  (:mod:`polis.server.table.open_tables`; the table was made with ``"bots": true``).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import Field, StrictInt, StrictStr, field_validator

from polis.server.accounts import challenges
from polis.server.accounts.bots import BotApi, Caller, bot_api
from polis.server.errors import ServerError
from polis.server.http.deps import HubDep, SignedInDep
from polis.server.http.inputs import Body, check_name
from polis.server.http.routes.challenges import checked_id
from polis.server.http.routes.live import client_move
from polis.server.live.bot_streams import event_lines, game_lines
from polis.server.live.hub import Hub
from polis.server.live.room import Room
from polis.server.store import api_tokens as rows
from polis.server.store.accounts import Account
from polis.server.table.open_tables import take_seat
from polis.server.wire.bot import (
    BotAccountJSON,
    BotMadeJSON,
    BotMoved,
    BotSeated,
    BotTableJSON,
    BotTablesJSON,
    BotTokenJSON,
    BotTokenMade,
    BotTokensJSON,
    ChallengeJSON,
)
from polis.server.wire.from_client import MAX_MOVE

router = APIRouter()

#: What a stream answers with: one JSON value a line (an empty line: a keep-alive).
NDJSON = "application/x-ndjson"


def get_api(request: Request) -> BotApi:
    return bot_api(request)


async def get_caller(request: Request) -> Caller:
    """The token of a bot API request and its bot account (401/403 otherwise)."""
    return await bot_api(request).caller(request)


ApiDep = Annotated[BotApi, Depends(get_api)]
CallerDep = Annotated[Caller, Depends(get_caller)]


class ApiTokenIn(Body):
    #: Your words for the token ("my laptop"), shown in the list.
    label: str = Field(min_length=1, max_length=40)

    @field_validator("label")
    @classmethod
    def _label(cls, value: str) -> str:
        return check_name(value, "the label")


class BotMoveIn(Body):
    #: The move: its notation (``legal`` of the state message, or a leaf of ``choices``), or
    #: its action id in the game's action space (a whole number).
    move: (
        Annotated[StrictStr, Field(min_length=1, max_length=MAX_MOVE)]
        | Annotated[StrictInt, Field(ge=0)]
    )
    #: The position the move is made for (the state message's ``position``).
    position: StrictInt = Field(ge=0)


class BotSeatIn(Body):
    #: A seat of the table (0-based); null: the first one open.
    seat: int | None = Field(default=None, ge=0, le=7)


def address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def answer(hub: Hub, kind: Any, body: Any) -> JSONResponse:
    """A bot API answer of type ``kind`` (checked against it where the server checks its
    traffic), kept by no cache."""
    if hub.wire is not None:
        hub.wire.bot_answer(kind, body)
    return JSONResponse(body, headers={"Cache-Control": "no-store"})


def streamed(lines: Any) -> StreamingResponse:
    return StreamingResponse(
        lines,
        media_type=NDJSON,
        # no proxy may hold lines back (nginx buffers answers unless told)
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


def seat_held(room: Room, account: Account) -> int | None:
    held = [s.seat for s in room.stored.seats if s.account_id == account.id]
    return held[0] if held else None


async def bot_seat(room: Room, account: Account) -> int:
    """The bot's seat at ``room`` (403 ``forbidden`` when it holds none)."""
    seat = seat_held(room, account)
    if seat is None:
        await room.reload_seats()  # another process may have seated it a moment ago
        seat = seat_held(room, account)
    if seat is None:
        raise ServerError("forbidden", "you hold no seat at this table")
    return seat


# -- the account's side (its session) -----------------------------------------------------------
@router.post("/api/account/bot")
async def make_bot(signed: SignedInDep, api: ApiDep, hub: HubDep) -> Any:
    """Make the signed-in account a bot account (one that has played no game; for good)."""
    return answer(hub, BotMadeJSON, await api.make_bot(signed))


@router.get("/api/account/tokens")
async def tokens(signed: SignedInDep, api: ApiDep, hub: HubDep) -> Any:
    """The account's API tokens, newest first (never their secrets)."""
    return answer(hub, BotTokensJSON, await api.tokens(signed))


@router.post("/api/account/tokens")
async def create_token(body: ApiTokenIn, signed: SignedInDep, api: ApiDep, hub: HubDep) -> Any:
    """A new API token for the bot account: the answer holds its secret, shown this once."""
    return answer(hub, BotTokenMade, await api.create_token(signed, body.label))


@router.post("/api/account/tokens/{token_id}/revoke")
async def revoke_token(token_id: str, signed: SignedInDep, api: ApiDep, hub: HubDep) -> Any:
    """Revoke one of the account's tokens: refused from now on, its streams closed."""
    return answer(hub, BotTokenJSON, await api.revoke(signed, token_id))


# -- the bot's side (its token) -----------------------------------------------------------------
@router.get("/api/bot/account")
async def account(caller: CallerDep, hub: HubDep) -> Any:
    """The bot account the token acts for."""
    return answer(hub, BotAccountJSON, BotAccountJSON(name=caller.account.name, bot=True))


@router.get("/api/bot/stream")
async def events(caller: CallerDep, api: ApiDep, hub: HubDep) -> StreamingResponse:
    """The bot's event stream (NDJSON): challenges, games starting, games over."""
    api.admit_stream(caller)
    return streamed(event_lines(hub, api, caller))


@router.get("/api/bot/games/{game_id}/stream")
async def game_stream(
    game_id: str, request: Request, caller: CallerDep, api: ApiDep, hub: HubDep
) -> StreamingResponse:
    """The bot's seat's state messages (NDJSON), the current one first, until the game is
    over."""
    room = await hub.room(game_id)
    seat = await bot_seat(room, caller.account)
    limit = hub.guards.limits.connections_per_seat
    if room.presence.count(seat) >= limit:
        raise ServerError("full", "this seat has too many open connections")
    api.admit_stream(caller)
    return streamed(game_lines(hub, api, caller, room, seat, address(request)))


@router.post("/api/bot/games/{game_id}/move")
async def move(game_id: str, body: BotMoveIn, caller: CallerDep, api: ApiDep, hub: HubDep) -> Any:
    """Make the bot's move (notation or action id) at ``position``: exactly as a person's
    move from the table's WebSocket, held to the table's turn and clock."""
    api.moved(caller)
    room = await hub.room(game_id)
    seat = await bot_seat(room, caller.account)
    await client_move(room, seat, body.move, body.position)
    return answer(hub, BotMoved, BotMoved(game_id=room.id, position=body.position + 1))


@router.post("/api/bot/challenges/{challenge_id}/accept")
async def accept(
    challenge_id: str, request: Request, caller: CallerDep, api: ApiDep, hub: HubDep
) -> Any:
    """Accept a challenge to the bot: the table is made (the challenger at seat 0, the bot
    at seat 1)."""
    hub.guards.create(address(request))
    room, seat, _token = await challenges.accept(hub, caller.account, checked_id(challenge_id))
    api.wake(caller.account.id)
    return answer(hub, BotSeated, BotSeated(game_id=room.id, seat=seat))


@router.post("/api/bot/challenges/{challenge_id}/decline")
async def decline(challenge_id: str, caller: CallerDep, hub: HubDep) -> Any:
    """Decline a challenge to the bot."""
    found = await challenges.decline(hub, caller.account, checked_id(challenge_id))
    return answer(hub, ChallengeJSON, found)


@router.get("/api/bot/tables")
async def tables(caller: CallerDep, hub: HubDep) -> Any:
    """Listed tables with open seats that bot accounts may take, newest first."""
    engine = hub.store.engine
    found = await hub.patiently(lambda: hub.store.open_tables(100), "listing open tables")
    ids = [t["id"] for t in found]
    allowed = await hub.patiently(lambda: rows.bots_allowed(engine, ids), "tables for bots")
    listed = [
        BotTableJSON(
            id=t["id"],
            game=t["game"],
            mode=t["mode"],
            players=t["players"],
            names=t["names"],
            vacant=t["vacant"],
            clock=t["clock"],
        )
        for t in found
        if t["id"] in allowed and t["game"] in hub.games
    ]
    return answer(hub, BotTablesJSON, BotTablesJSON(tables=listed))


@router.post("/api/bot/games/{game_id}/seats")
async def take(
    game_id: str,
    body: BotSeatIn,
    request: Request,
    caller: CallerDep,
    api: ApiDep,
    hub: HubDep,
) -> Any:
    """Take an open seat (``seat``, or the first one open) of a table made with
    ``"bots": true``; once every seat is taken the game starts (``game_start``)."""
    hub.guards.create(address(request))
    room = await hub.room(game_id)
    bot = caller.account
    engine = hub.store.engine
    allowed = await hub.patiently(lambda: rows.bots_allowed(engine, [room.id]), "a table")
    if not allowed:
        raise ServerError(
            "forbidden", 'this table does not seat bot accounts (it was not made with "bots")'
        )
    if seat_held(room, bot) is not None:
        raise ServerError("forbidden", "you already sit at this table")
    await hub.accounts.check_welcome(room, bot)
    seat, _token = await take_seat(room, bot.name, body.seat, bot)
    api.wake(bot.id)
    return answer(hub, BotSeated, BotSeated(game_id=room.id, seat=seat))
