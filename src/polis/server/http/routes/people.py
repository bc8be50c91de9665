"""People over HTTP: the account's blocks and mutes, and reports of chat lines
(:mod:`polis.server.accounts.people` says what each does)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import Field, field_validator

from polis.server.accounts import people
from polis.server.errors import ServerError
from polis.server.http.deps import HubDep, SignedInDep
from polis.server.http.inputs import Body, check_text, is_token

router = APIRouter(prefix="/api")


class RelationIn(Body):
    #: The other account's name (any case).
    name: str = Field(min_length=1, max_length=40)
    #: True: block (mute) them; False: stop.
    on: bool = True

    @field_validator("name")
    @classmethod
    def _clean(cls, value: str) -> str:
        return check_text(value.strip(), "the name")


class ReportIn(Body):
    #: The table the line was said at.
    game_id: str = Field(min_length=1, max_length=32)
    #: The line's ``id`` (as its ``chat`` message gave it).
    chat_id: int = Field(ge=1)
    #: Why it is reported, for the operator: 1 to 500 characters.
    reason: str = Field(min_length=1, max_length=people.MAX_REASON)

    @field_validator("reason")
    @classmethod
    def _reason(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise ValueError("say why you report this line")
        return check_text(value, "the reason")


def private(data: dict[str, Any]) -> JSONResponse:
    return JSONResponse(data, headers={"Cache-Control": "no-store"})


@router.get("/account/people")
async def listed(signed: SignedInDep, hub: HubDep) -> Any:
    """The names the account blocks and mutes."""
    return private(await people.people(hub, signed.account))


@router.post("/account/block")
async def block(body: RelationIn, signed: SignedInDep, hub: HubDep) -> Any:
    """Block a player (``on``: false unblocks): neither of you may challenge the other or
    take a seat at the other's tables. Answers the lists as they are now."""
    await people.relate(hub, signed.account, body.name, "block", body.on)
    return private(await people.people(hub, signed.account))


@router.post("/account/mute")
async def mute(body: RelationIn, signed: SignedInDep, hub: HubDep) -> Any:
    """Mute a player in chat (``on``: false unmutes); the browser hides their lines.
    Answers the lists as they are now."""
    await people.relate(hub, signed.account, body.name, "mute", body.on)
    return private(await people.people(hub, signed.account))


@router.post("/reports")
async def report(body: ReportIn, signed: SignedInDep, hub: HubDep) -> dict[str, Any]:
    """Report a chat line the account may read; a copy is kept for the operator."""
    if not is_token(body.game_id):
        raise ServerError("not_found", "no such game")
    report_id = await people.report(hub, signed.account, body.game_id, body.chat_id, body.reason)
    return {"id": report_id}
