"""Seat OpenSpiel bots and polis bots at one table of an OpenSpiel polis game.

A seat is either a ``pyspiel.Bot`` (e.g. ``mcts.MCTSBot``, ``ismcts.ISMCTSBot``) or a polis
agent spec (``"greedy"``, ``"mcts:200i"``, ``"hard"`` ...). Polis agents get only their own
view and the legal moves, exactly as in the rest of polis; chance nodes are sampled from a
seeded ``numpy`` generator so a match is reproducible when every bot is seeded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from polis.bots import make_agent
from polis.research.openspiel_game import PolisGame, PolisState


@dataclass
class MatchResult:
    """Total returns per seat over ``games`` games, and each game's returns."""

    names: list[str]
    games: int = 0
    totals: list[float] = field(default_factory=list)
    per_game: list[list[float]] = field(default_factory=list)

    def table(self) -> str:
        rows = [
            f"{name:<24} {total:6.2f} / {self.games}"
            for name, total in zip(self.names, self.totals, strict=True)
        ]
        return "\n".join(rows)


def play_game(game: PolisGame, seats: Sequence[Any], seed: int) -> list[float]:
    """One game; ``seats[p]`` is a pyspiel bot or a polis agent spec. Returns win shares."""
    rng = np.random.RandomState(seed)
    polis_agents: dict[int, Any] = {}
    for p, seat in enumerate(seats):
        if isinstance(seat, str):
            polis_agents[p] = make_agent(seat, seed * 31 + p)
        else:
            seat.restart()
    state: PolisState = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            action = int(rng.choice(actions, p=probs))
        else:
            p = state.current_player()
            if p in polis_agents:
                agent, budget = polis_agents[p]
                engine = state._t.engine
                assert engine is not None
                move = agent.act(engine.view(p), engine.legal_moves(), game.engine, budget)
                action = game.codec.action_of(engine, move)
            else:
                action = int(seats[p].step(state))
            for q, seat in enumerate(seats):
                if q != p and not isinstance(seat, str):
                    seat.inform_action(state, p, action)
        state.apply_action(action)
    return [float(r) for r in state.returns()]


def play_match(
    game: PolisGame, seats: Sequence[Any], games: int, seed: int = 0, rotate: bool = True
) -> MatchResult:
    """``games`` games; with ``rotate`` the seats turn each game so nobody always opens."""
    n = len(seats)
    names = [s if isinstance(s, str) else type(s).__name__ for s in seats]
    out = MatchResult(names=names, totals=[0.0] * n)
    for g in range(games):
        shift = g % n if rotate else 0
        order = [(i + shift) % n for i in range(n)]  # order[p] = entrant at table seat p
        returns = play_game(game, [seats[i] for i in order], seed + g)
        per = [0.0] * n
        for p, entrant in enumerate(order):
            per[entrant] = returns[p]
            out.totals[entrant] += returns[p]
        out.per_game.append(per)
        out.games += 1
    return out


__all__ = ["MatchResult", "play_game", "play_match"]
