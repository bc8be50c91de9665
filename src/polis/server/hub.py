"""The rooms of one server: find (or rebuild) a game's room, create games and rematches,
resume unfinished games after a restart.

A room is rebuilt from the store by replaying its moves (:func:`polis.server.history.replay`),
so a server killed at any moment comes back with exactly the moves it ever confirmed, and
the same event log.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Mapping
from concurrent.futures import Executor
from typing import Any

from polis.core.errors import PolisError
from polis.core.protocol import Game, GameState
from polis.server.errors import ServerError
from polis.server.history import EventLog, replay
from polis.server.room import Room
from polis.server.seats import hash_token, new_game_id, new_token
from polis.server.store import SeatInfo, Store, StoredGame

log = logging.getLogger("polis.server")


class Hub:
    """All rooms of one server, the store, the games it serves and the bot workers."""

    def __init__(
        self,
        store: Store,
        games: Mapping[str, Game],
        executor: Executor,
        bot_delay: float = 0.0,
    ) -> None:
        self.store = store
        self.games = games
        self.executor = executor
        self.bot_delay = bot_delay
        self.rooms: dict[str, Room] = {}
        self._loading = asyncio.Lock()

    def game(self, name: str) -> Game:
        """A game this server serves; ServerError otherwise."""
        found = self.games.get(name)
        if found is None:
            raise ServerError("bad_request", f"unknown game {name!r}")
        return found

    def _room(self, stored: StoredGame, game: Game, state: GameState, events: EventLog) -> Room:
        room = Room(
            self.store,
            stored,
            game,
            state,
            events,
            executor=self.executor,
            bot_delay=self.bot_delay,
        )
        self.rooms[stored.id] = room
        return room

    async def room(self, game_id: str) -> Room:
        """The live room of a game, rebuilding it from the store if needed."""
        room = self.rooms.get(game_id)
        if room is not None:
            return room
        if len(game_id) > 32:
            raise ServerError("not_found", "no such game")
        async with self._loading:
            room = self.rooms.get(game_id)
            if room is not None:
                return room
            stored = await asyncio.to_thread(self.store.load, game_id)
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
            return self._room(stored, game, state, events)

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
            room.bots.schedule()
            count += 1
        return count

    async def create(
        self,
        name: str,
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
        game = self.game(name)
        if seed is None:
            seed = secrets.randbelow(2**31 - 1)
        try:
            state = game.new_game(mode, len(seats), seed=seed, options=options or None)
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
            game=name,
            mode=state.mode,
            players=state.num_players,
            seed=seed,
            setup=state.setup(),
            options=state.options(),
            seats=infos,
            rematch_of=rematch_of,
        )
        await asyncio.to_thread(self.store.create_game, stored)
        log = EventLog()
        log.extend(None, state.opening_events())
        room = self._room(stored, game, state, log)
        room.bots.schedule()
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
        if not room.finished:
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
                if await asyncio.to_thread(self.store.set_rematch, game_id, new_room.id):
                    room.stored.rematch_id = new_room.id
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
                old = new_room.stored.seats[seat]
                new_room.stored.seats[seat] = SeatInfo(
                    seat, old.name, "human", None, hash_token(token)
                )
                given[seat] = token
        await room.notify({"type": "rematch", "game_id": rematch_id})
        return rematch_id, given

    async def close(self) -> None:
        for room in self.rooms.values():
            room.bots.cancel()
