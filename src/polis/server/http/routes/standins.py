"""Clocks and leavers over HTTP: what a new table may choose (its clock, the level of the bots
that replace leavers, its away limit) and resigning a seat (a bot plays on; the seat's link
takes it back). See :mod:`polis.server.table.standins`."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from pydantic import Field, field_validator, model_validator

from polis.bots import LEVELS
from polis.server.errors import ServerError
from polis.server.http.deps import RoomDep
from polis.server.http.inputs import Body, is_token
from polis.server.table.clocks import TableClock, TimeControl
from polis.server.wire.from_client import MAX_TOKEN

router = APIRouter(prefix="/api")

#: Longest bank, time per move or away limit a table may choose: 30 days, in seconds.
LONGEST = 30 * 86400.0


class ClockIn(Body):
    """A table's clock: real-time (``bank`` seconds, ``increment`` after each move) or
    turn-based (``per_move`` seconds, a bank of at most ``max_bank``)."""

    kind: Literal["realtime", "turn"]
    bank: float | None = Field(default=None, gt=0, le=LONGEST)
    increment: float = Field(default=0.0, ge=0, le=LONGEST)
    per_move: float | None = Field(default=None, gt=0, le=LONGEST)
    max_bank: float | None = Field(default=None, gt=0, le=LONGEST)

    @model_validator(mode="after")
    def _complete(self) -> ClockIn:
        if self.kind == "realtime" and self.bank is None:
            raise ValueError("a real-time clock needs its bank (seconds)")
        if self.kind == "turn" and self.per_move is None:
            raise ValueError("a turn-based clock needs its time per move (seconds)")
        return self

    def control(self) -> TimeControl:
        if self.kind == "realtime":
            assert self.bank is not None
            return TimeControl.realtime(self.bank, self.increment)
        assert self.per_move is not None
        return TimeControl.turn_based(self.per_move, self.max_bank)


class TableRulesIn(Body):
    """What a new table chooses for clocks and leavers (every field optional)."""

    clock: ClockIn | None = None
    #: The level of the bots that take over people's seats (a leaver, a clock run out).
    stand_in: str | None = Field(default=None, max_length=16)
    #: Seconds a person may be away on their turn before a bot takes over (tables without a
    #: clock); None: no limit.
    away_limit: float | None = Field(default=None, ge=1, le=LONGEST)

    def table(self) -> TableClock | None:
        if self.stand_in is not None and self.stand_in not in LEVELS:
            raise ServerError("bad_request", f"unknown bot level {self.stand_in!r}")
        if self.clock is not None and self.away_limit is not None:
            raise ServerError(
                "bad_request", "a table with a clock has no away limit: the clock decides"
            )
        found = TableClock(
            None if self.clock is None else dict(self.clock.control().to_json()),
            self.stand_in,
            self.away_limit,
        )
        return found if found.chosen else None


class TokenIn(Body):
    token: str = Field(min_length=1, max_length=MAX_TOKEN)

    @field_validator("token")
    @classmethod
    def _token(cls, value: str) -> str:
        if not is_token(value):
            raise ValueError("a seat token (letters, digits, - and _)")
        return value


@router.post("/games/{game_id}/resign")
async def resign(room: RoomDep, body: TokenIn) -> dict[str, Any]:
    """The seat of the token given leaves the game: a bot of the table's level plays on for
    it (the seat's link takes it back)."""
    seat = await room.seat_for(body.token)
    if room.finished:
        raise ServerError("finished", "the game is over")
    await room.watch.resign(seat)
    info = room.stored.seats[seat]
    return {"seat": seat, "stand_in": info.stand_in, "why": info.stand_in_why}
