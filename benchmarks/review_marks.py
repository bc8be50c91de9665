"""The review's marks on whole bot games: how many inaccuracies, mistakes and blunders a weak
player and a strong one get, under the rule of ``polis.bots.review`` and under the old one.

Usage: .venv/bin/python benchmarks/review_marks.py [--games 4] [--weak random]
       [--strong hard] [--agent mcts:200i] [--samples 24]
       [--settings quadropolis:classic,metropolys:family] [--seed 1] [--cache F]

Each setting plays ``--games`` 2-player games of ``--weak`` against ``--strong`` (the weak
player in seat A in even games, in seat B in odd ones), then reviews every move as the web
app does (its ``review_agent`` and ``review_samples``: ``mcts:200i``, 24 sampled games per
move). It prints, per game, the final scores, the points one move is worth
(``points_scale``) and each side's marks; then, per setting and side, the marks per game
under the rule of ``polis.bots.review`` (win share or points in moves' worth, low end of the
95% interval for wins; the estimate, where the interval is sure a loss of points, for
points) and under the old rule (win share only, the game's 3 surest losses), and the points
lost in moves' worth (0 where not sure) at the 50th, 75th and 90th percentiles of each
side's moves.

``--cache F`` keeps the reviewed games (a pickle) and reuses those already in it: the
thresholds (``MARKS``) can be changed and the figures printed again in a second.

Measured (29 Nov 2026, on 4bd1216 with the review's new marks; random against hard, seeds
1-4, mcts:200i and 24 samples; marks blunder 0.30 / 2.5, mistake 0.20 / 1.5, inaccuracy
0.10 / 1.0):

* Quadropolis Classic: the random player lost 13-62, -3-54, -1-54 and 16-58 (a move worth
  3.4-3.9 points) and got 1.2 blunders, 3.2 mistakes and 3.8 inaccuracies a game of its 16
  moves (old rule: 1.2 inaccuracies); the hard level none (its sure losses: 0.65 and 0.7
  moves' worth). The random player's points lost, in moves' worth (0 where not sure), at
  the 50th/75th/90th percentiles of its moves: 1.01, 1.68, 2.32.
* Metropolys Family: the random player lost 8-50, 1-46, 12-40 and 7-47 (a move worth
  1.9-2.4 points) and got 0.8 blunders, 1 mistake and 0.2 inaccuracies a game (2 mistakes
  and 1 inaccuracy; 2 blunders; 1 blunder and 2 mistakes; nothing), the hard level none
  (one sure loss, 0.91 moves' worth); the old rule marked nothing on either side. Only 8 of
  the random player's some 80 moves were surely worse in points on 24 samples (1.4-3.2
  moves' worth): a call's outcome makes each playout swing, so the intervals are wide.

About 2.5 minutes a game on the loaded machine (load average 12-22).
"""

from __future__ import annotations

import pickle
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import bench_args

NAMES = ("blunder", "mistake", "inaccuracy")
PLURAL = {"blunder": "blunders", "mistake": "mistakes", "inaccuracy": "inaccuracies"}


@dataclass
class Reviewed:
    """One game played and reviewed (the reviews as weighed, marks recomputed here)."""

    game: str
    mode: str
    seed: int
    weak_seat: int
    scores: tuple[float, ...]
    moves: int
    reviews: list  # type: ignore[type-arg]


def play_and_review(
    game_name: str, mode: str, seed: int, weak: str, strong: str, agent: str, samples: int
) -> Reviewed:
    from polis.bots.factory import make_agent
    from polis.bots.review import review_moves
    from polis.core.match import derive_seed
    from polis.core.registry import get_game

    game = get_game(game_name)
    state = game.new_game(mode, 2, seed=derive_seed(seed, game_name, mode))
    start = state.clone()
    weak_seat = seed % 2
    agents = {}
    for seat in (0, 1):
        spec = weak if seat == weak_seat else strong
        agents[seat] = make_agent(spec, derive_seed(seed, "seat", seat))
    while not state.is_terminal():
        p = state.current_player()
        bot, budget = agents[p]
        state.apply(bot.act(state.view(p), state.legal_moves(), game, budget))
    scores = tuple(float(s) for s in state.result().scores)
    moves = list(state.history)
    reviews = review_moves(game, start, moves, agent=agent, samples=samples, seed=0)
    return Reviewed(game_name, mode, seed, weak_seat, scores, len(moves), reviews)


def old_marks(reviews: Sequence[object]) -> dict[int, str]:
    """The old rule: win share only (low end past 0.10 / 0.20 / 0.30), the 3 surest."""
    marks = (("blunder", 0.30), ("mistake", 0.20), ("inaccuracy", 0.10))
    found = []
    for r in reviews:
        sure = r.surely_lost  # type: ignore[attr-defined]
        name = next((n for n, at in marks if sure >= at), "")
        if name:
            found.append((-sure, r.index, name))  # type: ignore[attr-defined]
    return {index: name for _, index, name in sorted(found)[:3]}


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(games: Sequence[Reviewed]) -> None:
    from polis.bots.review import MARKS, mark_moves, points_scale

    print("Thresholds (win share, moves' worth):", ", ".join(f"{n} {w} / {m}" for n, w, m in MARKS))
    settings = sorted({(g.game, g.mode) for g in games})
    for game_name, mode in settings:
        mine = [g for g in games if (g.game, g.mode) == (game_name, mode)]
        print(f"\n{game_name} {mode}: {len(mine)} games")
        totals = {side: dict.fromkeys(NAMES, 0) for side in ("weak", "strong")}
        old = {side: dict.fromkeys(NAMES, 0) for side in ("weak", "strong")}
        worth: dict[str, list[float]] = {"weak": [], "strong": []}
        for g in mine:
            scale = points_scale(g.scores, g.moves, 2)
            marked = mark_moves(g.reviews, scale)
            olds = old_marks(g.reviews)
            line = []
            for seat in (0, 1):
                side = "weak" if seat == g.weak_seat else "strong"
                counts = dict.fromkeys(NAMES, 0)
                for r in marked:
                    if r.player != seat or r.forced:
                        continue
                    worth[side].append(r.moves_lost)
                    if r.mark:
                        counts[r.mark] += 1
                        totals[side][r.mark] += 1
                    if r.index in olds:
                        old[side][olds[r.index]] += 1
                told = " ".join(f"{counts[n]} {PLURAL[n]}" for n in NAMES)
                line.append(f"{side} {g.scores[seat]:.0f}: {told}")
            print(f"  seed {g.seed}: scale {scale:.2f} points a move; " + "; ".join(line))
        for side in ("weak", "strong"):
            n = len(mine)
            now = ", ".join(f"{totals[side][k] / n:.1f} {PLURAL[k]}" for k in NAMES)
            was = ", ".join(f"{old[side][k] / n:.1f} {PLURAL[k]}" for k in NAMES)
            qs = ", ".join(f"{percentile(worth[side], q):.2f}" for q in (0.5, 0.75, 0.9))
            print(
                f"  {side:6} per game: {now} (old rule: {was}); moves' worth lost p50/75/90: {qs}"
            )


def main() -> None:
    parser = bench_args.parser(
        __doc__,
        "about 1 minute a game with the defaults on an idle machine (the strong side's "
        "1.7 s moves and a review of some 35 moves); 8 games: about 8 minutes. A cached "
        "game costs nothing.",
    )
    parser.add_argument("--games", type=int, default=4, help="games per setting")
    parser.add_argument("--weak", default="random", help="the weak side's agent or level")
    parser.add_argument("--strong", default="hard", help="the strong side's agent or level")
    parser.add_argument("--agent", default="mcts:200i", help="the review's searcher")
    parser.add_argument("--samples", type=int, default=24, help="sampled games per move")
    parser.add_argument(
        "--settings",
        default="quadropolis:classic,metropolys:family",
        help="game:mode pairs, comma-separated",
    )
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    parser.add_argument("--cache", type=Path, default=None, help="a pickle of reviewed games")
    args = parser.parse_args()
    cached: list[Reviewed] = []
    if args.cache is not None and args.cache.exists():
        cached = pickle.loads(args.cache.read_bytes())
    games = []
    for setting in args.settings.split(","):
        game_name, mode = setting.split(":")
        for seed in range(args.seed, args.seed + args.games):
            found = next(
                (g for g in cached if (g.game, g.mode, g.seed) == (game_name, mode, seed)), None
            )
            if found is None:
                t0 = time.monotonic()
                found = play_and_review(
                    game_name, mode, seed, args.weak, args.strong, args.agent, args.samples
                )
                cached.append(found)
                print(
                    f"played and reviewed {game_name} {mode} seed {seed} in "
                    f"{time.monotonic() - t0:.0f} s",
                    file=sys.stderr,
                )
                if args.cache is not None:
                    args.cache.write_bytes(pickle.dumps(cached))
            games.append(found)
    report(games)


if __name__ == "__main__":
    random.seed(0)
    main()
