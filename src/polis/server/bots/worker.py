"""The bot side of a bot worker: a process (or Ray actor) that holds agents and thinks.

It is sent one seat's view and legal moves, never the game state: a bot decides through the
agent protocol (:func:`polis.bots.agent_seat` on a :class:`~polis.core.match.Turn`) from
exactly what its seat may see, and a worker never holds another seat's secrets. Agents stay
in the worker between their moves (a search tree carries over), keyed by game and seat; the
server sends an agent (pickled, fresh and seeded) the first time a worker needs it.

Requests, as tuples (pickled over a pipe, or Ray arguments):

* ``("decide", key, agent or None, game, view, legal)``: answered ``("move", move, effort)``
  (``effort``: the move's search iterations and seconds of CPU time, see :func:`effort`, or
  None for an agent that does not count them), ``("missing",)`` (no agent for ``key``: send
  it) or ``("error", text)`` (the agent failed);
* ``("forget", key)``: drop the agent (its game is over or gone); no answer;
* ``("call", function, args)``: other thinking done for the server from a seat's view (a
  hint, a move of a post-game review, :mod:`polis.server.table.hint_search`): answered ``("done",
  value)`` or ``("error", text)``.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
from collections import OrderedDict
from collections.abc import Sequence
from multiprocessing.connection import Connection
from typing import Any

from polis.bots import agent_seat
from polis.core.match import Seat, Turn
from polis.core.moves import Move, MoveList
from polis.core.view import View

#: Agents a worker keeps (least recently used go first).
MAX_AGENTS = 512

Key = tuple[str, int]


class ViewTurn(Turn):
    """A turn built from what the seat may see (its view and legal moves), with no state."""

    __slots__ = ()

    def __init__(self, view: View, legal: Sequence[Move]) -> None:
        self.player = view.player if view.player is not None else view.current_player
        self._view = view
        self._legal = legal if isinstance(legal, MoveList) else MoveList(legal)

    def random_move(self, rng: Any) -> Move:
        move: Move = rng.choice(self.legal)
        return move


#: What a decision cost: search iterations, seconds of CPU time, and whether the wall-clock
#: cap cut it short (:class:`polis.bots.AgentStats`).
Effort = dict[str, float]


def effort(stats: Any, before: Effort | None) -> Effort | None:
    """The counters of an agent's ``stats`` now, less ``before`` (None: no stats kept)."""
    if stats is None:
        return None
    now = {
        "iterations": float(stats.iterations),
        "cpu_seconds": float(stats.cpu_seconds),
        "capped": float(stats.capped),
    }
    if before is None:
        return now
    return {k: now[k] - before[k] for k in now}


class BotHost:
    """The agents of one worker and the handling of one request."""

    def __init__(self) -> None:
        self.seats: OrderedDict[Key, Seat] = OrderedDict()
        #: The counters of each seat's agent (AgentStats), for the effort of its moves.
        self.stats: dict[Key, Any] = {}

    def handle(self, request: tuple[Any, ...]) -> tuple[Any, ...] | None:
        kind = request[0]
        if kind == "forget":
            self.seats.pop(request[1], None)
            self.stats.pop(request[1], None)
            return None
        if kind == "call":
            _kind, function, args = request
            try:
                return ("done", function(*args))
            except Exception as exc:  # reported; the worker goes on
                return ("error", f"{type(exc).__name__}: {exc}")
        if kind != "decide":
            return ("error", f"unknown request {kind!r}")
        _kind, key, blob, game, view, legal = request
        try:
            if blob is not None:
                agent, budget = pickle.loads(blob)
                self.seats[key] = agent_seat(agent, budget, game)
                self.stats[key] = getattr(agent, "stats", None)
                while len(self.seats) > MAX_AGENTS:
                    self.stats.pop(self.seats.popitem(last=False)[0], None)
            seat = self.seats.get(key)
            if seat is None:
                return ("missing",)
            self.seats.move_to_end(key)
            before = effort(self.stats.get(key), None)
            move = seat(ViewTurn(view, legal))
        except Exception as exc:  # the agent's failure, reported; the worker goes on
            self.seats.pop(key, None)
            self.stats.pop(key, None)
            return ("error", f"{type(exc).__name__}: {exc}")
        return ("move", move, effort(self.stats.get(key), before))


def warm() -> None:
    """Warm every installed game (:func:`~polis.bots.knowledge.warm_game`), once in the fork
    server the worker processes are forked from (:mod:`polis.server.bots.warm`), so that
    they share it."""
    from polis.bots.knowledge import warm_game
    from polis.core.registry import games

    for game in games().values():
        try:
            warm_game(game)
        except Exception:  # a warm-up only: a game that cannot is warmed by its first bot
            continue


def calm(nice: int) -> None:
    """Lower this process's priority and leave Ctrl+C to the server that started it."""
    with contextlib.suppress(OSError):
        os.nice(nice)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def worker_main(conn: Connection, nice: int) -> None:
    """A worker process: answer requests until the server closes the pipe (or dies)."""
    calm(nice)
    host = BotHost()
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            return
        answer = host.handle(request)
        if answer is not None:
            try:
                conn.send(answer)
            except (BrokenPipeError, OSError):
                return
