"""Bot accounts and their API tokens: how an account becomes a bot, how its tokens are made,
listed and revoked, and how a request of the bot API proves whom it acts for.

**Bot accounts.** An account that never held a seat may turn itself into a bot account
(``POST /api/account/bot``, with its session): for good, like lichess's. A bot account plays
through the bot API only: a seat bound to it is refused on the table's WebSocket
(:meth:`BotApi.refuse_socket`), and the profiles and leaderboards mark it (``"bot": true``).

**Tokens** are made, listed and revoked with the account's session (and its CSRF token),
and only by bot accounts. A token is 256 random bits shown once, when made; the store keeps
its SHA-256 (:mod:`polis.server.store.api_tokens`). Its one scope is ``bot:play``. A request
sends it as ``Authorization: Bearer <token>``; every request looks it up again, so a revoked
token is refused at once, and an open stream checks it every few seconds (at once in the
process that revoked it: :meth:`BotApi.revoked_here`).

**Limits**, per token and counted in this process's memory like the other limits
(:mod:`polis.server.http.rates`): :data:`MOVE_RATE` moves, :data:`STREAM_RATE` new streams
and :data:`OPEN_STREAMS` streams open at once.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC
from typing import TYPE_CHECKING, Any

from starlette.requests import HTTPConnection

from polis.server.accounts.sessions import SignedIn
from polis.server.errors import ServerError
from polis.server.http.inputs import is_token
from polis.server.http.rates import Windows, parse_rate
from polis.server.store import api_tokens as rows
from polis.server.store.accounts import Account
from polis.server.wire.bot import (
    BotAccountJSON,
    BotMadeJSON,
    BotTokenJSON,
    BotTokenMade,
    BotTokensJSON,
    Scope,
)

if TYPE_CHECKING:
    from polis.server.live.hub import Hub
    from polis.server.live.room import Room

SCOPE: Scope = "bot:play"
#: What every token starts with (so a secret scanner can tell one in a leaked file).
PREFIX = "polis_bot_"
#: Moves one token may send (all its games).
MOVE_RATE = parse_rate("20/second")
#: New streams (events and games) one token may open.
STREAM_RATE = parse_rate("60/minute")
#: Streams one token may hold open at once in this process.
OPEN_STREAMS = 64
#: A token's last use is written at most this often (seconds).
TOUCH_EVERY = 60.0
#: Accounts whose kind (bot or person) this process remembers.
REMEMBERED = 10_000


def hash_secret(token: str) -> str:
    """What the store keeps of a token: its SHA-256 (256 random bits need no salt)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_secret() -> str:
    return PREFIX + secrets.token_urlsafe(32)


@dataclass(frozen=True, slots=True)
class Caller:
    """Whom a bot API request acts for: the token's id and its bot account."""

    token_id: str
    account: Account


def token_json(row: dict[str, Any]) -> BotTokenJSON:
    created = row["created"]
    if created.tzinfo is None:  # SQLite gives the stored UTC time back without its zone
        created = created.replace(tzinfo=UTC)
    return BotTokenJSON(
        id=row["id"],
        label=row["label"],
        scope=SCOPE,
        created=created.astimezone(UTC).isoformat().replace("+00:00", "Z"),
        last_used=row["last_used"],
        revoked=row["revoked"],
    )


class BotApi:
    """The bot API's accounts, tokens and limits in one server process."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self._counts = Windows()
        self._swept = time.monotonic()
        self._open: Counter[str] = Counter()
        self._touched: dict[str, float] = {}
        #: Tokens revoked through this process (its streams stop at their next look).
        self._revoked: set[str] = set()
        #: Account id -> is a bot (an account that holds a seat never becomes one).
        self._kinds: dict[int, bool] = {}
        #: Account id -> the events its open event streams wait on between their looks.
        self._listeners: dict[int, set[asyncio.Event]] = {}

    @property
    def engine(self) -> Any:
        return self.hub.store.engine

    # -- bot accounts ---------------------------------------------------------------------------
    async def make_bot(self, signed: SignedIn) -> BotMadeJSON:
        account = signed.account
        if not account.bot:
            done = await self.hub.write(
                lambda: rows.make_bot(self.engine, account.id), "making a bot account"
            )
            if not done:
                raise ServerError(
                    "forbidden",
                    "only an account that has played no game may become a bot account",
                )
            self._kinds[account.id] = True
        return {"account": BotAccountJSON(name=account.name, bot=True)}

    async def is_bot(self, account_id: int) -> bool:
        known = self._kinds.get(account_id)
        if known is None:
            known = bool(
                await self.hub.patiently(lambda: rows.is_bot(self.engine, account_id), "an account")
            )
            if len(self._kinds) >= REMEMBERED:
                self._kinds.clear()
            self._kinds[account_id] = known
        return known

    async def refuse_socket(self, room: Room, seat: int | None) -> ServerError | None:
        """Why a WebSocket may not act for ``seat`` (a bot account's: it plays through the
        bot API), or None."""
        if seat is None:
            return None
        account_id = room.stored.seats[seat].account_id
        if account_id is None or not await self.is_bot(account_id):
            return None
        return ServerError(
            "forbidden", "this seat is a bot account's: it plays through the bot API only"
        )

    # -- tokens -----------------------------------------------------------------------------
    @staticmethod
    def _bot_only(signed: SignedIn) -> None:
        if not signed.account.bot:
            raise ServerError(
                "forbidden",
                "only bot accounts hold API tokens: make this account a bot account first",
            )

    async def create_token(self, signed: SignedIn, label: str) -> BotTokenMade:
        self._bot_only(signed)
        secret = new_secret()
        token_id = secrets.token_urlsafe(9)
        made = await self.hub.write(
            lambda: rows.add_token(
                self.engine, token_id, signed.account.id, hash_secret(secret), label, SCOPE
            ),
            "making a token",
        )
        if not made:
            raise ServerError(
                "rate_limited",
                f"an account holds at most {rows.MAX_TOKENS} tokens: revoke one first",
            )
        listed = await self.tokens(signed)
        mine = next(t for t in listed["tokens"] if t["id"] == token_id)
        return BotTokenMade(**mine, token=secret)

    async def tokens(self, signed: SignedIn) -> BotTokensJSON:
        found = await self.hub.patiently(
            lambda: rows.tokens_of(self.engine, signed.account.id), "tokens"
        )
        return {"tokens": [token_json(row) for row in found]}

    async def revoke(self, signed: SignedIn, token_id: str) -> BotTokenJSON:
        at = time.time()
        done = is_token(token_id) and await self.hub.write(
            lambda: rows.revoke_token(self.engine, signed.account.id, token_id, at), "revoking"
        )
        if not done:
            raise ServerError("not_found", "you have no such live token")
        self._revoked.add(token_id)
        listed = await self.tokens(signed)
        return next(t for t in listed["tokens"] if t["id"] == token_id)

    # -- who is asking ------------------------------------------------------------------------
    async def caller(self, conn: HTTPConnection) -> Caller:
        """The token and bot account of a bot API request; 401 ``unauthorized`` without a
        live token, 403 ``forbidden`` for a suspended account."""
        scheme, _, secret = conn.headers.get("authorization", "").partition(" ")
        secret = secret.strip()
        if scheme.lower() != "bearer" or not secret:
            raise ServerError(
                "unauthorized", "send the bot's API token: Authorization: Bearer <token>"
            )
        if len(secret) > 128 or not is_token(secret):
            raise ServerError("unauthorized", "this token is unknown or revoked")
        digest = hash_secret(secret)
        found = await self.hub.patiently(lambda: rows.token_owner(self.engine, digest), "a token")
        if found is None:
            raise ServerError("unauthorized", "this token is unknown or revoked")
        token_id, scope, account = found
        if account.suspended:
            raise ServerError("forbidden", "this account is suspended")
        if scope != SCOPE or not account.bot:
            raise ServerError("forbidden", "this token may not play through the bot API")
        now = time.time()
        if now - self._touched.get(token_id, 0.0) > TOUCH_EVERY:
            self._touched[token_id] = now
            self.hub.spawn(
                self.hub.write(lambda: rows.touch_token(self.engine, token_id, now), "a token")
            )
        return Caller(token_id, account)

    def forget(self, token_ids: list[str]) -> None:
        """Tokens gone with their deleted account: refused as revoked, and their open streams
        in this process end at their next look (elsewhere within ``LIVE_EVERY`` seconds)."""
        self._revoked.update(token_ids)

    def revoked_here(self, token_id: str) -> bool:
        """Whether ``token_id`` was revoked through this process."""
        return token_id in self._revoked

    async def still_live(self, caller: Caller) -> bool:
        """Whether the caller's token still opens the API (asked by open streams)."""
        if caller.token_id in self._revoked:
            return False
        live = bool(
            await self.hub.patiently(
                lambda: rows.token_live(self.engine, caller.token_id), "a token"
            )
        )
        if not live:
            self._revoked.add(caller.token_id)
        return live

    # -- limits -----------------------------------------------------------------------------
    def _sweep(self) -> None:
        now = time.monotonic()
        if now - self._swept > 10.0:
            self._swept = now
            self._counts.sweep()

    def moved(self, caller: Caller) -> None:
        """Count one move; 429 ``rate_limited`` over :data:`MOVE_RATE`."""
        self._sweep()
        if not self._counts.hit(MOVE_RATE, "bot-move", caller.token_id):
            raise ServerError(
                "rate_limited",
                f"too many moves with this token (at most {MOVE_RATE.amount} a second)",
            )

    def admit_stream(self, caller: Caller) -> None:
        """Count one new stream of the caller's token; 429 ``rate_limited`` over
        :data:`STREAM_RATE` or when it holds :data:`OPEN_STREAMS` open already (checked
        before the answer starts: then the stream holds its place with :meth:`streaming`)."""
        self._sweep()
        key = caller.token_id
        if self._open[key] >= OPEN_STREAMS:
            raise ServerError(
                "rate_limited", f"this token holds {OPEN_STREAMS} open streams: close one"
            )
        if not self._counts.hit(STREAM_RATE, "bot-stream", key):
            raise ServerError("rate_limited", "too many new streams with this token; wait a moment")

    def open_streams(self, token_id: str) -> int:
        """Streams of ``token_id`` open in this process."""
        return self._open.get(token_id, 0)

    def open_tokens(self) -> list[str]:
        """The tokens with a stream open in this process."""
        return sorted(self._open)

    @contextmanager
    def streaming(self, caller: Caller) -> Iterator[None]:
        """One of the token's open streams, for the ``with`` block."""
        key = caller.token_id
        self._open[key] += 1
        try:
            yield
        finally:
            self._open[key] -= 1
            if self._open[key] <= 0:
                del self._open[key]

    # -- event streams ------------------------------------------------------------------------
    @contextmanager
    def listening(self, account_id: int) -> Iterator[asyncio.Event]:
        """An event set when something for the account happened in this process (a
        challenge it accepted, a seat it took): its event stream looks at once."""
        event = asyncio.Event()
        self._listeners.setdefault(account_id, set()).add(event)
        try:
            yield event
        finally:
            found = self._listeners.get(account_id)
            if found is not None:
                found.discard(event)
                if not found:
                    del self._listeners[account_id]

    def wake(self, account_id: int) -> None:
        for event in self._listeners.get(account_id, ()):
            event.set()


def bot_api_of(app: Any) -> BotApi:
    """The process's :class:`BotApi`, kept on the app's state (made on first use)."""
    state = app.state
    found: BotApi | None = getattr(state, "bot_api", None)
    if found is None:
        found = BotApi(state.hub)
        state.bot_api = found
    return found


def bot_api(conn: HTTPConnection) -> BotApi:
    """:func:`bot_api_of` the app a request reached."""
    return bot_api_of(conn.app)
