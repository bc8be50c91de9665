"""What the bots know about Quadropolis: the exact scorer as evaluation, cheap biased playouts.

Quadropolis hides only face-down tiles and future rounds, so the player's own city and
resources after a move are certain: the greedy value of a move is the exact score
(:func:`polis.quadropolis.scoring.score_city`) of the city after it, with penalties for
unused resources and buildings still inactive forgiven in proportion to the game still to
come (a Factory built before its inhabitant arrives is not a loss in round 1).
Evaluation reads the agent's own determinized state through the engine's public accessors.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from functools import lru_cache
from typing import cast

from polis.bots.agent import View
from polis.bots.knowledge import Knowledge, register_knowledge
from polis.core.protocol import Game, GameState, Move
from polis.quadropolis.city import Building, geometry
from polis.quadropolis.notation import Move as QMove
from polis.quadropolis.scoring import score_city
from polis.quadropolis.site import SELECT
from polis.quadropolis.state import QuadropolisState
from polis.quadropolis.tiles import KIND_CODES, ROUNDS, T_KIND, TILES

#: Share of an unused resource's penalty forgiven per unit of game still to come.
FORGIVE_PENALTY = 0.8
#: Points hoped for per inactive building per unit of game still to come.
INACTIVE_HOPE = 1.0
#: Playouts: chance of a uniformly random move, and moves compared otherwise.
PLAYOUT_EPSILON = 0.15
PLAYOUT_SAMPLES = 4
#: Moves a search-tree node considers.
TREE_WIDTH = 8
#: Rough points of a Monument per neighbouring building kind (spec §12).
_MONUMENT = {"P": 5, "p": 5, "S": 3, "U": 2, "F": -5, "H": -5}


@lru_cache(maxsize=65536)
def _city_score(
    mode: str, city: tuple[Building | None, ...], inh: int, en: int, opts: tuple[bool, int, bool]
) -> tuple[int, int, int]:
    """(total, penalties, inactive buildings) of a city with its best allocation."""
    report = score_city(
        mode,
        city,
        inh,
        en,
        playground_absorbs_pollution=opts[0],
        office_tower_group_cap=opts[1],
        empty_squares_after_removal=opts[2],
    )
    cats = report.categories
    penalties = cats["inhabitants_penalty"] + cats["energy_penalty"]
    return report.total, penalties, len(report.inactive)


def city_value(state: QuadropolisState, player: int) -> float:
    """Exact score of ``player``'s city now, softened for the part of the game still to come."""
    rules = state.rules
    opts = (
        rules.playground_absorbs_pollution,
        rules.office_tower_group_cap,
        rules.empty_squares_tie_break == "after_removal",
    )
    inh, en = state.resources(player)
    total, penalties, inactive = _city_score(state.mode, state.city(player), inh, en, opts)
    n = state.num_players
    left = 1.0 - len(state.moves) / (ROUNDS[state.mode] * 4 * n)
    return total + left * (-FORGIVE_PENALTY * penalties + INACTIVE_HOPE * inactive)


def move_value(state: QuadropolisState, move: Move, player: int, base: float) -> float:
    """Value of ``player``'s city after ``move`` (``base`` when nothing is built)."""
    if move[2] < 0:  # type: ignore[index]
        return base
    after = state.clone()
    after.apply(move)
    return city_value(after, player)


def quick_gain(state: QuadropolisState, move: Move) -> float:
    """A rough points estimate of ``move`` for playouts (the exact scorer is ~100x dearer).

    Counts what the new tile adds with its current neighbours, by the scoring tables' shape.
    """
    k, s, target = cast(QMove, move)
    if target < 0:
        return 0.0
    t = state.site[SELECT[s][k]]
    kind = KIND_CODES[T_KIND[t]]
    player = state.current_player()
    g = geometry(state.mode)
    kind_at = state.kind_at
    near = "".join(kind_at(player, q) for q in g.neighbours[target])
    vp = TILES[t].vp
    if kind in "TO":
        floors = state.floors_at(player, target)
        gain = floors + 1.0
        if not floors:
            gain += 2.0 * (near.count("P") + near.count("p"))
            if kind == "O":
                gain += 1.5 * near.count("O") + 4.0 * near.count("F")
        return gain - 0.5
    if kind == "S":
        return 1.0 + 2.0 * near.count("F")
    if kind == "U":
        has = any(kind_at(player, q) == "U" for q in g.district_squares[g.district[target]])
        return (0.5 if has else 3.0) + vp
    if kind in "Pp":
        return 0.5 + 2.0 * (near.count("T") + near.count("O"))
    if kind == "F":
        return 2.0 * near.count("S") + 3.0 * near.count("H") + 4.0 * near.count("O") - 0.5
    if kind == "H":
        return vp + 2.5 * near.count("H")
    if kind == "M":
        return float(sum(_MONUMENT.get(c, 0) for c in near))
    return 0.0


class QuadropolisKnowledge(Knowledge):
    """Exact-scorer greedy evaluation and greedy-biased playouts for Quadropolis."""

    pool_size = 16
    score_scale = 8.0

    def move_values(self, view: View, legal: Sequence[Move], rng: random.Random) -> list[float]:
        state = self.sample(view, rng)
        assert isinstance(state, QuadropolisState)
        player = int(view["player"])
        base = city_value(state, player)
        return [move_value(state, m, player, base) for m in legal]

    def playout_move(self, state: GameState, rng: random.Random) -> Move:
        if rng.random() < PLAYOUT_EPSILON:
            return state.random_move(rng)
        assert isinstance(state, QuadropolisState)
        best: Move = state.random_move(rng)
        best_value = quick_gain(state, best)
        for _ in range(PLAYOUT_SAMPLES - 1):
            move = state.random_move(rng)
            value = quick_gain(state, move)
            if value > best_value:
                best, best_value = move, value
        return best

    def tree_moves(self, state: GameState, rng: random.Random) -> list[Move]:
        """The best few of a sample of moves by quick gain: with 100-400 legal moves the tree
        would otherwise never grow past one ply (availability counts absorb the sampling)."""
        assert isinstance(state, QuadropolisState)
        legal = state.legal_moves()
        if len(legal) <= TREE_WIDTH:
            return legal
        sample = rng.sample(legal, min(len(legal), 3 * TREE_WIDTH))
        gains = {m: quick_gain(state, m) for m in sample}
        return sorted(gains, key=gains.__getitem__, reverse=True)[:TREE_WIDTH]

    def expansion_move(self, state: GameState, untried: Sequence[Move], rng: random.Random) -> Move:
        assert isinstance(state, QuadropolisState)
        return max(untried, key=lambda m: quick_gain(state, m) + 0.01 * rng.random())

    def reuse_key(self, view: View) -> Hashable | None:
        # A new round deals tiles the old tree never saw.
        return int(view["round"])


def _factory(game: Game) -> Knowledge:
    return QuadropolisKnowledge(game)


register_knowledge("quadropolis", _factory)
