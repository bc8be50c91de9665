"""What the store keeps so that nobody stalls a table: each table's clock and rules for
leavers (``polis_clocks``), and the bots standing in for people (``polis_stand_ins``); the
tables are in :mod:`polis.server.store.schema`, made by the migration ``0003_clocks``.

A move of a clocked game updates its clock in the move's own transaction (the store's move
path calls :func:`move_clock`), so a server killed at any moment restarts
with banks that match the moves it confirmed. A bot taking a seat over, and a person taking
it back, are stored facts guarded like moves: of several processes trying at once exactly
one succeeds, and the others read what it stored.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, delete, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from polis.server.store.schema import CLOCKS, GAMES, MOVES, STAND_INS
from polis.server.table.clocks import ClockWrite, TableClock

if TYPE_CHECKING:
    from polis.server.store.games import SeatInfo


def create(conn: Connection, game_id: str, table: TableClock) -> None:
    """Store a new table's rules and clock (in the transaction creating the game)."""
    conn.execute(
        insert(CLOCKS).values(
            game_id=game_id,
            time_control=None if table.time_control is None else json.dumps(table.time_control),
            stand_in=table.stand_in,
            away_limit=table.away_limit,
            banks=None if table.banks is None else json.dumps(table.banks),
            turn_started=table.turn_started,
            deadline=table.deadline,
        )
    )


def load(engine: Engine, game_id: str) -> TableClock:
    """The table's rules, clock and stand-ins as stored now."""
    with engine.connect() as conn:
        row = conn.execute(select(CLOCKS).where(CLOCKS.c.game_id == game_id)).first()
        seats = conn.execute(
            select(STAND_INS.c.seat, STAND_INS.c.level, STAND_INS.c.why).where(
                STAND_INS.c.game_id == game_id
            )
        ).all()
    found = TableClock(stand_ins={s: (level, why) for s, level, why in seats})
    if row is not None:
        found.time_control = None if row.time_control is None else json.loads(row.time_control)
        found.stand_in = row.stand_in
        found.away_limit = row.away_limit
        found.banks = None if row.banks is None else [float(b) for b in json.loads(row.banks)]
        found.turn_started = row.turn_started
    return found


def with_stand_ins(conn: Connection, game_id: str, seats: Sequence[SeatInfo]) -> list[SeatInfo]:
    """``seats`` with the bots standing in for people, as stored."""
    found = {
        r.seat: r for r in conn.execute(select(STAND_INS).where(STAND_INS.c.game_id == game_id))
    }
    return [
        replace(x, stand_in=found[x.seat].level, stand_in_why=found[x.seat].why)
        if x.seat in found
        else x
        for x in seats
    ]


def time_controls(conn: Connection, game_ids: Sequence[str]) -> dict[str, dict[str, Any]]:
    """The clock rule of each of ``game_ids`` that has one (the lobby's lists say it)."""
    if not game_ids:
        return {}
    rows = conn.execute(
        select(CLOCKS.c.game_id, CLOCKS.c.time_control).where(
            CLOCKS.c.game_id.in_(list(game_ids)), CLOCKS.c.time_control.is_not(None)
        )
    )
    return {r[0]: json.loads(r[1]) for r in rows}


def save_clock(engine: Engine, game_id: str, write: ClockWrite) -> None:
    """Store a clock that changed between moves (whose time runs changed: a table's last
    seat was taken, or a move was taken back)."""
    with engine.begin() as conn:
        move_clock(conn, game_id, write)


def authors(engine: Engine, game_id: str) -> list[str | None]:
    """Who made each stored move ("person", "bot:<level>"; None: not recorded), in order."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(MOVES.c.author).where(MOVES.c.game_id == game_id).order_by(MOVES.c.idx)
        )
        return [r[0] for r in rows]


def move_clock(conn: Connection, game_id: str, write: ClockWrite) -> None:
    """A move's clock update (in the move's transaction, after its position guard won), in
    the driver's own words like the rest of the move path (no statement building per move)."""
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    params = write.params()
    conn.exec_driver_sql(
        f"UPDATE polis_clocks SET banks = {mark}, turn_started = {mark}, deadline = {mark} "
        f"WHERE game_id = {mark}",
        (params["banks"], params["turn_started"], params["deadline"], game_id),
    )


def _guard(conn: Connection, game_id: str, position: int, bot_turn: bool | None) -> bool:
    """The position guard of a change of hands: the game is still at ``position``."""
    values: dict[str, Any] = {"position": position}
    if bot_turn is not None:
        values["bot_turn"] = int(bot_turn)
    done = conn.execute(
        update(GAMES)
        .where(GAMES.c.id == game_id, GAMES.c.position == position, GAMES.c.finished == 0)
        .values(**values)
    )
    return bool(done.rowcount == 1)


def take_over(
    engine: Engine,
    game_id: str,
    seat: int,
    *,
    level: str,
    why: str,
    since: float,
    position: int,
    bot_turn: bool | None,
    clock: ClockWrite | None,
) -> bool:
    """A bot of ``level`` plays ``seat`` from now on: True if this call stored it; False when
    the seat was already taken over or the game moved on meanwhile (nothing is changed)."""
    try:
        with engine.begin() as conn:
            if not _guard(conn, game_id, position, bot_turn):
                raise _Lost
            conn.execute(
                insert(STAND_INS).values(
                    game_id=game_id, seat=seat, level=level, why=why, since=since
                )
            )
            if clock is not None:
                move_clock(conn, game_id, clock)
    except (_Lost, IntegrityError):
        return False
    return True


def hand_back(
    engine: Engine,
    game_id: str,
    seat: int,
    *,
    position: int,
    bot_turn: bool | None,
    clock: ClockWrite | None,
) -> bool:
    """The person plays ``seat`` again: True if this call stored it; False when no bot stood
    in for it or the game moved on meanwhile (nothing is changed)."""
    try:
        with engine.begin() as conn:
            if not _guard(conn, game_id, position, bot_turn):
                raise _Lost
            done = conn.execute(
                delete(STAND_INS).where(
                    and_(STAND_INS.c.game_id == game_id, STAND_INS.c.seat == seat)
                )
            )
            if done.rowcount != 1:
                raise _Lost
            if clock is not None:
                move_clock(conn, game_id, clock)
    except _Lost:
        return False
    return True


def overdue(engine: Engine, now: float, limit: int) -> list[str]:
    """Unfinished games whose running clock ran out before ``now``, the oldest first: the
    upkeep loads them so that a bot takes over even where nobody has the table open."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(CLOCKS.c.game_id)
            .join(GAMES, GAMES.c.id == CLOCKS.c.game_id)
            .where(CLOCKS.c.deadline < now, GAMES.c.finished == 0)
            .order_by(CLOCKS.c.deadline)
            .limit(limit)
        )
        return [r[0] for r in rows]


class _Lost(Exception):
    """Another writer changed the game first: roll back."""
