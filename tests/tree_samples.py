"""What the tests of the games' compiled tree moves share: the compiled sample redone in
Python, and a generator that hands the Python reference that very sample."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np


class GivenSample(random.Random):
    """A generator whose ``sample`` returns the given order of the population's indices."""

    def __init__(self, order: Sequence[int]) -> None:
        super().__init__(0)
        self.order = order

    def sample(self, population: Sequence[Any], k: int, *, counts: Any = None) -> list[Any]:
        assert k == len(self.order)
        return [population[i] for i in self.order]


def compiled_sample(
    row: np.ndarray,
    value: int,
    k: int,
    m: int,
    seed: Callable[[Any, int], None],
    below: Callable[[Any, int], int],
) -> list[int]:
    """The indices of the ``m`` of ``k`` legal moves a compiled tree samples: its partial
    Fisher-Yates shuffle redone on a copy of ``row``, whose generator (the game's ``seed``
    and ``below``) is seeded with ``value``."""
    twin = row.copy()
    seed(twin, value)
    order = list(range(k))
    for i in range(m):
        j = i + below(twin, k - i)
        order[i], order[j] = order[j], order[i]
    return order[:m]


def assert_uniform(
    inside: np.ndarray, first: np.ndarray, draws: int, m: int, within: float
) -> None:
    """Samples of ``m`` of ``k = len(inside)`` moves, ``draws`` of them, were uniform without
    replacement: each move was in as many (its share within ``within`` of ``m / k``), and
    first as often as any other (a binomial's spread)."""
    k = len(inside)
    assert np.abs(inside / draws - m / k).max() < within
    assert first.std() < 2 * np.sqrt(draws / k)
    assert abs(first.mean() - draws / k) < 1e-9
