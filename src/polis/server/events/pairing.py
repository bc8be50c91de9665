"""Who plays whom in a round of an event, and in which seat: pure functions of the entrants'
records so far and the event's seed (no store, no clock), so every server process pairs a
round the same way and the tests check the rules directly.

**Table sizes.** An event names its players per table ``p``; a round seats its ``n``
entrants at ``ceil(n / p)`` tables of sizes as even as possible (6 entrants at tables of 4
play at two tables of 3) when the game's mode allows every one of those sizes, otherwise at
``n // p`` full tables, the ``n % p`` left over getting a *bye* (:func:`table_sizes`).

**Swiss** (:func:`swiss`): the entrants are ordered by points, then the tie-break, then a
seeded draw; byes go to the lowest placed who had none yet (the lowest with the fewest, when
everyone had one); tables are filled from the top of the order, each with the highest placed
entrant left and the next ones it has not met, searched with backtracking so that nobody meets
anyone twice while another pairing avoids it; if none does, the fewest repeated meetings.

**Round robin** (:func:`round_robin`): every entrant meets every other. At tables of two,
the circle method (Berger tables): ``n - 1`` rounds (``n`` with an odd count, each entrant
sitting one round out). At larger tables, rounds are added until every pair has met, each
round's tables chosen greedily to bring together as many pairs as have not met yet.

**Blocks** (``blocks``: the pairs of entrants of whom one blocks the other,
:mod:`polis.server.accounts.people`) cost more than any number of repeated meetings. A Swiss
round never seats a blocked pair at one table while the search finds a pairing (with any of
the choices of byes allowed, and repeated meetings if need be) that keeps every such pair
apart. When there is none (the two are the last entrants left, or every way round puts some
pair together) the round is still paired, with the fewest blocked pairs together table by
table: an event's tables are its pairing's, not a challenge between the two, and either may
leave the event (``/leave``) rather than play. A round robin's schedule is fixed at its start;
in each round a table that would seat a blocked pair drops the later of the two in its group
to a bye, until no such pair is left, and gives the rest byes too when they are too few for a
table: at tables of two the pair's game is not played and both sit the round out with a bye,
as when an opponent withdrew.

**Seats** (:func:`seat_order`): each table's order is the one in which its entrants have sat
in those seats least, so over the rounds the first seat (the first move) goes round, as the
arena's seat rotation (:mod:`polis.arena.schedule`) does over a cycle of games. The arena has
no pairing by rounds (it seats agent specs over whole cycles, each spec in many games of a
cycle), so Swiss and round robin are here; their draws come from
:func:`polis.core.match.derive_seed` of the event's seed, like the arena's.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field

from polis.core.match import derive_seed

#: Steps the backtracking pairing search may take before it settles for repeated meetings.
SEARCH_STEPS = 20_000
#: Entrants beyond the first in line considered for the byes of a round.
BYE_CHOICES = 4


@dataclass(frozen=True, slots=True)
class Record:
    """What pairing knows of one entrant after the rounds played so far."""

    id: int
    points: float = 0.0
    #: The first tie-break (for Swiss order; before round 1: the entrant's rating).
    tiebreak: float = 0.0
    #: Entrant id -> how many tables the two shared.
    met: Mapping[int, int] = field(default_factory=dict)
    byes: int = 0
    #: How often the entrant sat in each seat (index 0 = the first seat).
    seats: Sequence[int] = ()


@dataclass(frozen=True, slots=True)
class Pairing:
    """One round: each table's entrant ids in seat order, and who has a bye."""

    tables: list[tuple[int, ...]]
    byes: list[int]


def table_sizes(n: int, players: int, allowed: Collection[int]) -> tuple[list[int], int]:
    """The table sizes of a round of ``n`` entrants at tables of ``players``, and the number
    of byes (see the module doc). ``allowed``: the table sizes the game's mode allows."""
    if n <= 0:
        return [], 0
    tables = math.ceil(n / players)
    low, extra = divmod(n, tables)
    even = [low + 1] * extra + [low] * (tables - extra)
    if all(size in allowed for size in even):
        return even, 0
    full = n // players
    return [players] * full, n - full * players


def _draw(seed: int, *what: int | str) -> random.Random:
    return random.Random(derive_seed(seed, "event", *what))


def seat_order(
    group: Sequence[int], records: Mapping[int, Record], rng: random.Random
) -> tuple[int, ...]:
    """The seats of one table: the order in which the entrants have sat in these seats least
    (the sum of each one's count in its seat is the smallest), ties drawn by ``rng``."""
    shuffled = list(group)
    rng.shuffle(shuffled)

    def count(entrant: int, seat: int) -> int:
        seats = records[entrant].seats if entrant in records else ()
        return seats[seat] if seat < len(seats) else 0

    best = min(
        itertools.permutations(shuffled),
        key=lambda order: (
            sum(count(e, s) for s, e in enumerate(order)),
            # then the first seat to whoever had it least (the first move matters most)
            count(order[0], 0),
        ),
    )
    return tuple(best)


#: Pairs of entrants of whom one blocks the other (each pair as a frozenset of two ids).
Blocks = Collection[frozenset[int]]


def _repeats(group: Sequence[int], records: Mapping[int, Record]) -> int:
    return sum(
        records[a].met.get(b, 0) if a in records else 0 for a, b in itertools.combinations(group, 2)
    )


def _blocked(group: Sequence[int], blocks: Blocks) -> int:
    """How many blocked pairs ``group`` seats together."""
    if not blocks:
        return 0
    return sum(frozenset(pair) in blocks for pair in itertools.combinations(group, 2))


def _search(
    order: list[int], sizes: list[int], fits: Callable[[list[int]], bool]
) -> list[list[int]] | None:
    """Tables of ``sizes`` from ``order`` (best placed first), every one of which ``fits``
    (nobody meets anyone again, no blocked pair): the highest placed left with the next ones
    it can sit with, backtracking; None when there are none (or the search ran out of
    steps)."""
    steps = [0]

    def search(left: list[int], todo: list[int]) -> list[list[int]] | None:
        if not todo:
            return []
        steps[0] += 1
        if steps[0] > SEARCH_STEPS:
            return None
        first, rest = left[0], left[1:]
        for others in itertools.combinations(range(len(rest)), todo[0] - 1):
            group = [first, *(rest[i] for i in others)]
            if not fits(group):
                continue
            taken = set(others)
            found = search([e for i, e in enumerate(rest) if i not in taken], todo[1:])
            if found is not None:
                return [group, *found]
            if steps[0] > SEARCH_STEPS:
                return None
        return None

    return search(order, sizes)


def _greedy(
    order: list[int], sizes: list[int], records: Mapping[int, Record], blocks: Blocks = ()
) -> list[list[int]]:
    """Tables of ``sizes`` from ``order`` with the fewest blocked pairs, then the fewest
    repeated meetings, table by table."""
    tables: list[list[int]] = []
    left = list(order)
    for size in sizes:
        first, rest = left[0], left[1:]
        window = rest[: size - 1 + 8]

        def cost(
            idx: tuple[int, ...], first: int = first, window: list[int] = window
        ) -> tuple[int, int, tuple[int, ...]]:
            group = [first, *(window[i] for i in idx)]
            return (_blocked(group, blocks), _repeats(group, records), idx)

        best = min(itertools.combinations(range(len(window)), size - 1), key=cost)
        group = [first, *(window[i] for i in best)]
        tables.append(group)
        left = [e for e in left if e not in group]
    return tables


def standing_order(records: Sequence[Record], rng: random.Random) -> list[int]:
    """Entrant ids best placed first: points, then the tie-break, then a draw."""
    drawn = {r.id: rng.random() for r in sorted(records, key=lambda r: r.id)}
    ranked = sorted(records, key=lambda r: (-r.points, -r.tiebreak, drawn[r.id]))
    return [r.id for r in ranked]


def swiss(
    records: Sequence[Record],
    players: int,
    allowed: Collection[int],
    seed: int,
    round_no: int,
    blocks: Blocks = (),
) -> Pairing:
    """One Swiss round of the entrants still playing (see the module doc); ``blocks``: the
    pairs to keep apart."""
    by_id = {r.id: r for r in records}
    entered = set(by_id)
    blocks = {pair for pair in blocks if pair <= entered}
    rng = _draw(seed, "swiss", round_no)
    order = standing_order(records, rng)
    sizes, bye_count = table_sizes(len(order), players, allowed)
    sizes.sort(reverse=True)
    # the lowest placed with the fewest byes first: at most one each while that is possible,
    # and the first choice that lets the others meet nobody twice
    candidates = sorted(reversed(order), key=lambda e: by_id[e].byes)
    choices: list[tuple[int, ...]] = []
    for choice in itertools.combinations(candidates[: bye_count + BYE_CHOICES], bye_count):
        if choice and by_id[choice[-1]].byes > by_id[candidates[bye_count - 1]].byes:
            break  # a second bye for someone while another has had none: not for this
        choices.append(choice)

    def first_fit(fits: Callable[[list[int]], bool]) -> tuple[list[int], list[list[int]]] | None:
        for choice in choices:
            groups = _search([e for e in order if e not in choice], sizes, fits)
            if groups is not None:
                return list(choice), groups
        return None

    found = first_fit(lambda g: not _repeats(g, by_id) and not _blocked(g, blocks))
    if found is None:
        byes = list(candidates[:bye_count])
        groups = _greedy([e for e in order if e not in byes], sizes, by_id, blocks)
        if any(_blocked(g, blocks) for g in groups):
            # repeated meetings rather than a blocked pair together, if any pairing allows
            found = first_fit(lambda g: not _blocked(g, blocks))
        if found is None:
            found = byes, groups
    byes, groups = found
    tables = [seat_order(g, by_id, rng) for g in groups]
    return Pairing(tables, byes)


def _circle(ids: Sequence[int]) -> list[list[tuple[int, ...]]]:
    """Berger tables: every pair once, in ``n - 1`` rounds (``n`` when odd: a bye a round)."""
    ring: list[int | None] = list(ids)
    if len(ring) % 2:
        ring.append(None)
    m = len(ring)
    rounds: list[list[tuple[int, ...]]] = []
    for r in range(m - 1):
        games: list[tuple[int, ...]] = []
        for i in range(m // 2):
            a, b = ring[i], ring[m - 1 - i]
            if a is None:
                assert b is not None
                games.append((b,))
            elif b is None:
                games.append((a,))
            else:
                games.append((a, b) if (r + i) % 2 == 0 else (b, a))
        rounds.append(games)
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def round_robin(
    ids: Sequence[int], players: int, allowed: Collection[int], seed: int
) -> list[list[tuple[int, ...]]]:
    """The groups of every round of a round robin between ``ids`` (in the order they
    joined): each round a list of groups, a group of one being a bye. Seats are dealt round
    by round (:func:`seat_order`), as the rounds are played."""
    if len(ids) < 2:
        return []
    if players == 2:
        return _circle(ids)
    rng = _draw(seed, "round-robin")
    unmet = {frozenset(p) for p in itertools.combinations(ids, 2)}
    byes: dict[int, int] = dict.fromkeys(ids, 0)
    rounds: list[list[tuple[int, ...]]] = []
    limit = len(ids) * 2  # a bound: the greedy rounds meet every pair long before
    while unmet and len(rounds) < limit:
        sizes, bye_count = table_sizes(len(ids), players, allowed)
        left = list(ids)
        rng.shuffle(left)
        out = sorted(left, key=lambda e: byes[e])[:bye_count] if bye_count else []
        for e in out:
            byes[e] += 1
        left = [e for e in left if e not in out]
        groups: list[tuple[int, ...]] = [(e,) for e in out]
        for size in sorted(sizes, reverse=True):
            first = max(left, key=lambda e: sum(frozenset((e, o)) in unmet for o in left))
            group = [first]
            left.remove(first)
            while len(group) < size:
                best = max(left, key=lambda e: sum(frozenset((e, g)) in unmet for g in group))
                group.append(best)
                left.remove(best)
            unmet -= {frozenset(p) for p in itertools.combinations(group, 2)}
            groups.append(tuple(group))
        rounds.append(groups)
    return rounds


def round_robin_round(
    ids: Sequence[int],
    players: int,
    allowed: Collection[int],
    seed: int,
    round_no: int,
    records: Mapping[int, Record],
    withdrawn: Collection[int],
    blocks: Blocks = (),
) -> Pairing:
    """Round ``round_no`` (1-based) of the round robin between ``ids``, without the entrants
    who withdrew, nor a blocked pair at one table (the later of the two in the schedule's
    group sits out: see the module doc): a table left with fewer entrants than the mode
    allows gives them byes."""
    rng = _draw(seed, "round-robin-seats", round_no)
    schedule = round_robin(ids, players, allowed, seed)
    tables: list[tuple[int, ...]] = []
    byes: list[int] = []
    for group in schedule[round_no - 1]:
        still = [e for e in group if e not in withdrawn]
        while _blocked(still, blocks):
            later = next(
                b
                for i, b in enumerate(still)
                if any(frozenset((a, b)) in blocks for a in still[:i])
            )
            still.remove(later)
            byes.append(later)
        if len(still) >= 2 and len(still) in allowed:
            tables.append(seat_order(still, records, rng))
        else:
            byes += still
    return Pairing(tables, byes)
