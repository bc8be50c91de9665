"""One agent of another polis checkout, answering over stdin and stdout (JSON lines).

Run by ``benchmarks/versus_tree.py`` with the other checkout's ``src`` first on the path,
so everything below is that checkout's code. Each request holds the game record so far
(formats.md §3: the public contract every version reads) and, for a game's first request,
the agent spec and seed. The bridge replays the record with its own engine, hands its
agent only ``state.view(seat)`` and the legal moves (as that checkout's arena did), and
answers the move in notation with the seconds (wall and CPU) and search iterations it
spent. One agent per seat and game, kept between its moves, so its tree reuse and its
belief work as in that checkout's own games. With ``--clock cpu`` its agents' time budgets
count the process's CPU seconds (``time.perf_counter``, which every version's clock reads,
is replaced by ``time.process_time``).

This file uses only calls that the polis API has kept since the first bots (``get_game``,
``from_record``, ``view``, ``legal_moves``, ``make_agent`` and ``act``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any


def notation(state: Any, move: Any) -> str:
    """A move's notation in either API (older states format moves themselves)."""
    to_str = getattr(state, "move_to_str", None)
    return str(to_str(move)) if to_str is not None else str(move)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    wall = time.perf_counter
    if parser.parse_args().clock == "cpu":  # time budgets count this process's CPU seconds
        time.perf_counter = time.process_time
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
        stats = getattr(agent, "stats", None)
        before = stats.iterations if stats is not None else 0
        start, cpu = wall(), time.process_time()
        move = agent.act(state.view(seat), state.legal_moves(), game, budget)
        seconds, cpu = wall() - start, time.process_time() - cpu
        after = stats.iterations if stats is not None else 0
        answer = {
            "move": notation(state, move),
            "seconds": seconds,
            "cpu": cpu,
            "iterations": after - before,
        }
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
