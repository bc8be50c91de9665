"""The game store: every game, its seats and every accepted move, in SQLite or PostgreSQL.

A move is appended in the same transaction that marks the game's new position (and its end),
so a server killed at any moment restarts from exactly the moves it ever confirmed.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
    event,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker


class Base(DeclarativeBase):
    pass


def _now() -> datetime:
    return datetime.now(UTC)


class GameRow(Base):
    __tablename__ = "polis_games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    mode: Mapped[str] = mapped_column(String(16))
    players: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int | None] = mapped_column(Integer, nullable=True)
    setup: Mapped[str] = mapped_column(Text)
    options: Mapped[str] = mapped_column(Text, default="{}")
    position: Mapped[int] = mapped_column(Integer, default=0)
    finished: Mapped[int] = mapped_column(Integer, default=0)
    result: Mapped[str | None] = mapped_column(Text, nullable=True)
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rematch_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class SeatRow(Base):
    __tablename__ = "polis_seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("polis_games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(8))
    level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)


class MoveRow(Base):
    __tablename__ = "polis_moves"

    game_id: Mapped[str] = mapped_column(ForeignKey("polis_games.id"), primary_key=True)
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    text: Mapped[str] = mapped_column(String(64))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat as the server needs it (the token hash never leaves the server)."""

    seat: int
    name: str
    kind: str  # "human" or "bot"
    level: str | None
    token_hash: str | None


@dataclass(slots=True)
class StoredGame:
    """Everything needed to rebuild a game: its record plus the seats."""

    id: str
    game: str
    mode: str
    players: int
    seed: int | None
    setup: dict[str, Any]
    options: dict[str, Any]
    seats: list[SeatInfo]
    moves: list[str] = field(default_factory=list)
    finished: bool = False
    rematch_of: str | None = None
    rematch_id: str | None = None


class StaleMove(Exception):
    """The position moved on before this move could be stored (lost a race)."""


def default_db_url() -> str:
    """SQLite file in the user's data directory (``POLIS_DB`` overrides)."""
    env = os.environ.get("POLIS_DB")
    if env:
        return env
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("polis", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'polis.sqlite3'}"


def normalise_url(url: str) -> str:
    """Use psycopg 3 for plain ``postgresql://`` URLs."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def _make_engine(url: str) -> Engine:
    url = normalise_url(url)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:  # pragma: no cover - trivial
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=FULL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


class Store:
    """Synchronous store; the server calls it from worker threads."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = _make_engine(url)
        Base.metadata.create_all(self.engine)
        self._session = sessionmaker(self.engine, expire_on_commit=False)

    def close(self) -> None:
        self.engine.dispose()

    # -- writing ------------------------------------------------------------------------------
    def create_game(self, game: StoredGame) -> None:
        with self._session.begin() as s:
            s.add(
                GameRow(
                    id=game.id,
                    game=game.game,
                    mode=game.mode,
                    players=game.players,
                    seed=game.seed,
                    setup=json.dumps(game.setup),
                    options=json.dumps(game.options),
                    position=len(game.moves),
                    finished=int(game.finished),
                    rematch_of=game.rematch_of,
                )
            )
            for seat in game.seats:
                s.add(
                    SeatRow(
                        game_id=game.id,
                        seat=seat.seat,
                        name=seat.name,
                        kind=seat.kind,
                        level=seat.level,
                        token_hash=seat.token_hash,
                    )
                )
            for i, text in enumerate(game.moves):
                s.add(MoveRow(game_id=game.id, idx=i, text=text))

    def append_move(
        self, game_id: str, index: int, text: str, result: dict[str, Any] | None
    ) -> None:
        """Store move ``index`` and the new position in one transaction.

        Raises :class:`StaleMove` if the stored position is not ``index`` (another writer won).
        """
        try:
            with self._session.begin() as s:
                values: dict[str, Any] = {"position": index + 1, "updated": _now()}
                if result is not None:
                    values["finished"] = 1
                    values["result"] = json.dumps(result)
                done = s.execute(
                    update(GameRow)
                    .where(GameRow.id == game_id, GameRow.position == index, GameRow.finished == 0)
                    .values(**values)
                )
                if done.rowcount != 1:  # type: ignore[attr-defined]
                    raise StaleMove(f"game {game_id} is no longer at position {index}")
                s.add(MoveRow(game_id=game_id, idx=index, text=text))
        except IntegrityError:
            raise StaleMove(f"move {index} of game {game_id} is already stored") from None

    def set_rematch(self, game_id: str, rematch_id: str) -> bool:
        """Link a finished game to its rematch; False if another rematch was linked first."""
        with self._session.begin() as s:
            done = s.execute(
                update(GameRow)
                .where(GameRow.id == game_id, GameRow.rematch_id.is_(None))
                .values(rematch_id=rematch_id)
            )
            return bool(done.rowcount == 1)  # type: ignore[attr-defined]

    def claim_seat(self, game_id: str, seat: int, token_hash: str) -> bool:
        """Give an unclaimed seat (of a rematch) its token; False if already claimed."""
        with self._session.begin() as s:
            done = s.execute(
                update(SeatRow)
                .where(
                    SeatRow.game_id == game_id, SeatRow.seat == seat, SeatRow.token_hash.is_(None)
                )
                .values(token_hash=token_hash)
            )
            return bool(done.rowcount == 1)  # type: ignore[attr-defined]

    # -- reading ------------------------------------------------------------------------------
    def load(self, game_id: str) -> StoredGame | None:
        with Session(self.engine) as s:
            row = s.get(GameRow, game_id)
            if row is None:
                return None
            seats = s.scalars(
                select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat)
            ).all()
            moves = s.scalars(
                select(MoveRow.text).where(MoveRow.game_id == game_id).order_by(MoveRow.idx)
            ).all()
            return StoredGame(
                id=row.id,
                game=row.game,
                mode=row.mode,
                players=row.players,
                seed=row.seed,
                setup=json.loads(row.setup),
                options=json.loads(row.options or "{}"),
                seats=[SeatInfo(x.seat, x.name, x.kind, x.level, x.token_hash) for x in seats],
                moves=list(moves),
                finished=bool(row.finished),
                rematch_of=row.rematch_of,
                rematch_id=row.rematch_id,
            )

    def unfinished_ids(self) -> list[str]:
        with Session(self.engine) as s:
            return list(s.scalars(select(GameRow.id).where(GameRow.finished == 0)).all())

    def recent(self, limit: int = 20) -> list[dict[str, Any]]:
        """Public summaries of the latest games (for the lobby)."""
        with Session(self.engine) as s:
            rows = s.scalars(select(GameRow).order_by(GameRow.updated.desc()).limit(limit)).all()
            out = []
            for r in rows:
                names = s.scalars(
                    select(SeatRow.name).where(SeatRow.game_id == r.id).order_by(SeatRow.seat)
                ).all()
                out.append(
                    {
                        "id": r.id,
                        "game": r.game,
                        "mode": r.mode,
                        "players": r.players,
                        "names": list(names),
                        "position": r.position,
                        "finished": bool(r.finished),
                    }
                )
            return out
