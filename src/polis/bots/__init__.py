"""Agents that see only their player's view and the legal moves.

``random`` < ``greedy`` < ``montecarlo`` < ``mcts``, plus the levels ``easy``/``medium``/``hard``
(see :mod:`polis.bots.factory`). Use :func:`make_agent` with a spec such as ``mcts:1s``.
"""

from polis.bots.agent import Agent, AgentStats, agent_seat
from polis.bots.budget import Budget
from polis.bots.factory import (
    AGENTS,
    LEVELS,
    AgentSpec,
    make_agent,
    parse_agent_spec,
)
from polis.bots.greedy import GreedyAgent
from polis.bots.knowledge import Knowledge, knowledge_for
from polis.bots.mcts import MctsAgent
from polis.bots.montecarlo import MonteCarloAgent
from polis.bots.random_agent import RandomAgent

__all__ = [
    "AGENTS",
    "LEVELS",
    "Agent",
    "AgentSpec",
    "AgentStats",
    "Budget",
    "GreedyAgent",
    "Knowledge",
    "MctsAgent",
    "MonteCarloAgent",
    "RandomAgent",
    "agent_seat",
    "knowledge_for",
    "make_agent",
    "parse_agent_spec",
]
