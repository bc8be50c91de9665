"""What the store keeps for the bot API: bot accounts' API tokens, the tables that let bot
accounts take their open seats, and the reads the bot API's event stream polls.

A token is kept as the SHA-256 of its 256 random bits only (it is shown once, when made): a
copy of the database opens no bot's seat. Revoking keeps the row (its ``revoked`` time), so
the account's list says when. Like :mod:`polis.server.store.accounts`, nothing here is read or
written while a move is stored; the functions are synchronous, called from the store's
threads.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, cast

from sqlalchemy import (
    DateTime,
    Float,
    ForeignKey,
    Index,
    String,
    Table,
    delete,
    exists,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from polis.server.store.accounts import ACCOUNTS, Account
from polis.server.store.schema import GAMES, SEATS, Base, now

#: Live (not revoked) tokens an account may hold at once.
MAX_TOKENS = 20


class ApiTokenRow(Base):
    """A bot account's API token: the SHA-256 of the secret, never the secret. (0007_bot_api)"""

    __tablename__ = "polis_api_tokens"
    __table_args__ = (Index("ix_polis_api_tokens_account", "account_id"),)

    #: The token's public id (shown in the account's list, used to revoke it).
    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("polis_accounts.id"))
    #: SHA-256 (hex) of the token: what a request's ``Authorization: Bearer`` is looked up by.
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    #: The owner's words for it ("my laptop").
    label: Mapped[str] = mapped_column(String(40))
    #: What it may do: ``bot:play`` (the bot API) is the one scope.
    scope: Mapped[str] = mapped_column(String(16))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    #: When it was last used (seconds since the epoch, written at most once a minute).
    last_used: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: When it was revoked (seconds since the epoch); NULL while it works.
    revoked: Mapped[float | None] = mapped_column(Float, nullable=True)


class BotTableRow(Base):
    """A table whose open seats bot accounts may take (``"bots": true`` when it was made).
    (0007_bot_api)"""

    __tablename__ = "polis_bot_tables"

    game_id: Mapped[str] = mapped_column(ForeignKey("polis_games.id"), primary_key=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


API_TOKENS = cast(Table, ApiTokenRow.__table__)
BOT_TABLES = cast(Table, BotTableRow.__table__)


# -- bot accounts -------------------------------------------------------------------------------
def make_bot(engine: Engine, account_id: int) -> bool:
    """Mark a live account as a bot, if it never held a seat (so it played no game as a
    person); False otherwise. One conditional UPDATE: a seat bound meanwhile wins."""
    played = exists().where(SEATS.c.account_id == account_id)
    with engine.begin() as conn:
        done = conn.execute(
            update(ACCOUNTS)
            .where(ACCOUNTS.c.id == account_id, ACCOUNTS.c.deleted == 0, ~played)
            .values(bot=1)
        )
        return bool(done.rowcount)


def is_bot(engine: Engine, account_id: int) -> bool:
    with engine.connect() as conn:
        found = conn.execute(select(ACCOUNTS.c.bot).where(ACCOUNTS.c.id == account_id)).scalar()
    return bool(found)


# -- tokens ---------------------------------------------------------------------------------
def add_token(
    engine: Engine, token_id: str, account_id: int, token_hash: str, label: str, scope: str
) -> bool:
    """Keep a new token's hash; False when the account holds :data:`MAX_TOKENS` live ones."""
    live = (
        select(func.count())
        .select_from(API_TOKENS)
        .where(API_TOKENS.c.account_id == account_id, API_TOKENS.c.revoked.is_(None))
    )
    try:
        with engine.begin() as conn:
            if (conn.execute(live).scalar() or 0) >= MAX_TOKENS:
                return False
            conn.execute(
                insert(API_TOKENS).values(
                    id=token_id,
                    account_id=account_id,
                    token_hash=token_hash,
                    label=label,
                    scope=scope,
                    created=now(),
                )
            )
    except IntegrityError:  # 256 random bits met again: never, but refuse rather than fail
        return False
    return True


def tokens_of(engine: Engine, account_id: int) -> list[dict[str, Any]]:
    """The account's tokens, newest first (never their hashes)."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(
                API_TOKENS.c.id,
                API_TOKENS.c.label,
                API_TOKENS.c.scope,
                API_TOKENS.c.created,
                API_TOKENS.c.last_used,
                API_TOKENS.c.revoked,
            )
            .where(API_TOKENS.c.account_id == account_id)
            .order_by(API_TOKENS.c.created.desc(), API_TOKENS.c.id)
        ).all()
    return [
        {
            "id": r.id,
            "label": r.label,
            "scope": r.scope,
            "created": r.created,
            "last_used": r.last_used,
            "revoked": r.revoked,
        }
        for r in rows
    ]


def revoke_token(engine: Engine, account_id: int, token_id: str, at: float) -> bool:
    """Revoke one of the account's live tokens; False when it has no such live token."""
    with engine.begin() as conn:
        done = conn.execute(
            update(API_TOKENS)
            .where(
                API_TOKENS.c.id == token_id,
                API_TOKENS.c.account_id == account_id,
                API_TOKENS.c.revoked.is_(None),
            )
            .values(revoked=at)
        )
        return bool(done.rowcount)


def drop_tokens(conn: Connection, account_id: int) -> list[str]:
    """Forget every token of ``account_id``, live or revoked (its account is being deleted:
    :func:`polis.server.store.accounts.delete_account`); the ids of those that were live."""
    live = [
        r[0]
        for r in conn.execute(
            select(API_TOKENS.c.id).where(
                API_TOKENS.c.account_id == account_id, API_TOKENS.c.revoked.is_(None)
            )
        )
    ]
    conn.execute(delete(API_TOKENS).where(API_TOKENS.c.account_id == account_id))
    return live


def token_owner(engine: Engine, token_hash: str) -> tuple[str, str, Account] | None:
    """(token id, scope, account) of a live token of a live account, else None."""
    with engine.connect() as conn:
        row = conn.execute(
            select(
                API_TOKENS.c.id,
                API_TOKENS.c.scope,
                ACCOUNTS.c.id.label("account_id"),
                ACCOUNTS.c.name,
                ACCOUNTS.c.bot,
                ACCOUNTS.c.suspended,
            )
            .join(ACCOUNTS, ACCOUNTS.c.id == API_TOKENS.c.account_id)
            .where(
                API_TOKENS.c.token_hash == token_hash,
                API_TOKENS.c.revoked.is_(None),
                ACCOUNTS.c.deleted == 0,
            )
        ).first()
    if row is None:
        return None
    account = Account(row.account_id, row.name, bool(row.bot), bool(row.suspended))
    return row.id, row.scope, account


def token_live(engine: Engine, token_id: str) -> bool:
    """Whether the token still opens the bot API (not revoked, its account live and not
    suspended): what an open stream asks now and then."""
    with engine.connect() as conn:
        found = conn.execute(
            select(API_TOKENS.c.id)
            .join(ACCOUNTS, ACCOUNTS.c.id == API_TOKENS.c.account_id)
            .where(
                API_TOKENS.c.id == token_id,
                API_TOKENS.c.revoked.is_(None),
                ACCOUNTS.c.deleted == 0,
                ACCOUNTS.c.suspended == 0,
            )
        ).first()
    return found is not None


def touch_token(engine: Engine, token_id: str, at: float) -> None:
    with engine.begin() as conn:
        conn.execute(update(API_TOKENS).where(API_TOKENS.c.id == token_id).values(last_used=at))


# -- tables that take bots ------------------------------------------------------------------
def allow_bots(engine: Engine, game_id: str) -> None:
    with engine.begin() as conn:
        conn.execute(insert(BOT_TABLES).values(game_id=game_id, created=now()))


def bots_allowed(engine: Engine, game_ids: list[str]) -> set[str]:
    """Which of ``game_ids`` let bot accounts take their open seats."""
    if not game_ids:
        return set()
    with engine.connect() as conn:
        rows = conn.execute(select(BOT_TABLES.c.game_id).where(BOT_TABLES.c.game_id.in_(game_ids)))
        return {r[0] for r in rows}


# -- what the event stream polls ------------------------------------------------------------
def live_games(engine: Engine, account_id: int) -> list[dict[str, Any]]:
    """The unfinished games where the account holds a seat: each with its seat (the first,
    should it hold several) and whether a seat still waits for a taker."""
    others = SEATS.alias("others")
    vacant = exists().where(others.c.game_id == GAMES.c.id, others.c.vacant == 1)
    with engine.connect() as conn:
        rows = conn.execute(
            select(
                GAMES.c.id,
                GAMES.c.game,
                GAMES.c.mode,
                GAMES.c.players,
                GAMES.c.rated,
                func.min(SEATS.c.seat).label("seat"),
                vacant.label("waiting"),
            )
            .join(SEATS, SEATS.c.game_id == GAMES.c.id)
            .where(SEATS.c.account_id == account_id, GAMES.c.finished == 0)
            .group_by(GAMES.c.id, GAMES.c.game, GAMES.c.mode, GAMES.c.players, GAMES.c.rated)
            .order_by(GAMES.c.id)
        ).all()
    return [
        {
            "id": r.id,
            "game": r.game,
            "mode": r.mode,
            "players": r.players,
            "rated": bool(r.rated),
            "seat": r.seat,
            "waiting": bool(r.waiting),
        }
        for r in rows
    ]


def results_of(engine: Engine, game_ids: list[str]) -> dict[str, dict[str, Any] | None]:
    """The finished games among ``game_ids``: each one's result object (None if it has
    none stored)."""
    if not game_ids:
        return {}
    with engine.connect() as conn:
        rows = conn.execute(
            select(GAMES.c.id, GAMES.c.result).where(
                GAMES.c.id.in_(game_ids), GAMES.c.finished == 1
            )
        ).all()
    return {r.id: json.loads(r.result) if r.result else None for r in rows}
