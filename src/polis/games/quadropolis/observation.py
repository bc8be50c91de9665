"""Observation encoding of a Quadropolis view (see :class:`QuadropolisEncoder`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from polis.research.actions import QUADROPOLIS_MATS
from polis.research.observations import Encoder, Layout, Obs, slot

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
