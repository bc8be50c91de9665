"""What the bots know about Quadropolis: the exact scorer as evaluation, cheap biased playouts.

Quadropolis hides only face-down tiles and future rounds, so the player's own city and
resources after a move are certain: the greedy value of a move is the exact score
(:func:`polis.games.quadropolis.scoring.score_city`) of the city after it, with penalties for
unused resources and buildings still inactive forgiven in proportion to the game still to
come (a Factory built before its inhabitant arrives is not a loss in round 1).

Playouts cannot afford the exact scorer, so they compare a few tiles within reach, each on
its best square, by a rough gain: the scoring tables' shape for the layout, plus the
resource balance (a Tower Block's inhabitants are worth much more to a city whose
Factories wait for them). Playouts that ignore resources score about 29 points per player
in 4-player Expert games, these about 55 (greedy: about 76). With them flat Monte Carlo
went from parity with greedy at 4-player tables (9 of 20 games) to 28 of 40.
Evaluation reads the agent's own determinized state through the engine's public accessors.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from functools import lru_cache, partial
from typing import TYPE_CHECKING, cast

from polis.core.moves import Move
from polis.core.parts.knowledge import Knowledge
from polis.core.protocol import GameState
from polis.core.view import View
from polis.games.quadropolis.city import Building, Geometry, geometry
from polis.games.quadropolis.moves import DISCARD, NOTHING, QuadropolisMove, find
from polis.games.quadropolis.scoring import score_city
from polis.games.quadropolis.state import QuadropolisState
from polis.games.quadropolis.tiles import KIND_CODES, ROUNDS, T_EN, T_INH, T_KIND, TILES
from polis.games.quadropolis.view import QuadropolisView

#: Share of an unused resource's penalty forgiven per unit of game still to come.
FORGIVE_PENALTY = 0.8
#: Points hoped for per inactive building per unit of game still to come.
INACTIVE_HOPE = 1.0
#: Playouts: chance of a uniformly random move, and tiles compared otherwise (each on
#: its best square).
PLAYOUT_EPSILON = 0.05
PLAYOUT_PICKS = 4
#: Tiles the searches' playouts compare on the compiled engine, where a pick costs little:
#: greedier playouts (39 points a player from the start of a Classic 2p game against 32
#: with 4) made ``hard`` win 15.5 of 18 games against ``mcts-python``, which had won 24.5
#: of 38 with 4 (29 Nov 2026, the same deals, 1.7 s of CPU a move).
SEARCH_PICKS = 8
#: Playouts: points of a building the city has no resource for yet (it may come later),
#: of a resource a waiting building lacks, of an inhabitant a Shop can seat, and of a
#: spare resource early and late in the game (late, it is a penalty point).
WAITING = -0.5
SUPPLY_NEEDED = 2.5
SUPPLY_CUSTOMER = 0.8
SPARE_EARLY, SPARE_LATE = 0.3, -0.8
#: Moves a search-tree node considers.
TREE_WIDTH = 8
#: Rough points of a Monument per neighbouring building kind (spec §12).
_MONUMENT = {"P": 5, "p": 5, "S": 3, "U": 2, "F": -5, "H": -5}
#: Kinds that need an inhabitant, and energy, to be active (spec §9).
NEEDS_INHABITANT = "UFHO"
NEEDS_ENERGY = "TSO"
#: Kind letter and printed VP per tile index (read in every playout move).
_CODE = tuple(KIND_CODES[k] for k in T_KIND)
_VP = tuple(t.vp for t in TILES)


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


def game_left(state: QuadropolisState) -> float:
    """Share of the game's actions still to come (1 at the start, 0 at the end)."""
    return 1.0 - state.turns_played / (ROUNDS[state.mode] * 4 * state.num_players)


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
    left = game_left(state)
    return total + left * (-FORGIVE_PENALTY * penalties + INACTIVE_HOPE * inactive)


def move_value(state: QuadropolisState, move: QuadropolisMove, player: int, base: float) -> float:
    """Value of ``player``'s city after ``move`` (``base`` when nothing is built)."""
    if move.target < 0:
        return base
    after = state.clone()
    after.apply(move)
    return city_value(after, player)


def layout_gain(kinds: str, tile: int, floors: int, target: int, g: Geometry) -> float:
    """Rough points ``tile`` adds on ``target`` with its current neighbours.

    ``kinds`` is the city as :meth:`QuadropolisState.kinds` gives it, ``floors`` what
    already stands on ``target``. Follows the shape of the scoring tables; the exact
    scorer is ~100x dearer.
    """
    kind = _CODE[tile]
    near = "".join([kinds[q] for q in g.neighbours[target]])
    if kind in "TO":
        gain = floors + 1.0
        if not floors:
            gain += 2.0 * (near.count("P") + near.count("p"))
            if kind == "O":
                gain += 1.5 * near.count("O") + 4.0 * near.count("F")
        return gain - 0.5
    if kind == "S":
        return 1.0 + 2.0 * near.count("F")
    if kind == "U":
        has = any(kinds[q] == "U" for q in g.district_squares[g.district[target]])
        return (0.5 if has else 3.0) + _VP[tile]
    if kind in "Pp":
        return 0.5 + 2.0 * (near.count("T") + near.count("O"))
    if kind == "F":
        return 2.0 * near.count("S") + 3.0 * near.count("H") + 4.0 * near.count("O") - 0.5
    if kind == "H":
        return _VP[tile] + 2.5 * near.count("H")
    if kind == "M":
        return float(sum(_MONUMENT.get(c, 0) for c in near))
    return 0.0


class Builder:
    """One player's city as the playouts see it before a move: its kinds and free resources.

    Built once per decision so that many candidate builds share it (and the resource part
    of each tile's gain, which depends on the square only through whether it stacks).
    """

    __slots__ = (
        "_resource_gains",
        "floors",
        "free_energy",
        "free_inhabitants",
        "g",
        "kinds",
        "seats",
        "spare",
    )

    def __init__(self, state: QuadropolisState, player: int) -> None:
        self.g = geometry(state.mode)
        kinds = self.kinds = state.kinds(player)
        inh, en = state.resources(player)
        self.free_inhabitants = inh - sum(kinds.count(c) for c in NEEDS_INHABITANT)
        self.free_energy = en - sum(kinds.count(c) for c in NEEDS_ENERGY)
        self.seats = self.g.shop_capacity * kinds.count("S")  # customers the Shops can seat
        left = game_left(state)
        self.spare = left * SPARE_EARLY + (1.0 - left) * SPARE_LATE
        self.floors = partial(state.floors_at, player)
        self._resource_gains: dict[tuple[int, bool], float] = {}

    def gain(self, tile: int, target: int) -> float:
        """Rough points of building ``tile`` on ``target``: layout plus resources."""
        kinds = self.kinds
        stacked = kinds[target] != "."
        floors = self.floors(target) if stacked else 0
        value = layout_gain(kinds, tile, floors, target, self.g)
        key = (tile, stacked)
        resources = self._resource_gains.get(key)
        if resources is None:
            resources = self._resource_gains[key] = self.resource_gain(tile, stacked)
        return value + resources

    def resource_gain(self, tile: int, stacked: bool) -> float:
        """What building ``tile`` does to the city's resource balance, in rough points."""
        kind = _CODE[tile]
        value = 0.0
        free_i, free_e = self.free_inhabitants, self.free_energy
        if not stacked:  # a stack needs only its top floor's resources (A8)
            if kind in NEEDS_INHABITANT:
                free_i -= 1
                if free_i < 0:
                    value += WAITING
            if kind in NEEDS_ENERGY:
                free_e -= 1
                if free_e < 0:
                    value += WAITING
        spare = self.spare
        seats = self.seats + (self.g.shop_capacity if kind == "S" else 0)
        for _ in range(T_INH[tile]):
            value += SUPPLY_NEEDED if free_i < 0 else SUPPLY_CUSTOMER if free_i < seats else spare
            free_i += 1
        for _ in range(T_EN[tile]):
            value += SUPPLY_NEEDED if free_e < 0 else spare
            free_e += 1
        return value


def quick_gain(state: QuadropolisState, move: QuadropolisMove, builder: Builder) -> float:
    """Rough points of the current player's ``move`` (0 when nothing is built).

    ``builder`` is that player's, shared by all the moves compared.
    """
    if move.target < 0:
        return 0.0
    return builder.gain(state.offer(move.architect, move.spot), move.target)


class QuadropolisKnowledge(Knowledge):
    """Exact-scorer greedy evaluation and greedy-biased playouts for Quadropolis."""

    pool_size = 16
    score_scale = 8.0
    compiled = "polis.games.quadropolis.compiled"
    root_width = 20  # the greedy order misjudges taking and denying tiles: search more
    #: Tiles :meth:`playout_move` compares (the compiled search's playouts: ``SEARCH_PICKS``).
    playout_picks = PLAYOUT_PICKS

    def move_values(self, view: View, legal: Sequence[Move], rng: random.Random) -> list[float]:
        state = self.sample(view, rng)
        assert isinstance(state, QuadropolisState) and view.player is not None
        player = view.player
        base = city_value(state, player)
        return [move_value(state, cast(QuadropolisMove, m), player, base) for m in legal]

    def playout_move(self, state: GameState, rng: random.Random) -> Move:
        """Of a few tiles within reach, the one with the best square by quick gain (a
        discard, or taking nothing, counts 0); sometimes a uniformly random move."""
        if rng.random() < PLAYOUT_EPSILON:
            return state.random_move(rng)
        assert isinstance(state, QuadropolisState)
        player = state.current_player()
        mode = state.mode
        builder = Builder(state, player)
        best: QuadropolisMove | None = None
        best_value = -1e9
        for _ in range(self.playout_picks):
            move = state.random_move(rng)
            k, s = move.architect, move.spot
            if move.target == NOTHING:
                if best_value < 0.0:
                    best, best_value = move, 0.0
                continue
            tile = state.offer(k, s)
            for q in state.targets(player, k, tile):
                value = builder.gain(tile, q)
                if value > best_value:
                    best, best_value = find(mode, k, s, q), value
            if best_value < 0.0:
                best, best_value = find(mode, k, s, DISCARD), 0.0
        assert best is not None
        return best

    def tree_moves(self, state: GameState, rng: random.Random) -> list[Move]:
        """The best few of a sample of moves by quick gain: with 100-400 legal moves the tree
        would otherwise never grow past one ply (availability counts absorb the sampling).

        On the compiled engine when it is available (the same gains and the same way of
        sampling: ``compiled.search.tree_moves``); this code is the reference."""
        assert isinstance(state, QuadropolisState)
        if self._search is not None:
            return self._search.tree_moves(state, rng)  # type: ignore[no-any-return]
        legal = state.legal_moves()
        if len(legal) <= TREE_WIDTH:
            return list(legal)
        builder = Builder(state, state.current_player())
        sample = cast(list[QuadropolisMove], rng.sample(legal, min(len(legal), 3 * TREE_WIDTH)))
        gains: dict[Move, float] = {m: quick_gain(state, m, builder) for m in sample}
        return sorted(gains, key=gains.__getitem__, reverse=True)[:TREE_WIDTH]

    def expansion_move(self, state: GameState, untried: Sequence[Move], rng: random.Random) -> Move:
        """The untried move of best quick gain (a little jitter breaks ties at random).

        Below the root ``untried`` comes from :meth:`tree_moves` of this very state, whose
        compiled version has just worked out each move's gain: those are reused (the same
        numbers), else they are computed here."""
        assert isinstance(state, QuadropolisState)
        known = self._search.gains(state) if self._search is not None else None
        if known is not None and all(m in known for m in untried):
            return max(untried, key=lambda m: known[m] + 0.01 * rng.random())
        builder = Builder(state, state.current_player())
        return max(
            untried,
            key=lambda m: (
                quick_gain(state, cast(QuadropolisMove, m), builder) + 0.01 * rng.random()
            ),
        )

    def reuse_key(self, view: View) -> Hashable | None:
        # A new round deals tiles the old tree never saw.
        assert isinstance(view, QuadropolisView)
        return view.round


if TYPE_CHECKING:
    from polis.core.parts import KnowledgeFactory

    _PART: KnowledgeFactory = QuadropolisKnowledge  # mypy checks it against the interface
