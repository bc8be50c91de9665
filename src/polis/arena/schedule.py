"""Who sits where in which game: equal game counts, fair seat rotation and the seeds of every game.

Games come in *cycles* of one game per agent spec. Game ``j`` of a cycle seats the specs
``start, start + 1, ..., start + players - 1`` (modulo the number of specs) with a different
``start`` in each game, so over a cycle every spec sits in every seat exactly once. With fewer
specs than seats a spec takes several seats of a game (e.g. A B A B). The games of a *block*
of ``lcm(specs, players)`` games (whole cycles) are dealt from one set-up seed, so within a
block every spec plays the same deal from every seat equally often: no spec profits from a
seat or a deal. (When the number of specs divides the number of seats, this is the schedule
of earlier versions, game for game.)

The starts follow each other in steps of ``players`` (``0, p, 2p, ...``, then ``1, 1 + p, ...``
when the steps come back to 0), so the seats taken so far run through the specs one after
another: after any number of games no spec has sat more than once more than another. Hence
every spec plays equally often exactly when ``games * players`` is a multiple of the number
of specs (:func:`balanced`), the most any schedule can do. With more specs than seats, each
cycle after the first relabels the specs by a seeded shuffle so that every spec meets every
other. Seeds come from :func:`polis.core.match.derive_seed`: ``("deal", block)``,
``("cycle", cycle)`` and ``("agent", game, seat)``.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from polis.core.match import derive_seed


@dataclass(frozen=True, slots=True)
class Seating:
    """One game of a tournament: ``lineup[seat]`` is an index into the agent specs."""

    index: int
    lineup: tuple[int, ...]
    setup_seed: int
    agent_seeds: tuple[int, ...]


def _starts(specs: int, players: int) -> list[int]:
    """The spec in seat 0 of each game of a cycle, in playing order (see the module doc)."""
    d = math.gcd(specs, players)
    return [(i + k * players) % specs for i in range(d) for k in range(specs // d)]


def _labels(seed: int, cycle: int, specs: int, players: int) -> list[int]:
    """Who plays spec number ``i`` in this cycle: the identity first, then seeded shuffles
    (only with more specs than seats; otherwise every game already holds every spec)."""
    labels = list(range(specs))
    if specs > players and cycle:
        random.Random(derive_seed(seed, "cycle", cycle)).shuffle(labels)
    return labels


def schedule(seed: int, specs: int, players: int, games: int) -> list[Seating]:
    """The ``games`` seatings of a tournament between ``specs`` agent specs."""
    starts = _starts(specs, players)
    block = math.lcm(specs, players)
    out: list[Seating] = []
    labels: list[int] = []
    for index in range(games):
        cycle, turn = divmod(index, specs)
        if turn == 0:
            labels = _labels(seed, cycle, specs, players)
        lineup = tuple(labels[(starts[turn] + s) % specs] for s in range(players))
        seeds = tuple(derive_seed(seed, "agent", index, s) for s in range(players))
        out.append(Seating(index, lineup, derive_seed(seed, "deal", index // block), seeds))
    return out


def balanced(specs: int, players: int, games: int) -> bool:
    """Can every spec take the same number of seats? (``games * players`` shared out evenly.)"""
    return games * players % specs == 0


def balanced_step(specs: int, players: int) -> int:
    """The game counts that share the seats evenly are the multiples of this number."""
    return specs // math.gcd(specs, players)


def seats_per_spec(tables: Sequence[Seating], specs: int) -> list[int]:
    """How many seats (games, for the statistics) each spec takes in ``tables``."""
    counts = Counter(who for t in tables for who in t.lineup)
    return [counts[a] for a in range(specs)]
