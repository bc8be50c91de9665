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

from polis.bots.agent import View
from polis.bots.knowledge import Knowledge, register_knowledge
from polis.core.protocol import Game, GameState, Move
from polis.quadropolis.city import Building, parse_cell
from polis.quadropolis.scoring import score_city
from polis.quadropolis.state import QuadropolisState
from polis.quadropolis.tiles import ROUNDS

#: Share of an unused resource's penalty forgiven per unit of game still to come.
FORGIVE_PENALTY = 0.8
#: Points hoped for per inactive building per unit of game still to come.
INACTIVE_HOPE = 1.0
#: Playouts: chance of a uniformly random move, and moves compared otherwise.
PLAYOUT_EPSILON = 0.2
PLAYOUT_SAMPLES = 3


@lru_cache(maxsize=65536)
def _city_score(
    mode: str, codes: tuple[str, ...], inh: int, en: int, opts: tuple[bool, int, bool]
) -> tuple[int, int, int]:
    """(total, penalties, inactive buildings) of a city with its best allocation."""
    city: tuple[Building | None, ...] = tuple(parse_cell(c, mode) for c in codes)
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
    total, penalties, inactive = _city_score(
        state.mode, tuple(state.city_codes(player)), inh, en, opts
    )
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
        player = state.current_player()
        base = city_value(state, player)
        best: Move = state.random_move(rng)
        best_value = move_value(state, best, player, base)
        for _ in range(PLAYOUT_SAMPLES - 1):
            move = state.random_move(rng)
            value = move_value(state, move, player, base)
            if value > best_value:
                best, best_value = move, value
        return best

    def expansion_move(
        self, state: GameState, untried: Sequence[Move], rng: random.Random
    ) -> Move:
        builds = [m for m in untried if m[2] >= 0]  # type: ignore[index]
        pool = builds or untried
        return pool[rng.randrange(len(pool))]

    def reuse_key(self, view: View) -> Hashable | None:
        # A new round deals tiles the old tree never saw.
        return int(view["round"])


def _factory(game: Game) -> Knowledge:
    return QuadropolisKnowledge(game)


register_knowledge("quadropolis", _factory)
