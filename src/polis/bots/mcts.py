"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling et al. 2012).

The root considers only the best moves by one-ply value (``Knowledge.search_width()`` of
them: more on the compiled engine where the game says so, unless the agent was given a
``width``). Each iteration samples a complete state from the agent's view
(``Knowledge.sample``, which may follow a belief over the opponents' secrets), walks the one
shared tree with UCB restricted to the moves legal in that sample (counting each child's
availability), adds one node, finishes the game with the greedy-biased playout policy, and
backs up each player's reward into the nodes where that player moved. Where the game has a
learned value (``Knowledge.leaf_value``), the reward mixes it in for the position the
playout started from.

Tree reuse: after the agent moves, the subtree reached by the public moves played since is
kept, but only while ``Knowledge.reuse_key`` is unchanged (e.g. not across a round
that dealt something the old statistics never saw).
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Sequence

from polis.bots.agent import AgentStats
from polis.bots.budget import Budget
from polis.bots.greedy import pick_best
from polis.bots.knowledge import Knowledge, knowledge_for
from polis.bots.montecarlo import candidates
from polis.core.moves import Move
from polis.core.protocol import Game
from polis.core.view import View


class Node:
    """Statistics of one move in the tree (rewards of the player who made it)."""

    __slots__ = ("avail", "children", "move", "player", "total", "visits")

    def __init__(self, move: Move | None, player: int) -> None:
        self.move = move
        self.player = player
        self.visits = 0
        self.avail = 1
        self.total = 0.0
        self.children: dict[Move, Node] = {}


class MctsAgent:
    """ISMCTS with UCB, greedy-biased playouts, root move pruning and tree reuse."""

    name = "mcts"

    def __init__(
        self,
        rng: random.Random,
        *,
        width: int | None = None,
        exploration: float = 0.5,
        reuse: bool = True,
        compiled: bool = True,
    ) -> None:
        self.rng = rng
        self.width = width
        self.exploration = exploration
        self.reuse = reuse
        #: Whether the search may run on the game's compiled engine (False: Python only).
        self.compiled = compiled
        self.stats = AgentStats()
        self._knowledge: Knowledge | None = None
        self._root: Node | None = None
        self._root_history: tuple[Move, ...] = ()
        self._root_key: Hashable | None = None

    # -- tree reuse -----------------------------------------------------------------------
    def _reused_root(self, view: View, key: Hashable | None) -> Node | None:
        """The old subtree at the current position, if keeping it is sound."""
        if not self.reuse or self._root is None or key is None or key != self._root_key:
            return None
        history = view.moves
        old = self._root_history
        if len(history) < len(old) or history[: len(old)] != old:
            return None
        node: Node | None = self._root
        for move in history[len(old) :]:
            node = node.children.get(move) if node is not None else None
        return node

    # -- search ---------------------------------------------------------------------------
    def act(self, view: View, legal: Sequence[Move], game: Game, budget: Budget) -> Move:
        clock = budget.clock()  # from the start: choosing candidates is part of the move
        if self._knowledge is None or self._knowledge.game is not game:
            self._knowledge = knowledge_for(game, compiled=self.compiled)
            self._root = None
        knowledge = self._knowledge
        knowledge.observe(view)
        knowledge.start_search()
        self.stats.moves += 1
        if len(legal) == 1:
            return legal[0]
        key = knowledge.reuse_key(view)
        root = self._reused_root(view, key) or Node(None, -1)
        width = self.width or knowledge.search_width()
        root_moves, _ = candidates(knowledge, view, legal, width, self.rng)
        allowed = set(root_moves)
        # Children outside the candidate set (from a reused tree) never get chosen.
        root.children = {m: c for m, c in root.children.items() if m in allowed}
        rng = self.rng
        c = self.exploration
        mix = knowledge.value_mix
        while clock.more():
            state = knowledge.sample(view, rng)
            node = root
            path = [root]
            # Selection and expansion.
            while not state.is_terminal():
                moves = root_moves if node is root else knowledge.tree_moves(state, rng)
                children = node.children
                untried = [m for m in moves if m not in children]
                if untried:
                    move = knowledge.expansion_move(state, untried, rng)
                    child = Node(move, state.current_player())
                    children[move] = child
                    # Availability of the siblings seen in this sample.
                    for m in moves:
                        if m is not move and m in children:
                            children[m].avail += 1
                    state.apply(move)
                    path.append(child)
                    break
                best_child: Node | None = None
                best_score = -math.inf
                for m in moves:
                    ch = children[m]
                    ch.avail += 1
                    score = ch.total / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                    if score > best_score:
                        best_score = score
                        best_child = ch
                assert best_child is not None
                node = best_child
                state.apply(node.move)
                path.append(node)
            value = knowledge.leaf_value(state) if mix else None
            rewards = knowledge.playout(state, rng)
            if value is not None:
                rewards = tuple(r + mix * (v - r) for r, v in zip(rewards, value, strict=True))
            for n in path:
                n.visits += 1
                if n.player >= 0:
                    n.total += rewards[n.player]
            clock.tick()
        self.stats.record(clock)
        kids = [root.children.get(m) for m in root_moves]
        robust = [
            (k.visits + k.total / k.visits) if k is not None and k.visits else 0.0 for k in kids
        ]
        choice = pick_best(root_moves, robust, rng)
        self._root = root.children.get(choice)
        self._root_history = (*view.moves, choice)
        self._root_key = key
        return choice
