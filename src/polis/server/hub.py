"""Live games: one room per game holding the authoritative state and its connections.

Every move, from a person or a bot, goes through :meth:`Room.submit`: checked by the engine on a
clone, stored, then swapped in and announced, all under the room's lock. Each connection is
bound to one seat (or none: a spectator) and is only ever sent that seat's view.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from polis.core.errors import PolisError
from polis.core.protocol import Game, GameState
from polis.server.bots import BotSeat
from polis.server.seats import hash_token, new_game_id, new_token, token_matches
from polis.server.store import SeatInfo, StaleMove, Store, StoredGame

log = logging.getLogger("polis.server")

Send = Callable[[dict[str, Any]], Awaitable[None]]


class ServerError(Exception):
    """A request the server refuses; ``code`` tells the client which kind."""

    def __init__(self, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule

    def to_message(self) -> dict[str, Any]:
        msg: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message}
        if self.rule:
            msg["rule"] = self.rule
        return msg


@dataclass(eq=False)
class Connection:
    """One WebSocket, bound to a seat (``None`` = spectator)."""

    seat: int | None
    send: Send


@dataclass(eq=False)
class Room:
    hub: Hub
    stored: StoredGame
    engine: Game
    state: GameState
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: list[Connection] = field(default_factory=list)
    bot_task: asyncio.Task[None] | None = None
    bots: dict[int, BotSeat] = field(default_factory=dict)
    #: who made each move (public; lets clients write the log in words)
    movers: list[int] = field(default_factory=list)

    @property
    def position(self) -> int:
        return len(self.stored.moves)

    # -- seats --------------------------------------------------------------------------------
    def seat_for_token(self, token: str) -> int:
        for seat in self.stored.seats:
            if seat.kind == "human" and token_matches(token, seat.token_hash):
                return seat.seat
        raise ServerError("bad_token", "this seat token does not belong to this game")

    def seats_public(self) -> list[dict[str, Any]]:
        online = {c.seat for c in self.connections}
        return [
            {
                "seat": s.seat,
                "name": s.name,
                "kind": s.kind,
                "level": s.level,
                "connected": s.kind == "bot" or s.seat in online,
            }
            for s in self.stored.seats
        ]

    # -- messages -----------------------------------------------------------------------------
    def snapshot(self, seat: int | None) -> dict[str, Any]:
        """The state message for one seat: its own view and, on its turn, its legal moves."""
        state = self.state
        current = state.current_player()
        finished = state.is_terminal()
        msg: dict[str, Any] = {
            "type": "state",
            "game_id": self.stored.id,
            "game": self.stored.game,
            "mode": self.stored.mode,
            "players": self.stored.players,
            "seat": seat,
            "position": self.position,
            "current_player": current,
            "finished": finished,
            "seats": self.seats_public(),
            "view": state.view(seat),
            "legal": [],
            "movers": list(self.movers),
            "rematch_id": self.stored.rematch_id,
        }
        if seat is not None and not finished and current == seat:
            msg["legal"] = [state.move_to_str(m) for m in state.legal_moves()]
        if finished:
            msg["result"] = self.engine.result_json(state.result())
        return msg

    async def broadcast(self) -> None:
        for conn in list(self.connections):
            try:
                await conn.send(self.snapshot(conn.seat))
            except Exception:  # a dead socket must not stop the others
                with contextlib.suppress(ValueError):
                    self.connections.remove(conn)

    async def notify(self, message: dict[str, Any]) -> None:
        """Send one public message (no seat data) to every connection."""
        for conn in list(self.connections):
            with contextlib.suppress(Exception):
                await conn.send(message)

    async def join(self, conn: Connection) -> None:
        self.connections.append(conn)
        await conn.send(self.snapshot(conn.seat))
        await self._announce_presence(conn)

    async def leave(self, conn: Connection) -> None:
        with contextlib.suppress(ValueError):
            self.connections.remove(conn)
        await self._announce_presence(None)

    async def _announce_presence(self, skip: Connection | None) -> None:
        message = {"type": "seats", "seats": self.seats_public()}
        for other in list(self.connections):
            if other is not skip:
                with contextlib.suppress(Exception):
                    await other.send(message)

    # -- moves --------------------------------------------------------------------------------
    async def submit(self, seat: int | None, text: str, position: int) -> None:
        """Check, store, apply and announce one move; raises :class:`ServerError`."""
        async with self.lock:
            state = self.state
            if state.is_terminal():
                raise ServerError("finished", "the game is over")
            if seat is None:
                raise ServerError("spectator", "spectators cannot move")
            if position != self.position:
                raise ServerError(
                    "stale",
                    f"this move was made for position {position}, but the game is at position "
                    f"{self.position}",
                )
            current = state.current_player()
            if seat != current:
                raise ServerError(
                    "not_your_turn",
                    f"it is not your turn: {self.stored.seats[current].name} is to move",
                )
            trial = state.clone()
            try:
                move = trial.parse_move(text)
                trial.apply(move)
            except PolisError as exc:
                raise ServerError("illegal", exc.message, exc.rule) from None
            canonical = trial.history[-1] if trial.history else text
            result = self.engine.result_json(trial.result()) if trial.is_terminal() else None
            try:
                await asyncio.to_thread(
                    self.hub.store.append_move, self.stored.id, self.position, canonical, result
                )
            except StaleMove as exc:
                raise ServerError("stale", str(exc)) from None
            self.stored.moves.append(canonical)
            self.movers.append(current)
            self.state = trial
            if result is not None:
                self.stored.finished = True
        await self.broadcast()
        self.schedule_bot()

    # -- bots ---------------------------------------------------------------------------------
    def schedule_bot(self) -> None:
        """Start the bot's turn if a bot is to move and none is already thinking."""
        if self.state.is_terminal():
            return
        seat = self.stored.seats[self.state.current_player()]
        if seat.kind != "bot":
            return
        if self.bot_task is not None and not self.bot_task.done():
            return
        self.bot_task = asyncio.create_task(self._bot_turn(seat))

    async def _bot_turn(self, seat: SeatInfo) -> None:
        try:
            position = self.position
            if self.hub.bot_delay:
                await asyncio.sleep(self.hub.bot_delay)
            bot = self.bots.get(seat.seat)
            if bot is None:
                seed = random.Random(f"{self.stored.id}:{seat.seat}").randrange(2**31)
                bot = self.bots[seat.seat] = BotSeat(seat.level or "medium", seed)
            state = self.state.clone()
            loop = asyncio.get_running_loop()
            text = await loop.run_in_executor(self.hub.executor, bot.choose, self.engine, state)
            self.bot_task = None
            await self.submit(seat.seat, text, position)
        except ServerError as exc:
            log.warning("bot move refused in game %s: %s", self.stored.id, exc.message)
            self.bot_task = None
            self.schedule_bot()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot failed in game %s", self.stored.id)
            self.bot_task = None


def replay(engine: Game, stored: StoredGame) -> tuple[GameState, list[int]]:
    """Rebuild a stored game move by move (checking each), noting who made every move."""
    state = engine.new_game(
        stored.mode,
        stored.players,
        seed=stored.seed,
        setup=stored.setup,
        options=stored.options or None,
    )
    movers = []
    for text in stored.moves:
        movers.append(state.current_player())
        state.apply_str(text)
    return state, movers


class Hub:
    """All rooms of one server, the store and the bot workers."""

    def __init__(
        self,
        store: Store,
        get_game: Callable[[str], Game],
        executor: Executor,
        bot_delay: float = 0.0,
    ) -> None:
        self.store = store
        self.get_game = get_game
        self.executor = executor
        self.bot_delay = bot_delay
        self.rooms: dict[str, Room] = {}
        self._loading = asyncio.Lock()

    async def room(self, game_id: str) -> Room:
        """The live room of a game, rebuilding it from its stored record if needed."""
        room = self.rooms.get(game_id)
        if room is not None:
            return room
        async with self._loading:
            room = self.rooms.get(game_id)
            if room is not None:
                return room
            stored = await asyncio.to_thread(self.store.load, game_id)
            if stored is None:
                raise ServerError("not_found", f"no game with id {game_id!r}")
            engine = self.get_game(stored.game)
            state, movers = await asyncio.to_thread(replay, engine, stored)
            room = Room(self, stored, engine, state, movers=movers)
            self.rooms[game_id] = room
            return room

    async def resume_all(self) -> int:
        """Rebuild every unfinished game and restart its bots; returns how many."""
        ids = await asyncio.to_thread(self.store.unfinished_ids)
        count = 0
        for game_id in ids:
            try:
                room = await self.room(game_id)
            except Exception:
                log.exception("cannot resume game %s", game_id)
                continue
            room.schedule_bot()
            count += 1
        return count

    async def create(
        self,
        game: str,
        mode: str,
        seats: list[dict[str, Any]],
        *,
        seed: int | None = None,
        options: dict[str, Any] | None = None,
        rematch_of: str | None = None,
        claim_later: bool = False,
    ) -> tuple[Room, dict[int, str]]:
        """Create and store a game; returns the room and the token of each human seat.

        With ``claim_later`` human seats get no token yet (a rematch: each old seat holder
        claims the new seat with the old token).
        """
        engine = self.get_game(game)
        if seed is None:
            seed = secrets.randbelow(2**31 - 1)
        try:
            state = engine.new_game(mode, len(seats), seed=seed, options=options)
        except PolisError as exc:
            raise ServerError("bad_request", exc.message) from None
        tokens: dict[int, str] = {}
        infos = []
        for i, seat in enumerate(seats):
            token_hash = None
            if seat["kind"] == "human" and not claim_later:
                tokens[i] = new_token()
                token_hash = hash_token(tokens[i])
            infos.append(SeatInfo(i, seat["name"], seat["kind"], seat.get("level"), token_hash))
        stored = StoredGame(
            id=new_game_id(),
            game=game,
            mode=state.mode,
            players=state.num_players,
            seed=seed,
            setup=state.setup(),
            options=state.options(),
            seats=infos,
            rematch_of=rematch_of,
        )
        await asyncio.to_thread(self.store.create_game, stored)
        room = Room(self, stored, engine, state)
        self.rooms[stored.id] = room
        room.schedule_bot()
        return room, tokens

    async def rematch(self, game_id: str, tokens: list[str]) -> tuple[str, dict[int, str]]:
        """The rematch of a finished game and new tokens for the seats the caller holds."""
        room = await self.room(game_id)
        held = []
        for token in tokens:
            with contextlib.suppress(ServerError):
                held.append(room.seat_for_token(token))
        if not held:
            raise ServerError("bad_token", "only a player of this game can ask for a rematch")
        if not room.state.is_terminal():
            raise ServerError("not_finished", "a rematch can only follow a finished game")
        async with room.lock:
            if room.stored.rematch_id is None:
                seats = [
                    {"name": s.name, "kind": s.kind, "level": s.level} for s in room.stored.seats
                ]
                new_room, _ = await self.create(
                    room.stored.game,
                    room.stored.mode,
                    seats,
                    options=room.stored.options,
                    rematch_of=game_id,
                    claim_later=True,
                )
                if await asyncio.to_thread(self.store.set_rematch, game_id, new_room.stored.id):
                    room.stored.rematch_id = new_room.stored.id
                else:  # pragma: no cover - another server process won the race
                    reloaded = await asyncio.to_thread(self.store.load, game_id)
                    assert reloaded is not None
                    room.stored.rematch_id = reloaded.rematch_id
            rematch_id = room.stored.rematch_id
        assert rematch_id is not None
        new_room = await self.room(rematch_id)
        given: dict[int, str] = {}
        for seat in held:
            token = new_token()
            if await asyncio.to_thread(self.store.claim_seat, rematch_id, seat, hash_token(token)):
                new_room.stored.seats[seat] = SeatInfo(
                    seat,
                    new_room.stored.seats[seat].name,
                    "human",
                    None,
                    hash_token(token),
                )
                given[seat] = token
        await room.notify({"type": "rematch", "game_id": rematch_id})
        return rematch_id, given

    async def close(self) -> None:
        for room in self.rooms.values():
            if room.bot_task is not None:
                room.bot_task.cancel()
