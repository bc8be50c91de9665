"""Sampling intervals for what hints and reviews estimate from a few dozen played-out games.

An estimate from 4 or 24 sampled games is a guess: a review that calls a move a blunder must
say how sure it is, and give the label only when the whole interval lies past the threshold.
Three intervals, all at :data:`LEVEL` (95%) and needing no library beyond the standard one:

* :func:`wilson`: a mean of values in [0, 1] (a win share). Wilson's score interval never
  collapses to a point on 4 wins out of 4, unlike the normal approximation; for values in
  [0, 1] other than 0 and 1 it is conservative (their variance is at most ``p (1 - p)``).
* :func:`paired_difference`: the difference of two such means measured on the same samples
  (two moves played out on the same dealt games: common random numbers). Tango's score
  interval for paired proportions (T. Tango, "Equivalence test and confidence interval for
  the difference in proportions for the paired-sample design", Statistics in Medicine 17,
  1998), one of those Fagerland, Lydersen and Laake recommend (BMC Medical Research
  Methodology 13, 2013): it narrows where the two moves agree on most samples, and on few
  samples it stays honest (4 samples that all favour one move do not rule out that the
  other is as good; Newcombe's square-and-add interval would call that a 31% loss for sure).
* :func:`mean_interval`: the mean of unbounded paired differences (points), Student's t.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from statistics import NormalDist

#: The confidence of every interval given.
LEVEL = 0.95
#: The normal quantile of :data:`LEVEL` (two-sided): 1.96.
Z = NormalDist().inv_cdf(0.5 + LEVEL / 2)

#: An interval ``(low, high)``.
Interval = tuple[float, float]


def wilson(mean: float, n: int, z: float = Z) -> Interval:
    """Wilson's score interval of the mean of ``n`` values in [0, 1]."""
    if n < 1:
        return (0.0, 1.0)
    p = min(1.0, max(0.0, mean))
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _tango_z(delta: float, b: float, c: float, n: int) -> float:
    """Tango's score statistic of the difference ``delta`` = P(b) - P(c), for ``b`` samples
    on which the first side did better and ``c`` on which the second did, of ``n``."""
    big_a = 2 * n
    big_b = -b - c + (2 * n - b + c) * delta
    big_c = -c * delta * (1 - delta)
    # the maximum-likelihood P(c) given delta (the root of A q^2 + B q + C in [0, 1])
    q = (math.sqrt(max(0.0, big_b * big_b - 4 * big_a * big_c)) - big_b) / (2 * big_a)
    variance = n * (2 * q + delta * (1 - delta))
    gap = b - c - n * delta
    if variance <= 0.0:
        return 0.0 if abs(gap) < 1e-12 else math.copysign(math.inf, gap)
    return gap / math.sqrt(variance)


def paired_difference(a: Sequence[float], b: Sequence[float], z: float = Z) -> Interval:
    """The interval of ``mean(a) - mean(b)`` for values in [0, 1] paired sample by sample:
    Tango's score interval for paired proportions (each sample's difference split into the
    part by which ``a`` did better and the part by which ``b`` did)."""
    if len(a) != len(b):
        raise ValueError("a paired interval needs as many values on each side")
    n = len(a)
    if n == 0:
        return (-1.0, 1.0)
    better = sum(max(0.0, x - y) for x, y in zip(a, b, strict=True))
    worse = sum(max(0.0, y - x) for x, y in zip(a, b, strict=True))
    middle = (better - worse) / n

    def root(inside: float, outside: float) -> float:
        """The edge between a difference the samples allow and one they rule out."""
        for _ in range(60):
            mid = (inside + outside) / 2
            if abs(_tango_z(mid, better, worse, n)) <= z:
                inside = mid
            else:
                outside = mid
        return inside

    low = -1.0 if abs(_tango_z(-1.0, better, worse, n)) <= z else root(middle, -1.0)
    high = 1.0 if abs(_tango_z(1.0, better, worse, n)) <= z else root(middle, 1.0)
    return (low, high)


@lru_cache(maxsize=256)
def _within(t: float, df: int) -> float:
    """P(|T| <= t) for Student's t with ``df`` degrees of freedom: the exact finite series
    of Abramowitz and Stegun 26.7.3-4 (integer ``df``)."""
    theta = math.atan(t / math.sqrt(df))
    c2, s = math.cos(theta) ** 2, math.sin(theta)
    if df % 2:  # odd
        total, term = 0.0, math.cos(theta)
        for k in range(1, (df - 1) // 2 + 1):
            if k > 1:
                term *= c2 * (2 * k - 2) / (2 * k - 1)
            total += term
        return (2 / math.pi) * (theta + s * total) if df > 1 else 2 * theta / math.pi
    total, term = 1.0, 1.0
    for k in range(1, df // 2):
        term *= c2 * (2 * k - 1) / (2 * k)
        total += term
    return s * total


@lru_cache(maxsize=256)
def t_quantile(df: int, level: float = LEVEL) -> float:
    """The ``t`` with P(|T| <= t) = ``level`` for Student's t with ``df`` degrees of freedom
    (bisection on the exact distribution: 2.776 for 4, 1.96 for very many)."""
    if df < 1:
        raise ValueError("Student's t needs at least one degree of freedom")
    low, high = 0.0, 1.0
    while _within(high, df) < level:
        high *= 2
    for _ in range(80):
        mid = (low + high) / 2
        if _within(mid, df) < level:
            low = mid
        else:
            high = mid
    return high


def mean_interval(values: Sequence[float], level: float = LEVEL) -> Interval | None:
    """Student's t interval of the mean of ``values`` (None for fewer than two)."""
    n = len(values)
    if n < 2:
        return None
    m = sum(values) / n
    var = sum((x - m) ** 2 for x in values) / (n - 1)
    half = t_quantile(n - 1, level) * math.sqrt(var / n)
    return (m - half, m + half)


def rounded(interval: Interval | None, digits: int) -> list[float] | None:
    """An interval as JSON: ``[low, high]`` rounded, or null."""
    if interval is None:
        return None
    return [round(interval[0], digits), round(interval[1], digits)]


__all__ = [
    "LEVEL",
    "Interval",
    "Z",
    "mean_interval",
    "paired_difference",
    "rounded",
    "t_quantile",
    "wilson",
]
