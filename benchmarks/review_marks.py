"""The review's marks on whole bot games: how many inaccuracies, mistakes and blunders a weak
player and a strong one get, before and after the review's second look, and what it costs.

Usage: .venv/bin/python benchmarks/review_marks.py [--games 6] [--weak random]
       [--strong hard] [--agent mcts:200i] [--samples 24]
       [--settings quadropolis:classic,metropolys:family] [--seed 1] [--cache F]

Each setting plays ``--games`` 2-player games of ``--weak`` against ``--strong`` (the weak
player in seat A in even games, in seat B in odd ones), then weighs every move as the web
app does (its ``review_agent`` and ``review_samples``: ``mcts:200i``, 24 sampled games per
move), then gives the second look of ``polis.bots.review`` where it asks for one. It prints,
per game, the final scores, the points one move is worth (``points_scale``), each side's
marks after the first look ("before") and after the second ("after") under the rule of
``polis.bots.review`` and the review's CPU time both ways; then, per setting and side, the
marks per game before and after, under the old rule (win share only, the game's 3 surest
losses), the points lost in moves' worth (0 where not sure) at the 50th, 75th and 90th
percentiles of each side's moves, and the review's CPU time per game before and after.

``--cache F`` keeps the played games and their first look (a pickle) and reuses them: the
thresholds (``MARKS``) or the second look can be changed and the figures printed again in
a minute.

Measured (29 Nov 2026, random against hard, seeds 1-6, mcts:200i and 24 samples, second
look 3 x 24 samples more; marks blunder 0.30 / 2.5, mistake 0.20 / 1.5, inaccuracy
0.10 / 1.0), per game, first look -> with the second look:

* Quadropolis Classic: the random player lost 13-53, 5-61, 3-56, 7-59, 17-63, 20-56 (a
  move worth 3.3-3.9 points): 0.5 blunders, 2.7 mistakes, 2.5 inaccuracies -> the same
  (2.7 second looks a game found nothing sure); the hard level 0.2 inaccuracies -> the
  same. Review 5 s -> 6 s of CPU a game (x1.08).
* Metropolys Family: the random player lost 10-49, 8-46, 12-48, 10-43, 16-52, 6-50 (a move
  worth 1.9-2.7 points): 1.0 blunders, 2.3 mistakes, 0.8 inaccuracies (3.3 serious) ->
  1.0, 2.7, 1.8 (3.7 serious; per game 4 -> 5, 4 -> 5, 4, 2, 5, 1 mistakes or blunders);
  the hard level 0.2 -> 0.3 inaccuracies, nothing worse. Review 4 s -> 4 s of CPU a game
  (x1.05; 3.8 second looks a game). The old rule marked 0.2 inaccuracies a game.

The earlier calibration (4 games, seeds 1-4 of another run: the hard level plays by time,
so its games differ from run to run) had a Metropolys game lost 7 to 47 with no mark at
all; none of these six is so bare, so the first look's figures vary from game to game more
than the second look moves them.

Playing the games takes most of the time: about 2 minutes a game on a loaded machine (the
hard level's 1.7 s moves); the review itself is a few seconds of CPU.
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
    """One game played and reviewed: the first look's reviews (each move as weighed, marks
    recomputed here) and its time; the second look is worked out again on every run."""

    game: str
    mode: str
    seed: int
    weak_seat: int
    scores: tuple[float, ...]
    moves: int
    reviews: list  # type: ignore[type-arg]
    line: list[str]
    seconds: float


def play_and_review(
    game_name: str, mode: str, seed: int, weak: str, strong: str, agent: str, samples: int
) -> Reviewed:
    from polis.bots.factory import make_agent
    from polis.bots.review import MoveReview, weigh
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
    # the first look, move by move as the server weighs it (no marks yet)
    t0 = time.process_time()
    reviews = []
    replay = start.clone()
    for index, played in enumerate(moves):
        player = replay.current_player()
        legal = replay.legal_moves()
        if len(legal) == 1:
            reviews.append(MoveReview.forced_move(index, player, played))
        else:
            view = replay.view(player)
            reviews.append(weigh(game, view, legal, index, played, agent, samples, 0))
        replay.apply(played)
    seconds = time.process_time() - t0
    line = [str(m) for m in moves]
    return Reviewed(game_name, mode, seed, weak_seat, scores, len(moves), reviews, line, seconds)


def second_looks(g: Reviewed) -> tuple[list, float]:  # type: ignore[type-arg]
    """The game's reviews after the second look of ``polis.bots.review`` and its time."""
    from polis.bots.review import needs_second_look, points_scale, second_look
    from polis.core.match import derive_seed
    from polis.core.registry import get_game

    game = get_game(g.game)
    state = game.new_game(g.mode, 2, seed=derive_seed(g.seed, g.game, g.mode))
    scale = points_scale(g.scores, g.moves, 2)
    t0 = time.process_time()
    out = []
    for r, text in zip(g.reviews, g.line, strict=True):
        view = state.view(state.current_player())
        out.append(second_look(game, view, r, 0) if needs_second_look(r, scale) else r)
        state.apply(state.parse_move(text))
    return out, time.process_time() - t0


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


def side_marks(g: Reviewed, reviews: Sequence[object]) -> dict[str, dict[str, int]]:
    """Each side's marks in ``g`` under the rule of ``polis.bots.review``."""
    from polis.bots.review import mark_moves, points_scale

    counts = {side: dict.fromkeys(NAMES, 0) for side in ("weak", "strong")}
    for r in mark_moves(reviews, points_scale(g.scores, g.moves, 2)):  # type: ignore[arg-type]
        if r.mark:
            counts["weak" if r.player == g.weak_seat else "strong"][r.mark] += 1
    return counts


def told(counts: dict[str, float]) -> str:
    return ", ".join(f"{counts[n]:.1f} {PLURAL[n]}" for n in NAMES)


def report(games: Sequence[Reviewed]) -> None:
    from polis.bots.review import MARKS, SECOND_LOOK, mark_moves, points_scale

    print("Thresholds (win share, moves' worth):", ", ".join(f"{n} {w} / {m}" for n, w, m in MARKS))
    print(f"Second look: {SECOND_LOOK} x the samples more, where a mark wants samples only")
    settings = sorted({(g.game, g.mode) for g in games})
    for game_name, mode in settings:
        mine = [g for g in games if (g.game, g.mode) == (game_name, mode)]
        n = len(mine)
        print(f"\n{game_name} {mode}: {n} games (marks before -> after the second look)")
        sums = {
            (look, side): dict.fromkeys(NAMES, 0.0)
            for look in ("before", "after")
            for side in ("weak", "strong")
        }
        old = {side: dict.fromkeys(NAMES, 0) for side in ("weak", "strong")}
        worth: dict[str, list[float]] = {"weak": [], "strong": []}
        t_before = t_after = 0.0
        looked = 0
        for g in mine:
            scale = points_scale(g.scores, g.moves, 2)
            after, extra = second_looks(g)
            looked += sum(a is not b for a, b in zip(after, g.reviews, strict=True))
            t_before += g.seconds
            t_after += g.seconds + extra
            olds = old_marks(g.reviews)
            for r in mark_moves(g.reviews, scale):
                if r.index in olds:
                    old["weak" if r.player == g.weak_seat else "strong"][olds[r.index]] += 1
            for r in mark_moves(after, scale):
                if not r.forced:
                    worth["weak" if r.player == g.weak_seat else "strong"].append(r.moves_lost)
            line = []
            for look, reviews in (("before", g.reviews), ("after", after)):
                counts = side_marks(g, reviews)
                for side in ("weak", "strong"):
                    for k in NAMES:
                        sums[look, side][k] += counts[side][k]
                line.append(
                    f"{look}: weak {'/'.join(str(counts['weak'][k]) for k in NAMES)}, "
                    f"strong {'/'.join(str(counts['strong'][k]) for k in NAMES)}"
                )
            weak, strong = g.scores[g.weak_seat], g.scores[1 - g.weak_seat]
            print(
                f"  seed {g.seed}: weak {weak:.0f} - strong {strong:.0f}, scale {scale:.2f}; "
                f"{'; '.join(line)} (blunders/mistakes/inaccuracies); review "
                f"{g.seconds:.0f} s -> {g.seconds + extra:.0f} s"
            )
        for side in ("weak", "strong"):
            for look in ("before", "after"):
                per = {k: v / n for k, v in sums[look, side].items()}
                serious = per["blunder"] + per["mistake"]
                print(f"  {side:6} {look:6} per game: {told(per)} ({serious:.1f} serious)")
            was = told({k: v / n for k, v in old[side].items()})
            qs = ", ".join(f"{percentile(worth[side], q):.2f}" for q in (0.5, 0.75, 0.9))
            print(f"  {side:6} old rule per game: {was}; moves' worth lost p50/75/90: {qs}")
        print(
            f"  review per game (CPU): {t_before / n:.0f} s -> {t_after / n:.0f} s "
            f"(x{t_after / max(t_before, 1e-9):.2f}); {looked / n:.1f} second looks a game"
        )


def main() -> None:
    parser = bench_args.parser(
        __doc__,
        "about 1 minute a game with the defaults on an idle machine (the strong side's "
        "1.7 s moves, then a review of some 35 to 80 moves in a few seconds); 12 games: "
        "about 12 minutes. A cached game costs its second look only.",
    )
    parser.add_argument("--games", type=int, default=6, help="games per setting")
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
