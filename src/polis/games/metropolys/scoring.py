"""Exact end-of-game scoring (spec §8-§10) and the score report of formats §2.3.

The Expert area cards count disjoint groups and the rules want the grouping that gives the
most groups (R9). Every card is a *set packing* over the player's at most 13 fields: bridges
pack pairs, statues and chains pack triples, lakes pack triples with a virtual "lake" bit so a
lake gives at most one group (R10). One small memoised branch-and-take search solves them all
exactly; greedy counting would undercount (e.g. bridges on 14, 33, 39, 43).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Final

from polis.core.result import Details, GameResult, PlayerScore
from polis.games.metropolys.board import (
    ADJACENT,
    BRIDGES,
    COLOUR,
    DISTRICT,
    DISTRICTS,
    LAKES,
    NUM_FIELDS,
    ON_BRIDGE,
    ON_LAKE,
    ON_STATUE,
    OUTSKIRTS,
    SIZE_OF,
    STATUES,
    field_mask,
)
from polis.games.metropolys.cards import (
    ARCHAEOLOGY_CARD_POINTS,
    EXPERT_AREA_POINTS,
    FAMILY_AREA_POINTS,
    HIGHEST_POINTS,
    METRO_CARD_POINTS,
    NEIGHBOURHOOD_POINTS,
    TOKEN_POINTS,
)
from polis.games.metropolys.options import DEFAULT_OPTIONS, Options

BREAKDOWN_KEYS: Final = (
    "chic",
    "metro",
    "metro_card",
    "archaeology",
    "archaeology_card",
    "area",
    "neighbourhood",
    "highest",
)

BRIDGE_SETS: Final = tuple(field_mask(b) for b in BRIDGES)
STATUE_SETS: Final = tuple(field_mask(s) for s in STATUES)


def _chain_sets() -> tuple[int, ...]:
    """Every connected triple (path or triangle) of the adjacency graph, as a mask."""
    triples: set[int] = set()
    for centre in range(NUM_FIELDS):
        for a, b in combinations(ADJACENT[centre], 2):
            triples.add(1 << centre | 1 << a | 1 << b)
    return tuple(sorted(triples))


CHAIN_SETS: Final = _chain_sets()
#: One virtual bit per lake above the field bits: a lake may be used by one group only.
_LAKE_BIT: Final = tuple(1 << (NUM_FIELDS + i) for i in range(len(LAKES)))
ALL_LAKE_BITS: Final = sum(_LAKE_BIT)
LAKE_SETS_ONE: Final = tuple(
    field_mask(t) | _LAKE_BIT[i] for i, lake in enumerate(LAKES) for t in combinations(lake, 3)
)
LAKE_SETS_PER_THREE: Final = tuple(
    sorted({field_mask(t) for lake in LAKES for t in combinations(lake, 3)})
)


def max_packing(sets: Sequence[int], owned: int) -> int:
    """Largest number of pairwise disjoint ``sets`` that lie inside ``owned`` (exact)."""
    fitting = [s for s in sets if s & owned == s]
    if not fitting:
        return 0
    memo: dict[int, int] = {}

    def best(cands: list[int], rem: int) -> int:
        fit = [s for s in cands if s & rem == s]
        if not fit:
            return 0
        if len(fit) == 1:
            return 1
        key = rem
        hit = memo.get(key)
        if hit is not None:
            return hit
        first = fit[0]
        bit = first & -first  # a field bit: either left out, or covered by one set holding it
        result = best(fit, rem & ~bit)
        for s in fit:
            if s & bit:
                result = max(result, 1 + best(fit, rem & ~s))
        memo[key] = result
        return result

    return best(fitting, owned)


def expert_area_groups(card: str, fields: Sequence[int], options: Options = DEFAULT_OPTIONS) -> int:
    """Number of groups the Expert area ``card`` scores for a player's built ``fields``."""
    owned = field_mask(fields)
    if card == "bridges":
        return max_packing(BRIDGE_SETS, owned)
    if card == "statues":
        return max_packing(STATUE_SETS, owned)
    if card == "chains":
        return max_packing(CHAIN_SETS, owned)
    if card == "lakes":
        if options.lake_groups == "per_three":
            return max_packing(LAKE_SETS_PER_THREE, owned)
        return max_packing(LAKE_SETS_ONE, owned | ALL_LAKE_BITS)
    if card == "districts":
        counts = [0] * len(DISTRICTS)
        for f in fields:
            counts[DISTRICT[f]] += 1
        return sum(1 for c in counts if c >= 3)
    raise ValueError(f"unknown Expert area card {card!r}")


def family_area_count(card: str, fields: Sequence[int], options: Options = DEFAULT_OPTIONS) -> int:
    """Number of a player's built ``fields`` that meet the Family area ``card`` (each once)."""
    if card == "bridges":
        return sum(1 for f in fields if ON_BRIDGE[f])
    if card == "statues":
        return sum(1 for f in fields if ON_STATUE[f])
    if card == "lakes":
        return sum(1 for f in fields if ON_LAKE[f])
    if card == "outskirts":
        return sum(1 for f in fields if f in OUTSKIRTS and (f != 51 or options.field_51_outskirts))
    raise ValueError(f"unknown Family area card {card!r}")


#: A building's weight in its owner's district key: large 2^16, medium 2^8, small 1. A player
#: has at most 13 buildings, so the keys compare as the (#large, #medium, #small) lists.
SIZE_WEIGHT: Final = (0, *(1 << 8 * SIZE_OF[v] for v in range(1, 14)))


def district_keys(buildings: Sequence[Sequence[tuple[int, int]]]) -> list[list[int]]:
    """Per player, per district, the size list of its buildings there as one int (R22)."""
    keys = [[0] * len(DISTRICTS) for _ in buildings]
    for row, built in zip(keys, buildings, strict=True):
        for field, value in built:
            row[DISTRICT[field]] += SIZE_WEIGHT[value]
    return keys


def highest_winners(buildings: Sequence[Sequence[tuple[int, int]]], district: int) -> list[int]:
    """Players with the best size list in ``district`` (R22): compare (#large, #medium, #small)."""
    keys = [row[district] for row in district_keys(buildings)]
    top = max(keys, default=0)
    return [p for p, k in enumerate(keys) if k == top] if top else []


def highest_points(pos: EndPosition) -> list[int]:
    """Each player's points for the highest buildings of the districts in play (Expert, R22)."""
    return _highest(pos.players, pos.unused, pos.buildings)


def _highest(
    players: int, unused: frozenset[int], buildings: Sequence[Sequence[tuple[int, int]]]
) -> list[int]:
    keys = district_keys(buildings)
    points = [0] * players
    for d in range(len(DISTRICTS)):
        if d in unused:
            continue
        top = max([row[d] for row in keys])
        if top:
            for p, row in enumerate(keys):
                if row[d] == top:
                    points[p] += HIGHEST_POINTS
    return points


@dataclass(frozen=True, slots=True)
class EndPosition:
    """Everything scoring needs: built buildings, collected tokens, cards (all revealed)."""

    mode: str
    players: int
    unused: frozenset[int]
    #: Per player, (field, value) of each built building.
    buildings: tuple[tuple[tuple[int, int], ...], ...]
    #: Per player, (chic, metro, archaeology) tokens collected.
    tokens: tuple[tuple[int, int, int], ...]
    metro_card: int | None
    archaeology_card: int | None
    area_cards: tuple[str, ...]
    neighbourhood_cards: tuple[str, ...] | None
    options: Options = DEFAULT_OPTIONS


#: The breakdown entries nobody's secret card decides (Family: the first five).
PUBLIC_KEYS: Final = ("chic", "metro", "metro_card", "archaeology", "archaeology_card", "highest")


def public_breakdowns(
    mode: str,
    unused: frozenset[int],
    buildings: Sequence[Sequence[tuple[int, int]]],
    tokens: Sequence[tuple[int, int, int]],
    metro_card: int | None,
    archaeology_card: int | None,
) -> list[dict[str, int]]:
    """Per player, the points that need no secret card, as they stand: tokens, the metro and
    archaeology cards and (Expert) the highest buildings of the districts in play, scored
    from the buildings built so far. The table's running score during a game: every player
    may know them. The area and neighbourhood cards are left out (their keys are absent)."""
    expert = mode == "expert"
    highest = _highest(len(buildings), unused, buildings) if expert else None
    out = []
    for p, (chic, metro, arch) in enumerate(tokens):
        row = {
            "chic": TOKEN_POINTS[1] * chic,
            "metro": TOKEN_POINTS[2] * metro,
            "metro_card": METRO_CARD_POINTS if metro_card == p else 0,
            "archaeology": TOKEN_POINTS[3] * arch,
            "archaeology_card": ARCHAEOLOGY_CARD_POINTS if archaeology_card == p else 0,
        }
        if highest is not None:
            row["highest"] = highest[p]
        out.append(row)
    return out


def player_breakdowns(pos: EndPosition) -> list[dict[str, int]]:
    """The eight breakdown entries of each player."""
    expert = pos.mode == "expert"
    highest = highest_points(pos) if expert else [0] * pos.players
    out = []
    for p in range(pos.players):
        fields = [f for f, _ in pos.buildings[p]]
        chic, metro, arch = pos.tokens[p]
        card = pos.area_cards[p]
        if expert:
            area = EXPERT_AREA_POINTS[card] * expert_area_groups(card, fields, pos.options)
            colours = pos.neighbourhood_cards
            colour = colours[p] if colours is not None else None
            neighbourhood = NEIGHBOURHOOD_POINTS * sum(1 for f in fields if COLOUR[f] == colour)
        else:
            area = FAMILY_AREA_POINTS * family_area_count(card, fields, pos.options)
            neighbourhood = 0
        out.append(
            {
                "chic": TOKEN_POINTS[1] * chic,
                "metro": TOKEN_POINTS[2] * metro,
                "metro_card": METRO_CARD_POINTS if pos.metro_card == p else 0,
                "archaeology": TOKEN_POINTS[3] * arch,
                "archaeology_card": ARCHAEOLOGY_CARD_POINTS if pos.archaeology_card == p else 0,
                "area": area,
                "neighbourhood": neighbourhood,
                "highest": highest[p],
            }
        )
    return out


def ranking(totals: Sequence[int], built: Sequence[int]) -> list[list[int]]:
    """Places best first (§10): most points, then most buildings built, else a shared place."""
    keyed: dict[tuple[int, int], list[int]] = {}
    for p, key in enumerate(zip(totals, built, strict=True)):
        keyed.setdefault(key, []).append(p)
    return [keyed[k] for k in sorted(keyed, reverse=True)]


def game_result(pos: EndPosition, built: Sequence[int]) -> GameResult:
    """§8-§10 at the end of a game: every breakdown, the totals and the places (``built``:
    buildings each player built, the tie-break)."""
    breakdowns = player_breakdowns(pos)
    totals = tuple(sum(b.values()) for b in breakdowns)
    built = tuple(built)  # the details may be worked out later: keep today's counts
    places = tuple(tuple(g) for g in ranking(totals, built))

    def details() -> Details:
        players = tuple(
            PlayerScore(
                total=t,
                categories={k: b[k] for k in BREAKDOWN_KEYS},
                tie_breaks={"built": built[p]},
                report={"total": t, "built": built[p], "breakdown": b},
            )
            for p, (t, b) in enumerate(zip(totals, breakdowns, strict=True))
        )
        data = {
            "game": "metropolys",
            "mode": pos.mode,
            "players": [dict(p.report) for p in players],
            "ranking": [list(g) for g in places],
        }
        return players, data

    return GameResult("metropolys", pos.mode, totals, places, details=details)


def score_report(pos: EndPosition) -> dict[str, Any]:
    """The formats §2.3 score report of an end position."""
    breakdowns = player_breakdowns(pos)
    totals = [sum(b.values()) for b in breakdowns]
    built = [len(b) for b in pos.buildings]
    return {
        "game": "metropolys",
        "mode": pos.mode,
        "players": [
            {"total": t, "built": n, "breakdown": b}
            for t, n, b in zip(totals, built, breakdowns, strict=True)
        ],
        "ranking": ranking(totals, built),
    }
