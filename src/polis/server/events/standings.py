"""An event's points and standings: pure functions of the results stored so far.

**Points per table**: the places of a finished table (1 = best; tied seats share the better
place, as :func:`polis.server.accounts.ratings.places` gives them) become points on a line
from 1 for the first place to 0 for the last: at a table of two a win is 1 and a loss 0, at
three 1, 1/2 and 0, at four 1, 2/3, 1/3 and 0; tied entrants share the points of the places
they span (a drawn game of two: 1/2 each). A bye scores 1, like a win. An entrant who did not
show up (a bot made their first move) is placed last at that table.

**Tie-breaks**, in order: the Buchholz score (for each table played, the mean of the
opponents' points now; byes count nothing), then the sum of the entrant's game scores, then
the number of wins. Entrants equal on all of them share a rank.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from polis.server.events.pairing import Record


def place_points(places: Sequence[int]) -> list[float]:
    """Each seat's points from its place at a table of ``len(places)`` seats."""
    k = len(places)
    if k < 2:
        return [1.0] * k
    value = [(k - 1 - i) / (k - 1) for i in range(k)]
    shared = Counter(places)
    out = []
    for place in places:
        span = value[place - 1 : place - 1 + shared[place]]
        out.append(round(sum(span) / len(span), 6))
    return out


@dataclass(frozen=True, slots=True)
class Entrant:
    """An entrant as the standings show it."""

    id: int
    name: str
    bot: bool
    #: The round after which the entrant plays no more (None: still in).
    withdrawn: int | None = None
    #: Why: "left" (they left), "no_show" (did not come to a table), "gone" (the account was
    #: deleted or suspended).
    why: str | None = None


@dataclass(frozen=True, slots=True)
class Played:
    """One entrant's round: a table (its place, points and score once finished) or a bye."""

    round: int
    account_id: int
    #: The table's number in its round (None: a bye).
    table: int | None
    seat: int | None = None
    place: int | None = None
    points: float | None = None
    score: float | None = None
    no_show: bool = False


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the standings."""

    rank: int
    entrant: Entrant
    points: float
    buchholz: float
    score: float
    wins: int
    played: int
    byes: int


def _opponents(results: Sequence[Played]) -> dict[tuple[int, int], list[int]]:
    """(round, table) -> its entrants."""
    tables: dict[tuple[int, int], list[int]] = defaultdict(list)
    for r in results:
        if r.table is not None:
            tables[(r.round, r.table)].append(r.account_id)
    return tables


def points_of(results: Sequence[Played]) -> dict[int, float]:
    out: dict[int, float] = defaultdict(float)
    for r in results:
        out[r.account_id] += r.points or 0.0
    return out


def buchholz_of(results: Sequence[Played], points: dict[int, float]) -> dict[int, float]:
    out: dict[int, float] = defaultdict(float)
    for group in _opponents(results).values():
        for a in group:
            others = [points.get(b, 0.0) for b in group if b != a]
            if others:
                out[a] += sum(others) / len(others)
    return out


def records(entrants: Sequence[Entrant], results: Sequence[Played]) -> list[Record]:
    """What pairing needs of every entrant: points, Buchholz, who met whom, byes, seats."""
    points = points_of(results)
    buchholz = buchholz_of(results, points)
    met: dict[int, Counter[int]] = defaultdict(Counter)
    for group in _opponents(results).values():
        for a in group:
            met[a].update(b for b in group if b != a)
    byes: Counter[int] = Counter(r.account_id for r in results if r.table is None)
    seats: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for r in results:
        if r.seat is not None and r.seat < 4:
            seats[r.account_id][r.seat] += 1
    return [
        Record(
            e.id,
            points.get(e.id, 0.0),
            buchholz.get(e.id, 0.0),
            dict(met[e.id]),
            byes[e.id],
            tuple(seats[e.id]),
        )
        for e in entrants
    ]


def standings(entrants: Sequence[Entrant], results: Sequence[Played]) -> list[Line]:
    """Every entrant's line, best first, with shared ranks for entrants equal on points and
    every tie-break (withdrawn entrants too: their points stand)."""
    points = points_of(results)
    buchholz = buchholz_of(results, points)
    score: dict[int, float] = defaultdict(float)
    wins: Counter[int] = Counter()
    played: Counter[int] = Counter()
    byes: Counter[int] = Counter()
    for r in results:
        if r.table is None:
            byes[r.account_id] += 1
            continue
        if r.points is None:
            continue  # the table is still playing
        played[r.account_id] += 1
        score[r.account_id] += r.score or 0.0
        if r.place == 1 and not r.no_show:
            wins[r.account_id] += 1

    def key(e: Entrant) -> tuple[float, float, float, int]:
        return (
            -round(points.get(e.id, 0.0), 6),
            -round(buchholz.get(e.id, 0.0), 6),
            -round(score.get(e.id, 0.0), 6),
            -wins[e.id],
        )

    ordered = sorted(entrants, key=lambda e: (key(e), e.name.casefold()))
    lines: list[Line] = []
    for i, e in enumerate(ordered):
        rank = lines[-1].rank if lines and key(ordered[i - 1]) == key(e) else i + 1
        lines.append(
            Line(
                rank,
                e,
                round(points.get(e.id, 0.0), 6),
                round(buchholz.get(e.id, 0.0), 6),
                score.get(e.id, 0.0),
                wins[e.id],
                played[e.id],
                byes[e.id],
            )
        )
    return lines
