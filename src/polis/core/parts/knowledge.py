"""The base of a game's ``knowledge`` part: what the bots know of a game beyond the protocol.

Evaluation, playout policy, sampling, rewards. One instance per agent and game, so it may
remember things between moves (a belief over the opponents' secret cards lives here).
Everything it is given is the agent's own: the view, the legal moves, and states the agent
sampled itself with ``determinize``. The default knows nothing about any game: uniform
playouts, flat evaluation. A game subclasses :class:`Knowledge` in its ``knowledge`` module
and names the subclass as its ``knowledge`` plug-in (:data:`polis.core.parts.KNOWLEDGE`);
the bots (:mod:`polis.bots`) find it with :func:`polis.bots.knowledge.knowledge_for`.
"""

from __future__ import annotations

import importlib
import math
import random
from collections.abc import Hashable, Sequence
from typing import Any

from polis.core.compiled import package as compiled_package
from polis.core.moves import Move
from polis.core.protocol import Game, GameResult, GameState
from polis.core.view import View

#: Weights of the win share, the rank term and the squashed margin in a playout's reward
#: at two players, where the rank says what the win says.
USUAL_WEIGHTS = (0.6, 0.2, 0.2)
#: The weights at three and four players, where the rank counts most: a search that
#: counts mainly wins cares little whether it ends second or last once it cannot win
#: (measured in both games against the usual weights: benchmarks/ladder.md, 28 Nov 2026).
RANK_WEIGHTS = (0.3, 0.5, 0.2)


class Knowledge:
    """What a bot knows about a game beyond the core protocol (default: nothing)."""

    #: How many determinizations one decision keeps and reuses by cloning (0: a fresh
    #: ``determinize`` every time). Worth it where ``determinize`` replays the whole game.
    pool_size = 0

    def __init__(self, game: Game) -> None:
        self.game = game
        self._pool: list[GameState] = []
        self._pool_view: View | None = None
        #: The compiled ``Playouts`` once made (see :meth:`_playouts`).
        self._fast: Any = None
        #: This decision's compiled search helper, or None (:meth:`start_search`): the
        #: game's search hooks (``tree_moves``, ``leaf_value``...) run on it when it is set.
        self._search: Any = None

    def observe(self, view: View) -> None:
        """Take in a new view (called once per decision, before anything else)."""

    def start_search(self) -> None:
        """A search begins this decision (after :meth:`observe`): from here the samples it
        draws are followed on the compiled engine where that is ready (its rows made once
        per determinization, its tree's moves worked out there). Asked once a decision, so
        the hooks pay nothing for asking; choices without a search never ask, and never
        bring the compiled engine in."""
        self._search = self._playouts()

    def sample(self, view: View, rng: random.Random) -> GameState:
        """A complete state consistent with ``view`` (hidden facts drawn from ``rng``)."""
        state = self._drawn(view, rng)
        if self._search is not None:
            self._search.track(state)  # its row follows the state down the search's tree
        return state

    def _drawn(self, view: View, rng: random.Random) -> GameState:
        """A fresh determinization, or a clone of one of the pool's."""
        if not self.pool_size:
            return self.determinize(view, rng)
        if view is not self._pool_view:
            self._pool_view = view
            self._pool = []
        pool = self._pool
        if len(pool) < self.pool_size:
            pool.append(self.determinize(view, rng))
            return pool[-1].clone()
        return pool[rng.randrange(len(pool))].clone()

    def determinize(self, view: View, rng: random.Random) -> GameState:
        """One fresh determinization (games with a belief sample from it here)."""
        return self.game.determinize(view, rng)

    def move_values(self, view: View, legal: Sequence[Move], rng: random.Random) -> list[float]:
        """One-ply value of each legal move for the view's player (higher is better)."""
        return [0.0] * len(legal)

    def playout_move(self, state: GameState, rng: random.Random) -> Move:
        """The next move of a simulated game (cheap; biased towards good moves if possible)."""
        return state.random_move(rng)

    #: The game's compiled package (:mod:`polis.core.compiled`), whose ``search.Playouts``
    #: finishes a state with this knowledge's playout policy (None: the game has none).
    compiled: str | None = None

    def playout(self, state: GameState, rng: random.Random) -> tuple[float, ...]:
        """Finish ``state`` with :meth:`playout_move`; each player's :meth:`reward`.

        The searches spend most of their time here, so where the game's compiled package is
        available (:meth:`polis.core.compiled.CompiledPackage.available`) the same policy
        plays there (its rules and values tested equal to the Python ones; its draws from a
        generator seeded by ``rng``), leaving ``state`` as it was; else ``state`` is played
        out in place.
        """
        fast = self._playouts()
        if fast is not None:
            scores, ranking = fast(state, rng)
            return self.reward(GameResult(self.game.name, state.mode, scores, ranking))
        while not state.is_terminal():
            state.apply(self.playout_move(state, rng))
        return self.reward(state.result())

    def warm(self) -> None:
        """Bring in what the searches will use: the compiled playouts where they are ready
        (else their compile is started aside). A process preparing bots calls it once."""
        self._playouts()

    def _playouts(self) -> Any:
        """This knowledge's compiled ``Playouts`` (made on first use), or None."""
        if self._fast is None and self.compiled is not None:
            package = compiled_package(self.compiled)
            if package is not None and package.available():
                self._fast = importlib.import_module(f"{self.compiled}.search").Playouts()
        return self._fast

    def tree_moves(self, state: GameState, rng: random.Random) -> list[Move]:
        """The moves a search tree considers at ``state`` (default: all legal moves).

        Games with hundreds of legal moves return a sensible subset, or the tree never
        gets deeper than one ply.
        """
        return list(state.legal_moves())

    def expansion_move(self, state: GameState, untried: Sequence[Move], rng: random.Random) -> Move:
        """Which untried move a search tree adds first (default: uniformly random)."""
        return untried[rng.randrange(len(untried))]

    #: Moves the tree search (``mcts``) considers at its root: the best by one-ply value
    #: (``move_values``). Flat ``montecarlo`` keeps its own width: its few hundred
    #: milliseconds spread over more moves were not measured.
    root_width = 12
    #: The root width of a search on the compiled engine (None: :attr:`root_width`): its
    #: many times the iterations can weigh more moves than the Python search could.
    compiled_root_width: int | None = None

    def search_width(self) -> int:
        """How many moves this decision's search considers at its root (asked after
        :meth:`start_search`)."""
        if self._search is not None and self.compiled_root_width is not None:
            return self.compiled_root_width
        return self.root_width

    #: Share of a search's playout reward replaced by ``leaf_value`` of the position the
    #: playout starts from (0: the playouts alone).
    value_mix = 0.0

    def leaf_value(self, state: GameState) -> tuple[float, ...] | None:
        """A learned estimate of each player's reward at ``state`` (in [0, 1], like
        :meth:`reward`), or None where the game has none."""
        return None

    def reuse_key(self, view: View) -> Hashable | None:
        """Search trees may be kept between two decisions whose keys are equal and not None.

        A key changes when chance reveals something the tree was not built on.
        """
        return None

    def reward(self, result: GameResult) -> tuple[float, ...]:
        """Reward in [0, 1] per player of a finished simulated game.

        Win share, rank and score margin, so that lost positions are still told apart (a
        bot that only counts wins plays aimlessly once behind): ``USUAL_WEIGHTS`` at two
        players, ``RANK_WEIGHTS`` at three and four.
        """
        weights = USUAL_WEIGHTS if len(result.scores) == 2 else RANK_WEIGHTS
        return blended_reward(result, self.score_scale, weights)

    #: Score difference that counts as "a lot" in this game (for the margin term).
    score_scale = 10.0


def blended_reward(
    result: GameResult, scale: float, weights: tuple[float, float, float]
) -> tuple[float, ...]:
    """Weighted sum of the win share, the rank term and the squashed margin to the best
    opponent."""
    win_weight, rank_weight, margin_weight = weights
    n = len(result.scores)
    wins = result.win_shares()
    ranks = result.ranks()
    out = []
    for p in range(n):
        best_other = max(s for q, s in enumerate(result.scores) if q != p)
        margin = (result.scores[p] - best_other) / scale
        squashed = 0.5 + 0.5 * math.tanh(margin)
        rank_term = (n - ranks[p]) / (n - 1)
        out.append(win_weight * wins[p] + rank_weight * rank_term + margin_weight * squashed)
    return tuple(out)


__all__ = ["RANK_WEIGHTS", "USUAL_WEIGHTS", "Knowledge", "blended_reward"]
