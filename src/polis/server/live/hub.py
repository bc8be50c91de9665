"""The rooms of one server process: find (or rebuild) a game's room, create games and
rematches, and keep the rooms in step with the store and the other processes.

A room is rebuilt from the store by replaying its moves (:func:`polis.server.live.history.replay`)
when someone needs it, so a server killed at any moment comes back with exactly the moves it
ever confirmed, and the same event log. Nothing is replayed at start-up: bots that were to
move are found in the store and resumed in the background (:mod:`~polis.server.live.upkeep`),
rooms nobody uses leave memory, and a process that missed moves made by another one catches
up from the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Executor
from dataclasses import replace
from typing import Any

from polis.core.errors import PolisError
from polis.core.protocol import Game, GameState
from polis.server.accounts.service import Accounts
from polis.server.bots.pool import BotPool, ThreadPool, process_pool, ray_pool
from polis.server.config import ServerConfig
from polis.server.errors import ServerError
from polis.server.http.inputs import is_token
from polis.server.http.limits import Guards
from polis.server.live.bus import PRESENCE_TTL, LocalBus
from polis.server.live.history import EventLog, replay
from polis.server.live.pipeline import bot_turn, heard
from polis.server.live.room import Room
from polis.server.store.faults import StoreHealth, patiently, ping, waited
from polis.server.store.games import SeatInfo, Seed, Store, StoredGame
from polis.server.store.writer import MoveWriter
from polis.server.table.clocks import TableClock
from polis.server.table.deals import new_seed
from polis.server.table.push import Pusher
from polis.server.table.seats import hash_token, new_game_id, new_token
from polis.server.table.thinking import Thinking
from polis.server.wire.bus import BusMessage, BusRematch
from polis.server.wire.check import WireCheck
from polis.server.wire.to_client import RematchMessage

log = logging.getLogger("polis.server")


def make_pool(config: ServerConfig) -> BotPool:
    """The bot workers the configuration asks for."""
    if config.bot_backend == "ray":
        return ray_pool(config.bot_workers, config.bot_nice, config.ray_address)
    return process_pool(config.bot_workers, config.bot_nice)


class Hub:
    """All rooms of one server process, the store, the games it serves and the bot workers."""

    def __init__(
        self,
        store: Store,
        games: Mapping[str, Game],
        bots: BotPool | Executor | None = None,
        bot_delay: float | None = None,
        *,
        config: ServerConfig | None = None,
        bus: LocalBus | None = None,
    ) -> None:
        config = config or ServerConfig()
        if bot_delay is not None:
            from dataclasses import replace

            config = replace(config, bot_delay=bot_delay)
        self.config = config
        self.store = store
        self.games = games
        if isinstance(bots, Executor):
            bots = ThreadPool(bots)
        self.pool: BotPool = bots if bots is not None else make_pool(config)
        self.writer = MoveWriter(store, inline=store.engine.dialect.name == "sqlite")
        self.bus = bus or LocalBus(config.instance)
        #: Checks every message against the wire contract (tests, ``config.check_wire``);
        #: None: nothing is checked.
        self.wire: WireCheck | None = WireCheck(games) if config.check_wire else None
        self.guards = Guards(config.limits)
        self.thinking = Thinking(config.bot_workers)  # hints and reviews under way
        #: Turn notifications by Web Push (:mod:`~polis.server.table.push`).
        self.push = Pusher(self)
        #: Accounts, sessions and standings (:mod:`~polis.server.accounts`).
        self.accounts = Accounts(self)
        self.rooms: dict[str, Room] = {}
        #: The wall clock of clocks and away limits (seconds since the epoch); tests set it.
        self.now: Callable[[], float] = time.time
        self._loading: dict[str, asyncio.Future[Room]] = {}
        #: Bus messages for games being loaded, heard once their room exists: a change
        #: stored after the load read the store would otherwise be missed.
        self._held: dict[str, list[dict[str, Any]]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        #: Rounds of the background upkeep finished (:mod:`~polis.server.live.upkeep`): a
        #: positive sign that what a round does has been done (tests wait on it).
        self.upkeep_rounds = 0
        #: Whether the store answers; every socket here is told when that changes.
        self.health = StoreHealth(
            lambda: asyncio.to_thread(ping, store.engine),
            self.spawn,
            self._store_changed,
            clock=lambda: self.now(),
        )

    def game(self, name: str) -> Game:
        """A game this server serves; ServerError otherwise."""
        found = self.games.get(name)
        if found is None:
            raise ServerError("bad_request", f"unknown game {name!r}")
        return found

    def spawn(self, coro: Any) -> asyncio.Task[Any]:
        """Run ``coro`` in the background, kept until it ends (errors are logged)."""
        task: asyncio.Task[Any] = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task failed", exc_info=task.exception())

    async def patiently(self, call: Any, what: str) -> Any:
        """A store read in a thread, tried again while the store is unreachable (briefly
        for an HTTP request: :mod:`~polis.server.store.faults`)."""
        return await patiently(
            lambda: asyncio.to_thread(call), self.config.store_patience, what, self.health
        )

    async def write(self, call: Any, what: str) -> Any:
        """A store write, in the writing thread (:mod:`~polis.server.store.writer`), tried again
        while the store is unreachable."""
        return await patiently(
            lambda: self.writer.call(call), self.config.store_patience, what, self.health
        )

    def _store_changed(self, health: StoreHealth) -> None:
        """The store went away or came back: every socket of this process is told."""
        text = health.message()
        for room in list(self.rooms.values()):
            room.presence.send_all(text)

    # -- rooms --------------------------------------------------------------------------------
    async def room(self, game_id: str) -> Room:
        """The live room of a game, rebuilding it from the store if needed."""
        room = self.rooms.get(game_id)
        if room is not None:
            return room
        if len(game_id) > 32 or not is_token(game_id):
            raise ServerError("not_found", "no such game")
        loading = self._loading.get(game_id)
        if loading is not None:
            return await waited(loading, self.health)
        future: asyncio.Future[Room] = asyncio.get_running_loop().create_future()
        self._loading[game_id] = future
        try:
            room = await self._load(game_id)
        except BaseException as exc:
            if isinstance(exc, Exception):
                future.set_exception(exc)
                future.exception()  # marked as retrieved: only the waiters care
            else:
                future.cancel()
            raise
        finally:
            del self._loading[game_id]
            held = self._held.pop(game_id, [])
        future.set_result(room)
        for message in held:
            self._heard_in(room, message, loaded=True)
        return room

    async def _load(self, game_id: str) -> Room:
        # heard from before the read: a move another process stores after it is not missed
        await self.bus.follow(game_id)
        try:
            return await self._rebuild(game_id)
        except BaseException:
            self.bus.unfollow(game_id)
            raise

    async def _rebuild(self, game_id: str) -> Room:
        stored: StoredGame | None = await self.patiently(
            lambda: self.store.load(game_id), f"loading game {game_id}"
        )
        if stored is None:
            raise ServerError("not_found", f"no game with id {game_id!r}")
        game = self.games.get(stored.game)
        if game is None:
            raise ServerError("not_found", f"this server does not serve {stored.game!r}")
        state, events = await asyncio.to_thread(
            replay,
            game,
            stored.mode,
            stored.players,
            seed=stored.seed,
            setup=stored.setup,
            options=stored.options,
            moves=stored.moves,
        )
        room = self._room(stored, game, state, events)
        if stored.bot_turn is None and not stored.finished:
            bots_turn = bot_turn(room.stored.seats, state)
            with contextlib.suppress(Exception):
                await self.writer.call(lambda: self.store.set_bot_turn(game_id, bots_turn))
        return room

    def _room(self, stored: StoredGame, game: Game, state: GameState, events: EventLog) -> Room:
        room = Room(self, stored, game, state, events)
        self.rooms[stored.id] = room
        return room

    def evict(self, room: Room) -> None:
        """Let an idle room leave memory (it is rebuilt from the store when needed again)."""
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]
            self.bus.unfollow(room.id)
            room.bots.cancel()
            room.bots.forget()
            room.watch.cancel()

    async def resume_all(self) -> int:
        """Resume the bots of every game waiting for one (at once: tests and tools; the
        server does it in the background, :mod:`~polis.server.live.upkeep`); returns how many."""
        from polis.server.live.upkeep import resume_bots

        return await resume_bots(self, quiet_for=0.0, limit=None)

    # -- creating -----------------------------------------------------------------------------
    async def create(
        self,
        name: str,
        mode: str,
        seats: list[dict[str, Any]],
        *,
        seed: Seed = None,
        seed_chosen: bool = False,
        options: dict[str, Any] | None = None,
        rematch_of: str | None = None,
        claim_later: bool = False,
        chat_spectators: bool = False,
        listed: bool = True,
        table: TableClock | None = None,
        hints: bool | None = None,
        rated: bool = False,
        creator_id: int | None = None,
    ) -> tuple[Room, dict[int, str]]:
        """Create and store a game; returns the room and the token of each human seat.

        Without a ``seed`` the deal comes from a fresh secret seed
        (:mod:`~polis.server.table.deals`); a given seed is recorded as chosen. With
        ``claim_later`` human seats get no token yet (a rematch: each old seat holder claims the
        new seat with the old token). A seat with ``"vacant": True`` is left open for anyone
        (:mod:`~polis.server.table.open_tables`); ``listed`` puts the table in the lobby's
        lists. A seat's ``"account_id"`` and ``"account"`` bind it to an account; ``rated``
        and ``creator_id`` are kept with the game (:mod:`polis.server.accounts`).
        """
        game = self.game(name)
        if seed is None:
            seed = new_seed()
        else:
            seed_chosen = True
        try:
            state = game.new_game(mode, len(seats), seed=seed, options=options or None)
        except PolisError as exc:
            raise ServerError("bad_request", exc.message) from None
        tokens: dict[int, str] = {}
        infos = []
        for i, seat in enumerate(seats):
            token_hash = None
            vacant = bool(seat.get("vacant"))  # an open table's seat: anyone may take it
            if seat["kind"] == "human" and not claim_later and not vacant:
                tokens[i] = new_token()
                token_hash = hash_token(tokens[i])
            infos.append(
                SeatInfo(
                    i,
                    seat["name"],
                    seat["kind"],
                    seat.get("level"),
                    token_hash,
                    vacant,
                    account=seat.get("account"),
                    account_id=seat.get("account_id"),
                )
            )
        stored = StoredGame(
            id=new_game_id(),
            game=name,
            mode=state.mode,
            players=state.num_players,
            seed=seed,
            setup=state.setup(),
            options=state.options(),
            seats=infos,
            rematch_of=rematch_of,
            seed_chosen=seed_chosen,
            chat_spectators=chat_spectators,
            listed=listed,
            hints=hints,
            rated=rated,
            creator_id=creator_id,
        )
        stored.bot_turn = stored.seats[state.current_player()].kind == "bot"
        if table is not None:  # its clock (:mod:`~polis.server.table.standins`) starts now
            first = state.current_player()
            waiting = any(s.vacant for s in stored.seats)  # the clock starts with the game
            person = None if stored.bot_turn or waiting else first
            stored.table = table.started(len(seats), self.now(), person)
        await self.write(lambda: self.store.create_game(stored), "creating a game")
        await self.bus.follow(stored.id)
        events = EventLog()
        events.extend(None, state.opening_events())
        room = self._room(stored, game, state, events)
        room.bots.schedule()
        room.watch.arm()
        return room, tokens

    async def rematch(self, game_id: str, tokens: list[str]) -> tuple[str, dict[int, str]]:
        """The rematch of a finished game and new tokens for the seats the caller holds."""
        room = await self.room(game_id)
        held = []
        for token in tokens:
            with contextlib.suppress(ServerError):
                held.append(await room.seat_for(token))
        if not held:
            raise ServerError("bad_token", "only a player of this game can ask for a rematch")
        if not room.finished:
            raise ServerError("not_finished", "a rematch can only follow a finished game")
        async with room.lock:
            if room.stored.rematch_id is None:
                seats = [
                    {
                        "name": s.name,
                        "kind": s.kind,
                        "level": s.level,
                        "account": s.account,
                        "account_id": s.account_id,
                    }
                    for s in room.stored.seats
                ]
                new_room, _ = await self.create(
                    room.stored.game,
                    room.stored.mode,
                    seats,
                    options=room.stored.options,
                    rematch_of=game_id,
                    claim_later=True,
                    chat_spectators=room.stored.chat_spectators,
                    listed=room.stored.listed,
                    table=room.stored.table.rules() if room.stored.table.chosen else None,
                    hints=room.stored.hints,
                    rated=room.stored.rated,
                    creator_id=room.stored.creator_id,
                )
                linked = await self.write(
                    lambda: self.store.set_rematch(game_id, new_room.id), "linking a rematch"
                )
                if linked:
                    room.stored.rematch_id = new_room.id
                else:  # another server process won the race
                    reloaded = await self.patiently(
                        lambda: self.store.load(game_id), f"loading game {game_id}"
                    )
                    assert reloaded is not None
                    room.stored.rematch_id = reloaded.rematch_id
            rematch_id = room.stored.rematch_id
        assert rematch_id is not None
        new_room = await self.room(rematch_id)
        given: dict[int, str] = {}
        for seat in held:
            token = new_token()
            claimed = await self.write(
                lambda seat=seat, token=token: self.store.claim_seat(
                    rematch_id, seat, hash_token(token)
                ),
                "claiming a rematch seat",
            )
            if claimed:
                old = new_room.stored.seats[seat]
                new_room.stored.seats[seat] = replace(
                    old, kind="human", level=None, token_hash=hash_token(token)
                )
                given[seat] = token
        self.announce_rematch(room, rematch_id)
        self.publish(BusRematch(t="rematch", g=game_id, r=rematch_id))
        return rematch_id, given

    @staticmethod
    def announce_rematch(room: Room, rematch_id: str) -> None:
        room.stored.rematch_id = rematch_id
        room.notify(RematchMessage(type="rematch", game_id=rematch_id))
        room.broadcast()

    # -- other processes ----------------------------------------------------------------------
    def publish(self, message: BusMessage) -> None:
        """Tell the other processes (:mod:`~polis.server.live.bus`); never waits."""
        if self.wire is not None:
            self.wire.bus(message)
        self.bus.publish(message)

    def on_bus(self, message: dict[str, Any]) -> None:
        """A message from another process (:mod:`~polis.server.wire.bus`), read defensively:
        one this process cannot use is ignored."""
        if self.wire is not None:
            self.wire.bus(message, heard=True)
        kind = message.get("t")
        origin = str(message.get("o"))
        if kind == "bye":
            for each in list(self.rooms.values()):
                if each.presence.set_remote(origin, frozenset(), 0):
                    each.presence_changed()
            return
        game_id = str(message.get("g"))
        room = self.rooms.get(game_id)
        if room is None:
            if game_id in self._loading:
                self._held.setdefault(game_id, []).append(message)
            return
        self._heard_in(room, message)

    def _heard_in(self, room: Room, message: dict[str, Any], loaded: bool = False) -> None:
        """A message from another process about ``room``'s game (``loaded``: held while the
        room was loaded for someone about to join it)."""
        kind = message.get("t")
        origin = str(message.get("o"))
        if kind == "change":  # a move, take-back, change of hands or seat stored elsewhere
            action = heard(message)
            if action is None:
                return
            if room.idle and not loaded and action.kind in ("move", "takeback"):
                # nobody here follows this game (it was created here and is played through
                # another process): let it go rather than replay every move of it
                self.evict(room)
            else:
                self.spawn(room.commit(action))
        elif kind == "seats" and isinstance(message.get("s"), list):
            seats = frozenset(s for s in message["s"] if isinstance(s, int))
            if room.presence.set_remote(origin, seats, PRESENCE_TTL):
                room.presence_changed()
        elif kind == "rematch" and isinstance(message.get("r"), str):
            self.announce_rematch(room, message["r"])
        elif kind == "takeback":  # a take-back asked or answered through another process
            room.takebacks.heard(message)
        elif kind == "chat":
            room.chat.heard(message.get("l"))

    def on_bus_connect(self) -> None:
        """The bus (re)connected: messages may have been missed, so check every room."""
        from polis.server.live.upkeep import sync_rooms

        self.spawn(sync_rooms(self))
        for room in self.rooms.values():
            if room.presence.local_online:
                room.publish_presence()

    # -- life ---------------------------------------------------------------------------------
    async def start(self) -> None:
        """Listen to the other processes and start the upkeep (nothing is replayed here)."""
        from polis.server.live.upkeep import upkeep

        self.bus.start(self.on_bus, self.on_bus_connect)
        self.spawn(upkeep(self))

    async def close(self) -> None:
        self.health.close()
        for room in self.rooms.values():
            room.bots.cancel()
            room.watch.cancel()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
        await self.bus.close()
        await self.pool.close()
        self.push.close()
        await asyncio.to_thread(self.writer.close)
