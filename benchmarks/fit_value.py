"""Fit the learned value of Metropolys positions (``polis.games.metropolys.value``).

Positions come from games the playout policy plays against itself (``--per-game`` of each);
each is labelled with the value an all-seeing ``mcts`` search finds there (the mean reward
of the move it chooses, ``--iterations`` a search, the true state in place of every sample,
without the value itself). With 2 players the label serves both points of view; with 4,
every player is labelled with the mean reward of the search's playouts after that move
(``--save`` keeps the rows). A ridge regression on the value module's features gives the weights,
printed as the ``WEIGHTS`` (2 players) or ``WEIGHTS_4`` table of ``value.py``. With two or
more seeds the last one is held out: the fit uses the others and is scored (R²) on it. The
committed weights (about 20 minutes a seed on one core; held-out R² 0.69 and 0.57):

    python benchmarks/fit_value.py --seeds 11,12 --games 420
    python benchmarks/fit_value.py --seeds 11,12 --games 200 --players 4

``--mode expert`` fits the 4-player features on Expert positions (``--seeds 21,22 --games
240 --players 4``: held-out R² 0.58); those weights are not in ``value.py``, because in
play they gained nothing measurable (``docs/bots.md``).
"""

from __future__ import annotations

import random
from concurrent.futures import ProcessPoolExecutor
from typing import cast

import numpy as np

import bench_args
from oracle_gap import SeeingGame  # this script's sibling: the all-seeing twin
from polis.bots.budget import Budget
from polis.bots.knowledge import knowledge_for
from polis.bots.mcts import MctsAgent
from polis.core.moves import Move
from polis.core.protocol import Game, GameState
from polis.core.registry import get_game
from polis.games.metropolys.state import MetropolysState
from polis.games.metropolys.value import differences, progress, standings

GAME = get_game("metropolys")


def row(state: MetropolysState, player: int) -> list[float]:
    """The regression's inputs: each feature, times the progress, times its square."""
    g = progress(state)
    x = differences(state, player) if state.num_players == 2 else standings(state)[player]
    return [*x, *(v * g for v in x), *(v * g * g for v in x)]


def seeing_agent(state: MetropolysState, rng: random.Random) -> tuple[MctsAgent, Game]:
    """The oracle gap's all-seeing twin searching from ``state``, without the value."""
    seeing = cast(Game, SeeingGame(GAME, state))
    knowledge = knowledge_for(seeing)
    knowledge.pool_size = 0  # every sample straight from the truth, no pool to draw from
    knowledge.value_mix = 0.0  # labels from the playouts alone: the fit never feeds on itself
    agent = MctsAgent(random.Random(rng.random()), reuse=False)
    agent._knowledge = knowledge
    return agent, seeing


def search_value(state: MetropolysState, iterations: int, rng: random.Random) -> float:
    """The mover's value by an all-seeing search from ``state``."""
    mover = state.current_player()
    agent, seeing = seeing_agent(state, rng)
    agent.act(state.view(mover), state.legal_moves(), seeing, Budget(iterations=iterations))
    chosen = agent._root  # the child of the move played: its mean reward is the mover's
    assert chosen is not None and chosen.visits
    return chosen.total / chosen.visits


def search_values(state: MetropolysState, iterations: int, rng: random.Random) -> list[float]:
    """Every player's value by an all-seeing search from ``state``: the mean rewards of the
    playouts that began with the move it chooses (the tree keeps only the mover's)."""
    ply = len(state.history)
    seen: list[tuple[Move, tuple[float, ...]]] = []

    agent, seeing = seeing_agent(state, rng)
    knowledge = agent._knowledge
    assert knowledge is not None
    plain = knowledge.playout

    def recording(leaf: GameState, rng: random.Random) -> tuple[float, ...]:
        rewards = plain(leaf, rng)
        assert isinstance(leaf, MetropolysState)
        seen.append((leaf.history[ply], rewards))
        return rewards

    knowledge.playout = recording  # type: ignore[method-assign]
    view = state.view(state.current_player())
    choice = agent.act(view, state.legal_moves(), seeing, Budget(iterations=iterations))
    rewards = [r for move, r in seen if move == choice]
    return [sum(r[p] for r in rewards) / len(rewards) for p in range(state.num_players)]


def labelled(
    seed: int, games: int, per_game: int, iterations: int, players: int = 2, mode: str = "family"
) -> tuple[list[list[float]], list[float]]:
    """Rows and targets of one seed: with two players, player 0's value minus 0.5, then the
    mirror; with more, each player's value."""
    knowledge = knowledge_for(GAME)
    rng = random.Random(seed)
    xs: list[list[float]] = []
    ys: list[float] = []
    for i in range(games):
        state = GAME.new_game(mode, players, seed=seed * 100000 + i)
        trace = []
        while not state.is_terminal():
            trace.append(state.clone())
            state.apply(knowledge.playout_move(state, rng))
        for position in rng.sample(trace, min(per_game, len(trace))):
            assert isinstance(position, MetropolysState)
            if len(position.legal_moves()) < 2:
                continue
            if players > 2:
                values = search_values(position, iterations, rng)
                xs += [row(position, p) for p in range(players)]
                ys += values
                continue
            value = search_value(position, iterations, rng)
            value = value if position.current_player() == 0 else 1.0 - value
            xs += [row(position, 0), row(position, 1)]
            ys += [value - 0.5, 0.5 - value]
    return xs, ys


def main() -> None:
    parser = bench_args.parser(
        __doc__,
        "about 20 minutes with the defaults (a seed of 420 games takes about 20 minutes on one "
        "core, the seeds run side by side on two); proportional to --games and --iterations.",
    )
    parser.add_argument(
        "--seeds", default="11,12", help="comma-separated; with two or more the last is held out"
    )
    parser.add_argument("--games", type=int, default=420, help="games per seed")
    parser.add_argument("--per-game", type=int, default=6, help="positions labelled per game")
    parser.add_argument(
        "--iterations", type=int, default=800, help="the all-seeing search's iterations a label"
    )
    parser.add_argument("--ridge", type=float, default=1e-3, help="the regression's ridge")
    parser.add_argument("--players", type=int, default=2, help="2 or 4")
    parser.add_argument(
        "--mode", default="family", choices=("family", "expert"), help="the positions' mode"
    )
    parser.add_argument("--save", help="keep each seed's rows and targets in SAVE_<seed>.npz")
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
                [args.players] * len(seeds),
                [args.mode] * len(seeds),
            )
        )
    if args.save:
        for seed, (xs, ys) in zip(seeds, parts, strict=True):
            np.savez(f"{args.save}_{seed}.npz", x=np.array(xs), y=np.array(ys))
    train = parts[:-1] if len(parts) > 1 else parts
    x = np.array([r for xs, _ in train for r in xs])
    y = np.array([v for _, ys in train for v in ys])
    weights = np.linalg.solve(x.T @ x + args.ridge * np.eye(x.shape[1]), x.T @ y)
    if len(parts) > 1:
        held_x, held_y = np.array(parts[-1][0]), np.array(parts[-1][1])
        offset = 0.5 if args.players == 2 else 0.0
        predicted = np.clip(held_x @ weights + offset, 0.0, 1.0) - offset
        r2 = 1.0 - ((predicted - held_y) ** 2).mean() / held_y.var()
        print(f"held-out R² (seed {seeds[-1]}, {len(held_y)} rows): {r2:.3f}")
    n = len(weights) // 3
    print(f"fitted on {len(y)} rows; WEIGHTS = (")
    for i in range(n):
        print(f"    ({weights[i]:.4f}, {weights[n + i]:.4f}, {weights[2 * n + i]:.4f}),")
    print(")")


if __name__ == "__main__":
    main()
