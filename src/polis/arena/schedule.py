"""Who sits where in which game: fair seat rotation and the seeds of every game.

Games come in blocks of ``players`` games that share one set-up seed (the same deal) and
rotate the same line-up through every seat, so no agent profits from a seat or a deal.
With more agent specs than seats the blocks cycle through every combination of specs;
with fewer, the specs fill the seats in turn (e.g. A B A B).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Table:
    """One game of a tournament: ``lineup[seat]`` is an index into the agent specs."""

    index: int
    lineup: tuple[int, ...]
    setup_seed: int
    agent_seeds: tuple[int, ...]


def setup_seed(seed: int, block: int) -> int:
    """The set-up seed of block ``block`` of a run seeded with ``seed`` (stable, documented)."""
    return seed * 1_000_003 + block


def agent_seed(seed: int, game: int, seat: int) -> int:
    """The seed of the agent in ``seat`` of game ``game`` (stable, documented)."""
    return (seed * 1_000_003 + game) * 16 + seat + 7_919


def schedule(seed: int, specs: int, players: int, games: int) -> list[Table]:
    """The ``games`` tables of a tournament between ``specs`` agent specs."""
    if specs >= players:
        groups = [tuple(c) for c in itertools.combinations(range(specs), players)]
    else:
        groups = [tuple(i % specs for i in range(players))]
    tables = []
    for index in range(games):
        block, turn = divmod(index, players)
        group = groups[block % len(groups)]
        lineup = group[turn:] + group[:turn]
        seeds = tuple(agent_seed(seed, index, s) for s in range(players))
        tables.append(Table(index, lineup, setup_seed(seed, block), seeds))
    return tables
