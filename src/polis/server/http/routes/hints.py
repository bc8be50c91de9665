"""Hints and post-game reviews over HTTP (:mod:`polis.server.table.hints`,
:mod:`polis.server.table.reviews`): both are worked out in the bot workers, from what each seat
could see; the web process only waits for them. New ones are capped per client address,
per server and (hints) per seat, and refused past a cap: 429
(:mod:`polis.server.table.thinking`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import Field

from polis.server.errors import ServerError
from polis.server.http.deps import HubDep, RoomDep
from polis.server.http.routes.standins import TokenIn
from polis.server.table.reviews import reviews_of

router = APIRouter(prefix="/api")


class HintIn(TokenIn):
    #: The position the hint is for (the state message's ``position``).
    position: int = Field(ge=0)


def address_of(request: Request) -> str:
    return request.client.host if request.client else "unknown"


@router.post("/games/{game_id}/hint")
async def hint(room: RoomDep, body: HintIn, request: Request) -> dict[str, Any]:
    """A suggested move for the seat of the token, on its turn, where the table allows hints
    (429 while too many are being worked out for the address, the seat or the server)."""
    seat = await room.seat_for(body.token)
    return await room.hints.ask(seat, body.position, address_of(request))


@router.get("/games/{game_id}/review")
async def review(room: RoomDep, hub: HubDep, request: Request) -> dict[str, Any]:
    """The review of a finished game: ``preparing`` (with ``done`` of ``total`` moves) until
    it is ready, then every move weighed; refused before the end (it would tell secrets and
    advice), and (429) when starting it would pass the address's or the server's cap."""
    if not room.finished:
        raise ServerError("not_finished", "the review is given once the game is over")
    return reviews_of(hub).status(room, address_of(request))
