"""Fit the learned value of Metropolys Family 2p positions (``polis.games.metropolys.value``).

Positions come from games the playout policy plays against itself (``--per-game`` of each);
each is labelled with the value an all-seeing ``mcts`` search finds there (the mean reward
of the move it chooses, ``--iterations`` a search, the true state in place of every sample,
without the value itself),
from both players' points of view. A ridge regression on the value module's features gives
the weights, printed as the ``WEIGHTS`` table of ``value.py``. With two or more seeds the
last one is held out: the fit uses the others and is scored (R²) on it. The committed
weights: ``--seeds 11,12 --games 420`` (about 20 minutes a seed on one core; held-out R²
0.69).

    python benchmarks/fit_value.py --seeds 11,12 --games 420
"""

from __future__ import annotations

import argparse
import random
from concurrent.futures import ProcessPoolExecutor
from typing import cast

import numpy as np

from oracle_gap import SeeingGame  # this script's sibling: the all-seeing twin
from polis.bots.budget import Budget
from polis.bots.knowledge import knowledge_for
from polis.bots.mcts import MctsAgent
from polis.core.protocol import Game
from polis.core.registry import get_game
from polis.games.metropolys.state import MetropolysState
from polis.games.metropolys.value import differences, progress

GAME = get_game("metropolys")


def row(state: MetropolysState, player: int) -> list[float]:
    """The regression's inputs: each feature, times the progress, times its square."""
    g = progress(state)
    x = differences(state, player)
    return [*x, *(v * g for v in x), *(v * g * g for v in x)]


def search_value(state: MetropolysState, iterations: int, rng: random.Random) -> float:
    """Player 0's value by an all-seeing search from ``state`` (the oracle gap's twin)."""
    mover = state.current_player()
    seeing = cast(Game, SeeingGame(GAME, state))
    knowledge = knowledge_for(seeing)
    knowledge.pool_size = 0  # every sample straight from the truth, no pool to draw from
    knowledge.value_mix = 0.0  # labels from the playouts alone: the fit never feeds on itself
    agent = MctsAgent(random.Random(rng.random()), reuse=False)
    agent._knowledge = knowledge
    agent.act(state.view(mover), state.legal_moves(), seeing, Budget(iterations=iterations))
    chosen = agent._root  # the child of the move played: its mean reward is the mover's
    assert chosen is not None and chosen.visits
    value = chosen.total / chosen.visits
    return value if mover == 0 else 1.0 - value


def labelled(
    seed: int, games: int, per_game: int, iterations: int
) -> tuple[list[list[float]], list[float]]:
    """Rows and targets (player 0's value minus 0.5, then the mirror) of one seed."""
    knowledge = knowledge_for(GAME)
    rng = random.Random(seed)
    xs: list[list[float]] = []
    ys: list[float] = []
    for i in range(games):
        state = GAME.new_game("family", 2, seed=seed * 100000 + i)
        trace = []
        while not state.is_terminal():
            trace.append(state.clone())
            state.apply(knowledge.playout_move(state, rng))
        for position in rng.sample(trace, min(per_game, len(trace))):
            assert isinstance(position, MetropolysState)
            if len(position.legal_moves()) < 2:
                continue
            value = search_value(position, iterations, rng)
            xs += [row(position, 0), row(position, 1)]
            ys += [value - 0.5, 0.5 - value]
    return xs, ys


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="11,12")
    parser.add_argument("--games", type=int, default=420, help="games per seed")
    parser.add_argument("--per-game", type=int, default=6)
    parser.add_argument("--iterations", type=int, default=800)
    parser.add_argument("--ridge", type=float, default=1e-3)
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    with ProcessPoolExecutor(max_workers=min(2, len(seeds))) as pool:
        parts = list(
            pool.map(
                labelled,
                seeds,
                [args.games] * len(seeds),
                [args.per_game] * len(seeds),
                [args.iterations] * len(seeds),
            )
        )
    train = parts[:-1] if len(parts) > 1 else parts
    x = np.array([r for xs, _ in train for r in xs])
    y = np.array([v for _, ys in train for v in ys])
    weights = np.linalg.solve(x.T @ x + args.ridge * np.eye(x.shape[1]), x.T @ y)
    if len(parts) > 1:
        held_x, held_y = np.array(parts[-1][0]), np.array(parts[-1][1])
        predicted = np.clip(held_x @ weights + 0.5, 0.0, 1.0) - 0.5
        r2 = 1.0 - ((predicted - held_y) ** 2).mean() / held_y.var()
        print(f"held-out R² (seed {seeds[-1]}, {len(held_y)} rows): {r2:.3f}")
    n = len(weights) // 3
    print(f"fitted on {len(y)} rows; WEIGHTS = (")
    for i in range(n):
        print(f"    ({weights[i]:.4f}, {weights[n + i]:.4f}, {weights[2 * n + i]:.4f}),")
    print(")")


if __name__ == "__main__":
    main()
