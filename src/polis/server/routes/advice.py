"""Hints and post-game reviews over HTTP (:mod:`polis.server.hints`,
:mod:`polis.server.reviews`): both are worked out in the bot workers, from what each seat
could see; the web process only waits for them."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import Field

from polis.server.deps import HubDep, RoomDep
from polis.server.errors import ServerError
from polis.server.reviews import reviews_of
from polis.server.routes.standins import TokenIn

router = APIRouter(prefix="/api")


class HintIn(TokenIn):
    #: The position the hint is for (the state message's ``position``).
    position: int = Field(ge=0)


@router.post("/games/{game_id}/hint")
async def hint(room: RoomDep, body: HintIn) -> dict[str, Any]:
    """A suggested move for the seat of the token, on its turn, where the table allows hints."""
    seat = await room.seat_for(body.token)
    return await room.hints.ask(seat, body.position)


@router.get("/games/{game_id}/review")
async def review(room: RoomDep, hub: HubDep) -> dict[str, Any]:
    """The review of a finished game: ``preparing`` (with ``done`` of ``total`` moves) until
    it is ready, then every move weighed; refused before the end (it would tell secrets and
    advice)."""
    if not room.finished:
        raise ServerError("not_finished", "the review is given once the game is over")
    return reviews_of(hub).status(room)
