"""Measure the bot ladder: each rung against the one below, in both games, 2 and 4 players.

Usage: .venv/bin/python benchmarks/ladder.py [--games 20] [--games-4p 8] [--workers 2] [--out F]

The ladder is the levels people choose from: random < easy (greedy) < medium (flat Monte
Carlo) < hard (IS-MCTS), with the budgets of ``polis.bots.factory.LEVELS``.

Every pairing is an arena run (seats rotated, same deals for both sides). In 4-player games
the two agents alternate seats (A B A B / B A B A); a win share above 0.5 means the
stronger bot wins more than its seats' share, and the column "share of games won" counts
the games either of its seats won (0.5 would be parity). The script prints a Markdown table (also
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
    ("random", "easy"),
    ("easy", "medium"),
    ("medium", "hard"),
]
SETTINGS = [
    ("quadropolis", "classic", 2),
    ("quadropolis", "expert", 4),
    ("metropolys", "family", 2),
    ("metropolys", "expert", 4),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per pairing, 2 players")
    parser.add_argument("--games-4p", type=int, default=8, help="games per pairing, 4 players")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--only", default="", help="e.g. metropolys to run one game only")
    args = parser.parse_args()
    lines = [
        "| game | mode | players | weaker | stronger | games | stronger win share (95% CI) "
        "| stronger's share of games won | stronger mean rank | iterations/s "
        "| s/move mean (max) |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for game, mode, players in SETTINGS:
        if args.only and args.only not in game:
            continue
        for weak, strong in LADDER:
            games = args.games if players == 2 else args.games_4p
            t = Tournament(game, mode, players, (weak, strong), games, args.seed)
            start = time.perf_counter()
            summary = run_tournament(t, workers=args.workers)
            row = summary["agents"][1]
            ips = row.get("iterations_per_second")
            lo, hi = row["win_share_ci"]
            # Per-seat rows: with 2 seats each in 4 players, the games won by either seat.
            share = row["wins"] / games
            lines.append(
                f"| {game} | {mode} | {players} | {weak} | {strong} | {row['games']} "
                f"| {row['win_share']:.2f} [{lo:.2f}, {hi:.2f}] | {share:.2f} "
                f"| {row['mean_rank']:.2f} "
                f"| {ips or '-'} | {row['seconds_per_move']} ({row['max_seconds_per_move']}) |"
            )
            print(lines[-1], f"({time.perf_counter() - start:.0f} s)", flush=True)
    hard = [
        "Levels (2 players / 3-4 players): "
        + ", ".join(f"`{k}` = `{two}` / `{more}`" for k, (two, more) in LEVELS.items())
        + "."
    ]
    text = "\n".join([*lines, "", *hard, ""])
    print(text)
    if args.out is not None:
        args.out.write_text(text, encoding="utf-8")
        print(json.dumps({"written": str(args.out)}))


if __name__ == "__main__":
    main()
