"""The game store: every game, its seats and every accepted move, in SQLite or PostgreSQL.

A move is appended in the same transaction that marks the game's new position (and its end),
so a server killed at any moment restarts from exactly the moves it ever confirmed. That
update is guarded by the position the move was made at (the *position guard*): of two
writers at one position, in one process or in several sharing a PostgreSQL database, exactly
one succeeds and the other is told :class:`StaleMove`.

The tables are defined in :mod:`polis.server.store.schema`; a database of any earlier release is
brought to them at start-up by the migrations (:mod:`polis.server.store.migrate`).
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import (
    DateTime,
    and_,
    create_engine,
    event,
    exists,
    func,
    or_,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from polis.server.config import require
from polis.server.store import clock_rows, migrate
from polis.server.store.accounts import ACCOUNTS
from polis.server.store.schema import GAMES, MOVES, SEATS, Base, GameRow, MoveRow, SeatRow, now
from polis.server.table.clocks import ClockWrite, TableClock

__all__ = ["GAMES", "MOVES", "Base", "GameRow", "MoveRow", "SeatRow"]

#: The time the store stamps rows with (also imported by the modules keeping other tables).
_now = now


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat as the server needs it (the token hash never leaves the server)."""

    seat: int
    name: str
    kind: str  # "human" or "bot"
    level: str | None
    token_hash: str | None
    #: The seat waits for anyone to take it (an open table): no name, no token yet.
    vacant: bool = False
    #: A person's seat a bot plays for now: the bot's level (None: the person plays it).
    stand_in: str | None = None
    #: Why the bot took over: "time", "away" or "left".
    stand_in_why: str | None = None
    #: The name of the account the seat is bound to (None: a guest's or a bot's seat).
    account: str | None = None
    #: That account's id.
    account_id: int | None = None

    @property
    def bot_level(self) -> str | None:
        """The level of the bot playing this seat (a bot seat, or one standing in); None
        while a person plays it."""
        return self.level if self.kind == "bot" else self.stand_in


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
    #: Who made each move ("person", "bot:<level>"; None: not recorded).
    authors: list[str | None] = field(default_factory=list)
    #: The table's clock and rules for leavers (:mod:`polis.server.store.clock_rows`).
    table: TableClock = field(default_factory=TableClock)
    #: Spectators may read the table's chat (a choice made when the table was created).
    chat_spectators: bool = False
    #: The lobby lists the table (False: invite-only).
    listed: bool = True
    #: The seat to move may ask for a hint (:mod:`polis.server.table.hints`); None: the default.
    hints: bool | None = None
    #: A rated game (:mod:`polis.server.accounts.rated`).
    rated: bool = False
    #: The account that made the table, if one did.
    creator_id: int | None = None


@dataclass(frozen=True, slots=True)
class Append:
    """One move to store: move ``index`` of ``game_id`` (and the result if it ended the game)."""

    game_id: str
    index: int
    text: str
    result: dict[str, Any] | None = None
    #: Whether a bot is to move after this move (None: leave as stored).
    bot_turn: bool | None = None
    #: Who made the move ("person", "bot:<level>").
    author: str | None = None
    #: The game's clock after the move (None: the game has no clock).
    clock: ClockWrite | None = None


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
    """Use psycopg 3 for plain ``postgresql://`` URLs (InputError naming the install line
    when it is missing: the ``cluster`` extra)."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            url = "postgresql+psycopg://" + url[len(prefix) :]
    if url.startswith("postgresql+psycopg://"):
        require("psycopg", "a PostgreSQL database", "cluster")
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
    # database that does not answer fails a connection attempt within 2 s (libpq's least),
    # so no try of a store call hangs (an HTTP request is cut off sooner still:
    # :mod:`polis.server.store.faults`).
    return create_engine(
        url,
        pool_pre_ping=True,
        pool_size=8,
        max_overflow=8,
        pool_timeout=10,
        connect_args={"connect_timeout": 2},
    )


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
            f"INSERT INTO polis_moves (game_id, idx, text, created, author) "
            f"VALUES ({mark}, {mark}, {mark}, {mark}, {mark})"
        )
        #: PostgreSQL: the guard of a whole batch in one statement (one round trip, one plan,
        #: instead of one each per move); it names the games whose move it stored.
        self._batch_guard = (
            None
            if self.engine.dialect.name != "postgresql"
            else "UPDATE polis_games AS g SET position = v.idx + 1, updated = %s, "
            "finished = v.fin, result = v.res, bot_turn = COALESCE(v.bot, g.bot_turn) "
            "FROM unnest(%s::text[], %s::int[], %s::int[], %s::text[], %s::int[]) "
            "AS v(id, idx, fin, res, bot) "
            "WHERE g.id = v.id AND g.position = v.idx AND g.finished = 0 RETURNING g.id"
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
        """Bring the database to the newest schema (a new one gets every table); several
        processes starting at once are serialized by the migration's lock."""
        migrate.upgrade(normalise_url(self.url))

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
                    chat_spectators=int(game.chat_spectators),
                    listed=int(game.listed),
                    hints=None if game.hints is None else int(game.hints),
                    rated=int(game.rated),
                    creator_id=game.creator_id,
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
                        vacant=int(seat.vacant),
                        account_id=seat.account_id,
                    )
                )
            for i, move in enumerate(game.moves):
                s.add(MoveRow(game_id=game.id, idx=i, text=move))
            if game.table.chosen:
                s.flush()  # the game's row first: the clock's row refers to it
                clock_rows.create(s.connection(), game.id, game.table)

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
        guard = self._batch_guard
        if guard is not None and len({item.game_id for item in batch}) == len(batch):
            return self._append_guarded_at_once(guard, batch, stamp)
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
                    rows.append((item.game_id, item.index, item.text, stamp, item.author))
                    if item.clock is not None:
                        clock_rows.move_clock(conn, item.game_id, item.clock)
            if rows:
                conn.exec_driver_sql(self._insert_move, rows)
        return stored

    def _append_guarded_at_once(self, guard: str, batch: list[Append], stamp: Any) -> list[bool]:
        """The batch's guards in one statement (each game at most once in it: a guard sees
        the position as it was before the statement)."""
        results = [None if item.result is None else json.dumps(item.result) for item in batch]
        with self.engine.begin() as conn:
            done = conn.exec_driver_sql(
                guard,
                (
                    stamp,
                    [item.game_id for item in batch],
                    [item.index for item in batch],
                    [int(item.result is not None) for item in batch],
                    results,
                    [None if item.bot_turn is None else int(item.bot_turn) for item in batch],
                ),
            )
            won = {row[0] for row in done}
            stored = [item.game_id in won for item in batch]
            rows = [
                (item.game_id, item.index, item.text, stamp, item.author)
                for item, ok in zip(batch, stored, strict=True)
                if ok
            ]
            for item, ok in zip(batch, stored, strict=True):
                if ok and item.clock is not None:
                    clock_rows.move_clock(conn, item.game_id, item.clock)
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

    def take_vacant(
        self, game_id: str, seat: int, name: str, token_hash: str, account_id: int | None = None
    ) -> bool:
        """Give a vacant seat of an open table to a person; False if someone took it first.

        One conditional UPDATE: the database lets exactly one of several takers (in any
        number of server processes) find the seat still vacant.
        """
        with self.engine.begin() as conn:
            done = conn.execute(
                update(SEATS)
                .where(SEATS.c.game_id == game_id, SEATS.c.seat == seat, SEATS.c.vacant == 1)
                .values(vacant=0, name=name, token_hash=token_hash, account_id=account_id)
            )
            return bool(done.rowcount == 1)

    # -- reading ------------------------------------------------------------------------------
    def load(self, game_id: str) -> StoredGame | None:
        with Session(self.engine) as s:
            row = s.get(GameRow, game_id)
            if row is None:
                return None
            moves = s.execute(
                select(MoveRow.text, MoveRow.author)
                .where(MoveRow.game_id == game_id)
                .order_by(MoveRow.idx)
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
                moves=[m[0] for m in moves],
                authors=[m[1] for m in moves],
                finished=bool(row.finished),
                rematch_of=row.rematch_of,
                rematch_id=row.rematch_id,
                seed_chosen=bool(row.seed_chosen),
                bot_turn=None if row.bot_turn is None else bool(row.bot_turn),
                table=clock_rows.load(self.engine, game_id),
                chat_spectators=bool(row.chat_spectators),
                listed=bool(row.listed),
                hints=None if row.hints is None else bool(row.hints),
                rated=bool(row.rated),
                creator_id=row.creator_id,
            )

    @staticmethod
    def _seats(s: Session, game_id: str) -> list[SeatInfo]:
        rows = s.execute(
            select(SeatRow, ACCOUNTS.c.name)
            .outerjoin(ACCOUNTS, (ACCOUNTS.c.id == SeatRow.account_id) & (ACCOUNTS.c.deleted == 0))
            .where(SeatRow.game_id == game_id)
            .order_by(SeatRow.seat)
        ).all()
        seats = [
            SeatInfo(
                x.seat,
                x.name,
                x.kind,
                x.level,
                x.token_hash,
                bool(x.vacant),
                account=account,
                account_id=x.account_id,
            )
            for x, account in rows
        ]
        return clock_rows.with_stand_ins(s.connection(), game_id, seats)

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
        """Public summaries of the latest listed games, to watch (invite-only ones are not
        shown to strangers)."""
        query = select(GameRow).where(GameRow.listed == 1)
        return self._summaries(query.order_by(GameRow.updated.desc()).limit(limit))

    def open_tables(self, limit: int = 20) -> list[dict[str, Any]]:
        """Public summaries of the listed tables still waiting for people, newest first."""
        vacant = exists().where(SeatRow.game_id == GameRow.id, SeatRow.vacant == 1)
        # a chosen deal is never offered to strangers (:mod:`polis.server.table.deals`), whatever
        # the row says
        query = select(GameRow).where(
            GameRow.finished == 0, GameRow.listed == 1, GameRow.seed_chosen == 0, vacant
        )
        return self._summaries(query.order_by(GameRow.created.desc()).limit(limit))

    def _summaries(self, query: Any) -> list[dict[str, Any]]:
        with Session(self.engine) as s:
            rows = s.scalars(query).all()
            seats: dict[str, list[SeatRow]] = {r.id: [] for r in rows}
            if seats:
                found = s.scalars(
                    select(SeatRow).where(SeatRow.game_id.in_(seats)).order_by(SeatRow.seat)
                )
                for seat in found:
                    seats[seat.game_id].append(seat)
            clocks = clock_rows.time_controls(s.connection(), list(seats))
            return [
                {
                    "id": r.id,
                    "game": r.game,
                    "mode": r.mode,
                    "players": r.players,
                    "names": [x.name for x in seats[r.id]],
                    "kinds": [x.kind for x in seats[r.id]],
                    "vacant": [x.seat for x in seats[r.id] if x.vacant],
                    "position": r.position,
                    "finished": bool(r.finished),
                    "rated": bool(r.rated),
                    # the table's clock rule (:meth:`TimeControl.to_json`), or None
                    "clock": clocks.get(r.id),
                }
                for r in rows
            ]
