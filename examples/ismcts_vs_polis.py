"""OpenSpiel's IS-MCTS against the polis levels, on a polis game registered with pyspiel.

IS-MCTS (``open_spiel.python.algorithms.ismcts``) searches information sets: each simulation
samples a world consistent with what the bot has seen (``resample_from_infostate``, the
engine's own determinization) and evaluates new leaves with random playouts. The playouts
use :class:`polis.research.spiel_evaluator.EngineRolloutEvaluator`, which finishes the game
on the engine's cheap random moves instead of stepping pyspiel once per action: tens of
times faster, so the bot can afford enough simulations to be a fair opponent. Seats rotate
from game to game; the table prints each entrant's total win share and the bot's average
seconds per move.

    pip install -e '.[openspiel]'
    python examples/ismcts_vs_polis.py --game metropolys --mode family --simulations 1000 \\
        --against easy,medium,hard --games 20
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts

from polis.research.openspiel_game import register
from polis.research.spiel_arena import play_match
from polis.research.spiel_evaluator import EngineRolloutEvaluator


class TimedBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """ISMCTSBot that counts its moves and the seconds it spent on them."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.moves = 0
        self.seconds = 0.0

    def step(self, state: pyspiel.State) -> int:
        start = time.perf_counter()
        action = super().step(state)
        self.seconds += time.perf_counter() - start
        self.moves += 1
        return int(action)


def make_bot(game: pyspiel.Game, simulations: int, rollouts: int, seed: int) -> TimedBot:
    evaluator = EngineRolloutEvaluator(rollouts, np.random.RandomState(seed))
    return TimedBot(
        game,
        evaluator,
        uct_c=2.0,
        max_simulations=simulations,
        random_state=np.random.RandomState(seed + 1),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", default="metropolys")
    parser.add_argument("--mode", default=None)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--simulations", type=int, default=1000)
    parser.add_argument("--rollouts", type=int, default=1)
    parser.add_argument("--against", default="easy,medium,hard", help="polis agent specs")
    parser.add_argument("--games", type=int, default=20, help="games per opponent")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    params: dict[str, Any] = {"players": args.players}
    if args.mode:
        params["mode"] = args.mode
    game = pyspiel.load_game(register(args.game), params)
    results = {}
    for k, opponent in enumerate(args.against.split(",")):
        bot = make_bot(game, args.simulations, args.rollouts, args.seed + 10 * k)
        seats: list[Any] = [bot] + [opponent] * (args.players - 1)
        start = time.perf_counter()
        match = play_match(game, seats, games=args.games, seed=args.seed + k)
        wins = sum(1 for g in match.per_game if g[0] == 1.0)
        results[opponent] = {
            "games": match.games,
            "ismcts_win_share": round(match.totals[0] / match.games, 3),
            "ismcts_wins": wins,
            "ismcts_seconds_per_move": round(bot.seconds / max(bot.moves, 1), 3),
            "match_seconds": round(time.perf_counter() - start, 1),
        }
        print(opponent, json.dumps(results[opponent]), flush=True)
    report = {
        "game": args.game,
        "params": dict(game.get_parameters()),
        "simulations": args.simulations,
        "rollouts": args.rollouts,
        "results": results,
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
