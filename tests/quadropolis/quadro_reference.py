"""An independent, deliberately naive reference of the Quadropolis turn rules (spec §3-§6).

Written from /work/shared/spec/quadropolis.md and formats.md only, without looking at the
engine's move generation, so that the audit tests can compare the two at every position.
It reads the tile and mat data straight from the package's JSON files and keeps its state in
plain dicts and lists: obviously correct first, fast never.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[2] / "src" / "polis" / "games" / "quadropolis" / "data"
TILES: dict[str, dict[str, Any]] = {
    t["id"]: t for t in json.loads((DATA / "tiles.json").read_text(encoding="utf-8"))["tiles"]
}
_MATS = json.loads((DATA / "mats.json").read_text(encoding="utf-8"))
# Expert mat: (row, col) -> (square number, district), 1-based.
EXPERT_SQUARES = {
    (s["row"], s["col"]): (s["square_number"], s["district"]) for s in _MATS["expert"]["squares"]
}

ROUNDS = {"classic": 4, "expert": 5}
CITY_COLS = {"classic": 4, "expert": 5}
SIDES = "LRTB"
SPOTS = [f"{side}{i}" for side in SIDES for i in range(1, 6)]
# §6.3 maximum heights per mode.
MAX_FLOORS = {
    ("classic", "tower_block"): 4,
    ("expert", "tower_block"): 5,
    ("expert", "office_tower"): 5,
}


def face_up(tile_id: str, players: int) -> bool:
    """§3.1: 4 players all; 3 players all but "4"; 2 players all but "4" and "3•4"."""
    marking = TILES[tile_id]["marking"]
    if marking is None:
        return True
    if marking == "4":
        return players >= 4
    assert marking == "3•4", marking
    return players >= 3


def selected_square(spot: str, k: int) -> tuple[int, int]:
    """§5.2: the k-th square counted from the architect's own edge."""
    side, i = spot[0], int(spot[1])
    if side == "L":
        return (i, k)
    if side == "R":
        return (i, 6 - k)
    if side == "T":
        return (k, i)
    return (6 - k, i)


def spot_blocked(spot: str, urbanist: tuple[int, int] | None) -> bool:
    """§5.1/A2: the Urbanist blocks both ends of its row and of its column."""
    if urbanist is None:
        return False
    side, i = spot[0], int(spot[1])
    return urbanist[0] == i if side in "LR" else urbanist[1] == i


def location_ok(mode: str, square: tuple[int, int], k: int) -> bool:
    """§6.1/§6.2: row k or column k (Classic); square number k or district k (Expert)."""
    if mode == "classic":
        return square[0] == k or square[1] == k
    number, district = EXPERT_SQUARES[square]
    return bool(number == k or district == k)


def cell_code(tiles: list[str]) -> str:
    """formats §1.1 code of a building (a stack of tile ids, bottom first)."""
    t = TILES[tiles[-1]]
    kind = t["type"]
    if kind in ("tower_block", "office_tower"):
        letter = "T" if kind == "tower_block" else "O"
        return letter if len(tiles) == 1 else f"{letter}{len(tiles)}"
    if kind == "public_service":
        return "U" if not t["vp"] else f"U*{t['vp']}"
    if kind == "harbor":
        return "H" if not t["vp"] else f"H*{t['vp']}"
    if kind == "park":
        return "p" if t["variant"] == "playground" else "P"
    return {"shop": "S", "factory": "F", "monument": "M"}[kind]


@dataclass
class RefState:
    """The whole game in plain data; ``legal()`` and ``play()`` are the two rules entry points."""

    mode: str
    players: int
    rounds: list[list[str]]
    first: int
    face_down_tiles: str = "empty"  # option A5: "empty" or "unselectable"
    round: int = 0  # 0-based; == ROUNDS[mode] once the game is over
    action: int = 0  # actions taken this round
    mayor: int = 0
    site: list[str | None] = field(default_factory=list)
    spots: dict[str, tuple[int, int]] = field(default_factory=dict)  # spot -> (k, player)
    urbanist: tuple[int, int] | None = None
    used: list[set[int]] = field(default_factory=list)  # Classic
    pool: dict[int, int] = field(default_factory=dict)  # Expert
    cities: list[dict[tuple[int, int], list[str]]] = field(default_factory=list)
    inhabitants: list[int] = field(default_factory=list)
    energy: list[int] = field(default_factory=list)
    discarded: list[str] = field(default_factory=list)
    history: list[str] = field(default_factory=list)

    @classmethod
    def start(
        cls, mode: str, players: int, setup: dict[str, Any], options: dict[str, Any] | None = None
    ) -> RefState:
        s = cls(
            mode,
            players,
            [list(r) for r in setup["rounds"]],
            setup["first_player"],
            face_down_tiles=(options or {}).get("face_down_tiles", "empty"),
        )
        s.mayor = s.first  # §3 step 7: the first player holds the Mayor pawn
        s.cities = [{} for _ in range(players)]
        s.inhabitants = [0] * players
        s.energy = [0] * players
        s._lay_out()
        return s

    # -- rounds -------------------------------------------------------------------------
    def _lay_out(self) -> None:
        """§3.1 and §4.2: a fresh site, no architects, the Urbanist beside the board."""
        self.site = list(self.rounds[self.round])
        self.spots = {}
        self.urbanist = None
        self.used = [set() for _ in range(self.players)]
        self.pool = {k: self.players for k in range(1, 6)}
        self.action = 0
        self.first = self.mayor  # §4.1: the Mayor holder starts the round

    @property
    def over(self) -> bool:
        return self.round >= ROUNDS[self.mode]

    def current(self) -> int:
        """§4.1: the first player, then clockwise; -1 once the game is over."""
        if self.over:
            return -1
        return (self.first + self.action) % self.players

    # -- moves ----------------------------------------------------------------------------
    def architects(self) -> list[int]:
        if self.mode == "classic":
            return [k for k in range(1, 5) if k not in self.used[self.current()]]
        return [k for k in range(1, 6) if self.pool[k] > 0]

    def build_squares(self, player: int, tile_id: str, k: int) -> list[tuple[int, int]]:
        """§6: empty squares by location, or a same-type stack by (a) location or (b) floor k."""
        kind = TILES[tile_id]["type"]
        out = []
        for r in range(1, 5):
            for c in range(1, CITY_COLS[self.mode] + 1):
                here = self.cities[player].get((r, c))
                if here is None:
                    if location_ok(self.mode, (r, c), k):
                        out.append((r, c))
                    continue
                limit = MAX_FLOORS.get((self.mode, kind))
                if limit is None or TILES[here[-1]]["type"] != kind or len(here) >= limit:
                    continue
                if location_ok(self.mode, (r, c), k) or len(here) + 1 == k:
                    out.append((r, c))
        return out

    def _free(self) -> list[str]:
        return [s for s in SPOTS if s not in self.spots and not spot_blocked(s, self.urbanist)]

    def _tile_at(self, square: tuple[int, int]) -> str | None:
        return self.site[(square[0] - 1) * 5 + (square[1] - 1)]

    def _strict_face_down(self) -> bool:
        """Option A5 "unselectable": face-down squares may not be selected -- unless every
        available architect/spot pair selects one (placement is mandatory, §5.1), in which
        case they behave as empty squares. The fallback is the engine's resolution; the
        spec is silent (the option itself is an alternative the spec lists, not its rule)."""
        if self.face_down_tiles != "unselectable":
            return False
        for k in self.architects():
            for spot in self._free():
                tile = self._tile_at(selected_square(spot, k))
                if tile is None or face_up(tile, self.players):
                    return True
        return False

    def legal(self) -> set[str]:
        """Every legal move of the current player, in notation."""
        if self.over:
            return set()
        p = self.current()
        strict = self._strict_face_down()
        out: set[str] = set()
        for k in self.architects():
            for spot in self._free():
                tile = self._tile_at(selected_square(spot, k))
                if tile is not None and face_up(tile, self.players):
                    out.add(f"{k}{spot} x")
                    for sq in self.build_squares(p, tile, k):
                        out.add(f"{k}{spot} r{sq[0]}c{sq[1]}")
                elif tile is not None and strict:
                    continue
                else:
                    out.add(f"{k}{spot} -")
        return out

    def violations(self, move: str) -> set[str]:
        """Which rules a well-formed move ``<k><side><i> <target>`` breaks (empty: legal).

        Keys: over, no_architect, architect_used, spot_taken, urbanist, face_down,
        nothing_taken, must_take, reach, occupied, max_height, stack_floor.
        """
        if self.over:
            return {"over"}
        head, target = move.split()
        k, spot = int(head[0]), head[1:]
        out: set[str] = set()
        limit = 4 if self.mode == "classic" else 5
        if not 1 <= k <= limit:
            return {"no_architect"}
        if k not in self.architects():
            out.add("architect_used")
        if spot in self.spots:
            out.add("spot_taken")
        if spot_blocked(spot, self.urbanist):
            out.add("urbanist")
        tile = self._tile_at(selected_square(spot, k))
        taken = tile is not None and face_up(tile, self.players)
        if tile is not None and not taken and self._strict_face_down():
            out.add("face_down")
        if not taken:
            if target != "-":
                out.add("nothing_taken")
            return out
        if target == "-":
            out.add("must_take")
        elif target != "x":
            assert tile is not None
            sq = (int(target[1]), int(target[3]))
            here = self.cities[self.current()].get(sq)
            kind = TILES[tile]["type"]
            if here is None:
                if not location_ok(self.mode, sq, k):
                    out.add("reach")
            elif TILES[here[-1]]["type"] != kind or (self.mode, kind) not in MAX_FLOORS:
                out.add("occupied")
            elif len(here) >= MAX_FLOORS[(self.mode, kind)]:
                out.add("max_height")
            elif not location_ok(self.mode, sq, k) and len(here) + 1 != k:
                out.add("stack_floor")
        return out

    def play(self, move: str) -> None:
        """Apply a move known to be legal (§5 steps 1-4, then turn/round/game end)."""
        assert move in self.legal(), move
        p = self.current()
        head, target = move.split()
        k, spot = int(head[0]), head[1:]
        self.spots[spot] = (k, p)
        if self.mode == "classic":
            self.used[p].add(k)
        else:
            self.pool[k] -= 1
        r, c = selected_square(spot, k)
        q = (r - 1) * 5 + (c - 1)
        tile = self.site[q]
        self.urbanist = (r, c)  # §5.3, also when nothing was taken
        if target != "-":
            assert tile is not None
            self.site[q] = None  # taken
            if target == "x":
                self.discarded.append(tile)
            else:
                rr, cc = int(target[1]), int(target[3])
                self.cities[p].setdefault((rr, cc), []).append(tile)
                gives = TILES[tile]["gives"]
                self.inhabitants[p] += gives["inhabitants"]
                self.energy[p] += gives["energy"]
                if TILES[tile]["mayor"]:
                    self.mayor = p  # §5.6; turn order unchanged this round
        self.history.append(move)
        self.action += 1
        if self.action == 4 * self.players:
            self.round += 1
            if not self.over:
                self._lay_out()

    # -- comparison -------------------------------------------------------------------------
    def public(self) -> dict[str, Any]:
        """The public facts, in the shape :func:`engine_public` extracts from an engine view."""
        site: list[str | None] = []
        for t in self.site if not self.over else []:
            if t is None:
                site.append(None)
            elif face_up(t, self.players):
                site.append(t)
            else:
                site.append("face-down")
        cities = []
        for city in self.cities:
            cities.append({f"r{r}c{c}": (cell_code(ts), list(ts)) for (r, c), ts in city.items()})
        return {
            "current": self.current(),
            "round": min(self.round, ROUNDS[self.mode] - 1) + 1,
            "first": self.first,
            "mayor": self.mayor,
            "site": site,
            "spots": {s: v for s, v in self.spots.items()} if not self.over else {},
            "urbanist": None
            if self.over or self.urbanist is None
            else f"r{self.urbanist[0]}c{self.urbanist[1]}",
            "architects": None
            if self.mode == "expert" or self.over
            else [sorted(set(range(1, 5)) - u) for u in self.used],
            "pool": dict(self.pool) if self.mode == "expert" and not self.over else None,
            "cities": cities,
            "inhabitants": list(self.inhabitants),
            "energy": list(self.energy),
            "discarded": list(self.discarded),
            "history": list(self.history),
        }


def engine_public(view: dict[str, Any]) -> dict[str, Any]:
    """The same public facts read from an engine view (formats-independent keys)."""
    over = view["finished"]
    site: list[str | None] = []
    for sq in view["site"] if not over else []:
        if sq["state"] == "empty":
            site.append(None)
        elif sq["state"] == "face-up":
            site.append(sq["tile"]["id"])
        else:
            site.append("face-down")
    spots = {}
    for s in view["spots"] if not over else []:
        if s["architect"] is not None:
            spots[s["spot"]] = (s["architect"], s["player"])
    cities = []
    for city in view["cities"]:
        cities.append(
            {b["square"]: (b["code"], list(b["tiles"])) for b in city["squares"] if b is not None}
        )
    return {
        "current": view["current_player"],
        "round": view["round"],
        "first": view["first_player"],
        "mayor": view["mayor"],
        "site": site,
        "spots": spots,
        "urbanist": None if over else view["urbanist"],
        "architects": None if view["mode"] == "expert" or over else view["architects"],
        "pool": {int(k): v for k, v in view["pool"].items()}
        if view["mode"] == "expert" and not over
        else None,
        "cities": cities,
        "inhabitants": list(view["inhabitants"]),
        "energy": list(view["energy"]),
        "discarded": list(view["discarded"]),
        "history": list(view["moves"]),
    }
