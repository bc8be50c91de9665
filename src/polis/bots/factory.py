"""Agents by name: ``random``, ``greedy``, ``montecarlo``, ``mcts`` and the levels for people.

An agent spec is ``name[:budget]`` with a budget like ``1s``, ``200ms`` or ``500i``
(iterations). Levels (documented mapping, the same in both games; the budget depends on
the number of players, read from the view):

========  ===================  ====================  ======================================
level     2 players            3 or 4 players        why
========  ===================  ====================  ======================================
easy      ``greedy``           ``greedy``            sensible single moves, no planning
medium    ``montecarlo:200ms`` ``montecarlo:800ms``  samples the hidden facts, plays to the end
hard      ``mcts:1.7s``        ``mcts:1.7s``         information-set tree search (1.7 s CPU)
========  ===================  ====================  ======================================

The budgets are what the ladder (``benchmarks/ladder.py``) needs for each level to beat the
one below: with 2 players flat Monte Carlo gains fast with time (in the game with the
narrowest steps, 150 ms beat greedy in 70% of the games, 300 ms in 90%, but then lost only
75% to ``hard``), so ``medium`` sits between; at 4-player tables a playout covers three
opponents' moves for each of the agent's own, so the searches need more playouts than with
2 players for the same clarity (the budget counts from the start of the move, candidate
selection included).

A time budget is CPU time of the thinking thread, so a level plays as well on a busy server
as on an idle one; a move ends after at most three times its budget on the wall clock
(:data:`polis.bots.budget.WALL_CAP`) however starved its thread is.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from polis.bots.agent import Agent
from polis.bots.budget import Budget
from polis.bots.greedy import GreedyAgent
from polis.bots.mcts import MctsAgent
from polis.bots.montecarlo import MonteCarloAgent
from polis.bots.random_agent import RandomAgent
from polis.core.errors import InputError
from polis.core.moves import Move
from polis.core.protocol import Game
from polis.core.view import View

AGENTS: dict[str, Callable[[random.Random], Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "montecarlo": MonteCarloAgent,
    "mcts": MctsAgent,
    # the same searches kept on the Python engine (what the compiled engine's gain is
    # measured against: benchmarks/ladder.md)
    "montecarlo-python": lambda rng: MonteCarloAgent(rng, compiled=False),
    "mcts-python": lambda rng: MctsAgent(rng, compiled=False),
}

#: Budget of the agents that do not search (they ignore it).
FIXED_BUDGET = Budget(iterations=1)

#: The levels offered to people: level -> (agent spec with 2 players, with 3 or 4 players).
LEVELS = {
    "easy": ("greedy", "greedy"),
    "medium": ("montecarlo:200ms", "montecarlo:800ms"),
    "hard": ("mcts:1.7s", "mcts:1.7s"),
}

#: A searching agent named without a budget gets the budgets of its level, so the bare
#: ladder ``random,greedy,montecarlo,mcts`` is the levels' ladder at every table size.
DEFAULT_LEVEL = {
    "montecarlo": "medium",
    "mcts": "hard",
    "montecarlo-python": "medium",
    "mcts-python": "hard",
}


class LevelAgent:
    """A level: the same agent kind with the level's budget for the table's size.

    It reads the number of players from the view and ignores the budget it is given.
    """

    def __init__(self, kind: str, budgets: tuple[Budget, Budget], rng: random.Random) -> None:
        self.inner = AGENTS[kind](rng)
        self.name = self.inner.name
        self.budgets = budgets
        self.stats = getattr(self.inner, "stats", None)

    def act(self, view: View, legal: Sequence[Move], game: Game, budget: Budget) -> Move:
        own = self.budgets[0] if view.players == 2 else self.budgets[1]
        return self.inner.act(view, legal, game, own)


@dataclass(frozen=True, slots=True)
class AgentSpec:
    """A parsed ``name[:budget]``; ``text`` is what the user wrote (used in tables)."""

    text: str
    kind: str
    budget: Budget
    #: For a level: its budgets with 2 players and with 3 or 4 (``budget`` is the first).
    level_budgets: tuple[Budget, Budget] | None = None

    def make(self, seed: int) -> Agent:
        """A fresh agent for one game, seeded."""
        if self.level_budgets is not None:
            return LevelAgent(self.kind, self.level_budgets, random.Random(seed))
        return AGENTS[self.kind](random.Random(seed))


def parse_agent_spec(text: str) -> AgentSpec:
    """``greedy``, ``mcts:1s``, ``montecarlo:500i``, ``hard`` ...; InputError when unknown."""
    raw = text.strip()
    name, _, budget_text = raw.partition(":")
    name = name.strip().lower()
    if name in LEVELS:
        if budget_text:
            raise InputError(f"level {name!r} has a fixed budget; write an agent name instead")
        two, more = (parse_agent_spec(spec) for spec in LEVELS[name])
        return AgentSpec(raw, two.kind, two.budget, (two.budget, more.budget))
    if name not in AGENTS:
        known = ", ".join([*AGENTS, *LEVELS])
        raise InputError(f"unknown agent {name!r}: choose one of {known}")
    if budget_text:
        return AgentSpec(raw, name, Budget.parse(budget_text))
    if name in DEFAULT_LEVEL:
        level = parse_agent_spec(DEFAULT_LEVEL[name])
        return AgentSpec(raw, name, level.budget, level.level_budgets)
    return AgentSpec(raw, name, FIXED_BUDGET)


def make_agent(text: str, seed: int) -> tuple[Agent, Budget]:
    """The agent and its budget from a spec, seeded."""
    spec = parse_agent_spec(text)
    return spec.make(seed), spec.budget
