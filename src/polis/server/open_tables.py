"""Open tables: seats a game's creator left for anyone, taken with a name.

A vacant seat is a person's seat without a token. Taking it is one conditional UPDATE in the
store (:meth:`~polis.server.store.Store.take_vacant`): of several people taking the last seat
at once, through any number of server processes sharing a PostgreSQL database, exactly one
finds it still vacant; the others are told plainly (409 ``seat_taken``). The taker gets that
seat's token, the same kind an invite link carries.

The game waits until no seat is vacant: nobody moves before (a bot neither), and a table whose
last seat is taken starts as a table created full would (:meth:`Room.after_move` starts the
bot, if one is first). Bots' seats are never vacant.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from polis.server.errors import ServerError
from polis.server.seats import hash_token, new_token
from polis.server.store import SeatInfo

if TYPE_CHECKING:
    from polis.server.hub import Hub
    from polis.server.room import Room


async def take_seat(hub: Hub, room: Room, name: str, seat: int | None) -> tuple[int, str]:
    """Give ``name`` a vacant seat of ``room`` (``seat``, or the first one vacant); returns
    the seat and its token. ServerError ``seat_taken`` when none is left."""
    if room.finished:
        raise ServerError("finished", "the game is over")
    if room.stored.seed_chosen:  # its creator knows the deal (never made with an open seat)
        raise ServerError(
            "forbidden", "this table's deal was chosen by its creator: its seats are not given out"
        )
    await room.reload_seats()
    vacant = room.vacant
    if seat is not None and not 0 <= seat < len(room.stored.seats):
        raise ServerError("bad_request", f"this table has no seat {seat + 1}")
    candidates = vacant if seat is None else [s for s in vacant if s == seat]
    if not candidates:
        raise ServerError(
            "seat_taken",
            "every seat of this table is taken" if seat is None else "this seat is taken",
        )
    for number in candidates:
        token = new_token()
        token_hash = hash_token(token)
        won = await hub.write(
            lambda number=number, token_hash=token_hash: hub.store.take_vacant(
                room.id, number, name, token_hash
            ),
            "taking a seat",
        )
        if won:
            room.stored.seats[number] = SeatInfo(number, name, "human", None, token_hash)
            seated(room)
            hub.bus.publish({"t": "seat", "g": room.id})
            return number, token
    # every candidate went to someone else meanwhile
    await room.reload_seats()
    seated(room)
    raise ServerError(
        "seat_taken",
        "someone else took this seat a moment ago"
        if seat is not None
        else "someone else took the last free seat a moment ago",
    )


def seated(room: Room) -> None:
    """Seats changed hands: everyone is told, and a table now full starts."""
    room.snapshots.invalidate()
    room.broadcast()
    room.after_move()


async def seated_elsewhere(room: Room) -> None:
    """Another process gave a seat out (the bus said so)."""
    await room.reload_seats()
    seated(room)
