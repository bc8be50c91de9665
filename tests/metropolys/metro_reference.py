"""An independent, deliberately naive reference of the Metropolys rules (spec §4-§10).

Written from /work/shared/spec/metropolys.md and formats.md only, without the engine's move
generation, so the audit tests can compare the two at every position. Everything is a plain
set or dict and moves are notation strings; nothing here is meant to be fast.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

BOARD: dict[str, Any] = json.loads(
    (
        Path(__file__).parents[2] / "src" / "polis" / "games" / "metropolys" / "data" / "board.json"
    ).read_text(encoding="utf-8")
)
FIELDS: list[dict[str, Any]] = sorted(BOARD["fields"], key=lambda f: f["id"])
#: §3: shared border or bridge (the union of both neighbour lists, taken from the data).
ADJ: dict[int, frozenset[int]] = {
    f["id"]: frozenset(f["neighbors"]) | frozenset(f["bridge_neighbors"]) for f in FIELDS
}
DISTRICT_OF: dict[int, str] = {f["id"]: f["district"] for f in FIELDS}
COLOUR_OF: dict[int, str] = {f["id"]: f["color"] for f in FIELDS}
BRIDGES: list[tuple[int, int]] = [tuple(b["fields"]) for b in BOARD["bridges"]]
STATUES: list[frozenset[int]] = [frozenset(s["fields"]) for s in BOARD["statues"]]
LAKES: list[frozenset[int]] = [frozenset(lake["fields"]) for lake in BOARD["lakes"]]
OUTSKIRTS = frozenset(f["id"] for f in FIELDS if f["outskirts"])
DISTRICT_NAMES = ("center", "north", "east", "south", "west")


def size(value: int) -> int:
    """§2: small 1-5 (0), medium 6-9 (1), large 10-13 (2)."""
    return 0 if value <= 5 else 1 if value <= 9 else 2


@dataclass
class Ref:
    """A Metropolys position in the plainest form: who owns what, as sets and dicts."""

    mode: str
    players: int
    unused: frozenset[str]
    tokens: dict[int, str]  # tokens still on the board
    area_cards: list[str]
    neighbourhood_cards: list[str] | None
    current: int
    start: int
    supply: list[set[int]] = field(default_factory=list)
    built: dict[int, tuple[int, int]] = field(default_factory=dict)  # field -> (player, value)
    bids: list[tuple[int, int, int]] = field(default_factory=list)  # (field, value, player)
    passed: set[int] = field(default_factory=set)
    collected: list[dict[str, int]] = field(default_factory=list)
    metro_card: int | None = None
    archaeology_card: int | None = None
    terminal: bool = False
    rounds: int = 0
    lake_groups: str = "one_per_lake"
    field_51_outskirts: bool = True

    @classmethod
    def from_setup(
        cls, mode: str, players: int, setup: dict[str, Any], options: dict[str, Any] | None = None
    ) -> Ref:
        options = options or {}
        return cls(
            mode=mode,
            players=players,
            unused=frozenset(setup["unused_districts"]),
            tokens={int(k): v for k, v in setup["tokens"].items()},
            area_cards=list(setup["area_cards"]),
            neighbourhood_cards=setup.get("neighbourhood_cards"),
            current=setup["first_player"],
            start=setup["first_player"],
            supply=[set(range(1, 14)) for _ in range(players)],
            collected=[{"chic": 0, "metro": 0, "archaeology": 0} for _ in range(players)],
            lake_groups=options.get("lake_groups", "one_per_lake"),
            field_51_outskirts=options.get("field_51_outskirts", True),
        )

    # -- §5 definitions ------------------------------------------------------------------
    def in_play(self, f: int) -> bool:
        return DISTRICT_OF[f] not in self.unused

    def occupied(self, f: int) -> bool:
        return f in self.built or any(b[0] == f for b in self.bids)

    def free(self, f: int) -> bool:
        return self.in_play(f) and not self.occupied(f)

    def legal_moves(self) -> set[str]:
        """§5.1: opening on any free field (no pass); then pass, or a strictly higher value on
        a free field adjacent to the last bid."""
        if self.terminal:
            return set()
        me = self.current
        if not self.bids:
            return {f"{v}@{f}" for f in range(55) if self.free(f) for v in self.supply[me]}
        last_f, last_v, _ = self.bids[-1]
        moves = {"pass"}
        for f in ADJ[last_f]:
            if self.free(f):
                moves |= {f"{v}@{f}" for v in self.supply[me] if v > last_v}
        return moves

    def round_over(self) -> bool:
        """§5.1 step 4, conditions (a), (b), (c)."""
        _, last_v, last_p = self.bids[-1]
        last_f = self.bids[-1][0]
        others = [q for q in range(self.players) if q not in self.passed and q != last_p]
        if not others:
            return True
        if not any(self.free(f) for f in ADJ[last_f]):
            return True
        return not any(v > last_v for q in others for v in self.supply[q])

    def apply(self, move: str) -> None:
        if move not in self.legal_moves():
            raise ValueError(f"reference: {move!r} is not legal")
        me = self.current
        if move == "pass":
            self.passed.add(me)
        else:
            v, f = (int(x) for x in move.split("@"))
            self.supply[me].discard(v)
            self.bids.append((f, v, me))
        if self.round_over():
            self.resolve()
            return
        p = me
        while True:
            p = (p + 1) % self.players
            if p not in self.passed:
                break
        self.current = p

    def resolve(self) -> None:
        """§5.2 and §6."""
        f, v, winner = self.bids[-1]
        self.built[f] = (winner, v)
        for _, bv, bp in self.bids[:-1]:
            self.supply[bp].add(bv)
        self.bids = []
        self.passed = set()
        self.rounds += 1
        token = self.tokens.pop(f, None)
        if token is not None:
            self.collected[winner][token] += 1
            if token == "metro":
                holder = self.metro_card
                if holder is None or (
                    self.collected[winner]["metro"] > self.collected[holder]["metro"]
                ):
                    self.metro_card = winner
            elif token == "archaeology":
                self.archaeology_card = winner
        if not self.supply[winner]:
            self.terminal = True
            self.current = -1
        else:
            self.start = self.current = winner

    # -- comparison with the engine's view ---------------------------------------------------
    def public(self) -> dict[str, Any]:
        return {
            "current_player": self.current,
            "terminal": self.terminal,
            "buildings": {f: (p, v, True) for f, (p, v) in self.built.items()}
            | {f: (p, v, False) for f, v, p in self.bids},
            "tokens": dict(self.tokens),
            "bids": [(f, v, p) for f, v, p in self.bids],
            "passed": sorted(self.passed),
            "supplies": [sorted(s) for s in self.supply],
            "built": [
                sum(1 for p, _ in self.built.values() if p == q) for q in range(self.players)
            ],
            "collected": [dict(c) for c in self.collected],
            "metro_card": self.metro_card,
            "archaeology_card": self.archaeology_card,
            "start_player": self.start,
        }

    # -- §8-§10 scoring (brute force) ---------------------------------------------------------
    def breakdown(self, p: int) -> dict[str, int]:
        mine = {f for f, (q, _) in self.built.items() if q == p}
        c = self.collected[p]
        out = {
            "chic": 3 * c["chic"],
            "metro": c["metro"],
            "metro_card": 3 if self.metro_card == p else 0,
            "archaeology": -c["archaeology"],
            "archaeology_card": -2 if self.archaeology_card == p else 0,
            "area": 0,
            "neighbourhood": 0,
            "highest": 0,
        }
        card = self.area_cards[p]
        if self.mode == "family":
            out["area"] = 3 * sum(1 for f in mine if self._family_ok(card, f))
            return out
        assert self.neighbourhood_cards is not None
        out["neighbourhood"] = 2 * sum(
            1 for f in mine if COLOUR_OF[f] == self.neighbourhood_cards[p]
        )
        points = {"bridges": 4, "statues": 7, "lakes": 5, "districts": 4, "chains": 4}[card]
        out["area"] = points * expert_groups(card, mine, self.lake_groups)
        for d in DISTRICT_NAMES:
            if d in self.unused:
                continue
            keys = {}
            for q in range(self.players):
                sizes = sorted(
                    (size(v) for f, (o, v) in self.built.items() if o == q and DISTRICT_OF[f] == d),
                    reverse=True,
                )
                if sizes:
                    keys[q] = (sizes.count(2), sizes.count(1), sizes.count(0))
            if p in keys and keys[p] == max(keys.values()):
                out["highest"] += 5
        return out

    def _family_ok(self, card: str, f: int) -> bool:
        if card == "bridges":
            return any(f in b for b in BRIDGES)
        if card == "statues":
            return any(f in s for s in STATUES)
        if card == "lakes":
            return any(f in lake for lake in LAKES)
        if f == 51 and not self.field_51_outskirts:
            return False
        return f in OUTSKIRTS

    def scores(self) -> list[int]:
        return [sum(self.breakdown(p).values()) for p in range(self.players)]

    def ranking(self) -> list[list[int]]:
        """§10: points, then built buildings; the rest share a place."""
        built = self.public()["built"]
        scores = self.scores()
        keys = sorted({(scores[p], built[p]) for p in range(self.players)}, reverse=True)
        return [[p for p in range(self.players) if (scores[p], built[p]) == k] for k in keys]


def expert_groups(card: str, mine: set[int], lake_groups: str = "one_per_lake") -> int:
    """§9.3 by exhaustive search over disjoint groups (fine for at most 13 buildings)."""
    if card == "districts":
        return sum(1 for d in DISTRICT_NAMES if sum(1 for f in mine if DISTRICT_OF[f] == d) >= 3)
    if card == "bridges":
        groups = [frozenset(b) for b in BRIDGES if set(b) <= mine]
        return _max_disjoint(groups)
    if card == "statues":
        return _max_disjoint([s for s in STATUES if s <= mine])
    if card == "chains":
        triples = [
            frozenset(t)
            for t in combinations(sorted(mine), 3)
            if sum(1 for a, b in combinations(t, 2) if b in ADJ[a]) >= 2
        ]
        return _max_disjoint(triples)
    # lakes: each group is 3 buildings around one lake; one group per lake (R10) unless the
    # per_three option allows floor(n/3) groups per lake.
    best = 0
    per_lake = [sorted(mine & lake) for lake in LAKES]

    def search(i: int, used: frozenset[int], count: int) -> None:
        nonlocal best
        if i == len(per_lake):
            best = max(best, count)
            return
        search(i + 1, used, count)
        avail = [f for f in per_lake[i] if f not in used]
        limit = len(avail) // 3 if lake_groups == "per_three" else min(1, len(avail) // 3)
        for k in range(1, limit + 1):
            for chosen in combinations(avail, 3 * k):
                search(i + 1, used | frozenset(chosen), count + k)

    search(0, frozenset(), 0)
    return best


def _max_disjoint(groups: list[frozenset[int]]) -> int:
    """Most pairwise disjoint groups: the lowest field is either unused or in one group."""
    if not groups:
        return 0
    v = min(min(g) for g in groups)
    without = [g for g in groups if v not in g]
    best = _max_disjoint(without)
    for g in groups:
        if v in g:
            best = max(best, 1 + _max_disjoint([h for h in without if not h & g]))
    return best
