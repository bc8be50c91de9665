"""The game store: every game, its seats and every accepted move, in SQLite or PostgreSQL.

A move is appended in the same transaction that marks the game's new position (and its end),
so a server killed at any moment restarts from exactly the moves it ever confirmed. That
update is guarded by the position the move was made at (the *position guard*): of two
writers at one position, in one process or in several sharing a PostgreSQL database, exactly
one succeeds and the other is told :class:`StaleMove`.

Databases written by an earlier release are upgraded in place at start-up by adding the
columns that release did not have (:data:`ADDED_COLUMNS`); nothing is rewritten or dropped.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, cast

from sqlalchemy import (
    DateTime,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    and_,
    create_engine,
    event,
    exists,
    func,
    inspect,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, IntegrityError
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
    #: The first release's seed (a 31-bit integer); later games keep theirs in ``seed_text``.
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
    #: The seed as JSON (a number or a string of any size: server deals have 256 bits).
    seed_text: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: 1 when the game's creator chose the seed (and so knows every secret of the deal).
    seed_chosen: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: 1 when a bot is to move, 0 a person; NULL for a game an older release last moved.
    bot_turn: Mapped[int | None] = mapped_column(Integer, nullable=True)


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


#: Columns later releases added to a table, with the SQL that adds each to an older database
#: (both SQLite and PostgreSQL accept it). Kept until migrations (Alembic) take over.
ADDED_COLUMNS: dict[str, dict[str, str]] = {
    "polis_games": {
        "seed_text": "TEXT",
        "seed_chosen": "INTEGER NOT NULL DEFAULT 0",
        "bot_turn": "INTEGER",
    },
}

GAMES = cast(Table, GameRow.__table__)
MOVES = cast(Table, MoveRow.__table__)


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat as the server needs it (the token hash never leaves the server)."""

    seat: int
    name: str
    kind: str  # "human" or "bot"
    level: str | None
    token_hash: str | None


#: A seed as records hold it: a JSON number or string, or null.
Seed = int | str | None


@dataclass(slots=True)
class StoredGame:
    """Everything needed to rebuild a game: its record plus the seats."""

    id: str
    game: str
    mode: str
    players: int
    seed: Seed
    setup: dict[str, Any]
    options: dict[str, Any]
    seats: list[SeatInfo]
    moves: list[str] = field(default_factory=list)
    finished: bool = False
    rematch_of: str | None = None
    rematch_id: str | None = None
    #: The creator chose the seed (allowed only where no other person's secrets are at stake).
    seed_chosen: bool = False
    #: Whether a bot is to move (kept in the store so bots can be resumed without replaying
    #: every game; None: not known, a game an older release last moved).
    bot_turn: bool | None = None


@dataclass(frozen=True, slots=True)
class Append:
    """One move to store: move ``index`` of ``game_id`` (and the result if it ended the game)."""

    game_id: str
    index: int
    text: str
    result: dict[str, Any] | None = None
    #: Whether a bot is to move after this move (None: leave as stored).
    bot_turn: bool | None = None


@dataclass(frozen=True, slots=True)
class Progress:
    """Where a stored game stands, for a process catching up with moves made elsewhere."""

    position: int
    finished: bool
    rematch_id: str | None


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


#: Seconds between SQLite checkpoints (see :meth:`Store._checkpoints`).
CHECKPOINT_EVERY = 1.0


def sqlite_synchronous() -> str:
    """How SQLite flushes a commit (``POLIS_SQLITE_SYNCHRONOUS``, default NORMAL).

    In WAL mode NORMAL writes every commit to the log before it returns but flushes the disk
    only at checkpoints: an acknowledged move survives the server being killed at any moment
    (the log is in the operating system's hands), only a crash of the machine itself can
    take the last ones. FULL flushes at every commit too: on a busy or shared disk that flush
    alone is tens to hundreds of milliseconds, and every table's moves wait for it.
    """
    value = os.environ.get("POLIS_SQLITE_SYNCHRONOUS", "NORMAL").strip().upper()
    return value if value in ("NORMAL", "FULL", "EXTRA") else "NORMAL"


def _make_engine(url: str) -> Engine:
    url = normalise_url(url)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:  # pragma: no cover - trivial
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute(f"PRAGMA synchronous={sqlite_synchronous()}")
            cur.execute("PRAGMA foreign_keys=ON")
            # the log is copied into the database by the store's checkpoint thread, never by
            # a commit (a checkpoint flushes the disk: moves would wait for it)
            cur.execute("PRAGMA wal_autocheckpoint=0")
            cur.close()

        return engine
    # A dead connection (the database restarted) is noticed at checkout, not mid-move; a
    # refused connection fails within seconds instead of hanging a request.
    return create_engine(
        url,
        pool_pre_ping=True,
        pool_size=8,
        max_overflow=8,
        pool_timeout=10,
        connect_args={"connect_timeout": 5},
    )


def _upgrade(conn: Connection) -> None:
    """Add the columns of :data:`ADDED_COLUMNS` an older database lacks (idempotent)."""
    inspector = inspect(conn)
    for table, columns in ADDED_COLUMNS.items():
        have = {c["name"] for c in inspector.get_columns(table)}
        for name, ddl in columns.items():
            if name not in have:
                conn.execute(text(f"ALTER TABLE {table} ADD COLUMN {name} {ddl}"))


def _seed_of(row: GameRow) -> Seed:
    if row.seed_text is not None:
        seed: Seed = json.loads(row.seed_text)
        return seed
    return row.seed


class Store:
    """Synchronous store; the server calls it from worker threads."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = _make_engine(url)
        self._prepare()
        self._session = sessionmaker(self.engine, expire_on_commit=False)
        # The move path's two statements in the driver's own words: a move is the hot path of
        # a busy server, and these skip SQLAlchemy's statement building for each one.
        mark = "?" if self.engine.dialect.paramstyle == "qmark" else "%s"
        #: The position guard: the move is stored only if the game is still at its position
        #: and not over.
        self._guarded_update = (
            f"UPDATE polis_games SET position = {mark}, updated = {mark}, finished = {mark}, "
            f"result = {mark}, bot_turn = COALESCE(CAST({mark} AS INTEGER), bot_turn) "
            f"WHERE id = {mark} AND position = {mark} AND finished = 0"
        )
        self._insert_move = (
            f"INSERT INTO polis_moves (game_id, idx, text, created) "
            f"VALUES ({mark}, {mark}, {mark}, {mark})"
        )
        processor = DateTime(timezone=True).bind_processor(self.engine.dialect)
        self._stamp: Callable[[datetime], Any] = processor or (lambda when: when)
        self._stop = threading.Event()
        self._checkpointer: threading.Thread | None = None
        if self.engine.dialect.name == "sqlite":
            self._checkpointer = threading.Thread(
                target=self._checkpoints, name="polis-sqlite-checkpoint", daemon=True
            )
            self._checkpointer.start()

    def _prepare(self) -> None:
        """Create the tables (a new database) or add missing columns (an older one).

        Several processes may start on one database at once: a schema change another one
        made first is not an error, so each step is tried again after a failure.
        """
        for attempt in range(3):
            try:
                Base.metadata.create_all(self.engine)
                with self.engine.begin() as conn:
                    _upgrade(conn)
                return
            except DBAPIError:
                if attempt == 2:
                    raise

    def close(self) -> None:
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join(timeout=10)
        self.engine.dispose()

    def _checkpoints(self) -> None:
        """SQLite: copy the write-ahead log into the database every second, away from the
        moves' commits (PASSIVE: it waits for no reader or writer, and no writer waits for
        it); a server killed meanwhile loses nothing, the log is replayed when it reopens."""
        while not self._stop.wait(CHECKPOINT_EVERY):
            try:
                with self.engine.connect() as conn:
                    conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            except Exception:  # the next round tries again
                continue

    # -- writing ------------------------------------------------------------------------------
    def create_game(self, game: StoredGame) -> None:
        with self._session.begin() as s:
            s.add(
                GameRow(
                    id=game.id,
                    game=game.game,
                    mode=game.mode,
                    players=game.players,
                    seed=None,
                    seed_text=json.dumps(game.seed),
                    seed_chosen=int(game.seed_chosen),
                    bot_turn=None if game.bot_turn is None else int(game.bot_turn),
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
            for i, move in enumerate(game.moves):
                s.add(MoveRow(game_id=game.id, idx=i, text=move))

    def append_move(
        self, game_id: str, index: int, text: str, result: dict[str, Any] | None
    ) -> None:
        """Store move ``index`` and the new position in one transaction.

        Raises :class:`StaleMove` if the stored position is not ``index`` (another writer won).
        """
        if not self.append_moves([Append(game_id, index, text, result)])[0]:
            raise StaleMove(f"game {game_id} is no longer at position {index}")

    def append_moves(self, batch: list[Append]) -> list[bool]:
        """Store several moves (of different games) in one transaction: one disk flush for
        all of them. Each is position-guarded on its own: False for a move that lost its race
        (the others are stored all the same)."""
        try:
            return self._append_all(batch)
        except IntegrityError:
            if len(batch) == 1:
                return [False]
            # a move row already there (a database written outside the guard): one at a time
            return [self.append_moves([item])[0] for item in batch]

    def _append_all(self, batch: list[Append]) -> list[bool]:
        stamp = self._stamp(_now())
        stored = []
        rows = []
        with self.engine.begin() as conn:
            for item in batch:
                done = conn.exec_driver_sql(
                    self._guarded_update,
                    (
                        item.index + 1,
                        stamp,
                        int(item.result is not None),
                        None if item.result is None else json.dumps(item.result),
                        None if item.bot_turn is None else int(item.bot_turn),
                        item.game_id,
                        item.index,
                    ),
                )
                won = done.rowcount == 1
                stored.append(won)
                if won:
                    rows.append((item.game_id, item.index, item.text, stamp))
            if rows:
                conn.exec_driver_sql(self._insert_move, rows)
        return stored

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
            moves = s.scalars(
                select(MoveRow.text).where(MoveRow.game_id == game_id).order_by(MoveRow.idx)
            ).all()
            return StoredGame(
                id=row.id,
                game=row.game,
                mode=row.mode,
                players=row.players,
                seed=_seed_of(row),
                setup=json.loads(row.setup),
                options=json.loads(row.options or "{}"),
                seats=self._seats(s, game_id),
                moves=list(moves),
                finished=bool(row.finished),
                rematch_of=row.rematch_of,
                rematch_id=row.rematch_id,
                seed_chosen=bool(row.seed_chosen),
                bot_turn=None if row.bot_turn is None else bool(row.bot_turn),
            )

    @staticmethod
    def _seats(s: Session, game_id: str) -> list[SeatInfo]:
        rows = s.scalars(
            select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat)
        ).all()
        return [SeatInfo(x.seat, x.name, x.kind, x.level, x.token_hash) for x in rows]

    def seats(self, game_id: str) -> list[SeatInfo]:
        """The seats as stored now (another process may have given a seat its token)."""
        with Session(self.engine) as s:
            return self._seats(s, game_id)

    def moves_from(self, game_id: str, start: int) -> list[str]:
        """The stored moves from index ``start`` on (those another process accepted)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(MOVES.c.text)
                .where(MOVES.c.game_id == game_id, MOVES.c.idx >= start)
                .order_by(MOVES.c.idx)
            )
            return [r[0] for r in rows]

    def move_at(self, game_id: str, index: int) -> str | None:
        """Move ``index`` as stored, if it is."""
        with self.engine.connect() as conn:
            found = conn.execute(
                select(MOVES.c.text).where(MOVES.c.game_id == game_id, MOVES.c.idx == index)
            ).scalar()
            return None if found is None else str(found)

    def progress(self, ids: list[str]) -> dict[str, Progress]:
        """Position, end and rematch of each of ``ids`` (one query for all)."""
        if not ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(GAMES.c.id, GAMES.c.position, GAMES.c.finished, GAMES.c.rematch_id).where(
                    GAMES.c.id.in_(ids)
                )
            )
            return {r[0]: Progress(r[1], bool(r[2]), r[3]) for r in rows}

    def unfinished_ids(self) -> list[str]:
        with Session(self.engine) as s:
            return list(s.scalars(select(GameRow.id).where(GameRow.finished == 0)).all())

    def waiting_bot_games(self, quiet_for: float, limit: int) -> list[str]:
        """Unfinished games whose bot is to move and that saw no move for ``quiet_for``
        seconds, oldest first: bots that may wait for a process to play them (after a restart,
        or when the process that played them died). Games an older release last moved (whose
        turn is not stored) count when they have a bot seat."""
        since = _now() - timedelta(seconds=quiet_for)
        has_bot = exists().where(SeatRow.game_id == GameRow.id, SeatRow.kind == "bot")
        waiting = or_(GameRow.bot_turn == 1, and_(GameRow.bot_turn.is_(None), has_bot))
        with Session(self.engine) as s:
            found = s.scalars(
                select(GameRow.id)
                .where(GameRow.finished == 0, GameRow.updated < since, waiting)
                .order_by(GameRow.updated)
                .limit(limit)
            )
            return list(found.all())

    def set_bot_turn(self, game_id: str, bot_turn: bool) -> None:
        """Record whose turn it is for a game an older release left without it."""
        with self.engine.begin() as conn:
            conn.execute(
                update(GAMES)
                .where(GAMES.c.id == game_id, GAMES.c.bot_turn.is_(None))
                .values(bot_turn=int(bot_turn))
            )

    def count_games(self) -> int:
        with Session(self.engine) as s:
            return int(s.scalar(select(func.count()).select_from(GameRow)) or 0)

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
