"""What the store keeps of events (tournaments): the event, its entrants, the tables of each
round and every entrant's result in every round (:mod:`polis.server.events`).

Every step that must happen once, whichever server process gets there first, is one
conditional UPDATE in the transaction that writes what follows from it (like
:func:`polis.server.store.standings.claim_settlement`): starting an event writes its first
round, a round's advance (the event's ``round`` moving from ``r`` to ``r + 1``) writes the
pairings of the next, a table's result is written with its ``recorded`` flag. Making a table's
game is claimed with a lease (:func:`claim_table`), so a process that stops between the claim
and the game leaves it to another after :data:`LEASE` seconds. The functions are synchronous,
called from the store's threads; nothing here is read or written while a move is stored.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any, cast

from sqlalchemy import (
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    delete,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from polis.server.store.accounts import ACCOUNTS
from polis.server.store.schema import GAMES, Base, now

#: Seconds a claim to make a table's game holds before another process may make it.
LEASE = 60.0


class EventRow(Base):
    """An event: a game and mode played in rounds at tables of ``players``. (0008_events)"""

    __tablename__ = "polis_events"
    __table_args__ = (Index("ix_polis_events_status", "status", "starts"),)

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    game: Mapped[str] = mapped_column(String(32))
    mode: Mapped[str] = mapped_column(String(16))
    #: Players per table (a round may seat fewer at some tables: the pairing's table sizes).
    players: Mapped[int] = mapped_column(Integer)
    #: "swiss" or "round_robin".
    format: Mapped[str] = mapped_column(String(12))
    rated: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: The tables' rules (clock, stand-in level, away limit) as JSON.
    rules: Mapped[str] = mapped_column(Text, default="{}")
    #: Rounds to play (a round robin's are known when it starts).
    rounds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: The round being played (0 before the start; the last one once finished).
    round: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: "open" (taking entrants), "running", "finished" or "cancelled".
    status: Mapped[str] = mapped_column(String(10), default="open")
    #: When it starts by itself (seconds since the epoch); NULL: when its creator starts it.
    starts: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: The account that made it (NULL: the operator's ``polis admin``).
    creator_id: Mapped[int | None] = mapped_column(ForeignKey("polis_accounts.id"), nullable=True)
    #: The seed of the pairings' draws (a secret: nobody can foresee a draw).
    seed: Mapped[str] = mapped_column(String(40))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    started: Mapped[float | None] = mapped_column(Float, nullable=True)
    ended: Mapped[float | None] = mapped_column(Float, nullable=True)


class EntrantRow(Base):
    """An account entered in an event. (0008_events)"""

    __tablename__ = "polis_event_entrants"

    event_id: Mapped[str] = mapped_column(ForeignKey("polis_events.id"), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("polis_accounts.id"), primary_key=True)
    joined: Mapped[float] = mapped_column(Float)
    #: The round after which the entrant is paired no more; NULL: still in.
    withdrawn: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: Why: "left", "no_show" or "gone" (account deleted or suspended).
    why: Mapped[str | None] = mapped_column(String(8), nullable=True)


class EventTableRow(Base):
    """One table of a round, and its game once made. (0008_events)"""

    __tablename__ = "polis_event_tables"
    __table_args__ = (Index("ix_polis_event_tables_game", "game_id"),)

    event_id: Mapped[str] = mapped_column(ForeignKey("polis_events.id"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: The table's number in its round (0-based).
    board: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: Until when a process's claim to make the game holds (seconds since the epoch).
    lease: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: 1 once the finished game's places and points are written.
    recorded: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class EventResultRow(Base):
    """One entrant's round: its table and seat, or a bye; its place and points once the
    table is over. (0008_events)"""

    __tablename__ = "polis_event_results"

    event_id: Mapped[str] = mapped_column(ForeignKey("polis_events.id"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("polis_accounts.id"), primary_key=True)
    #: The table (NULL: a bye).
    board: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    place: Mapped[int | None] = mapped_column(Integer, nullable=True)
    points: Mapped[float | None] = mapped_column(Float, nullable=True)
    score: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: 1 when a bot made the entrant's first move (they did not come): placed last.
    no_show: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


EVENTS = cast(Table, EventRow.__table__)
ENTRANTS = cast(Table, EntrantRow.__table__)
TABLES = cast(Table, EventTableRow.__table__)
RESULTS = cast(Table, EventResultRow.__table__)

#: What a round writes: each table's entrant ids in seat order, and the byes.
Round = tuple[Sequence[Sequence[int]], Sequence[int]]


# -- events -----------------------------------------------------------------------------------
def add_event(engine: Engine, **values: Any) -> None:
    with engine.begin() as conn:
        conn.execute(insert(EVENTS).values(created=now(), **values))


def _event(row: Any) -> dict[str, Any]:
    found = dict(row)
    found["rules"] = json.loads(found["rules"] or "{}")
    found["rated"] = bool(found["rated"])
    return found


def _with_creator() -> Any:
    return select(*EVENTS.c, ACCOUNTS.c.name.label("creator")).outerjoin(
        ACCOUNTS, ACCOUNTS.c.id == EVENTS.c.creator_id
    )


def event(engine: Engine, event_id: str) -> dict[str, Any] | None:
    """The event (its rules decoded, its creator's name), or None."""
    with engine.connect() as conn:
        row = conn.execute(_with_creator().where(EVENTS.c.id == event_id)).mappings().first()
    return None if row is None else _event(row)


def listing(engine: Engine, statuses: Sequence[str], limit: int) -> list[dict[str, Any]]:
    """Events of ``statuses`` with their entrant counts: the soonest first for events not
    finished, the latest finished first otherwise."""
    count = (
        select(func.count())
        .select_from(ENTRANTS)
        .where(ENTRANTS.c.event_id == EVENTS.c.id)
        .scalar_subquery()
    )
    query = _with_creator().add_columns(count.label("entrants"))
    query = query.where(EVENTS.c.status.in_(list(statuses)))
    if "finished" in statuses:
        query = query.order_by(EVENTS.c.ended.desc(), EVENTS.c.id)
    else:
        query = query.order_by(EVENTS.c.starts.is_(None), EVENTS.c.starts, EVENTS.c.created)
    with engine.connect() as conn:
        rows = conn.execute(query.limit(limit)).mappings().all()
    return [_event(r) for r in rows]


def open_events_of(engine: Engine, creator_id: int) -> int:
    """How many events the account made that have not started yet."""
    with engine.connect() as conn:
        found = conn.execute(
            select(func.count())
            .select_from(EVENTS)
            .where(EVENTS.c.creator_id == creator_id, EVENTS.c.status == "open")
        ).scalar()
    return int(found or 0)


def due(engine: Engine, at: float) -> list[str]:
    """The open events whose start time has come."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(EVENTS.c.id).where(
                EVENTS.c.status == "open", EVENTS.c.starts.is_not(None), EVENTS.c.starts <= at
            )
        )
        return [r[0] for r in rows]


def running(engine: Engine) -> list[str]:
    with engine.connect() as conn:
        rows = conn.execute(select(EVENTS.c.id).where(EVENTS.c.status == "running"))
        return [r[0] for r in rows]


# -- entrants ---------------------------------------------------------------------------------
def entrants(engine: Engine, event_id: str) -> list[dict[str, Any]]:
    """The event's entrants in the order they joined, with their account's name, kind and
    whether it is still live (not deleted or suspended)."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(
                ENTRANTS.c.account_id,
                ENTRANTS.c.joined,
                ENTRANTS.c.withdrawn,
                ENTRANTS.c.why,
                ACCOUNTS.c.name,
                ACCOUNTS.c.bot,
                ACCOUNTS.c.deleted,
                ACCOUNTS.c.suspended,
            )
            .join(ACCOUNTS, ACCOUNTS.c.id == ENTRANTS.c.account_id)
            .where(ENTRANTS.c.event_id == event_id)
            .order_by(ENTRANTS.c.joined, ENTRANTS.c.account_id)
        ).all()
    return [
        {
            "account_id": r.account_id,
            "name": r.name,
            "bot": bool(r.bot),
            "live": not (r.deleted or r.suspended),
            "withdrawn": r.withdrawn,
            "why": r.why,
        }
        for r in rows
    ]


def join(engine: Engine, event_id: str, account_id: int, at: float, most: int) -> str | None:
    """Enter the account; None when done, else why not: "closed" (the event started or
    ended), "entered" (already in) or "full" (``most`` entrants already)."""
    with engine.begin() as conn:
        status = conn.execute(
            select(EVENTS.c.status).where(EVENTS.c.id == event_id).with_for_update()
        ).scalar()
        if status != "open":
            return "closed"
        count = conn.execute(
            select(func.count()).select_from(ENTRANTS).where(ENTRANTS.c.event_id == event_id)
        ).scalar()
        if (count or 0) >= most:
            return "full"
        try:
            with conn.begin_nested():
                conn.execute(
                    insert(ENTRANTS).values(event_id=event_id, account_id=account_id, joined=at)
                )
        except IntegrityError:
            return "entered"
    return None


def leave(engine: Engine, event_id: str, account_id: int) -> str | None:
    """Take the account out: before the start its entry goes ("removed"); once running it is
    paired no more after the current round ("withdrawn"). None: it was not in (or had
    withdrawn already, or the event is over)."""
    with engine.begin() as conn:
        found = conn.execute(
            select(EVENTS.c.status, EVENTS.c.round).where(EVENTS.c.id == event_id)
        ).first()
        if found is None:
            return None
        mine = (ENTRANTS.c.event_id == event_id, ENTRANTS.c.account_id == account_id)
        if found.status == "open":
            done = conn.execute(delete(ENTRANTS).where(*mine))
            return "removed" if done.rowcount else None
        if found.status != "running":
            return None
        done = conn.execute(
            update(ENTRANTS)
            .where(*mine, ENTRANTS.c.withdrawn.is_(None))
            .values(withdrawn=found.round, why="left")
        )
        return "withdrawn" if done.rowcount else None


def withdraw(conn: Connection, event_id: str, ids: Sequence[int], after: int, why: str) -> None:
    """Pair ``ids`` no more after round ``after`` (those already out stay as they are)."""
    if ids:
        conn.execute(
            update(ENTRANTS)
            .where(
                ENTRANTS.c.event_id == event_id,
                ENTRANTS.c.account_id.in_(list(ids)),
                ENTRANTS.c.withdrawn.is_(None),
            )
            .values(withdrawn=after, why=why)
        )


# -- rounds -----------------------------------------------------------------------------------
def _write_round(conn: Connection, event_id: str, round_no: int, pairing: Round) -> None:
    tables, byes = pairing
    for board, seated in enumerate(tables):
        conn.execute(insert(TABLES).values(event_id=event_id, round=round_no, board=board))
        for seat, account_id in enumerate(seated):
            conn.execute(
                insert(RESULTS).values(
                    event_id=event_id, round=round_no, account_id=account_id, board=board, seat=seat
                )
            )
    for account_id in byes:
        conn.execute(
            insert(RESULTS).values(
                event_id=event_id, round=round_no, account_id=account_id, points=1.0
            )
        )


def start(
    engine: Engine,
    event_id: str,
    rounds: int,
    pairing: Round,
    at: float,
    gone: Sequence[int] = (),
) -> bool:
    """Start the event with its first round (``gone``: entrants whose accounts went, out from
    the start); False when another process started it (or it is not open any more)."""
    with engine.begin() as conn:
        done = conn.execute(
            update(EVENTS)
            .where(EVENTS.c.id == event_id, EVENTS.c.status == "open")
            .values(status="running", round=1, rounds=rounds, started=at)
        )
        if done.rowcount != 1:
            return False
        withdraw(conn, event_id, gone, 0, "gone")
        _write_round(conn, event_id, 1, pairing)
    return True


def cancel(engine: Engine, event_id: str, at: float) -> bool:
    """Call off an event that cannot start (too few entrants)."""
    with engine.begin() as conn:
        done = conn.execute(
            update(EVENTS)
            .where(EVENTS.c.id == event_id, EVENTS.c.status == "open")
            .values(status="cancelled", ended=at)
        )
        return bool(done.rowcount == 1)


def advance(
    engine: Engine, event_id: str, round_no: int, pairing: Round, gone: Sequence[int] = ()
) -> bool:
    """Move the event from round ``round_no`` to the next one, writing its pairings; False
    when another process did first. Only when every table of ``round_no`` is recorded."""
    with engine.begin() as conn:
        if _pending(conn, event_id, round_no):
            return False
        done = conn.execute(
            update(EVENTS)
            .where(
                EVENTS.c.id == event_id, EVENTS.c.status == "running", EVENTS.c.round == round_no
            )
            .values(round=round_no + 1)
        )
        if done.rowcount != 1:
            return False
        withdraw(conn, event_id, gone, round_no, "gone")
        _write_round(conn, event_id, round_no + 1, pairing)
    return True


def finish(engine: Engine, event_id: str, round_no: int, at: float) -> bool:
    """End the event after its last round ``round_no``; False when another process did."""
    with engine.begin() as conn:
        if _pending(conn, event_id, round_no):
            return False
        done = conn.execute(
            update(EVENTS)
            .where(
                EVENTS.c.id == event_id, EVENTS.c.status == "running", EVENTS.c.round == round_no
            )
            .values(status="finished", ended=at)
        )
        return bool(done.rowcount == 1)


def _pending(conn: Connection, event_id: str, round_no: int) -> int:
    found = conn.execute(
        select(func.count())
        .select_from(TABLES)
        .where(TABLES.c.event_id == event_id, TABLES.c.round == round_no, TABLES.c.recorded == 0)
    ).scalar()
    return int(found or 0)


def pending(engine: Engine, event_id: str, round_no: int) -> int:
    """Tables of the round not recorded yet."""
    with engine.connect() as conn:
        return _pending(conn, event_id, round_no)


# -- tables -----------------------------------------------------------------------------------
def tables(engine: Engine, event_id: str) -> list[dict[str, Any]]:
    """Every table of the event, by round and number, with whether its game is over."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(
                TABLES.c.round,
                TABLES.c.board,
                TABLES.c.game_id,
                TABLES.c.recorded,
                GAMES.c.finished,
            )
            .outerjoin(GAMES, GAMES.c.id == TABLES.c.game_id)
            .where(TABLES.c.event_id == event_id)
            .order_by(TABLES.c.round, TABLES.c.board)
        ).all()
    return [
        {
            "round": r.round,
            "board": r.board,
            "game_id": r.game_id,
            "recorded": bool(r.recorded),
            "finished": bool(r.finished),
        }
        for r in rows
    ]


def unmade(engine: Engine, event_id: str, at: float) -> list[tuple[int, int]]:
    """(round, table) of the tables without a game whose claim is free (none, or run out)."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(TABLES.c.round, TABLES.c.board)
            .where(
                TABLES.c.event_id == event_id,
                TABLES.c.game_id.is_(None),
                or_(TABLES.c.lease.is_(None), TABLES.c.lease < at),
            )
            .order_by(TABLES.c.round, TABLES.c.board)
        ).all()
    return [(r.round, r.board) for r in rows]


def claim_table(engine: Engine, event_id: str, round_no: int, board: int, at: float) -> bool:
    """Claim the making of a table's game for :data:`LEASE` seconds; False when another
    process holds the claim or made it."""
    with engine.begin() as conn:
        done = conn.execute(
            update(TABLES)
            .where(
                TABLES.c.event_id == event_id,
                TABLES.c.round == round_no,
                TABLES.c.board == board,
                TABLES.c.game_id.is_(None),
                or_(TABLES.c.lease.is_(None), TABLES.c.lease < at),
            )
            .values(lease=at + LEASE)
        )
        return bool(done.rowcount == 1)


def set_table_game(engine: Engine, event_id: str, round_no: int, board: int, game_id: str) -> bool:
    with engine.begin() as conn:
        done = conn.execute(
            update(TABLES)
            .where(
                TABLES.c.event_id == event_id,
                TABLES.c.round == round_no,
                TABLES.c.board == board,
                TABLES.c.game_id.is_(None),
            )
            .values(game_id=game_id, lease=None)
        )
        return bool(done.rowcount == 1)


def seated(engine: Engine, event_id: str, round_no: int, board: int) -> list[int]:
    """A table's entrants in seat order."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(RESULTS.c.account_id)
            .where(
                RESULTS.c.event_id == event_id,
                RESULTS.c.round == round_no,
                RESULTS.c.board == board,
            )
            .order_by(RESULTS.c.seat)
        )
        return [r[0] for r in rows]


def over(engine: Engine, event_id: str) -> list[tuple[int, int, str]]:
    """(round, table, game id) of the tables whose game is over and not recorded yet."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(TABLES.c.round, TABLES.c.board, TABLES.c.game_id)
            .join(GAMES, GAMES.c.id == TABLES.c.game_id)
            .where(TABLES.c.event_id == event_id, TABLES.c.recorded == 0, GAMES.c.finished == 1)
        ).all()
    return [(r.round, r.board, r.game_id) for r in rows]


def record(
    engine: Engine,
    event_id: str,
    round_no: int,
    board: int,
    placed: Sequence[tuple[int, int, float, float, bool]],
) -> bool:
    """Write a finished table's result: per entrant (account, place, points, score,
    no-show); entrants who did not show are paired no more. False when another process
    wrote it first."""
    with engine.begin() as conn:
        done = conn.execute(
            update(TABLES)
            .where(
                TABLES.c.event_id == event_id,
                TABLES.c.round == round_no,
                TABLES.c.board == board,
                TABLES.c.recorded == 0,
            )
            .values(recorded=1)
        )
        if done.rowcount != 1:
            return False
        for account_id, place, points, score, no_show in placed:
            conn.execute(
                update(RESULTS)
                .where(
                    RESULTS.c.event_id == event_id,
                    RESULTS.c.round == round_no,
                    RESULTS.c.account_id == account_id,
                )
                .values(place=place, points=points, score=score, no_show=int(no_show))
            )
        withdraw(conn, event_id, [a for a, *_, no_show in placed if no_show], round_no, "no_show")
    return True


def results(engine: Engine, event_id: str) -> list[dict[str, Any]]:
    """Every entrant's every round so far."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(RESULTS)
            .where(RESULTS.c.event_id == event_id)
            .order_by(RESULTS.c.round, RESULTS.c.board, RESULTS.c.seat)
        ).mappings()
        return [dict(r) for r in rows]
