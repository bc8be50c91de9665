"""What the store keeps for a table's chat and for turn notifications: chat lines, Web Push
subscriptions, and the server's VAPID key.

Kept beside :mod:`polis.server.store.games` (same tables' metadata, so a new database gets them
with the others) but apart from the move path: none of this is read or written while a move
is stored. The functions are synchronous, called from the store's threads like the store's
own methods.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import cast

from sqlalchemy import (
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
    delete,
    insert,
    select,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from polis.server.store.games import Base, _now
from polis.server.store.schema import renew_subscription


class ChatRow(Base):
    """One line said at a table (by a seat: spectators never write)."""

    __tablename__ = "polis_chat"
    __table_args__ = (Index("ix_polis_chat_game", "game_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("polis_games.id"))
    seat: Mapped[int] = mapped_column(Integer)
    #: The seat's name when the line was said (a seat may change hands later).
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class PushRow(Base):
    """One browser's Web Push subscription for one seat of one game."""

    __tablename__ = "polis_push"
    __table_args__ = (UniqueConstraint("game_id", "seat", "endpoint", name="uq_polis_push"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("polis_games.id"))
    seat: Mapped[int] = mapped_column(Integer)
    endpoint: Mapped[str] = mapped_column(String(1024))
    p256dh: Mapped[str] = mapped_column(String(128))
    auth: Mapped[str] = mapped_column(String(64))
    #: The language the notification is worded in (the browser's choice at the table).
    lang: Mapped[str] = mapped_column(String(8), default="en")
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class SettingRow(Base):
    """A server-wide value every process must agree on (the VAPID key)."""

    __tablename__ = "polis_settings"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


CHAT = cast(Table, ChatRow.__table__)
PUSH = cast(Table, PushRow.__table__)
SETTINGS = cast(Table, SettingRow.__table__)

#: Subscriptions kept per seat (a player's browsers); the oldest go first.
PUSH_PER_SEAT = 5


@dataclass(frozen=True, slots=True)
class StoredLine:
    id: int
    seat: int
    name: str
    text: str
    created: datetime


@dataclass(frozen=True, slots=True)
class Subscription:
    id: int
    game_id: str
    seat: int
    endpoint: str
    p256dh: str
    auth: str
    lang: str

    def info(self) -> dict[str, object]:
        """The subscription as the Web Push library takes it."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


# -- chat -------------------------------------------------------------------------------------
def add_line(engine: Engine, game_id: str, seat: int, name: str, text: str) -> StoredLine:
    """Store one line; returns it with its id (the order of the table's chat) and time."""
    created = _now()
    with engine.begin() as conn:
        done = conn.execute(
            insert(CHAT).values(game_id=game_id, seat=seat, name=name, text=text, created=created)
        )
        key = done.inserted_primary_key
        assert key is not None
        return StoredLine(int(key[0]), seat, name, text, created)


def last_lines(engine: Engine, game_id: str, limit: int) -> list[StoredLine]:
    """The table's last ``limit`` lines, oldest first."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(CHAT.c.id, CHAT.c.seat, CHAT.c.name, CHAT.c.text, CHAT.c.created)
            .where(CHAT.c.game_id == game_id)
            .order_by(CHAT.c.id.desc())
            .limit(limit)
        ).all()
    return [StoredLine(r[0], r[1], r[2], r[3], r[4]) for r in reversed(rows)]


# -- push subscriptions -----------------------------------------------------------------------
def save_subscription(
    engine: Engine, game_id: str, seat: int, endpoint: str, p256dh: str, auth: str, lang: str
) -> None:
    """Keep (or renew) one browser's subscription for a seat, and at most
    :data:`PUSH_PER_SEAT` per seat."""
    where = (PUSH.c.game_id == game_id) & (PUSH.c.seat == seat)
    values = {"game_id": game_id, "seat": seat, "endpoint": endpoint, "p256dh": p256dh}
    with engine.begin() as conn:
        renew_subscription(conn, PUSH, where, values | {"auth": auth, "lang": lang}, PUSH_PER_SEAT)


def delete_subscription(engine: Engine, game_id: str, seat: int, endpoint: str) -> bool:
    """Forget one browser's subscription for a seat; False if there was none."""
    with engine.begin() as conn:
        done = conn.execute(
            delete(PUSH).where(
                PUSH.c.game_id == game_id, PUSH.c.seat == seat, PUSH.c.endpoint == endpoint
            )
        )
        return bool(done.rowcount)


def subscriptions(engine: Engine, game_id: str, seat: int | None = None) -> list[Subscription]:
    """The subscriptions of a game's seat (``None``: of every seat)."""
    query = select(
        PUSH.c.id,
        PUSH.c.game_id,
        PUSH.c.seat,
        PUSH.c.endpoint,
        PUSH.c.p256dh,
        PUSH.c.auth,
        PUSH.c.lang,
    ).where(PUSH.c.game_id == game_id)
    if seat is not None:
        query = query.where(PUSH.c.seat == seat)
    with engine.connect() as conn:
        rows = conn.execute(query.order_by(PUSH.c.id)).all()
    return [Subscription(*row) for row in rows]


def drop_subscriptions(engine: Engine, ids: list[int]) -> None:
    """Forget subscriptions by id (the push service says they are gone)."""
    if ids:
        with engine.begin() as conn:
            conn.execute(delete(PUSH).where(PUSH.c.id.in_(ids)))


def drop_game_subscriptions(engine: Engine, game_id: str) -> None:
    """Forget every subscription of a game (it is over: there is no turn to tell)."""
    with engine.begin() as conn:
        conn.execute(delete(PUSH).where(PUSH.c.game_id == game_id))


# -- settings ---------------------------------------------------------------------------------
def setting(engine: Engine, name: str, make: Callable[[], str]) -> str:
    """The stored value of ``name``, storing ``make()`` first if there is none. Processes
    starting together agree: the first insert wins and the others read it."""
    query = select(SETTINGS.c.value).where(SETTINGS.c.name == name)
    with engine.connect() as conn:
        found = conn.execute(query).scalar()
    if found is not None:
        return str(found)
    try:
        with engine.begin() as conn:
            conn.execute(insert(SETTINGS).values(name=name, value=make()))
    except IntegrityError:
        pass  # another process stored it first
    with engine.connect() as conn:
        value = conn.execute(query).scalar()
    assert value is not None
    return str(value)
