"""The observation encoders as they were before the redesign: a reference for the new ones.

Copied from the old tree (``polis/research/observations.py``, ``quadropolis_obs.py`` and
``metropolys_obs.py``) with only their imports replaced by the constants they read, so the
reference shares no code with what it checks. They read the view's JSON dict
(``view.to_json()``, which the redesign keeps exactly); the new encoders read the typed
view. ``test_observation_equality.py`` asserts both give the same numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

Obs = npt.NDArray[np.float32]

#: City size (rows, columns) and architect count of each Quadropolis mode (formats §1.1).
QUADROPOLIS_MATS = {"classic": (4, 4, 4), "expert": (4, 5, 5)}
#: The Metropolys board's districts and colours, in code order.
DISTRICTS = ("center", "north", "east", "south", "west")
COLOURS = ("gray", "orange", "green", "red", "blue")


class Layout:
    """Named contiguous blocks of a flat float32 vector."""

    def __init__(self) -> None:
        self.blocks: dict[str, tuple[int, tuple[int, ...]]] = {}
        self._spans: list[tuple[str, int, int, tuple[int, ...]]] = []
        self.size = 0

    def add(self, name: str, *shape: int) -> None:
        n = int(np.prod(shape))
        self.blocks[name] = (self.size, shape)
        self._spans.append((name, self.size, self.size + n, shape))
        self.size += n

    def views(self, flat: Obs) -> dict[str, Obs]:
        """Writable reshaped views of ``flat``, one per block."""
        return {name: flat[a:b].reshape(shape) for name, a, b, shape in self._spans}

    def describe(self) -> list[tuple[str, tuple[int, ...]]]:
        return [(name, shape) for name, (_, shape) in self.blocks.items()]


class Encoder:
    """Turns a view dict into a flat float32 vector of :attr:`size` entries."""

    game: str
    layout: Layout

    @property
    def size(self) -> int:
        return self.layout.size

    def encode(self, view: Mapping[str, Any], seat: int | None = None) -> Obs:
        """Encode ``view``; seats are relative to ``seat`` (default: the view's player).

        ``seat`` lets a spectator's (public) view be encoded from one player's chair.
        """
        flat = np.zeros(self.layout.size, dtype=np.float32)
        me = view["player"] if seat is None else seat
        self.fill(self.layout.views(flat), view, 0 if me is None else me)
        return flat

    def fill(self, blocks: dict[str, Obs], view: Mapping[str, Any], me: int) -> None:
        raise NotImplementedError


def slot(player: int | None, observer: int, n: int) -> int:
    """Seat of ``player`` relative to ``observer`` (0 = observer)."""
    return -1 if player is None or player < 0 else (player - observer) % n


#: Building codes of formats §1.1, in feature order.
Q_KINDS = "TOSUPpFHM"


class QuadropolisEncoder(Encoder):
    """Blocks (n = players, A = architects, N = city squares, R = rounds):

    ``round`` R one-hot, ``turn`` 4 one-hot, ``to_move`` / ``first_player`` / ``mayor`` n
    one-hot slots, ``finished`` flag; ``site`` 25 x [empty, face-down, face-up, 9 kinds
    T O S U P p F H M, gives inhabitants, gives energy, printed VP, Mayor tile];
    ``spots`` 20 x [taken, A architect one-hot, n owner slot, blocked by the Urbanist];
    ``urbanist`` 26 one-hot (25 squares, beside the board); ``architects`` n x A (Classic:
    own architects not yet used; Expert: row 0 holds the pool count of each number);
    ``cities`` n x N x [9 kinds, floors]; ``resources`` n x [inhabitants, energy].
    """

    game = "quadropolis"

    def __init__(self, mode: str, players: int) -> None:
        rows, cols, architects = QUADROPOLIS_MATS[mode]
        self.mode, self.n, self.arch, self.squares = mode, players, architects, rows * cols
        self.rounds = 4 if mode == "classic" else 5
        lay = Layout()
        lay.add("round", self.rounds)
        lay.add("turn", 4)
        lay.add("to_move", players)
        lay.add("first_player", players)
        lay.add("mayor", players)
        lay.add("finished", 1)
        lay.add("site", 25, 3 + len(Q_KINDS) + 4)
        lay.add("spots", 20, 1 + architects + players + 1)
        lay.add("urbanist", 26)
        lay.add("architects", players, architects)
        lay.add("cities", players, self.squares, len(Q_KINDS) + 1)
        lay.add("resources", players, 2)
        self.layout = lay

    def fill(self, b: dict[str, Obs], view: Mapping[str, Any], me: int) -> None:
        n = self.n
        b["round"][min(view["round"], self.rounds) - 1] = 1
        b["turn"][view["turn"] - 1] = 1
        cur = slot(view["current_player"], me, n)
        if cur >= 0:
            b["to_move"][cur] = 1
        b["first_player"][slot(view["first_player"], me, n)] = 1
        b["mayor"][slot(view["mayor"], me, n)] = 1
        b["finished"][0] = 1.0 if view["finished"] else 0.0
        site = b["site"]
        for q, sq in enumerate(view["site"]):
            state = sq["state"]
            if state == "empty":
                site[q, 0] = 1
            elif state == "face-down":
                site[q, 1] = 1  # the back is not encoded: the tile is not in play (A5)
            else:
                tile = sq["tile"]
                site[q, 2] = 1
                site[q, 3 + Q_KINDS.index(tile["code"])] = 1
                base = 3 + len(Q_KINDS)
                site[q, base] = tile["gives"]["inhabitants"]
                site[q, base + 1] = tile["gives"]["energy"]
                site[q, base + 2] = tile["vp"]
                site[q, base + 3] = 1 if tile["mayor"] else 0
        spots = b["spots"]
        for s, spot in enumerate(view["spots"]):
            if spot["architect"] is not None:
                spots[s, 0] = 1
                spots[s, spot["architect"]] = 1
                spots[s, 1 + self.arch + slot(spot["player"], me, n)] = 1
            if spot["blocked"]:
                spots[s, -1] = 1
        urb = view["urbanist"]
        if urb is None:
            b["urbanist"][25] = 1
        else:
            r, c = urb[1:].split("c")
            b["urbanist"][(int(r) - 1) * 5 + int(c) - 1] = 1
        arch = b["architects"]
        if view["pool"] is not None:
            for k, count in view["pool"].items():
                arch[0, int(k) - 1] = count
        else:
            for p, left in enumerate(view["architects"]):
                for k in left:
                    arch[slot(p, me, n), k - 1] = 1
        cities = b["cities"]
        for p, city in enumerate(view["cities"]):
            seat = slot(p, me, n)
            for q, sq in enumerate(city["squares"]):
                if sq is not None:
                    code = sq["code"]
                    cities[seat, q, Q_KINDS.index(code[0])] = 1
                    cities[seat, q, -1] = sq["floors"]
        res = b["resources"]
        for p in range(n):
            seat = slot(p, me, n)
            res[seat, 0] = view["inhabitants"][p]
            res[seat, 1] = view["energy"][p]


TOKENS = ("chic", "metro", "archaeology")
#: Area cards of both versions (Family uses the first four, Expert 0-2 and 4-5).
AREA_CARDS = ("bridges", "statues", "lakes", "outskirts", "districts", "chains")
FIELDS = 55
_DISTRICT = {d: i for i, d in enumerate(DISTRICTS)}
_COLOUR = {c: i for i, c in enumerate(COLOURS)}
_TOKEN = {t: i for i, t in enumerate(TOKENS)}


class MetropolysEncoder(Encoder):
    """Blocks (n = players):

    ``to_move`` / ``start_player`` n one-hot slots, ``terminal`` flag, ``unused`` 5 district
    flags; ``fields`` 55 x [in play, 3 token types still lying there, n built-by slot, n
    bid-by slot, building value (0-13), last bid, 5 colours, 5 districts]; ``bid_value``
    14 one-hot (0 = no bid yet this round); ``passed`` n; ``supplies`` n x 13 (building
    value still in supply); ``built`` n counts; ``tokens`` n x 3 counts collected;
    ``metro_card`` / ``archaeology_card`` n+1 one-hot (last = nobody); ``area_card`` 6
    one-hot and ``neighbourhood_card`` 5 one-hot: the observer's own secret cards only.
    """

    game = "metropolys"

    def __init__(self, mode: str, players: int) -> None:
        self.mode, self.n = mode, players
        lay = Layout()
        lay.add("to_move", players)
        lay.add("start_player", players)
        lay.add("terminal", 1)
        lay.add("unused", 5)
        self.field_width = 1 + 3 + 2 * players + 2 + 5 + 5
        lay.add("fields", FIELDS, self.field_width)
        lay.add("bid_value", 14)
        lay.add("passed", players)
        lay.add("supplies", players, 13)
        lay.add("built", players)
        lay.add("tokens", players, 3)
        lay.add("metro_card", players + 1)
        lay.add("archaeology_card", players + 1)
        lay.add("area_card", len(AREA_CARDS))
        lay.add("neighbourhood_card", len(COLOURS))
        self.layout = lay

    def fill(self, b: dict[str, Obs], view: Mapping[str, Any], me: int) -> None:
        n = self.n
        cur = slot(view["current_player"], me, n)
        if cur >= 0:
            b["to_move"][cur] = 1
        b["start_player"][slot(view["start_player"], me, n)] = 1
        b["terminal"][0] = 1 if view["terminal"] else 0
        for d in view["unused_districts"]:
            b["unused"][DISTRICTS.index(d)] = 1
        fields = b["fields"]
        last = view["bid"]
        for f in view["fields"]:
            row = fields[f["id"]]
            row[0] = 1 if f["in_play"] else 0
            if f["token"] is not None:
                row[1 + _TOKEN[f["token"]]] = 1
            building = f["building"]
            if building is not None:
                who = slot(building["player"], me, n)
                row[4 + (who if building["built"] else n + who)] = 1
                row[4 + 2 * n] = building["value"]
            base = 6 + 2 * n
            row[base + _COLOUR[f["colour"]]] = 1
            row[base + 5 + _DISTRICT[f["district"]]] = 1
        if last is not None:
            fields[last["field"], 5 + 2 * n] = 1
            b["bid_value"][last["value"]] = 1
        else:
            b["bid_value"][0] = 1
        for p in view["passed"]:
            b["passed"][slot(p, me, n)] = 1
        for p in range(n):
            s = slot(p, me, n)
            for v in view["supplies"][p]:
                b["supplies"][s, v - 1] = 1
            b["built"][s] = view["built"][p]
            got = view["tokens_collected"][p]
            for t, name in enumerate(TOKENS):
                b["tokens"][s, t] = got[name]
        for key in ("metro_card", "archaeology_card"):
            holder = view[key]
            b[key][n if holder is None else slot(holder, me, n)] = 1
        if view["area_card"] is not None:
            b["area_card"][AREA_CARDS.index(view["area_card"])] = 1
        if view["neighbourhood_card"] is not None:
            b["neighbourhood_card"][COLOURS.index(view["neighbourhood_card"])] = 1
