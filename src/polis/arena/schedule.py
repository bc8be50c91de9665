"""Who sits where in which game: fair seat rotation and the seeds of every game.

Games come in blocks of ``players`` games that share one deal (one set-up seed) and rotate
the same line-up through every seat, so no agent profits from a seat or a deal. With more
agent specs than seats the blocks cycle through every combination of specs; with fewer, the
specs fill the seats in turn (e.g. A B A B). Seeds come from
:func:`polis.core.match.derive_seed`: ``("deal", block)`` and ``("agent", game, seat)``.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from polis.core.match import derive_seed


@dataclass(frozen=True, slots=True)
class Seating:
    """One game of a tournament: ``lineup[seat]`` is an index into the agent specs."""

    index: int
    lineup: tuple[int, ...]
    setup_seed: int
    agent_seeds: tuple[int, ...]


def schedule(seed: int, specs: int, players: int, games: int) -> list[Seating]:
    """The ``games`` seatings of a tournament between ``specs`` agent specs."""
    if specs >= players:
        groups = [tuple(c) for c in itertools.combinations(range(specs), players)]
    else:
        groups = [tuple(i % specs for i in range(players))]
    out = []
    for index in range(games):
        block, turn = divmod(index, players)
        group = groups[block % len(groups)]
        lineup = group[turn:] + group[:turn]
        seeds = tuple(derive_seed(seed, "agent", index, s) for s in range(players))
        out.append(Seating(index, lineup, derive_seed(seed, "deal", block), seeds))
    return out
