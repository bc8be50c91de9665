"""What the store keeps for accounts: the accounts, their sessions and passkeys, the keys their
devices open seats with, and what people say about each other (blocks, mutes, reports,
challenges).

Kept beside :mod:`polis.server.store.games` (the same tables' metadata, so a new database gets
them with the others) but apart from the move path: nothing here is read or written while a
move is stored. Secrets are kept only as hashes (session ids, seat keys) or as argon2id hashes
(passwords); none of them ever leaves the server. The functions are synchronous, called from
the store's threads.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, cast

from sqlalchemy import (
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
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

from polis.server.store.schema import GAMES, SEATS, Base, now, renew_subscription

if TYPE_CHECKING:
    from polis.server.store.chat_push import Subscription

#: What a deleted account's seats and lines are shown as.
DELETED = "deleted player"


class AccountRow(Base):
    """A person's (or a bot's) account. Deleting one keeps the row, emptied, so that the games
    it played keep their seats: they show :data:`DELETED`."""

    __tablename__ = "polis_accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    #: The name as its owner wrote it (shown everywhere).
    name: Mapped[str] = mapped_column(String(32))
    #: The name case-folded: one account per name, whatever the case.
    name_key: Mapped[str] = mapped_column(String(40), unique=True)
    #: argon2id (PHC string); NULL once deleted.
    password_hash: Mapped[str | None] = mapped_column(Text, nullable=True)
    bot: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    suspended: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    deleted: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class SessionRow(Base):
    """A signed-in browser: the cookie holds the id, the store its SHA-256 only."""

    __tablename__ = "polis_sessions"
    __table_args__ = (Index("ix_polis_sessions_account", "account_id"),)

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("polis_accounts.id"))
    #: The session's anti-CSRF token: sent back in a header with every state-changing request.
    csrf: Mapped[str] = mapped_column(String(64))
    created: Mapped[float] = mapped_column(Float)
    seen: Mapped[float] = mapped_column(Float)


class PasskeyRow(Base):
    """A WebAuthn credential (passkey) an account signs in with."""

    __tablename__ = "polis_passkeys"
    __table_args__ = (Index("ix_polis_passkeys_account", "account_id"),)

    credential_id: Mapped[str] = mapped_column(String(512), primary_key=True)  # base64url
    account_id: Mapped[int] = mapped_column(ForeignKey("polis_accounts.id"))
    public_key: Mapped[str] = mapped_column(Text)  # base64url of the COSE key
    sign_count: Mapped[int] = mapped_column(Integer, default=0)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class CeremonyRow(Base):
    """A WebAuthn challenge handed out and not yet answered (any process may get the answer)."""

    __tablename__ = "polis_webauthn"

    challenge_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    #: "register" (adding a passkey to ``account_id``) or "login".
    purpose: Mapped[str] = mapped_column(String(8))
    account_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    expires: Mapped[float] = mapped_column(Float)


class SeatKeyRow(Base):
    """A seat token minted for a signed-in device (a seat bound to the account, opened from
    "My games" on another device): it dies with the session that asked for it."""

    __tablename__ = "polis_seat_keys"
    __table_args__ = (Index("ix_polis_seat_keys_session", "session_hash"),)

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("polis_games.id"))
    seat: Mapped[int] = mapped_column(Integer)
    session_hash: Mapped[str] = mapped_column(String(64))
    created: Mapped[float] = mapped_column(Float)


class RelationRow(Base):
    """``account_id`` blocks or mutes ``other_id``."""

    __tablename__ = "polis_relations"

    account_id: Mapped[int] = mapped_column(ForeignKey("polis_accounts.id"), primary_key=True)
    other_id: Mapped[int] = mapped_column(ForeignKey("polis_accounts.id"), primary_key=True)
    #: "block" or "mute".
    kind: Mapped[str] = mapped_column(String(8), primary_key=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class ReportRow(Base):
    """A chat line reported to the operator (its words kept as they were said)."""

    __tablename__ = "polis_reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    reporter_id: Mapped[int] = mapped_column(ForeignKey("polis_accounts.id"))
    #: The account that held the seat that said it (NULL: a guest's seat).
    reported_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    game_id: Mapped[str] = mapped_column(String(32))
    chat_id: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    reason: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    handled: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class ChallengeRow(Base):
    """One account asks another to a table."""

    __tablename__ = "polis_challenges"
    __table_args__ = (Index("ix_polis_challenges_to", "to_id", "status"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    from_id: Mapped[int] = mapped_column(ForeignKey("polis_accounts.id"))
    to_id: Mapped[int] = mapped_column(ForeignKey("polis_accounts.id"))
    game: Mapped[str] = mapped_column(String(32))
    mode: Mapped[str] = mapped_column(String(16))
    players: Mapped[int] = mapped_column(Integer)
    #: The table's rules as JSON (rated, clock).
    options: Mapped[str] = mapped_column(Text, default="{}")
    #: "open", "accepted", "declined" or "withdrawn".
    status: Mapped[str] = mapped_column(String(10), default="open")
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class AccountPushRow(Base):
    """A browser's Web Push subscription for an account: turn notices of every seat bound to
    the account reach it, whichever device the seat was taken on."""

    __tablename__ = "polis_account_push"
    __table_args__ = (UniqueConstraint("account_id", "endpoint", name="uq_polis_account_push"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("polis_accounts.id"))
    endpoint: Mapped[str] = mapped_column(String(1024))
    p256dh: Mapped[str] = mapped_column(String(128))
    auth: Mapped[str] = mapped_column(String(64))
    lang: Mapped[str] = mapped_column(String(8), default="en")
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


ACCOUNTS = cast(Table, AccountRow.__table__)
ACCOUNT_PUSH = cast(Table, AccountPushRow.__table__)
SESSIONS = cast(Table, SessionRow.__table__)
PASSKEYS = cast(Table, PasskeyRow.__table__)
CEREMONIES = cast(Table, CeremonyRow.__table__)
SEAT_KEYS = cast(Table, SeatKeyRow.__table__)
RELATIONS = cast(Table, RelationRow.__table__)
REPORTS = cast(Table, ReportRow.__table__)
CHALLENGES = cast(Table, ChallengeRow.__table__)


@dataclass(frozen=True, slots=True)
class Account:
    """An account as the server uses it (the password hash stays in the store's rows)."""

    id: int
    name: str
    bot: bool = False
    suspended: bool = False
    deleted: bool = False


def _account(row: Any) -> Account:
    return Account(row.id, row.name, bool(row.bot), bool(row.suspended), bool(row.deleted))


_COLUMNS = (
    ACCOUNTS.c.id,
    ACCOUNTS.c.name,
    ACCOUNTS.c.bot,
    ACCOUNTS.c.suspended,
    ACCOUNTS.c.deleted,
)


# -- accounts ---------------------------------------------------------------------------------
def name_key(name: str) -> str:
    return name.casefold()


def create_account(
    engine: Engine, name: str, password_hash: str, bot: bool = False
) -> Account | None:
    """A new account; None when the name (in any case) is taken."""
    try:
        with engine.begin() as conn:
            done = conn.execute(
                insert(ACCOUNTS).values(
                    name=name,
                    name_key=name_key(name),
                    password_hash=password_hash,
                    bot=int(bot),
                    created=now(),
                )
            )
            key = done.inserted_primary_key
            assert key is not None
            return Account(int(key[0]), name, bot)
    except IntegrityError:
        return None


def by_name(engine: Engine, name: str) -> tuple[Account, str | None] | None:
    """The live account called ``name`` (any case) and its password hash."""
    with engine.connect() as conn:
        row = conn.execute(
            select(*_COLUMNS, ACCOUNTS.c.password_hash).where(
                ACCOUNTS.c.name_key == name_key(name), ACCOUNTS.c.deleted == 0
            )
        ).first()
    return None if row is None else (_account(row), row.password_hash)


def by_id(engine: Engine, account_id: int) -> Account | None:
    with engine.connect() as conn:
        row = conn.execute(select(*_COLUMNS).where(ACCOUNTS.c.id == account_id)).first()
    return None if row is None else _account(row)


def password_hash(engine: Engine, account_id: int) -> str | None:
    with engine.connect() as conn:
        found = conn.execute(
            select(ACCOUNTS.c.password_hash).where(ACCOUNTS.c.id == account_id)
        ).scalar()
    return None if found is None else str(found)


def set_password(engine: Engine, account_id: int, hashed: str) -> None:
    with engine.begin() as conn:
        conn.execute(
            update(ACCOUNTS).where(ACCOUNTS.c.id == account_id).values(password_hash=hashed)
        )


def set_suspended(engine: Engine, name: str, suspended: bool) -> Account | None:
    """Suspend (or reinstate) an account; a suspended one is signed out everywhere."""
    found = by_name(engine, name)
    if found is None:
        return None
    account = found[0]
    with engine.begin() as conn:
        conn.execute(
            update(ACCOUNTS).where(ACCOUNTS.c.id == account.id).values(suspended=int(suspended))
        )
        if suspended:
            end_sessions(conn, account.id)
    return by_id(engine, account.id)


def delete_account(engine: Engine, account_id: int) -> list[str]:
    """Empty an account: its secrets, sessions, passkeys, API tokens, relations and ratings
    go; its seats and chat lines stay in their games, named :data:`DELETED` (the other
    players' games and records stay whole). The standings' rows go too
    (:mod:`polis.server.store.standings`). The ids of the API tokens that were live (their
    open streams end: :meth:`polis.server.accounts.bots.BotApi.forget`)."""
    from polis.server.store.api_tokens import drop_tokens
    from polis.server.store.chat_push import CHAT
    from polis.server.store.standings import forget_account

    with engine.begin() as conn:
        end_sessions(conn, account_id)
        tokens = drop_tokens(conn, account_id)
        conn.execute(delete(PASSKEYS).where(PASSKEYS.c.account_id == account_id))
        conn.execute(delete(ACCOUNT_PUSH).where(ACCOUNT_PUSH.c.account_id == account_id))
        conn.execute(
            delete(RELATIONS).where(
                or_(RELATIONS.c.account_id == account_id, RELATIONS.c.other_id == account_id)
            )
        )
        conn.execute(
            update(CHALLENGES)
            .where(
                or_(CHALLENGES.c.from_id == account_id, CHALLENGES.c.to_id == account_id),
                CHALLENGES.c.status == "open",
            )
            .values(status="withdrawn")
        )
        seats = conn.execute(
            select(SEATS.c.game_id, SEATS.c.seat).where(SEATS.c.account_id == account_id)
        ).all()
        for game_id, seat in seats:
            conn.execute(
                update(CHAT)
                .where(CHAT.c.game_id == game_id, CHAT.c.seat == seat)
                .values(name=DELETED)
            )
        conn.execute(update(SEATS).where(SEATS.c.account_id == account_id).values(name=DELETED))
        forget_account(conn, account_id)
        conn.execute(
            update(ACCOUNTS)
            .where(ACCOUNTS.c.id == account_id)
            .values(
                name=DELETED,
                # frees the name for someone else ("#" is in no name; PostgreSQL's text holds
                # no NUL byte)
                name_key=f"#deleted:{account_id}",
                password_hash=None,
                deleted=1,
            )
        )
    return tokens


# -- sessions ---------------------------------------------------------------------------------
def add_session(engine: Engine, id_hash: str, account_id: int, csrf: str, at: float) -> None:
    with engine.begin() as conn:
        conn.execute(
            insert(SESSIONS).values(
                id_hash=id_hash, account_id=account_id, csrf=csrf, created=at, seen=at
            )
        )


def session(engine: Engine, id_hash: str) -> tuple[Account, str, float, float] | None:
    """The session's live, unsuspended account, its CSRF token, creation and last use."""
    with engine.connect() as conn:
        row = conn.execute(
            select(*_COLUMNS, SESSIONS.c.csrf, SESSIONS.c.created, SESSIONS.c.seen)
            .join(SESSIONS, SESSIONS.c.account_id == ACCOUNTS.c.id)
            .where(
                SESSIONS.c.id_hash == id_hash, ACCOUNTS.c.deleted == 0, ACCOUNTS.c.suspended == 0
            )
        ).first()
    if row is None:
        return None
    return _account(row), row.csrf, row.created, row.seen


def touch_session(engine: Engine, id_hash: str, at: float) -> None:
    with engine.begin() as conn:
        conn.execute(update(SESSIONS).where(SESSIONS.c.id_hash == id_hash).values(seen=at))


def end_session(engine: Engine, id_hash: str) -> None:
    """Sign one browser out (and forget the seat keys it was given)."""
    with engine.begin() as conn:
        _end(conn, [id_hash])


def _end(conn: Connection, ids: list[str]) -> None:
    """End the sessions ``ids`` with the seat keys they were given."""
    if ids:
        conn.execute(delete(SEAT_KEYS).where(SEAT_KEYS.c.session_hash.in_(ids)))
        conn.execute(delete(SESSIONS).where(SESSIONS.c.id_hash.in_(ids)))


def end_sessions(conn: Connection, account_id: int, keep: str | None = None) -> None:
    """Sign an account out everywhere (but the session ``keep``), with its seat keys."""
    query = select(SESSIONS.c.id_hash).where(SESSIONS.c.account_id == account_id)
    if keep is not None:
        query = query.where(SESSIONS.c.id_hash != keep)
    _end(conn, [r[0] for r in conn.execute(query)])


def end_other_sessions(engine: Engine, account_id: int, keep: str) -> None:
    with engine.begin() as conn:
        end_sessions(conn, account_id, keep)


def drop_stale_sessions(engine: Engine, idle_before: float, created_before: float) -> int:
    """Forget sessions idle or old past their limits (a browser that never came back: its
    session is never read again to end it); how many."""
    with engine.begin() as conn:
        stale = or_(SESSIONS.c.seen < idle_before, SESSIONS.c.created < created_before)
        ended = [r[0] for r in conn.execute(select(SESSIONS.c.id_hash).where(stale))]
        _end(conn, ended)
        return len(ended)


# -- seats ------------------------------------------------------------------------------------
def bind_seat(engine: Engine, game_id: str, seat: int, account_id: int) -> bool:
    """Bind a person's seat to an account; False when it is bound to another account."""
    with engine.begin() as conn:
        done = conn.execute(
            update(SEATS)
            .where(
                SEATS.c.game_id == game_id,
                SEATS.c.seat == seat,
                SEATS.c.kind == "human",
                or_(SEATS.c.account_id.is_(None), SEATS.c.account_id == account_id),
            )
            .values(account_id=account_id)
        )
        return bool(done.rowcount == 1)


def bound_seats(engine: Engine, game_id: str, account_id: int) -> list[int]:
    with engine.connect() as conn:
        rows = conn.execute(
            select(SEATS.c.seat)
            .where(SEATS.c.game_id == game_id, SEATS.c.account_id == account_id)
            .order_by(SEATS.c.seat)
        )
        return [r[0] for r in rows]


def add_seat_key(
    engine: Engine, token_hash: str, game_id: str, seat: int, session_hash: str, at: float
) -> None:
    with engine.begin() as conn:
        conn.execute(
            insert(SEAT_KEYS).values(
                token_hash=token_hash,
                game_id=game_id,
                seat=seat,
                session_hash=session_hash,
                created=at,
            )
        )


def seat_of_key(engine: Engine, game_id: str, token_hash: str) -> int | None:
    """The seat a device key opens, while its session lives and the seat is still bound to
    that session's account."""
    with engine.connect() as conn:
        found = conn.execute(
            select(SEAT_KEYS.c.seat)
            .join(SESSIONS, SESSIONS.c.id_hash == SEAT_KEYS.c.session_hash)
            .join(
                SEATS,
                (SEATS.c.game_id == SEAT_KEYS.c.game_id) & (SEATS.c.seat == SEAT_KEYS.c.seat),
            )
            .where(
                SEAT_KEYS.c.token_hash == token_hash,
                SEAT_KEYS.c.game_id == game_id,
                SEATS.c.account_id == SESSIONS.c.account_id,
            )
        ).scalar()
    return None if found is None else int(found)


def games_of(engine: Engine, account_id: int, limit: int = 200) -> list[dict[str, Any]]:
    """The account's tables, newest first: each game's row and the seats it holds there."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(
                GAMES.c.id,
                GAMES.c.game,
                GAMES.c.mode,
                GAMES.c.players,
                GAMES.c.position,
                GAMES.c.finished,
                GAMES.c.rated,
                GAMES.c.result,
                GAMES.c.updated,
                SEATS.c.seat,
            )
            .join(SEATS, SEATS.c.game_id == GAMES.c.id)
            .where(SEATS.c.account_id == account_id)
            .order_by(GAMES.c.updated.desc(), SEATS.c.seat)
            .limit(limit)
        ).all()
        names: dict[str, list[str]] = {}
        for game_id, name in conn.execute(
            select(SEATS.c.game_id, SEATS.c.name)
            .where(SEATS.c.game_id.in_({r.id for r in rows}))
            .order_by(SEATS.c.game_id, SEATS.c.seat)
        ):
            names.setdefault(game_id, []).append(name)
    games: dict[str, dict[str, Any]] = {}
    for r in rows:
        entry = games.setdefault(
            r.id,
            {
                "id": r.id,
                "game": r.game,
                "mode": r.mode,
                "players": r.players,
                "position": r.position,
                "finished": bool(r.finished),
                "rated": bool(r.rated),
                "result": json.loads(r.result) if r.result else None,
                "updated": r.updated,
                "names": names.get(r.id, []),
                "seats": [],
            },
        )
        entry["seats"].append(r.seat)
    return list(games.values())


# -- turn notifications -----------------------------------------------------------------------
#: Browsers kept per account for turn notifications; the oldest go first.
PUSH_PER_ACCOUNT = 10


def save_account_push(
    engine: Engine, account_id: int, endpoint: str, p256dh: str, auth: str, lang: str
) -> None:
    """Keep (or renew) one browser's subscription to the turns of every seat bound to the
    account, and at most :data:`PUSH_PER_ACCOUNT` of them."""
    mine = ACCOUNT_PUSH.c.account_id == account_id
    values = {"account_id": account_id, "endpoint": endpoint, "p256dh": p256dh, "auth": auth}
    with engine.begin() as conn:
        renew_subscription(conn, ACCOUNT_PUSH, mine, values | {"lang": lang}, PUSH_PER_ACCOUNT)


def delete_account_push(engine: Engine, account_id: int, endpoint: str) -> bool:
    """Forget one browser's subscription of the account; False if there was none."""
    with engine.begin() as conn:
        done = conn.execute(
            delete(ACCOUNT_PUSH).where(
                ACCOUNT_PUSH.c.account_id == account_id, ACCOUNT_PUSH.c.endpoint == endpoint
            )
        )
        return bool(done.rowcount)


def seat_account_pushes(engine: Engine, game_id: str, seat: int) -> list[Subscription]:
    """The subscriptions of the live account bound to a game's seat, shaped as the seat's own
    (:class:`polis.server.store.chat_push.Subscription`; their ids are this table's)."""
    from polis.server.store.chat_push import Subscription

    with engine.connect() as conn:
        rows = conn.execute(
            select(
                ACCOUNT_PUSH.c.id,
                SEATS.c.game_id,
                SEATS.c.seat,
                ACCOUNT_PUSH.c.endpoint,
                ACCOUNT_PUSH.c.p256dh,
                ACCOUNT_PUSH.c.auth,
                ACCOUNT_PUSH.c.lang,
            )
            .join(SEATS, SEATS.c.account_id == ACCOUNT_PUSH.c.account_id)
            .join(ACCOUNTS, ACCOUNTS.c.id == ACCOUNT_PUSH.c.account_id)
            .where(SEATS.c.game_id == game_id, SEATS.c.seat == seat, ACCOUNTS.c.deleted == 0)
            .order_by(ACCOUNT_PUSH.c.id)
        ).all()
    return [Subscription(*row) for row in rows]


def drop_account_pushes(engine: Engine, ids: list[int]) -> None:
    """Forget accounts' subscriptions by id (the push service says they are gone)."""
    if ids:
        with engine.begin() as conn:
            conn.execute(delete(ACCOUNT_PUSH).where(ACCOUNT_PUSH.c.id.in_(ids)))


# -- people -----------------------------------------------------------------------------------
def set_relation(engine: Engine, account_id: int, other_id: int, kind: str, on: bool) -> None:
    with engine.begin() as conn:
        conn.execute(
            delete(RELATIONS).where(
                RELATIONS.c.account_id == account_id,
                RELATIONS.c.other_id == other_id,
                RELATIONS.c.kind == kind,
            )
        )
        if on:
            conn.execute(
                insert(RELATIONS).values(
                    account_id=account_id, other_id=other_id, kind=kind, created=now()
                )
            )


def relations(engine: Engine, account_id: int, kind: str) -> list[str]:
    """The names ``account_id`` blocks (``kind`` "block") or mutes ("mute")."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(ACCOUNTS.c.name)
            .join(RELATIONS, RELATIONS.c.other_id == ACCOUNTS.c.id)
            .where(RELATIONS.c.account_id == account_id, RELATIONS.c.kind == kind)
            .order_by(ACCOUNTS.c.name_key)
        )
        return [r[0] for r in rows]


def blocks(engine: Engine, account_id: int, other_ids: list[int]) -> bool:
    """Whether ``account_id`` blocks any of ``other_ids``, or any of them blocks it."""
    if not other_ids:
        return False
    with engine.connect() as conn:
        found = conn.execute(
            select(func.count()).where(
                RELATIONS.c.kind == "block",
                or_(
                    (RELATIONS.c.account_id == account_id) & RELATIONS.c.other_id.in_(other_ids),
                    (RELATIONS.c.other_id == account_id) & RELATIONS.c.account_id.in_(other_ids),
                ),
            )
        ).scalar()
    return bool(found)


def blocked_pairs(engine: Engine, account_ids: list[int]) -> set[frozenset[int]]:
    """The pairs among ``account_ids`` of whom one blocks the other (an event's pairing keeps
    them apart: :mod:`polis.server.events.pairing`)."""
    if len(account_ids) < 2:
        return set()
    with engine.connect() as conn:
        rows = conn.execute(
            select(RELATIONS.c.account_id, RELATIONS.c.other_id).where(
                RELATIONS.c.kind == "block",
                RELATIONS.c.account_id.in_(account_ids),
                RELATIONS.c.other_id.in_(account_ids),
            )
        ).all()
    return {frozenset((a, b)) for a, b in rows if a != b}


def add_report(engine: Engine, **values: Any) -> int:
    with engine.begin() as conn:
        done = conn.execute(insert(REPORTS).values(created=now(), **values))
        key = done.inserted_primary_key
        assert key is not None
        return int(key[0])


def reports(engine: Engine, include_handled: bool = False) -> list[dict[str, Any]]:
    reporter = ACCOUNTS.alias("reporter")
    reported = ACCOUNTS.alias("reported")
    query = (
        select(
            REPORTS,
            reporter.c.name.label("reporter"),
            reported.c.name.label("account"),
        )
        .join(reporter, reporter.c.id == REPORTS.c.reporter_id)
        .outerjoin(reported, reported.c.id == REPORTS.c.reported_id)
        .order_by(REPORTS.c.id)
    )
    if not include_handled:
        query = query.where(REPORTS.c.handled == 0)
    with engine.connect() as conn:
        return [dict(r) for r in conn.execute(query).mappings()]


def mark_handled(engine: Engine, report_id: int) -> bool:
    with engine.begin() as conn:
        done = conn.execute(update(REPORTS).where(REPORTS.c.id == report_id).values(handled=1))
        return bool(done.rowcount == 1)


# -- challenges -------------------------------------------------------------------------------
#: A challenge's states: "open" until the challenged accepts or declines it, or the
#: challenger withdraws it (a block between the two, a suspension or a deletion closes it too).
CHALLENGE_STATES = ("open", "accepted", "declined", "withdrawn")


def add_challenge(
    engine: Engine,
    challenge_id: str,
    from_id: int,
    to_id: int,
    game: str,
    mode: str,
    players: int,
    options: dict[str, Any],
) -> None:
    with engine.begin() as conn:
        conn.execute(
            insert(CHALLENGES).values(
                id=challenge_id,
                from_id=from_id,
                to_id=to_id,
                game=game,
                mode=mode,
                players=players,
                options=json.dumps(options, sort_keys=True),
                status="open",
                created=now(),
            )
        )


def open_challenges_from(engine: Engine, account_id: int) -> int:
    """How many of the account's challenges wait for an answer."""
    with engine.connect() as conn:
        found = conn.execute(
            select(func.count()).where(
                CHALLENGES.c.from_id == account_id, CHALLENGES.c.status == "open"
            )
        ).scalar()
    return int(found or 0)


def _challenge_query() -> Any:
    sender = ACCOUNTS.alias("sender")
    receiver = ACCOUNTS.alias("receiver")
    return (
        select(
            CHALLENGES,
            sender.c.name.label("from_name"),
            receiver.c.name.label("to_name"),
        )
        .join(sender, sender.c.id == CHALLENGES.c.from_id)
        .join(receiver, receiver.c.id == CHALLENGES.c.to_id)
    )


def _challenge(row: Any) -> dict[str, Any]:
    return {
        "id": row.id,
        "from_id": row.from_id,
        "to_id": row.to_id,
        "from": row.from_name,
        "to": row.to_name,
        "game": row.game,
        "mode": row.mode,
        "players": row.players,
        "options": json.loads(row.options or "{}"),
        "status": row.status,
        "game_id": row.game_id,
        "created": row.created,
    }


def challenge(engine: Engine, challenge_id: str) -> dict[str, Any] | None:
    """One challenge with both accounts' names (None: no such challenge)."""
    with engine.connect() as conn:
        row = conn.execute(_challenge_query().where(CHALLENGES.c.id == challenge_id)).first()
    return None if row is None else _challenge(row)


def challenges_of(
    engine: Engine, account_id: int, answered: int = 20
) -> dict[str, list[dict[str, Any]]]:
    """The account's challenges, newest first: ``incoming`` (to it) and ``outgoing`` (from
    it), every open one and the last ``answered`` others of each."""
    out: dict[str, list[dict[str, Any]]] = {}
    with engine.connect() as conn:
        for key, column in (("incoming", CHALLENGES.c.to_id), ("outgoing", CHALLENGES.c.from_id)):
            query = _challenge_query().where(column == account_id)
            still = conn.execute(
                query.where(CHALLENGES.c.status == "open").order_by(CHALLENGES.c.created.desc())
            ).all()
            done = conn.execute(
                query.where(CHALLENGES.c.status != "open")
                .order_by(CHALLENGES.c.created.desc())
                .limit(answered)
            ).all()
            found = [_challenge(r) for r in (*still, *done)]
            found.sort(key=lambda c: c["created"], reverse=True)
            out[key] = found
    return out


def answer_challenge(
    engine: Engine, challenge_id: str, status: str, from_id: int | None, to_id: int | None
) -> bool:
    """Close an open challenge as ``status`` when it is from ``from_id`` or to ``to_id``
    (whichever is given); False when it is not open (any more) or not theirs. One
    conditional UPDATE: of two answers at once, one wins."""
    assert status in CHALLENGE_STATES and status != "open"
    query = update(CHALLENGES).where(CHALLENGES.c.id == challenge_id, CHALLENGES.c.status == "open")
    if from_id is not None:
        query = query.where(CHALLENGES.c.from_id == from_id)
    if to_id is not None:
        query = query.where(CHALLENGES.c.to_id == to_id)
    with engine.begin() as conn:
        done = conn.execute(query.values(status=status))
        return bool(done.rowcount == 1)


def settle_challenge(engine: Engine, challenge_id: str, game_id: str | None) -> None:
    """An accepted challenge's table (``game_id``), or, when making it failed (None), the
    challenge open again."""
    values: dict[str, Any] = (
        {"game_id": game_id} if game_id is not None else {"status": "open", "game_id": None}
    )
    with engine.begin() as conn:
        conn.execute(update(CHALLENGES).where(CHALLENGES.c.id == challenge_id).values(**values))


def close_challenges(engine: Engine, account_id: int, other_id: int | None = None) -> int:
    """Close the open challenges of ``account_id`` (with ``other_id`` only, when given): its
    own are withdrawn, those to it declined. How many."""
    mine = CHALLENGES.c.from_id == account_id
    theirs = CHALLENGES.c.to_id == account_id
    if other_id is not None:
        mine = mine & (CHALLENGES.c.to_id == other_id)
        theirs = theirs & (CHALLENGES.c.from_id == other_id)
    closed = 0
    with engine.begin() as conn:
        for which, status in ((mine, "withdrawn"), (theirs, "declined")):
            done = conn.execute(
                update(CHALLENGES).where(which, CHALLENGES.c.status == "open").values(status=status)
            )
            closed += int(done.rowcount or 0)
    return closed


# -- reports ----------------------------------------------------------------------------------
def chat_line(engine: Engine, game_id: str, chat_id: int) -> dict[str, Any] | None:
    """A table's chat line as stored (its seat, the name it was said under, its words)."""
    from polis.server.store.chat_push import CHAT

    with engine.connect() as conn:
        row = conn.execute(
            select(CHAT.c.id, CHAT.c.seat, CHAT.c.name, CHAT.c.text).where(
                CHAT.c.game_id == game_id, CHAT.c.id == chat_id
            )
        ).first()
    return (
        None
        if row is None
        else {"id": row.id, "seat": row.seat, "name": row.name, "text": row.text}
    )


def reports_since(engine: Engine, reporter_id: int, since: datetime) -> int:
    """How many reports the account made since ``since``."""
    with engine.connect() as conn:
        found = conn.execute(
            select(func.count()).where(
                REPORTS.c.reporter_id == reporter_id, REPORTS.c.created >= since
            )
        ).scalar()
    return int(found or 0)


def report_of(engine: Engine, reporter_id: int, game_id: str, chat_id: int) -> int | None:
    """The open report the account already made of this line, if any."""
    with engine.connect() as conn:
        found = conn.execute(
            select(REPORTS.c.id).where(
                REPORTS.c.reporter_id == reporter_id,
                REPORTS.c.game_id == game_id,
                REPORTS.c.chat_id == chat_id,
                REPORTS.c.handled == 0,
            )
        ).scalar()
    return None if found is None else int(found)
