"""What the store keeps of finished games for the accounts that played them: each account's
place and score in each game, its rating per game and mode, and the rating's history.

Written once per finished game, by whichever process settles it first
(:func:`claim_settlement` is a conditional update: exactly one wins), or later by any
process's upkeep when the process that stored the last move died before it settled
(:func:`unsettled`); read by profiles and leaderboards
(:mod:`polis.server.accounts.profiles`), never on the move path.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import (
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    case,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import Mapped, mapped_column

from polis.server.store.schema import GAMES, SEATS, Base, now


class RatingRow(Base):
    """An account's rating in one game and mode (openskill's mu and sigma)."""

    __tablename__ = "polis_ratings"
    __table_args__ = (Index("ix_polis_ratings_board", "game", "mode"),)

    account_id: Mapped[int] = mapped_column(ForeignKey("polis_accounts.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    mode: Mapped[str] = mapped_column(String(16), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class RatingHistoryRow(Base):
    """An account's rating after one rated game."""

    __tablename__ = "polis_rating_history"
    __table_args__ = (Index("ix_polis_rating_history_account", "account_id", "game", "mode"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("polis_accounts.id"))
    game: Mapped[str] = mapped_column(String(32))
    mode: Mapped[str] = mapped_column(String(16))
    game_id: Mapped[str] = mapped_column(String(32))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class ResultRow(Base):
    """An account's place in a finished game (rated or not): what profiles count."""

    __tablename__ = "polis_results"
    __table_args__ = (Index("ix_polis_results_account", "account_id", "game", "mode"),)

    game_id: Mapped[str] = mapped_column(ForeignKey("polis_games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("polis_accounts.id"))
    game: Mapped[str] = mapped_column(String(32))
    mode: Mapped[str] = mapped_column(String(16))
    players: Mapped[int] = mapped_column(Integer)
    #: 1 for the winner(s); a seat that left a rated game is last.
    rank: Mapped[int] = mapped_column(Integer)
    #: How many seats share this place (people, guests and bots alike): a win shared by
    #: ``tied`` seats counts ``1 / tied`` in the win share.
    tied: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    score: Mapped[float] = mapped_column(Float)
    rated: Mapped[int] = mapped_column(Integer, default=0)
    #: 1 when the seat left (a bot finished it for the others).
    forfeited: Mapped[int] = mapped_column(Integer, default=0)
    finished: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


RATINGS = cast(Table, RatingRow.__table__)
HISTORY = cast(Table, RatingHistoryRow.__table__)
RESULTS = cast(Table, ResultRow.__table__)


@dataclass(frozen=True, slots=True)
class Placed:
    """One account's seat in a finished game, as settled."""

    seat: int
    account_id: int
    rank: int
    score: float
    forfeited: bool
    #: Seats sharing ``rank`` (1: this one alone).
    tied: int = 1


def claim_settlement(conn: Connection, game_id: str) -> bool:
    """Mark a finished game settled; False when another process did first."""
    done = conn.execute(
        update(GAMES)
        .where(GAMES.c.id == game_id, GAMES.c.finished == 1, GAMES.c.settled == 0)
        .values(settled=1)
    )
    return bool(done.rowcount == 1)


def add_results(
    conn: Connection,
    game_id: str,
    game: str,
    mode: str,
    players: int,
    rated: bool,
    placed: list[Placed],
) -> None:
    for p in placed:
        conn.execute(
            insert(RESULTS).values(
                game_id=game_id,
                seat=p.seat,
                account_id=p.account_id,
                game=game,
                mode=mode,
                players=players,
                rank=p.rank,
                tied=p.tied,
                score=p.score,
                rated=int(rated),
                forfeited=int(p.forfeited),
                finished=now(),
            )
        )


def live_accounts(conn: Connection, ids: list[int]) -> set[int]:
    """Those of ``ids`` whose account is not deleted (a deleted account's standings are gone
    and stay gone)."""
    from polis.server.store.accounts import ACCOUNTS

    if not ids:
        return set()
    rows = conn.execute(
        select(ACCOUNTS.c.id).where(ACCOUNTS.c.id.in_(ids), ACCOUNTS.c.deleted == 0)
    )
    return {int(r[0]) for r in rows}


def unsettled(engine: Engine, before: datetime, limit: int) -> list[str]:
    """Finished games with a seat bound to an account that were never settled, last moved
    before ``before``: the process that stored the last move stopped before it settled."""
    bound = (
        select(SEATS.c.game_id)
        .where(SEATS.c.game_id == GAMES.c.id, SEATS.c.account_id.is_not(None))
        .exists()
    )
    with engine.connect() as conn:
        rows = conn.execute(
            select(GAMES.c.id)
            .where(GAMES.c.finished == 1, GAMES.c.settled == 0, GAMES.c.updated < before, bound)
            .order_by(GAMES.c.updated)
            .limit(limit)
        )
        return [r[0] for r in rows]


def ratings_of(
    conn: Connection, ids: list[int], game: str, mode: str
) -> dict[int, tuple[float, float, int]]:
    """account -> (mu, sigma, games) for those already rated in ``game`` and ``mode``."""
    if not ids:
        return {}
    rows = conn.execute(
        select(RATINGS.c.account_id, RATINGS.c.mu, RATINGS.c.sigma, RATINGS.c.games).where(
            RATINGS.c.account_id.in_(ids), RATINGS.c.game == game, RATINGS.c.mode == mode
        )
    )
    return {r[0]: (r[1], r[2], r[3]) for r in rows}


def save_rating(
    conn: Connection,
    account_id: int,
    game: str,
    mode: str,
    game_id: str,
    mu: float,
    sigma: float,
    games: int,
) -> None:
    """The account's new rating, and its line in the history."""
    at = now()
    done = conn.execute(
        update(RATINGS)
        .where(RATINGS.c.account_id == account_id, RATINGS.c.game == game, RATINGS.c.mode == mode)
        .values(mu=mu, sigma=sigma, games=games, updated=at)
    )
    if done.rowcount != 1:
        conn.execute(
            insert(RATINGS).values(
                account_id=account_id,
                game=game,
                mode=mode,
                mu=mu,
                sigma=sigma,
                games=games,
                updated=at,
            )
        )
    conn.execute(
        insert(HISTORY).values(
            account_id=account_id,
            game=game,
            mode=mode,
            game_id=game_id,
            mu=mu,
            sigma=sigma,
            at=at,
        )
    )


def forget_account(conn: Connection, account_id: int) -> None:
    """A deleted account's standings go (its games' rows stay with the games)."""
    conn.execute(delete(RATINGS).where(RATINGS.c.account_id == account_id))
    conn.execute(delete(HISTORY).where(HISTORY.c.account_id == account_id))
    conn.execute(delete(RESULTS).where(RESULTS.c.account_id == account_id))


def ratings(engine: Engine, account_id: int) -> list[dict[str, Any]]:
    with engine.connect() as conn:
        rows = conn.execute(
            select(RATINGS.c.game, RATINGS.c.mode, RATINGS.c.mu, RATINGS.c.sigma, RATINGS.c.games)
            .where(RATINGS.c.account_id == account_id)
            .order_by(RATINGS.c.game, RATINGS.c.mode)
        )
        return [dict(r) for r in rows.mappings()]


def history(engine: Engine, account_id: int, limit: int | None = None) -> list[dict[str, Any]]:
    """The account's rating after each rated game, oldest first (the last ``limit`` ones;
    None: all)."""
    query = (
        select(
            HISTORY.c.id,
            HISTORY.c.game,
            HISTORY.c.mode,
            HISTORY.c.game_id,
            HISTORY.c.mu,
            HISTORY.c.sigma,
            HISTORY.c.at,
        )
        .where(HISTORY.c.account_id == account_id)
        .order_by(HISTORY.c.id.desc())
    )
    if limit is not None:
        query = query.limit(limit)
    with engine.connect() as conn:
        rows = [dict(r) for r in conn.execute(query).mappings()]
    rows.reverse()
    for row in rows:
        del row["id"]
    return rows


def results(engine: Engine, account_id: int) -> list[dict[str, Any]]:
    """Every finished game the account played, newest first."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(RESULTS)
            .where(RESULTS.c.account_id == account_id)
            .order_by(RESULTS.c.finished.desc())
        )
        return [dict(r) for r in rows.mappings()]


def board(
    engine: Engine, game: str, mode: str, limit: int = 100, bots: bool = True
) -> list[dict[str, Any]]:
    """The rated accounts of one game and mode, best first (by the rating shown), with their
    name and whether a bot (``bots`` False: people only); deleted and suspended accounts are
    left out."""
    from polis.server.store.accounts import ACCOUNTS

    query = (
        select(ACCOUNTS.c.name, ACCOUNTS.c.bot, RATINGS.c.mu, RATINGS.c.sigma, RATINGS.c.games)
        .join(ACCOUNTS, ACCOUNTS.c.id == RATINGS.c.account_id)
        .where(
            RATINGS.c.game == game,
            RATINGS.c.mode == mode,
            ACCOUNTS.c.deleted == 0,
            ACCOUNTS.c.suspended == 0,
        )
        .order_by(
            (RATINGS.c.mu - 3 * RATINGS.c.sigma).desc(),
            RATINGS.c.games.desc(),
            ACCOUNTS.c.name_key,
        )
        .limit(limit)
    )
    if not bots:
        query = query.where(ACCOUNTS.c.bot == 0)
    with engine.connect() as conn:
        return [dict(r) for r in conn.execute(query).mappings()]


def player(engine: Engine, name: str) -> dict[str, Any] | None:
    """The public facts of the live, unsuspended account called ``name`` (any case): its id,
    name as written, whether a bot, and when it was made."""
    from polis.server.store.accounts import ACCOUNTS, name_key

    with engine.connect() as conn:
        row = (
            conn.execute(
                select(ACCOUNTS.c.id, ACCOUNTS.c.name, ACCOUNTS.c.bot, ACCOUNTS.c.created).where(
                    ACCOUNTS.c.name_key == name_key(name),
                    ACCOUNTS.c.deleted == 0,
                    ACCOUNTS.c.suspended == 0,
                )
            )
            .mappings()
            .first()
        )
    return None if row is None else dict(row)


def stats(engine: Engine, account_id: int) -> list[dict[str, Any]]:
    """Per game and mode: games played, wins (a win shared by ``k`` seats counts ``1/k``),
    the sum of places, the best and the mean final score."""
    won = func.sum(case((RESULTS.c.rank == 1, 1.0 / RESULTS.c.tied), else_=0.0))
    with engine.connect() as conn:
        rows = conn.execute(
            select(
                RESULTS.c.game,
                RESULTS.c.mode,
                func.count().label("played"),
                won.label("wins"),
                func.avg(RESULTS.c.rank).label("mean_rank"),
                func.max(RESULTS.c.score).label("best_score"),
                func.avg(RESULTS.c.score).label("mean_score"),
            )
            .where(RESULTS.c.account_id == account_id)
            .group_by(RESULTS.c.game, RESULTS.c.mode)
            .order_by(RESULTS.c.game, RESULTS.c.mode)
        )
        return [dict(r) for r in rows.mappings()]


def recent(engine: Engine, account_id: int, limit: int = 20) -> list[dict[str, Any]]:
    """The account's last ``limit`` finished games, newest first, each with every seat's
    name and account (what the game's own page shows anyone)."""
    from polis.server.store.accounts import ACCOUNTS

    with engine.connect() as conn:
        games = [
            dict(r)
            for r in conn.execute(
                select(RESULTS)
                .where(RESULTS.c.account_id == account_id)
                .order_by(RESULTS.c.finished.desc(), RESULTS.c.game_id)
                .limit(limit)
            ).mappings()
        ]
        ids = list({g["game_id"] for g in games})
        seats: dict[str, list[dict[str, Any]]] = {}
        if ids:
            found = conn.execute(
                select(SEATS.c.game_id, SEATS.c.seat, SEATS.c.name, ACCOUNTS.c.name)
                .outerjoin(
                    ACCOUNTS, (ACCOUNTS.c.id == SEATS.c.account_id) & (ACCOUNTS.c.deleted == 0)
                )
                .where(SEATS.c.game_id.in_(ids))
                .order_by(SEATS.c.game_id, SEATS.c.seat)
            )
            for game_id, _seat, name, account in found:
                seats.setdefault(game_id, []).append({"name": name, "account": account})
    for g in games:
        g["seats"] = seats.get(g["game_id"], [])
    return games


def settle_cutoff(seconds: float) -> datetime:
    """The time ``seconds`` ago, as :func:`unsettled` compares it."""
    return now() - timedelta(seconds=seconds)
