"""What people say about each other: blocks, mutes and reports of chat lines.

**Blocking** someone works both ways: neither may challenge the other
(:mod:`polis.server.accounts.challenges`), nor take a seat at a table the other made or sits
at (:meth:`~polis.server.accounts.service.Accounts.check_welcome`); their open challenges to
each other close. Games already under way go on.

**Muting** is kept on the account for its browsers: the client hides the chat lines of the
seats bound to a muted account (a chat line names its seat, a seat its ``account``).

**Reporting** a chat line keeps a copy of it for the operator (``polis admin reports``): its
words and the name it was said under, as they were (the line may go later), the account that
held the seat, and the reporter's reason. Only someone who may read the line may report it: a
player of the table (a seat bound to the account) or, where spectators read the chat, anyone
signed in. An account makes at most :data:`REPORTS_PER_HOUR` reports an hour, counted in the
store (every process sees the same count); reporting the same line again answers the first
report.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

from polis.server.errors import ServerError
from polis.server.store import accounts as rows
from polis.server.store.accounts import Account
from polis.server.store.schema import now

if TYPE_CHECKING:
    from polis.server.live.hub import Hub

#: Relations an account keeps about others, and the list each is shown in.
KINDS = {"block": "blocked", "mute": "muted"}
REPORTS_PER_HOUR = 10
MAX_REASON = 500


async def people(hub: Hub, account: Account) -> dict[str, list[str]]:
    """The names the account blocks and mutes."""
    engine = hub.store.engine

    def read() -> dict[str, list[str]]:
        return {shown: rows.relations(engine, account.id, kind) for kind, shown in KINDS.items()}

    found: dict[str, list[str]] = await hub.patiently(read, "blocks and mutes")
    return found


async def relate(hub: Hub, account: Account, name: str, kind: str, on: bool) -> None:
    """Block or mute (``on``) the account called ``name``, or stop."""
    assert kind in KINDS
    engine = hub.store.engine
    found = await hub.patiently(lambda: rows.by_name(engine, name), "an account")
    if found is None:
        raise ServerError("not_found", f"no player is called {name!r}")
    other = found[0]
    if other.id == account.id:
        raise ServerError("bad_request", f"you cannot {kind} yourself")

    def write() -> None:
        rows.set_relation(engine, account.id, other.id, kind, on)
        if kind == "block" and on:
            rows.close_challenges(engine, account.id, other.id)
            rows.close_challenges(engine, other.id, account.id)

    await hub.write(write, f"a {kind}")


async def report(hub: Hub, account: Account, game_id: str, chat_id: int, reason: str) -> int:
    """Report a chat line of ``game_id``; the report's id."""
    engine = hub.store.engine
    room = await hub.room(game_id)
    held = await hub.patiently(lambda: rows.bound_seats(engine, game_id, account.id), "seats")
    if not held and not room.stored.chat_spectators:
        raise ServerError("forbidden", "you cannot read this table's chat")
    line = await hub.patiently(lambda: rows.chat_line(engine, game_id, chat_id), "a chat line")
    if line is None:
        raise ServerError("not_found", "this table has no such chat line")
    if line["seat"] in held:
        raise ServerError("bad_request", "this line is your own")
    earlier = await hub.patiently(
        lambda: rows.report_of(engine, account.id, game_id, chat_id), "reports"
    )
    if earlier is not None:
        return int(earlier)
    since = now() - timedelta(hours=1)
    made = await hub.patiently(lambda: rows.reports_since(engine, account.id, since), "reports")
    if made >= REPORTS_PER_HOUR:
        raise ServerError(
            "rate_limited", f"at most {REPORTS_PER_HOUR} reports an hour: try again later"
        )
    seats = room.stored.seats
    reported = seats[line["seat"]].account_id if 0 <= line["seat"] < len(seats) else None
    values: dict[str, Any] = {
        "reporter_id": account.id,
        "reported_id": reported,
        "game_id": game_id,
        "chat_id": chat_id,
        "name": line["name"],
        "text": line["text"],
        "reason": reason,
    }
    report_id: int = await hub.write(lambda: rows.add_report(engine, **values), "a report")
    return report_id
