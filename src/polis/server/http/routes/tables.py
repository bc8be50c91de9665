"""Open tables in the HTTP API: the lobby's list of tables waiting for people, and taking a
seat at one (:mod:`polis.server.table.open_tables`).

Taking a seat counts against the same per-address limit as creating a game: each gives out a
seat token, and neither may be done in bulk.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import Field, field_validator

from polis.server.errors import ServerError
from polis.server.http.deps import HubDep, MaybeSignedIn, RoomDep
from polis.server.http.inputs import Body, check_name
from polis.server.http.middleware import public_base
from polis.server.store.api_tokens import bots_allowed
from polis.server.table.open_tables import take_seat

router = APIRouter(prefix="/api")


class TakeSeat(Body):
    name: str = Field(min_length=1, max_length=40)
    #: A seat of the table (0-based); None: the first one vacant.
    seat: int | None = Field(default=None, ge=0, le=7)

    @field_validator("name")
    @classmethod
    def _clean(cls, value: str) -> str:
        return check_name(value)


@router.get("/tables")
async def tables(hub: HubDep) -> dict[str, Any]:
    """The listed tables with vacant seats, newest first (invite-only ones never); ``bots``:
    whether bot accounts may take the open seats (the table was made with ``"bots": true``)."""
    found = await hub.patiently(lambda: hub.store.open_tables(30), "listing open tables")
    ids = [t["id"] for t in found]
    engine = hub.store.engine
    allowed = await hub.patiently(lambda: bots_allowed(engine, ids), "tables for bots")
    return {"tables": [{**t, "bots": t["id"] in allowed} for t in found]}


@router.post("/games/{game_id}/seats")
async def take(
    body: TakeSeat, request: Request, room: RoomDep, hub: HubDep, signed: MaybeSignedIn
) -> dict[str, Any]:
    """Take a vacant seat with a name: the seat's token, as an invite link would carry it.
    A signed-in taker's seat is bound to their account (a rated table takes only them; a
    table where someone blocks them, none)."""
    hub.guards.create(request.client.host if request.client else "unknown")
    account = None if signed is None else signed.account
    if room.stored.rated and account is None:
        raise ServerError("unauthorized", "a rated table seats signed-in players only: sign in")
    if account is not None:
        await hub.accounts.check_welcome(room, account)
    seat, token = await take_seat(room, body.name, body.seat, account)
    base = public_base(request.scope, hub.config.public_url)
    return {
        "id": room.id,
        "seat": seat,
        "token": token,
        "invite": f"{base}/#/game/{room.id}/{token}",
    }
