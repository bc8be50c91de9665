"""The store's tables as the newest migration leaves them (the head of
:mod:`polis.server.store.migrations`).

These classes are what the store reads and writes through; the migrations are what makes a
database look like them. A change here needs a migration in ``migrations/versions/`` that
makes the same change (a test compares the two), or a database written by a release would
not have it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import (
    ColumnElement,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    delete,
    insert,
    select,
)
from sqlalchemy.engine import Connection
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


def now() -> datetime:
    return datetime.now(UTC)


class GameRow(Base):
    __tablename__ = "polis_games"
    #: The lobby's lists (open tables, games to watch): the latest of the listed games.
    __table_args__ = (Index("ix_polis_games_lobby", "finished", "listed", "updated"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    mode: Mapped[str] = mapped_column(String(16))
    players: Mapped[int] = mapped_column(Integer)
    #: The first release's seed (a 31-bit integer); later games keep theirs in ``seed_text``.
    seed: Mapped[int | None] = mapped_column(Integer, nullable=True)
    setup: Mapped[str] = mapped_column(Text)
    options: Mapped[str] = mapped_column(Text, default="{}")
    #: Entries in the moves table (moves and take-backs): the position guard's counter.
    position: Mapped[int] = mapped_column(Integer, default=0)
    finished: Mapped[int] = mapped_column(Integer, default=0)
    result: Mapped[str | None] = mapped_column(Text, nullable=True)
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rematch_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    #: The seed as JSON (a number or a string of any size: server deals have 256 bits).
    seed_text: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: 1 when the game's creator chose the seed (and so knows every secret of the deal).
    seed_chosen: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: 1 when a bot is to move, 0 a person; NULL for a game an older release last moved.
    bot_turn: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: 1 when the lobby lists the table (open seats to take, a game to watch); 0 invite-only.
    listed: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    #: 1 when spectators may read the table's chat (players always may). (0004_chat_push)
    chat_spectators: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: 1 when the seat to move may ask for a hint, 0 not; NULL: the default for the seats
    #: (:func:`polis.server.table.hints.default_hints`). (0005_hints)
    hints: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: 1 for a rated game: between accounts, no hints, no take-backs, no chosen seed; a seat
    #: that leaves loses. (0006_accounts)
    rated: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: The account that made the table (its blocks keep people off its open seats).
    creator_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: 1 once the finished game's results (and ratings) were written for its accounts.
    settled: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class SeatRow(Base):
    __tablename__ = "polis_seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("polis_games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(8))
    level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: 1 while the seat waits for anyone to take it (an open table); a person's seat then.
    vacant: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: The account the seat is bound to (its "My games"); NULL: a guest's (or a bot's) seat.
    #: (0006_accounts)
    account_id: Mapped[int | None] = mapped_column(Integer, nullable=True)


class MoveRow(Base):
    __tablename__ = "polis_moves"

    game_id: Mapped[str] = mapped_column(ForeignKey("polis_games.id"), primary_key=True)
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: A move's notation, or a take-back (:data:`polis.server.live.history.TAKE_BACK`).
    text: Mapped[str] = mapped_column(String(64))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    #: Who made the move: "person", or "bot:<level>" (a bot seat or a bot standing in for a
    #: person); NULL for a move an older release stored. (0003_clocks)
    author: Mapped[str | None] = mapped_column(String(24), nullable=True)


class ClockRow(Base):
    """A table's clock (if any), the level of the bots that replace leavers and its away
    limit: a row for the games whose creator chose any of them. (0003_clocks)"""

    __tablename__ = "polis_clocks"
    __table_args__ = (Index("ix_polis_clocks_deadline", "deadline"),)

    game_id: Mapped[str] = mapped_column(ForeignKey("polis_games.id"), primary_key=True)
    #: :class:`~polis.server.table.clocks.TimeControl` as JSON; NULL: no clock.
    time_control: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: The level of the bots that take over people's seats; NULL: the default.
    stand_in: Mapped[str | None] = mapped_column(String(16), nullable=True)
    #: Seconds a person may be away on their turn (no clock); NULL: no limit.
    away_limit: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: Every seat's bank (seconds, a JSON list) when the current turn started.
    banks: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: When the current turn started (seconds since the epoch).
    turn_started: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: When the running seat's time runs out; NULL while no person's time runs.
    deadline: Mapped[float | None] = mapped_column(Float, nullable=True)


class StandInRow(Base):
    """A bot playing a person's seat, until the person takes it back. (0003_clocks)"""

    __tablename__ = "polis_stand_ins"

    game_id: Mapped[str] = mapped_column(ForeignKey("polis_games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    level: Mapped[str] = mapped_column(String(16))
    #: "time" (the clock ran out), "away" (away past the limit) or "left" (resigned).
    why: Mapped[str] = mapped_column(String(8))
    since: Mapped[float] = mapped_column(Float)


def renew_subscription(
    conn: Connection, table: Table, owner: ColumnElement[bool], values: dict[str, Any], keep: int
) -> None:
    """Keep (or renew) one browser's push subscription among those of ``owner`` (a seat, an
    account) in ``table``, and only the ``keep`` newest of them."""
    conn.execute(delete(table).where(owner, table.c.endpoint == values["endpoint"]))
    conn.execute(insert(table).values(created=now(), **values))
    ids = conn.execute(select(table.c.id).where(owner).order_by(table.c.id.desc())).scalars()
    old = list(ids)[keep:]
    if old:
        conn.execute(delete(table).where(table.c.id.in_(old)))


GAMES = cast(Table, GameRow.__table__)
SEATS = cast(Table, SeatRow.__table__)
MOVES = cast(Table, MoveRow.__table__)
CLOCKS = cast(Table, ClockRow.__table__)
STAND_INS = cast(Table, StandInRow.__table__)
