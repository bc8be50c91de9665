"""One agent of another polis checkout, answering over stdin and stdout (JSON lines).

Run by ``benchmarks/versus_tree.py`` with the other checkout's ``src`` first on the path,
so everything below is that checkout's code. Each request holds the game record so far
(formats.md §3: the public contract every version reads) and, for a game's first request,
the agent spec and seed. The bridge replays the record with its own engine, hands its
agent only ``state.view(seat)`` and the legal moves (as that checkout's arena did), and
answers the move in notation with the seconds (wall and CPU) and search iterations it
spent. One agent per seat and game, kept between its moves, so its tree reuse and its
belief work as in that checkout's own games. With ``--clock cpu`` its agents' time budgets
count the process's CPU seconds (:func:`use_cpu_clock`), with ``--clock wall`` wall seconds
(:func:`use_wall_clock`), whichever the checkout counts by itself. ``versus_tree.py`` times
its own side and switches its own clock with the same functions.

This file uses only calls that the polis API has kept since the first bots (``get_game``,
``from_record``, ``view``, ``legal_moves``, ``make_agent`` and ``act``).
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

import bench_args

#: The wall clock, kept before :func:`use_cpu_clock` may put the CPU clock in its place.
WALL = time.perf_counter


def use_cpu_clock() -> None:
    """Make this process's time budgets count its CPU seconds: older versions' agent clocks
    read ``time.perf_counter``, so that is where the CPU clock goes, and newer ones read
    ``polis.bots.budget.cpu_clock`` (the thinking thread's CPU time). A side whose thinking
    shares its core then still gets all of its budget."""
    time.perf_counter = time.process_time
    _budget_clock(time.process_time)


def use_wall_clock() -> None:
    """Make this process's time budgets count wall seconds, as every version's did before
    budgets counted CPU time (``polis.bots.budget.cpu_clock``; older versions need nothing)."""
    _budget_clock(WALL)


def _budget_clock(clock: Any) -> None:
    """Put ``clock`` where a version whose budgets count CPU time reads it."""
    try:
        from polis.bots import budget
    except ImportError:  # a version without the module: its clock is time.perf_counter
        return
    if hasattr(budget, "cpu_clock"):
        budget.cpu_clock = clock


def think(agent: Any, view: Any, legal: Any, game: Any, budget: Any) -> tuple[Any, dict[str, Any]]:
    """The agent's move, and what it spent on it: wall and CPU seconds, search iterations
    (both sides of a duel are timed by this)."""
    stats = getattr(agent, "stats", None)
    before = stats.iterations if stats is not None else 0
    start, cpu = WALL(), time.process_time()
    move = agent.act(view, legal, game, budget)
    spent = {
        "seconds": WALL() - start,
        "cpu": time.process_time() - cpu,
        "iterations": (stats.iterations if stats is not None else 0) - before,
    }
    return move, spent


def notation(state: Any, move: Any) -> str:
    """A move's notation in either API (older states format moves themselves)."""
    to_str = getattr(state, "move_to_str", None)
    return str(to_str(move)) if to_str is not None else str(move)


def main() -> None:
    parser = bench_args.parser(
        __doc__,
        "until its standard input closes (versus_tree.py runs it for the length of a duel).",
    )
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="what its agents' time budgets count: wall seconds or this process's CPU seconds",
    )
    if parser.parse_args().clock == "cpu":
        use_cpu_clock()
    else:
        use_wall_clock()
    from polis.bots.factory import make_agent
    from polis.core.registry import get_game

    agents: dict[int, tuple[Any, Any]] = {}
    for line in sys.stdin:
        request = json.loads(line)
        record = request["record"]
        game = get_game(record["game"])
        state = game.from_record(record)
        seat = state.current_player()
        if "spec" in request:  # the seat's first move of a game: a fresh agent
            agents[seat] = make_agent(request["spec"], request["seed"])
        agent, budget = agents[seat]
        move, spent = think(agent, state.view(seat), state.legal_moves(), game, budget)
        print(json.dumps({"move": notation(state, move), **spent}), flush=True)


if __name__ == "__main__":
    main()
