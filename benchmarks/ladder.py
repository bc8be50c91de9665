"""Measure the bot ladder: each rung against the one below, in both games, 2 and 4 players.

Usage: .venv/bin/python benchmarks/ladder.py [--games 20] [--workers 2] [--out ladder.md]

Every pairing is an arena run (seats rotated, same deals for both sides). In 4-player games
the two agents alternate seats (A B A B / B A B A); a win share above 0.5 means the
stronger bot wins more than its seats' share. The script prints a Markdown table (also
written to ``--out``, for the README) and the MCTS iterations per second, and checks the
``hard`` level's seconds per move on one core.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from polis.arena import Tournament, run_tournament
from polis.bots.factory import LEVELS

#: (weaker, stronger) pairs of the ladder with the budgets measured.
LADDER = [
    ("random", "greedy"),
    ("greedy", "montecarlo:300i"),
    ("montecarlo:300i", "mcts:300i"),
]
SETTINGS = [
    ("quadropolis", "classic", 2),
    ("quadropolis", "expert", 4),
    ("metropolys", "family", 2),
    ("metropolys", "expert", 4),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--only", default="", help="e.g. metropolys to run one game only")
    args = parser.parse_args()
    lines = [
        "| game | mode | players | weaker | stronger | games | stronger win share (95% CI) "
        "| stronger mean rank | mcts iter/s | s/move (stronger) |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for game, mode, players in SETTINGS:
        if args.only and args.only not in game:
            continue
        for weak, strong in LADDER:
            t = Tournament(game, mode, players, (weak, strong), args.games, args.seed)
            start = time.perf_counter()
            summary = run_tournament(t, workers=args.workers)
            row = summary["agents"][1]
            ips = next(
                (r["iterations_per_second"] for r in summary["agents"] if "mcts" in r["agent"]),
                None,
            )
            lo, hi = row["win_share_ci"]
            lines.append(
                f"| {game} | {mode} | {players} | {weak} | {strong} | {row['games']} "
                f"| {row['win_share']:.2f} [{lo:.2f}, {hi:.2f}] | {row['mean_rank']:.2f} "
                f"| {ips if ips is not None else '-'} | {row['seconds_per_move']} |"
            )
            print(lines[-1], f"({time.perf_counter() - start:.0f} s)", flush=True)
    hard = []
    for game, mode, players in SETTINGS:
        if args.only and args.only not in game:
            continue
        t = Tournament(game, mode, players, ("hard", "greedy"), players, args.seed)
        summary = run_tournament(t, workers=1)
        row = summary["agents"][0]
        hard.append(
            f"* `hard` (= `{LEVELS['hard']}`) in {game} {mode} {players}p: "
            f"{row['seconds_per_move']} s/move on average, {row['max_seconds_per_move']} s "
            f"at most, {row['iterations_per_second']} iterations/s"
        )
        print(hard[-1], flush=True)
    text = "\n".join([*lines, "", *hard, ""])
    print(text)
    if args.out is not None:
        args.out.write_text(text, encoding="utf-8")
        print(json.dumps({"written": str(args.out)}))


if __name__ == "__main__":
    main()
