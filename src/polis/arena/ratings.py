"""Ratings with openskill (Plackett-Luce), updated game by game in schedule order.

When one spec sits in several seats of a game (fewer specs than seats) each seat is rated as
a separate copy of the spec's rating and the copies' new values are averaged: the spec
learns from every seat without playing itself as one entrant.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from polis.arena.match import Outcome
from polis.core.errors import InputError

#: The package the ratings need and the extra that brings it.
MISSING = (
    "the ratings need openskill, which is not installed: "
    "pip install 'polis-boardgames[arena]' (pip install -e '.[arena]' in a checkout)"
)


def check() -> None:
    """InputError when openskill is missing: raised before a tournament plays its games,
    not after (their results would be lost)."""
    try:
        import openskill.models  # noqa: F401
    except ImportError:
        raise InputError(MISSING) from None


def rate(specs: Sequence[str], outcomes: Sequence[Outcome]) -> list[tuple[float, float]]:
    """(mu, sigma) per spec after every game, processed in game index order."""
    check()
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current: list[Any] = [model.rating(name=s) for s in specs]
    for o in sorted(outcomes, key=lambda o: o.index):
        teams = [[current[who]] for who in o.lineup]
        new = model.rate(teams, ranks=list(o.ranks))
        for a in set(o.lineup):
            seats = [seat for seat, who in enumerate(o.lineup) if who == a]
            mu = sum(new[s][0].mu for s in seats) / len(seats)
            sigma = sum(new[s][0].sigma for s in seats) / len(seats)
            current[a] = model.rating(mu=mu, sigma=sigma, name=specs[a])
    return [(float(r.mu), float(r.sigma)) for r in current]
