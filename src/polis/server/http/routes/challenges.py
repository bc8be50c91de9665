"""Challenges over HTTP: challenge a player by name, list one's challenges, accept, decline
or withdraw (:mod:`polis.server.accounts.challenges` says the rules).

Every route needs a signed-in session (and its CSRF token to change anything); a challenge is
seen and answered only by its two accounts (anyone else's id answers 404).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import Field, field_validator

from polis.server.accounts import challenges
from polis.server.errors import ServerError
from polis.server.http.deps import HubDep, SignedInDep
from polis.server.http.inputs import check_text, is_token
from polis.server.http.middleware import public_base
from polis.server.http.routes.standins import TableRulesIn

router = APIRouter(prefix="/api/challenges")


class ChallengeIn(TableRulesIn):  # with the clock and rules for leavers a new table may choose
    #: The challenged account's name (any case).
    to: str = Field(min_length=1, max_length=40)
    #: A game the server serves (``/api/meta``).
    game: str = Field(max_length=32)
    #: One of the game's modes.
    mode: str = Field(max_length=16)
    #: The table's size: the two of them, and open seats for the others.
    players: int = Field(default=2, ge=2, le=4)
    #: A rated game (:mod:`polis.server.accounts.ratings`).
    rated: bool = False

    @field_validator("to", "game", "mode")
    @classmethod
    def _clean(cls, value: str) -> str:
        return check_text(value.strip(), "this text")


def private(data: dict[str, Any]) -> JSONResponse:
    """An answer no cache keeps (an account's own challenges, a seat token)."""
    return JSONResponse(data, headers={"Cache-Control": "no-store"})


def checked_id(challenge_id: str) -> str:
    """A challenge id from a path (404 for one that cannot be an id: no store lookup)."""
    if not is_token(challenge_id) or len(challenge_id) > 32:
        raise ServerError("not_found", "you have no such challenge")
    return challenge_id


@router.post("")
async def create(body: ChallengeIn, signed: SignedInDep, hub: HubDep) -> Any:
    """Challenge a player by name to a table."""
    made = await challenges.challenge(
        hub,
        signed.account,
        body.to,
        body.game,
        body.mode,
        body.players,
        body.rated,
        TableRulesIn.model_validate(body.model_dump(include=set(challenges.RULES))),
    )
    return private(made)


@router.get("")
async def mine(signed: SignedInDep, hub: HubDep) -> Any:
    """The account's challenges: ``incoming`` and ``outgoing``, newest first (every open
    one and the last answered ones)."""
    return private(await challenges.listing(hub, signed.account))


@router.post("/{challenge_id}/accept")
async def accept(challenge_id: str, request: Request, signed: SignedInDep, hub: HubDep) -> Any:
    """Accept a challenge made to the account: the table is made (the challenger at seat 0,
    the accepter at seat 1, both bound to their accounts, other seats open); the answer holds
    the accepter's seat token."""
    hub.guards.create(request.client.host if request.client else "unknown")
    room, seat, token = await challenges.accept(hub, signed.account, checked_id(challenge_id))
    base = public_base(request.scope, hub.config.public_url)
    return private(
        {
            "game_id": room.id,
            "seat": seat,
            "token": token,
            "invite": f"{base}/#/game/{room.id}/{token}",
        }
    )


@router.post("/{challenge_id}/decline")
async def decline(challenge_id: str, signed: SignedInDep, hub: HubDep) -> Any:
    """Decline a challenge made to the account."""
    return private(await challenges.decline(hub, signed.account, checked_id(challenge_id)))


@router.post("/{challenge_id}/withdraw")
async def withdraw(challenge_id: str, signed: SignedInDep, hub: HubDep) -> Any:
    """Withdraw a challenge the account made."""
    return private(await challenges.withdraw(hub, signed.account, checked_id(challenge_id)))
