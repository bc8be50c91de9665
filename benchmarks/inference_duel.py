"""What the Metropolys card inference buys head to head: ``mcts`` with the policy-based
inference against ``mcts`` with the older count rule, each with its own iteration budget.

Usage: .venv/bin/python benchmarks/inference_duel.py [--mode family] [--policy 2000]
       [--counts 2000] [--games 40] [--seed 5]

2 players; each deal is played twice, the policy agent once in each seat; the policy
agent's win share (a shared first place counts half) with its Wilson 95% interval (parity
0.5). Budgets are iterations, so the figures do not depend on the machine's speed: giving
the policy agent twice the counts agent's iterations asks what the inference is worth
together with a search twice as fast. The count rule is the knowledge plug-in's
``inference = "counts"`` (what ``hard`` used before the policy-based inference).
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

import bench_args
from polis.arena.stats import wilson
from polis.bots.budget import Budget
from polis.bots.mcts import MctsAgent
from polis.core.match import Turn, derive_seed, play_match
from polis.core.parts import KNOWLEDGE, PluginKey
from polis.core.protocol import Game
from polis.core.registry import get_game


class CountsGame:
    """Metropolys whose knowledge plug-in learns the cards by the older count rule."""

    def __init__(self, game: Game) -> None:
        self.inner = game

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def plugin(self, part: PluginKey[Any] | str) -> Any:
        made = self.inner.plugin(part)
        if str(part) != KNOWLEDGE.name:
            return made

        def counts_knowledge(game: Any) -> Any:
            knowledge = made(game)
            knowledge.inference = "counts"
            return knowledge

        return counts_knowledge


def main() -> None:
    parser = bench_args.parser(
        __doc__,
        "about 25 minutes with the defaults, on one core (40 games at 2,000 iterations a move "
        "on both sides); proportional to --games and to the iterations.",
    )
    parser.add_argument("--mode", default="family", help="the Metropolys mode")
    parser.add_argument("--policy", type=int, default=2000, help="policy agent's iterations")
    parser.add_argument("--counts", type=int, default=2000, help="counts agent's iterations")
    parser.add_argument("--games", type=int, default=40, help="games (each deal played twice)")
    parser.add_argument("--seed", type=int, default=5, help="seed of the deals and agents")
    args = parser.parse_args()
    game = get_game("metropolys")
    counts_game: Any = CountsGame(game)
    share = 0.0
    played = 0
    for deal in range(args.games // 2):
        for policy_seat in (0, 1):
            state = game.new_game(args.mode, 2, seed=derive_seed(args.seed, "deal", deal))
            seats = []
            for p in range(2):
                agent = MctsAgent(
                    random.Random(derive_seed(args.seed, "agent", deal, policy_seat, p))
                )
                eyes = game if p == policy_seat else counts_game
                budget = Budget(iterations=args.policy if p == policy_seat else args.counts)

                def choose(
                    turn: Turn, agent: MctsAgent = agent, eyes: Any = eyes, budget: Budget = budget
                ) -> Any:
                    return agent.act(turn.view, turn.legal, eyes, budget)

                seats.append(choose)
            start = time.perf_counter()
            play_match(state, seats)
            result = state.result()
            won = result.win_shares()[policy_seat]
            share += won
            played += 1
            print(
                json.dumps(
                    {
                        "deal": deal,
                        "policy_seat": policy_seat,
                        "policy_share": won,
                        "scores": list(result.scores),
                        "seconds": round(time.perf_counter() - start, 1),
                    }
                ),
                flush=True,
            )
    low, high = wilson(share, played)
    print(
        json.dumps(
            {
                "mode": args.mode,
                "policy_iterations": args.policy,
                "counts_iterations": args.counts,
                "games": played,
                "policy_win_share": round(share / played, 3),
                "ci95": [round(low, 2), round(high, 2)],
            }
        )
    )


if __name__ == "__main__":
    main()
