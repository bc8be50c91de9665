"""A bot on a server: the event stream in one thread, each game in a thread of its own, an
agent deciding from its seat's view only, and every connection opened again after a drop.

What happens, in the manner of lichess's bot clients:

* a **challenge** for a game polis knows is accepted (declined once ``games`` are under way
  or over, or for a game this install does not have);
* a **game start** opens the game's stream; each state where the bot's seat is to move is
  given to a fresh agent of the game (:class:`~polis.client.agents.AgentMaker`, seeded from the
  game's id), as the seat's view object (:func:`~polis.client.views.seat_view`) and legal
  moves, and its move is sent with the state's position;
* a dropped stream (a network fault, the server restarting) is opened again after a
  back-off (:class:`~polis.client.backoff.Backoff`): the server sends the current state first,
  so a game goes on where it stood; a move whose answer was lost is sent again, and the
  store's position guard keeps it from counting twice;
* after ``games`` games are over (None: never), no new game is taken and the bot stops once
  the games it plays are over. A refused token (revoked) stops it at once.
"""

from __future__ import annotations

import json
import logging
import random
import threading
from collections.abc import Callable, Mapping
from typing import Any

import httpx

from polis.client.agents import AgentMaker
from polis.client.backoff import Backoff
from polis.client.events import Challenge, Event, GameFinish, GameStart
from polis.client.http import ApiError, BotClient
from polis.client.views import legal_moves, seat_view
from polis.core.errors import PolisError
from polis.core.match import derive_seed
from polis.core.protocol import Game
from polis.core.registry import get_game
from polis.games.text import LETTERS

#: Refusals of a move that the next state answers (the game moved on, or is not the bot's).
PASSING = frozenset({"stale", "not_your_turn", "stood_in", "waiting", "finished", "time_out"})
#: What breaks a connection (and is mended by opening it again): a line cut short included.
DROPS = (httpx.HTTPError, OSError, json.JSONDecodeError)

log = logging.getLogger("polis.client")
#: Tries of one move whose answer did not come.
MOVE_TRIES = 8


def place_of(result: Mapping[str, Any] | None, seat: int) -> str:
    """``1st of 2`` from a result's ranking (groups of seats, best first)."""
    if not result or not isinstance(result.get("ranking"), list):
        return "over"
    place = 1
    for group in result["ranking"]:
        if seat in group:
            shared = " (shared)" if len(group) > 1 else ""
            suffix = {1: "st", 2: "nd", 3: "rd"}.get(place, "th")
            return f"{place}{suffix} of {sum(len(g) for g in result['ranking'])}{shared}"
        place += len(group)
    return "over"


class BotRunner:
    """Plays the bot's games until ``games`` are over (or :meth:`stop`); see the module."""

    def __init__(
        self,
        client: BotClient,
        maker: AgentMaker,
        *,
        games: int | None = None,
        say: Callable[[str], None] = print,
        backoff: Callable[[], Backoff] = Backoff,
    ) -> None:
        self.client = client
        self.maker = maker
        self.limit = games
        self.say = say
        self.backoff = backoff
        self._stop = threading.Event()
        self._lock = threading.Lock()
        #: Games being played, by id.
        self.playing: dict[str, threading.Thread] = {}
        #: Games over (whatever thread saw it first).
        self.over: set[str] = set()
        #: Games taken on (played, or accepted and not started yet).
        self.taken: set[str] = set()
        #: How many games this runner saw to their end.
        self.finished = 0
        #: The refusal that stopped it (a revoked token), if any.
        self.refused: ApiError | None = None
        self.name = ""

    # -- life -----------------------------------------------------------------------------------
    def run(self) -> int:
        """Play until done; the number of games seen to their end."""
        try:
            self.name = str(self._patiently(self.client.account)["name"])
        except ApiError as exc:
            self.refused = exc
            return 0
        self.say(f"connected to {self.client.server} as {self.name}")
        events = threading.Thread(target=self._events, name="polis-bot-events", daemon=True)
        events.start()
        self._stop.wait()
        with self._lock:
            threads = list(self.playing.values())
        for thread in threads:
            thread.join(timeout=10)
        return self.finished

    def stop(self) -> None:
        self._stop.set()

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

    def _patiently(self, call: Callable[[], Any]) -> Any:
        """``call`` tried again after drops (not after a refusal) until it answers."""
        backoff = self.backoff()
        while True:
            try:
                return call()
            except DROPS as exc:
                self.say(f"no answer from the server ({type(exc).__name__}); trying again")
                if backoff.wait(self._stop):
                    raise ApiError(0, "stopped", "stopped") from None

    def _refused(self, exc: ApiError) -> None:
        self.refused = exc
        self.say(f"the server refused the token: {exc.message}")
        self.stop()

    def _full(self) -> bool:
        """No new game: as many as asked for are under way or over."""
        return self.limit is not None and len(self.taken | self.over) >= self.limit

    # -- the event stream -----------------------------------------------------------------------
    def _events(self) -> None:
        backoff = self.backoff()
        while not self.stopped:
            try:
                for event in self.client.events():
                    backoff.reset()
                    if self.stopped:
                        return
                    self._on(event)
                self.say("the event stream ended; connecting again")
            except ApiError as exc:
                if exc.status in (401, 403):
                    self._refused(exc)
                    return
                self.say(f"the event stream was refused ({exc}); trying again")
            except DROPS as exc:
                if self.stopped:
                    return
                self.say(f"the event stream dropped ({type(exc).__name__}); connecting again")
            if backoff.wait(self._stop):
                return

    def _on(self, event: Event) -> None:
        if isinstance(event, Challenge):
            self._challenged(event)
        elif isinstance(event, GameStart):
            self._start(event)
        elif isinstance(event, GameFinish):
            self._finish(event.id, event.seat, event.result)

    def _challenged(self, challenge: Challenge) -> None:
        known = True
        try:
            get_game(challenge.game)
        except PolisError:
            known = False
        try:
            if known and not self._full():
                game_id, _seat = self.client.accept(challenge.id)
                with self._lock:
                    self.taken.add(game_id)
                self.say(f"accepted {challenge.challenger}'s challenge: game {game_id}")
            else:
                self.client.decline(challenge.id)
                why = "a game this install does not have" if not known else "enough games"
                self.say(f"declined {challenge.challenger}'s challenge ({why})")
        except ApiError as exc:  # answered meanwhile, or the table could not be made
            self.say(f"challenge {challenge.id}: {exc.message}")
        except DROPS as exc:  # the event stream tells it again if it is still open
            self.say(f"challenge {challenge.id}: no answer ({type(exc).__name__})")

    def _start(self, start: GameStart) -> None:
        with self._lock:
            if start.id in self.playing or start.id in self.over:
                return
            if self._full() and start.id not in self.taken:
                return  # enough games: a seat taken elsewhere is left to its stand-in
            self.taken.add(start.id)
            thread = threading.Thread(
                target=self._play, args=(start,), name=f"polis-bot-{start.id}", daemon=True
            )
            self.playing[start.id] = thread
        thread.start()

    def _finish(self, game_id: str, seat: int, result: Mapping[str, Any] | None) -> None:
        with self._lock:
            if game_id in self.over:
                return
            self.over.add(game_id)
            self.taken.discard(game_id)
            if game_id in self.playing:
                self.finished += 1
            self.playing.pop(game_id, None)
            done = self.limit is not None and self.finished >= self.limit and not self.playing
        self.say(f"game {game_id} over: {LETTERS[seat]} {place_of(result, seat)}")
        if done:
            self.stop()

    # -- one game -------------------------------------------------------------------------------
    def _play(self, start: GameStart) -> None:
        try:
            game = get_game(start.game)
        except PolisError as exc:
            self.say(f"game {start.id}: {exc}")
            self._finish(start.id, start.seat, None)
            return
        self.say(f"playing game {start.id}: {game.title} {start.mode}, seat {LETTERS[start.seat]}")
        seed = derive_seed(start.id, "bot")
        agent, budget = self.maker.make(seed)
        rng = random.Random(seed)
        moved_at = -1
        backoff = self.backoff()
        while not self.stopped:
            try:
                for state in self.client.game_states(start.id):
                    backoff.reset()
                    if state.get("finished"):
                        self._finish(start.id, start.seat, state.get("result"))
                        return
                    moved_at = self._turn(game, start.id, state, agent, budget, rng, moved_at)
            except ApiError as exc:
                if exc.status in (401, 403) and exc.code in ("unauthorized", "forbidden"):
                    if exc.code == "unauthorized":
                        self._refused(exc)
                    else:
                        self.say(f"game {start.id}: {exc.message}")
                        self._finish(start.id, start.seat, None)
                    return
                if exc.fatal:
                    self.say(f"game {start.id}: {exc.message}")
                    self._finish(start.id, start.seat, None)
                    return
                self.say(f"game {start.id}: {exc.message}; connecting again")
            except DROPS as exc:
                if self.stopped:
                    return
                self.say(
                    f"game {start.id}: stream dropped ({type(exc).__name__}); connecting again"
                )
            if backoff.wait(self._stop):
                return

    def _turn(
        self,
        game: Game,
        game_id: str,
        state: Mapping[str, Any],
        agent: Any,
        budget: Any,
        rng: random.Random,
        moved_at: int,
    ) -> int:
        """Move if the state is the seat's turn (and not answered yet); the position last
        moved at."""
        position = int(state["position"])
        if state["current_player"] != state["seat"] or not state["legal"] or position <= moved_at:
            return moved_at
        mode = str(state["mode"])
        legal = legal_moves(game, mode, state["legal"])
        try:
            view = seat_view(game, state["view"])
            move = agent.act(view, legal, game, budget)
        except Exception as exc:  # the agent's bug must not cost the seat its turn
            log.exception("the agent failed in game %s", game_id)
            self.say(
                f"game {game_id}: the agent failed ({type(exc).__name__}: {exc}); a random move"
            )
            move = None
        if move not in legal:
            if move is not None:
                self.say(f"game {game_id}: the agent chose {move}, not a legal move; a random one")
            move = legal[rng.randrange(len(legal))]
        backoff = self.backoff()
        for _ in range(MOVE_TRIES):
            try:
                self.client.move(game_id, move.text, position)
                return position
            except ApiError as exc:
                if exc.code == "rate_limited":
                    if backoff.wait(self._stop):
                        return moved_at
                    continue
                if exc.code not in PASSING:
                    self.say(f"game {game_id}: move {move.text} refused: {exc.message}")
                return position  # the next state says where the game stands
            except DROPS:
                if backoff.wait(self._stop):
                    return moved_at
        return moved_at
