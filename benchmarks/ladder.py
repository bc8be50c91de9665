"""Measure the bot ladder: each rung against the one below, in both games, 2 and 4 players.

Usage: .venv/bin/python benchmarks/ladder.py [--games 40] [--games-4p 40] [--workers 2]
       [--part pairs|table|all] [--only classic] [--rungs medium-hard] [--out F]

The ladder is the levels people choose from: random < easy (greedy) < medium (flat Monte
Carlo) < hard (IS-MCTS), with the budgets of ``polis.bots.factory.LEVELS``.

Pairs: every rung against the one below (seats rotated, same deals for both sides). In
4-player games the two agents alternate seats (A B A B / B A B A) and the win share counts
seats (parity 0.25, at most 0.5 since only one seat wins); the column "share of games won"
counts the games either of its seats won (parity 0.5), and the mean rank's parity is 2.5.

Table: all four levels at one 4-player table, every level through every seat of each deal
(parity: win share 0.25, mean rank 2.5).

The script prints Markdown tables (also written to ``--out``, for the README) with the
MCTS iterations per second and each level's seconds per move on one core.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import bench_args
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


def interval(row: dict[str, Any], key: str) -> str:
    """An arena summary figure with its 95% confidence interval, e.g. ``0.35 [0.26, 0.46]``."""
    lo, hi = row[f"{key}_ci"]
    return f"{row[key]:.2f} [{lo:.2f}, {hi:.2f}]"


def pairs(args: argparse.Namespace) -> list[str]:
    """Each rung against the one below: the stronger bot's results."""
    lines = [
        "| game | mode | players | weaker | stronger | games | stronger win share (95% CI) "
        "| stronger's share of games won | stronger mean rank (95% CI) | iterations/s "
        "| s/move mean (max) |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for game, mode, players in SETTINGS:
        if args.only not in f"{game}:{mode}:{players}":
            continue
        for weak, strong in LADDER:
            if args.rungs and f"{weak}-{strong}" not in args.rungs.split(","):
                continue
            games = args.games if players == 2 else args.games_4p
            t = Tournament(game, mode, players, (weak, strong), games, args.seed)
            start = time.perf_counter()
            summary = run_tournament(t, workers=args.workers)
            row = summary["agents"][1]
            ips = row.get("iterations_per_second")
            # Per-seat rows: with 2 seats each in 4 players, the games won by either seat.
            share = row["wins"] / games
            lines.append(
                f"| {game} | {mode} | {players} | {weak} | {strong} | {row['games']} "
                f"| {interval(row, 'win_share')} | {share:.2f} | {interval(row, 'mean_rank')} "
                f"| {ips or '-'} | {row['seconds_per_move']} ({row['max_seconds_per_move']}) |"
            )
            print(lines[-1], f"({time.perf_counter() - start:.0f} s)", flush=True)
    return lines


def one_table(args: argparse.Namespace) -> list[str]:
    """All four levels at one 4-player table (each seat rotated through every level)."""
    lines = [
        "| game | mode | level | games | win share (95% CI) | mean rank (95% CI) | mean score "
        "| s/move mean (max) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    levels = ("random", "easy", "medium", "hard")
    for game, mode, players in SETTINGS:
        if players != 4 or args.only not in f"{game}:{mode}:{players}":
            continue
        t = Tournament(game, mode, players, levels, args.games_4p, args.seed)
        start = time.perf_counter()
        summary = run_tournament(t, workers=args.workers)
        for row in summary["agents"]:
            lines.append(
                f"| {game} | {mode} | {row['agent']} | {row['games']} "
                f"| {interval(row, 'win_share')} | {interval(row, 'mean_rank')} "
                f"| {row['mean_score']} "
                f"| {row['seconds_per_move']} ({row['max_seconds_per_move']}) |"
            )
            print(lines[-1], flush=True)
        print(f"({time.perf_counter() - start:.0f} s)", flush=True)
    return lines


def main() -> None:
    parser = bench_args.parser(
        __doc__,
        "several hours with the defaults (every pairing in both games, 40 games each, and the "
        "four-level tables, on two workers); one pairing with hard, 40 games, takes 15-30 "
        "minutes. --only, --rungs and --part run a part of it.",
    )
    parser.add_argument("--games", type=int, default=40, help="games per pairing, 2 players")
    parser.add_argument("--games-4p", type=int, default=40, help="games per pairing, 4 players")
    parser.add_argument("--workers", type=int, default=2, help="worker processes")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and agents")
    parser.add_argument("--out", type=Path, default=None, help="also write the tables here")
    parser.add_argument(
        "--only", default="", help="settings whose game:mode:players contain this, e.g. classic"
    )
    parser.add_argument("--rungs", default="", help="e.g. medium-hard: only these pairings")
    parser.add_argument(
        "--part", choices=("pairs", "table", "all"), default="all", help="which measurements"
    )
    args = parser.parse_args()
    lines = pairs(args) if args.part != "table" else []
    if args.part != "pairs":
        lines += ["", *one_table(args)]
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
