"""Observation encoding of a Metropolys view (see :class:`MetropolysEncoder`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from polis.games.metropolys.board import COLOURS, DISTRICTS
from polis.research.observations import Encoder, Layout, Obs, slot

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
