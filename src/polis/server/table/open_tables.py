"""Open tables: seats a game's creator left for anyone, taken with a name.

A vacant seat is a person's seat without a token. Taking it is one conditional UPDATE in the
store (:meth:`~polis.server.store.games.Store.take_vacant`): of several people taking the last seat
at once, through any number of server processes sharing a PostgreSQL database, exactly one
finds it still vacant; the others are told plainly (409 ``seat_taken``). The taker gets that
seat's token, the same kind an invite link carries.

The game waits until no seat is vacant: nobody moves before (a bot neither), and a table whose
last seat is taken starts as a table created full would (the pipeline's after-move work starts
the bot, if one is first). Bots' seats are never vacant. Taking a seat is a change like a
move (:mod:`~polis.server.live.pipeline`): other processes hear of it on the bus.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from polis.server.errors import ServerError
from polis.server.live.pipeline import Change, TakeSeat
from polis.server.store.accounts import Account
from polis.server.store.games import SeatInfo
from polis.server.table.seats import hash_token, new_token

if TYPE_CHECKING:
    from polis.server.live.room import Room


async def take_seat(
    room: Room, name: str, seat: int | None, account: Account | None = None
) -> tuple[int, str]:
    """Give ``name`` a vacant seat of ``room`` (``seat``, or the first one vacant); returns
    the seat and its token. ServerError ``seat_taken`` when none is left. A signed-in taker's
    seat is bound to their ``account``."""
    token = new_token()
    action = TakeSeat(
        name,
        seat,
        hash_token(token),
        account_id=None if account is None else account.id,
        account=None if account is None else account.name,
    )
    number: int = await room.commit(action)
    return number, token


async def seat_change(room: Room, action: TakeSeat) -> Change:
    """The change of a vacant seat taken (run by the room's pipeline): the first of the
    candidates still vacant in the store is given; the game starts once none is left."""
    if room.finished:
        raise ServerError("finished", "the game is over")
    if room.stored.seed_chosen:  # its creator knows the deal (never made with an open seat)
        raise ServerError(
            "forbidden", "this table's deal was chosen by its creator: its seats are not given out"
        )
    await room.reload_seats()
    seat = action.seat
    if seat is not None and not 0 <= seat < len(room.stored.seats):
        raise ServerError("bad_request", f"this table has no seat {seat + 1}")
    candidates = room.vacant if seat is None else [s for s in room.vacant if s == seat]
    if not candidates:
        raise ServerError(
            "seat_taken",
            "every seat of this table is taken" if seat is None else "this seat is taken",
        )
    won: list[int] = []

    def write() -> bool:
        for number in candidates:
            if room.store.take_vacant(
                room.id, number, action.name, action.token_hash, action.account_id
            ):
                won.append(number)
                return True
        return False  # every candidate went to someone else meanwhile

    def install() -> None:  # the answer and the bus name the seat the store gave
        number = won[0]
        room.stored.seats[number] = SeatInfo(
            number,
            action.name,
            "human",
            None,
            action.token_hash,
            account=action.account,
            account_id=action.account_id,
        )
        change.result = change.seat = number

    change = Change(
        "seat",
        install,
        write=write,
        lost=ServerError(
            "seat_taken",
            "someone else took this seat a moment ago"
            if seat is not None
            else "someone else took the last free seat a moment ago",
        ),
    )
    return change
