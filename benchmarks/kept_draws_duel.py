"""What keeping each tree node's draws buys: ``mcts`` whose nodes keep the moves they drew
per tree key (``Knowledge.tree_key``) against ``mcts`` whose nodes draw afresh at every
visit (the tree key turned off), each with its own iteration budget.

Usage: .venv/bin/python benchmarks/kept_draws_duel.py [--game metropolys] [--mode family]
       [--kept 1000] [--fresh 1000] [--games 100] [--seed 3] [--workers 2]

2 players; each deal is played twice, the kept-draws agent once in each seat. Printed per
game, then the kept-draws agent's win share (a shared first place counts half) with its
Wilson 95% interval (parity 0.5), and its seconds of thinking as a share of the other's.
Budgets are iterations, so the win shares do not depend on the machine's speed.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from multiprocessing import Pool
from typing import Any

from polis.arena.stats import wilson
from polis.bots.budget import Budget
from polis.bots.knowledge import knowledge_for
from polis.bots.mcts import MctsAgent
from polis.core.match import Turn, derive_seed, play_match
from polis.core.registry import get_game


def one_game(task: tuple[str, str, int, int, int, int, int]) -> dict[str, Any]:
    """One game: the deal, the kept-draws agent's seat, both budgets."""
    name, mode, seed, deal, kept_seat, kept, fresh = task
    game = get_game(name)
    state = game.new_game(mode, 2, seed=derive_seed(seed, "deal", deal))
    agents, seats = [], []
    for p in range(2):
        agent = MctsAgent(random.Random(derive_seed(seed, "agent", deal, kept_seat, p)))
        knowledge = knowledge_for(game)
        if p != kept_seat:
            knowledge.tree_key = lambda state: None  # type: ignore[method-assign]
        agent._knowledge = knowledge
        budget = Budget(iterations=kept if p == kept_seat else fresh)

        def choose(turn: Turn, agent: MctsAgent = agent, budget: Budget = budget) -> Any:
            return agent.act(turn.view, turn.legal, game, budget)

        agents.append(agent)
        seats.append(choose)
    start = time.perf_counter()
    play_match(state, seats)
    return {
        "deal": deal,
        "kept_seat": kept_seat,
        "kept_share": state.result().win_shares()[kept_seat],
        "scores": list(state.result().scores),
        "thinking": [round(a.stats.seconds, 2) for a in agents],
        "seconds": round(time.perf_counter() - start, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", default="metropolys")
    parser.add_argument("--mode", default="family")
    parser.add_argument("--kept", type=int, default=1000, help="kept-draws agent's iterations")
    parser.add_argument("--fresh", type=int, default=1000, help="the other agent's iterations")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    tasks = [
        (args.game, args.mode, args.seed, deal, seat, args.kept, args.fresh)
        for deal in range(args.games // 2)
        for seat in (0, 1)
    ]
    share, played, thinking = 0.0, 0, [0.0, 0.0]  # seconds: kept, fresh
    with Pool(args.workers) as pool:
        for game in pool.imap_unordered(one_game, tasks):
            print(json.dumps(game), flush=True)
            share += game["kept_share"]
            played += 1
            thinking[0] += game["thinking"][game["kept_seat"]]
            thinking[1] += game["thinking"][1 - game["kept_seat"]]
    low, high = wilson(share, played)
    summary = {
        "game": args.game,
        "mode": args.mode,
        "kept_iterations": args.kept,
        "fresh_iterations": args.fresh,
        "games": played,
        "kept_win_share": round(share / played, 3),
        "ci95": [round(low, 2), round(high, 2)],
        "kept_thinking_share": round(thinking[0] / thinking[1], 2),
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
