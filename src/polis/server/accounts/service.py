"""What the account routes do: sign up, sign in and out, change or forget a password, bind
seats, open a bound seat on another device, list "My games", export and delete.

One :class:`Accounts` per server process (``hub.accounts``). Password hashing (argon2id, tens
of milliseconds and 64 MiB) runs in a worker thread, never on the event loop; store writes go
through the hub's writer like every other write.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from fastapi import Response
from starlette.requests import HTTPConnection

from polis.server.accounts import passwords, ratings, sessions
from polis.server.accounts.sessions import SignedIn
from polis.server.accounts.throttle import SignInLimits
from polis.server.errors import ServerError
from polis.server.store import accounts as rows
from polis.server.store import standings
from polis.server.store.accounts import Account
from polis.server.store.faults import hurried_until, hurry
from polis.server.table.seats import hash_token, new_token

if TYPE_CHECKING:
    from polis.server.live.hub import Hub
    from polis.server.live.room import Room

T = TypeVar("T")

#: Unfinished tables "My games" looks at (each is loaded to say whose turn it is).
MAX_OPEN_GAMES = 60


async def hashing(work: Callable[..., T], *args: Any) -> T:
    """argon2id work (tens of milliseconds of CPU, longer on a busy machine) in a worker
    thread; the request's patience with the store starts again after it
    (:func:`~polis.server.store.faults.hurry`): the time hashing took is not the store's."""
    done = await asyncio.to_thread(work, *args)
    if hurried_until() is not None:
        hurry()
    return done


class Accounts:
    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.limits = SignInLimits()
        #: Finished games looked at for settling (tests wait on it).
        self.settled = 0

    @property
    def engine(self) -> Any:
        return self.hub.store.engine

    # -- who is asking ------------------------------------------------------------------------
    async def signed_in(self, conn: HTTPConnection, method: str) -> SignedIn | None:
        """The session a request is made with, if it may act for its account (CSRF checked
        for state-changing methods); None: the request is a guest's."""
        if sessions.COOKIE not in conn.cookies:
            return None
        store = self.hub.store
        found: SignedIn | None = await self.hub.patiently(
            lambda: sessions.session_of(store, conn), "a session"
        )
        if found is None:
            return None
        if not sessions.csrf_ok(found, conn, method, self.hub.config.public_url):
            return None
        return found

    async def require(self, conn: HTTPConnection, method: str) -> SignedIn:
        """:meth:`signed_in`, or ServerError: 401 without a session, 403 with a session but
        without its CSRF token (or from another site)."""
        found = await self.signed_in(conn, method)
        if found is not None:
            return found
        if sessions.COOKIE in conn.cookies and method not in sessions.SAFE_METHODS:
            store = self.hub.store
            live = await self.hub.patiently(lambda: sessions.session_of(store, conn), "a session")
            if live is not None:
                raise ServerError(
                    "forbidden",
                    "this request lacks the session's CSRF token or comes from another site",
                )
        raise ServerError("unauthorized", "sign in first")

    # -- signing up and in --------------------------------------------------------------------
    async def signup(
        self, name: str, password: str, address: str, response: Response, conn: HTTPConnection
    ) -> SignedIn:
        name = passwords.check_name(name)
        passwords.check_password(password, name)
        self.limits.signup(address)
        hashed = await hashing(passwords.hash_password, password)
        account = await self.hub.write(
            lambda: rows.create_account(self.engine, name, hashed), "making an account"
        )
        if account is None:
            raise ServerError("name_taken", f"the name {name!r} already has an account")
        return await self.start(account, response, conn)

    async def login(
        self, name: str, password: str, address: str, response: Response, conn: HTTPConnection
    ) -> SignedIn:
        self.limits.attempt(address, name)
        found = await self.hub.patiently(lambda: rows.by_name(self.engine, name), "an account")
        stored = None if found is None else found[1]
        ok = await hashing(passwords.verify, stored, password)
        if not ok or found is None:
            self.limits.failed(name)
            raise ServerError("unauthorized", "this name and password do not match an account")
        account = found[0]
        if account.suspended:
            raise ServerError("forbidden", "this account is suspended")
        if stored is not None and passwords.needs_rehash(stored):
            hashed = await hashing(passwords.hash_password, password)
            await self.hub.write(
                lambda: rows.set_password(self.engine, account.id, hashed), "rehashing"
            )
        return await self.start(account, response, conn)

    async def start(self, account: Account, response: Response, conn: HTTPConnection) -> SignedIn:
        store = self.hub.store
        signed: SignedIn = await self.hub.write(
            lambda: sessions.start(store, account, response, conn, self.secure(conn)),
            "starting a session",
        )
        return signed

    async def logout(self, conn: HTTPConnection, response: Response) -> None:
        store = self.hub.store
        secure = self.secure(conn)
        await self.hub.write(
            lambda: sessions.end(store, conn, response, secure), "ending a session"
        )

    def secure(self, conn: HTTPConnection) -> bool:
        return sessions.is_https(conn, self.hub.config.public_url)

    async def change_password(self, signed: SignedIn, old: str, new: str) -> None:
        """A new password; every other session of the account ends."""
        await self.check_password(signed.account, old)
        passwords.check_password(new, signed.account.name)
        hashed = await hashing(passwords.hash_password, new)

        def write() -> None:
            rows.set_password(self.engine, signed.account.id, hashed)
            rows.end_other_sessions(self.engine, signed.account.id, signed.id_hash)

        await self.hub.write(write, "changing a password")

    async def check_password(self, account: Account, password: str) -> None:
        """ServerError unless ``password`` is the account's (asked again before what cannot
        be undone)."""
        stored = await self.hub.patiently(
            lambda: rows.password_hash(self.engine, account.id), "an account"
        )
        if not await hashing(passwords.verify, stored, password):
            self.limits.failed(account.name)
            raise ServerError("unauthorized", "the password is not this account's")

    async def delete(self, signed: SignedIn, password: str) -> list[str]:
        """Delete the account (:func:`polis.server.store.accounts.delete_account`: its API
        tokens go with it, refused from now on); the ids of the tokens that were live."""
        await self.check_password(signed.account, password)
        tokens: list[str] = await self.hub.write(
            lambda: rows.delete_account(self.engine, signed.account.id), "deleting an account"
        )
        for room in list(self.hub.rooms.values()):  # seats shown as "deleted player" at once
            if any(s.account_id == signed.account.id for s in room.stored.seats):
                await room.reload_seats()
                room.presence_changed()
        return tokens

    # -- seats --------------------------------------------------------------------------------
    async def bind(self, game_id: str, seat: int, account: Account) -> bool:
        return bool(
            await self.hub.write(
                lambda: rows.bind_seat(self.engine, game_id, seat, account.id), "binding a seat"
            )
        )

    async def check_welcome(self, room: Room, account: Account) -> None:
        """ServerError ``forbidden`` when the table's creator or a player seated there blocks
        ``account`` (or it blocks them), or it already sits there in a rated game."""
        stored = room.stored
        seated = [s.account_id for s in stored.seats if s.account_id is not None]
        if stored.rated and account.id in seated:
            raise ServerError("forbidden", "you already sit at this rated table")
        others = [a for a in {*seated, stored.creator_id} if a is not None and a != account.id]
        if others and await self.hub.patiently(
            lambda: rows.blocks(self.engine, account.id, others), "blocks"
        ):
            raise ServerError("forbidden", "you cannot join this table")

    async def claim(self, account: Account, game_id: str, token: str) -> int:
        """Bind the seat a link's token holds to ``account`` (then it is in "My games")."""
        room = await self.hub.room(game_id)
        seat = await room.seat_for(token)
        if room.stored.seats[seat].account_id not in (None, account.id):
            raise ServerError("forbidden", "this seat belongs to another account")
        if not await self.bind(game_id, seat, account):
            raise ServerError("forbidden", "this seat belongs to another account")
        await room.reload_seats()
        room.presence_changed()
        return seat

    async def seat_key(self, signed: SignedIn, game_id: str) -> tuple[int, str]:
        """A token for this device to play the account's seat of ``game_id`` (its first, for
        a hot-seat table); it lasts as long as the session."""
        held = await self.hub.patiently(
            lambda: rows.bound_seats(self.engine, game_id, signed.account.id), "seats"
        )
        if not held:
            raise ServerError("not_found", "you hold no seat at this table")
        token = new_token()
        await self.hub.write(
            lambda: rows.add_seat_key(
                self.engine, hash_token(token), game_id, held[0], signed.id_hash, time.time()
            ),
            "a seat key",
        )
        return held[0], token

    async def seat_of_key(self, game_id: str, token: str) -> int | None:
        """The seat a device key opens (None: it opens none)."""
        seat: int | None = await self.hub.patiently(
            lambda: rows.seat_of_key(self.engine, game_id, hash_token(token)), "a seat key"
        )
        return seat

    async def settle(self, room: Room) -> bool:
        """Write a finished game's results and ratings for its accounts (once, whichever
        process gets there first: :func:`polis.server.accounts.ratings.settle`)."""
        store = self.hub.store
        done = bool(await self.hub.write(lambda: ratings.settle(store, room), "settling a game"))
        self.settled += 1
        return done

    # -- my games -----------------------------------------------------------------------------
    async def games(self, account: Account) -> dict[str, Any]:
        """The account's tables: ``turn`` (its turn somewhere, oldest wait first),
        ``playing`` (in progress) and ``finished``."""
        found = await self.hub.patiently(lambda: rows.games_of(self.engine, account.id), "games")
        turn: list[dict[str, Any]] = []
        playing: list[dict[str, Any]] = []
        finished: list[dict[str, Any]] = []
        for entry in found:
            entry["updated"] = entry["updated"].isoformat()
            if entry["finished"]:
                finished.append(entry)
                continue
            if len(turn) + len(playing) < MAX_OPEN_GAMES:
                await self._live(entry)
            (turn if entry.get("your_turn") else playing).append(entry)
        turn.sort(key=lambda e: e["updated"])
        # "now": the server's time, which the clocks count down from (as the welcome's)
        return {"turn": turn, "playing": playing, "finished": finished, "now": time.time()}

    async def _live(self, entry: dict[str, Any]) -> None:
        """Add whose turn it is, the names and the clock to an unfinished table's entry."""
        try:
            room = await self.hub.room(entry["id"])
        except ServerError:
            return
        mover = room.state.current_player()
        entry["names"] = [s.name for s in room.stored.seats]
        entry["current_player"] = mover
        entry["waiting"] = bool(room.vacant)
        entry["your_turn"] = mover in entry["seats"] and not room.vacant
        clock = room.watch.extra().get("clock")
        entry["clock"] = clock

    # -- export -------------------------------------------------------------------------------
    async def export(self, account: Account) -> dict[str, Any]:
        """Everything kept about the account: its profile, ratings and their history, its
        games (finished ones as records, the others as summaries: records hold secrets until
        the end), its chat lines, its blocks and mutes."""
        from polis.server.http.routes.api import finished_record
        from polis.server.store.chat_push import CHAT

        engine = self.engine

        def read() -> dict[str, Any]:
            from sqlalchemy import select

            games = rows.games_of(engine, account.id, limit=100_000)
            lines = []
            with engine.connect() as conn:
                for g in games:
                    found = conn.execute(
                        select(CHAT.c.seat, CHAT.c.text, CHAT.c.created)
                        .where(CHAT.c.game_id == g["id"], CHAT.c.seat.in_(g["seats"]))
                        .order_by(CHAT.c.id)
                    )
                    lines += [
                        {"game_id": g["id"], "seat": r[0], "text": r[1], "at": r[2].isoformat()}
                        for r in found
                    ]
            return {
                "games": games,
                "chat": lines,
                "ratings": standings.ratings(engine, account.id),
                "rating_history": [
                    h | {"at": h["at"].isoformat()} for h in standings.history(engine, account.id)
                ],
                "results": [
                    r | {"finished": r["finished"].isoformat()}
                    for r in standings.results(engine, account.id)
                ],
                "blocked": rows.relations(engine, account.id, "block"),
                "muted": rows.relations(engine, account.id, "mute"),
            }

        data = await self.hub.patiently(read, "an account's data")
        records = []
        for g in data["games"]:
            g["updated"] = g["updated"].isoformat()
            if g["finished"]:
                room = await self.hub.room(g["id"])
                records.append(finished_record(room))
        return {
            "account": {"name": account.name, "bot": account.bot},
            "records": records,
            **data,
        }
