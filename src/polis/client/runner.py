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
  the games it plays are over. A refused token (revoked, or its account deleted) stops it at
  once;
* with an ``event`` (a tournament's id), :meth:`BotRunner.enter_event` enters it before play
  (an entrant connecting again just plays on); its tables reach the bot as any game does, as
  ``game_start`` on the event stream, and are played like the rest. The runner looks at the
  event every :data:`EVENT_POLL` seconds and stops once it is over (or the bot is out of it:
  withdrawn, a no-show) and the games under way are over, saying where the bot finished.
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
#: Seconds between looks at the event the bot plays in (is it over?).
EVENT_POLL = 3.0
#: An event's states once nothing more is played in it.
EVENT_OVER = frozenset({"finished", "cancelled"})


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` ... ``11th``, ``21st``."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


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
        event: str | None = None,
        say: Callable[[str], None] = print,
        backoff: Callable[[], Backoff] = Backoff,
        event_poll: float = EVENT_POLL,
    ) -> None:
        self.client = client
        self.maker = maker
        self.limit = games
        #: The event (tournament) the bot plays in, if any: it stops once that is over.
        self.event = event
        self.event_poll = event_poll
        #: The event as last seen (``status``, ``standings`` ...), once looked at.
        self.event_seen: dict[str, Any] | None = None
        #: It stopped because the event has nothing more for the bot.
        self.event_done = False
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
        if self.event is not None:
            watch = threading.Thread(target=self._watch_event, name="polis-bot-event", daemon=True)
            watch.start()
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

    # -- an event (tournament) ------------------------------------------------------------------
    def enter_event(self) -> str:
        """Enter :attr:`event` before its start, or find the bot entered already (it connects
        again); a line saying which. :class:`ApiError` when it cannot: an unknown event, one
        that started (or ended) without the bot, a refused token."""
        assert self.event is not None
        event_id = self.event
        if not self.name:
            self.name = str(self._patiently(self.client.account)["name"])
        seen: dict[str, Any] = self._patiently(lambda: self.client.event(event_id))
        self.event_seen = seen
        title = f"event {seen['name']} ({event_id})"
        if seen.get("joined"):
            if self._out(seen):
                return f"{title}: withdrawn, nothing more to play there"
            return f"{title}: entered already, {seen['status']}"
        if seen["status"] != "open":
            raise ApiError(400, "bad_request", f"{title} is {seen['status']}: too late to enter")
        self._patiently(lambda: self.client.join_event(event_id))
        return f"joined {title}: {seen['game']} {seen['mode']}, {seen['format']}"

    def _out(self, seen: Mapping[str, Any]) -> bool:
        """Whether the bot plays no more in the event as ``seen``: it is over, or the bot was
        withdrawn (left, did not show up) or is no entrant."""
        if seen.get("status") in EVENT_OVER or not seen.get("joined"):
            return True
        mine = [e for e in seen.get("roster", ()) if e.get("name") == self.name]
        return bool(mine) and mine[0].get("withdrawn") is not None

    def _watch_event(self) -> None:
        """Look at the event now and then; once the bot plays no more there and its games
        are over, say where it finished and stop."""
        assert self.event is not None
        event_id = self.event
        while not self.stopped:
            try:
                if self._look_at_event(event_id):
                    return
            except ApiError as exc:
                if exc.status in (401, 403):
                    self._refused(exc)
                    return
                if exc.status == 404:
                    self.say(f"event {event_id}: {exc.message}")
                    self.stop()
                    return
            except DROPS:
                pass  # the server is away: the next look tells
            except Exception:  # an answer this client cannot read: it must not stop looking
                log.exception("looking at event %s failed", event_id)
            if self._stop.wait(self.event_poll):
                return

    def _look_at_event(self, event_id: str) -> bool:
        """One look at the event: whether the runner stopped because it is done there."""
        seen = self.client.event(event_id)
        self.event_seen = seen
        with self._lock:
            busy = bool(self.playing)
        if busy or not self._out(seen):
            return False
        self.say(self._event_line(seen))
        self.event_done = True
        self.stop()
        return True

    def _event_line(self, seen: Mapping[str, Any]) -> str:
        """Where the bot stands in the event as ``seen``."""
        title = f"event {seen.get('name')} {seen.get('status')}"
        lines = seen.get("final") or seen.get("standings") or []
        mine = next((x for x in lines if x.get("name") == self.name), None)
        if mine is None:
            return f"{title}: {self.name} has no standing there"
        return (
            f"{title}: {self.name} {ordinal(int(mine['rank']))} of {len(lines)}, "
            f"{mine['points']:g} points from {mine['played']} table(s) and {mine['byes']} bye(s)"
        )

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
        rng = random.Random(seed)
        try:
            agent, budget = self.maker.make(seed)
        except Exception as exc:  # the factory's bug must not leave the seat to its clock
            log.exception("making the agent failed in game %s", start.id)
            self.say(f"game {start.id}: no agent ({type(exc).__name__}: {exc}); random moves")
            agent, budget = None, None
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
        move: Any = None
        try:
            if agent is not None:
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
