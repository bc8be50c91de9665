"""Events (tournaments) over HTTP: make one, list them, see one (entrants, rounds and their
tables, live standings, the final table), join, leave and start
(:mod:`polis.server.events.runner` says how they run).

Making and starting need a signed-in person's session (and its CSRF token). Joining and
leaving take either a person's session (with the CSRF token) or a bot account's API token
(``Authorization: Bearer``, :mod:`polis.server.accounts.bots`): a bot enters an event like
a person, and finds its tables on its event stream. Reading is open to anyone.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from pydantic import Field, field_validator

from polis.server.accounts.bots import bot_api
from polis.server.errors import ServerError
from polis.server.events import runner
from polis.server.http.deps import HubDep, SignedInDep
from polis.server.http.inputs import check_name, check_text, is_token
from polis.server.http.routes.standins import TableRulesIn
from polis.server.store.accounts import Account
from polis.server.wire.events import EventEntryJSON

router = APIRouter(prefix="/api/events")


class EventIn(TableRulesIn):  # with the clock and rules for leavers of its tables
    #: The event's title.
    name: str = Field(min_length=1, max_length=60)
    #: A game the server serves (``/api/meta``).
    game: str = Field(max_length=32)
    #: One of the game's modes.
    mode: str = Field(max_length=16)
    #: Players per table (a round may seat fewer at some tables: see the pairing).
    players: int = Field(default=2, ge=2, le=4)
    #: Its games are rated (:mod:`polis.server.accounts.ratings`).
    rated: bool = False
    #: "swiss" (``rounds`` rounds, each paired by the standings) or "round_robin" (everyone
    #: meets everyone: the rounds follow from the entrants).
    format: Literal["swiss", "round_robin"] = "swiss"
    #: When it starts by itself (ISO 8601 with its time zone); null: when its creator starts
    #: it (``POST /api/events/{id}/start``).
    starts: datetime | None = None
    #: A Swiss event's rounds (1 to 20); none for a round robin.
    rounds: int | None = Field(default=None, ge=1, le=runner.MAX_ROUNDS)

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return check_name(value, "the event's name")

    @field_validator("game", "mode")
    @classmethod
    def _clean(cls, value: str) -> str:
        return check_text(value.strip(), "this text")

    @field_validator("starts")
    @classmethod
    def _zoned(cls, value: datetime | None) -> datetime | None:
        if value is not None and value.tzinfo is None:
            raise ValueError("give the start time with its time zone (for example ...Z)")
        return value


def private(data: Any) -> JSONResponse:
    """An answer no cache keeps (it says what the asking account may do)."""
    return JSONResponse(data, headers={"Cache-Control": "no-store"})


def _checked(event_id: str) -> str:
    if not is_token(event_id) or len(event_id) > 24:
        raise ServerError("not_found", "no such event")
    return event_id


async def get_entrant(request: Request, hub: HubDep) -> Account:
    """Who joins or leaves: a bot account by its API token, else a signed-in person (401
    without either, 403 without the CSRF token)."""
    if request.headers.get("authorization"):
        caller = await bot_api(request).caller(request)
        return caller.account
    signed = await hub.accounts.require(request, request.method)
    return signed.account


async def get_viewer(request: Request, hub: HubDep) -> Account | None:
    """Who is looking (a bot by its token, a person by the session), or None."""
    if request.headers.get("authorization"):
        return (await bot_api(request).caller(request)).account
    signed = await hub.accounts.signed_in(request, request.method)
    return None if signed is None else signed.account


EntrantDep = Annotated[Account, Depends(get_entrant)]
ViewerDep = Annotated[Account | None, Depends(get_viewer)]


@router.post("")
async def create(body: EventIn, request: Request, signed: SignedInDep, hub: HubDep) -> Any:
    """Make an event (a signed-in person): the answer is the event, as ``GET`` gives it."""
    hub.guards.create(request.client.host if request.client else "unknown")
    made = await runner.create(
        hub,
        signed.account,
        name=body.name,
        game=body.game,
        mode=body.mode,
        players=body.players,
        rules=TableRulesIn.model_validate(body.model_dump(include=set(runner.RULES))),
        rated=body.rated,
        format=body.format,
        starts=None if body.starts is None else body.starts.timestamp(),
        rounds=body.rounds,
    )
    return private(made)


@router.get("")
async def listing(hub: HubDep) -> Any:
    """The events: ``upcoming`` (taking entrants), ``running`` and ``finished``."""
    return await runner.listing(hub)


@router.get("/{event_id}")
async def detail(event_id: str, viewer: ViewerDep, hub: HubDep) -> Any:
    """An event: its entrants, its rounds with their tables and results, the standings with
    their tie-breaks, and its final table once finished."""
    return private(await runner.detail(hub, _checked(event_id), viewer))


@router.post("/{event_id}/join")
async def join(event_id: str, account: EntrantDep, hub: HubDep) -> Any:
    """Enter the event (before it starts): a person by the session, a bot by its token."""
    await runner.join(hub, _checked(event_id), account)
    return private(EventEntryJSON(event_id=event_id, joined=True, withdrawn=False))


@router.post("/{event_id}/leave")
async def leave(event_id: str, account: EntrantDep, hub: HubDep) -> Any:
    """Leave the event: before the start the entry goes; once running the entrant is paired
    no more (their results stand; a table they sit at plays on)."""
    done = await runner.leave(hub, _checked(event_id), account)
    withdrawn = done == "withdrawn"
    return private(EventEntryJSON(event_id=event_id, joined=withdrawn, withdrawn=withdrawn))


@router.post("/{event_id}/start")
async def start(event_id: str, signed: SignedInDep, hub: HubDep) -> Any:
    """Start the event now (its creator; at least two entrants): round 1 is paired and its
    tables made."""
    return private(await runner.start(hub, _checked(event_id), signed.account))
