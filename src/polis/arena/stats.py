"""Tournament statistics per agent spec, with 95% confidence intervals.

Every seat an agent spec occupies counts as one game for it (with two specs in a 4-player
game each spec plays two seats per game). A shared first place counts as a fractional win.
Win share intervals are Wilson score intervals (sound near 0 and 1, where the normal
approximation is not); means use the normal approximation with the sample deviation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from polis.arena.match import Outcome

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (fractional successes allowed)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean and its normal-approximation interval (degenerate for fewer than 2 values)."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = sum(values) / n
    if n < 2:
        return (mean, mean, mean)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


def _r(x: float, digits: int = 3) -> float | None:
    return None if math.isnan(x) else round(x, digits)


def summarise(
    specs: Sequence[str], outcomes: Sequence[Outcome], ratings: Sequence[tuple[float, float]]
) -> list[dict[str, Any]]:
    """One row per agent spec: games, wins, win share (+CI), mean rank (+CI), score, margin,
    rating, and effort: seconds per move (on the wall clock and of CPU time), search
    iterations per move and per second of CPU time (a time budget counts CPU time, so
    iterations per move say how much a searcher thought whatever else ran)."""
    rows = []
    for a, spec in enumerate(specs):
        wins = 0.0
        ranks: list[float] = []
        scores: list[float] = []
        margins: list[float] = []
        moves = seconds = iterations = longest = cpu = 0.0
        for o in outcomes:
            for seat, who in enumerate(o.lineup):
                if who != a:
                    continue
                wins += o.win_shares[seat]
                ranks.append(o.ranks[seat])
                scores.append(o.scores[seat])
                best_other = max(s for q, s in enumerate(o.scores) if q != seat)
                margins.append(o.scores[seat] - best_other)
                if o.effort:
                    m, s, it, lg, c = o.effort[seat]
                    moves += m
                    seconds += s
                    iterations += it
                    longest = max(longest, lg)
                    cpu += c
        n = len(ranks)
        lo, hi = wilson(wins, n)
        rank, rank_lo, rank_hi = mean_ci(ranks)
        if n:  # a rank lies in [1, seats]
            seats = len(next(o for o in outcomes if a in o.lineup).lineup)
            rank_lo, rank_hi = max(1.0, rank_lo), min(float(seats), rank_hi)
        score, score_lo, score_hi = mean_ci(scores)
        margin, _, _ = mean_ci(margins)
        mu, sigma = ratings[a]
        rows.append(
            {
                "agent": spec,
                "games": n,
                "wins": round(wins, 4),
                "win_share": round(wins / n, 4) if n else None,
                "win_share_ci": [round(lo, 3), round(hi, 3)],
                "mean_rank": _r(rank),
                "mean_rank_ci": [_r(rank_lo), _r(rank_hi)],
                "mean_score": _r(score, 2),
                "mean_score_ci": [_r(score_lo, 2), _r(score_hi, 2)],
                "mean_margin": _r(margin, 2),
                "rating": round(mu, 2),
                "rating_sigma": round(sigma, 2),
                "rating_ordinal": round(mu - 3 * sigma, 2),
                "seconds_per_move": round(seconds / moves, 4) if moves else None,
                "max_seconds_per_move": round(longest, 4),
                "iterations_per_second": round(iterations / seconds, 1)
                if seconds and iterations
                else None,
                "cpu_seconds_per_move": round(cpu / moves, 4) if moves else None,
                "iterations_per_move": round(iterations / moves, 1)
                if moves and iterations
                else None,
                "iterations_per_cpu_second": round(iterations / cpu, 1)
                if cpu and iterations
                else None,
            }
        )
    return rows
