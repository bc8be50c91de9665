"""Seat OpenSpiel bots and polis bots at one table of an OpenSpiel polis game.

A seat is either a ``pyspiel.Bot`` (e.g. ``mcts.MCTSBot``, ``ismcts.ISMCTSBot``) or a polis
agent spec (``"greedy"``, ``"mcts:200i"``, ``"hard"`` ...). Polis agents decide through the
core match step (:class:`polis.core.match.Turn`, :func:`polis.bots.agent_seat`): their own
view and the legal moves, exactly as in the rest of polis. Seeds come from
:func:`polis.core.match.derive_seed`: game ``g`` of a match seeded ``s`` samples its chance
nodes from ``derive_seed(s, "deal", g)`` and seeds polis seat ``p`` with
``derive_seed(s, "agent", g, p)``, so a match is reproducible when every OpenSpiel bot is
seeded too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from polis.bots import agent_seat, parse_agent_spec
from polis.core.match import Seat, Turn, derive_seed
from polis.research.openspiel_game import PolisSpielGame, PolisSpielState


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


def play_game(game: PolisSpielGame, seats: Sequence[Any], seed: int, index: int = 0) -> list[float]:
    """Game ``index`` of a match seeded ``seed``; ``seats[p]`` is a pyspiel bot or a polis
    agent spec. Returns the win shares."""
    rng = np.random.default_rng(derive_seed(seed, "deal", index))
    polis_seats: dict[int, Seat] = {}
    for p, seat in enumerate(seats):
        if isinstance(seat, str):
            spec = parse_agent_spec(seat)
            agent = spec.make(derive_seed(seed, "agent", index, p))
            polis_seats[p] = agent_seat(agent, spec.budget, game.polis_game)
        else:
            seat.restart()
    state: PolisSpielState = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            action = int(rng.choice(actions, p=probs))
        else:
            p = state.current_player()
            if p in polis_seats:
                engine = state.data.engine
                assert engine is not None
                action = polis_seats[p](Turn(engine)).id
            else:
                action = int(seats[p].step(state))
            for q, seat in enumerate(seats):
                if q != p and not isinstance(seat, str):
                    seat.inform_action(state, p, action)
        state.apply_action(action)
    return [float(r) for r in state.returns()]


def play_match(
    game: PolisSpielGame, seats: Sequence[Any], games: int, seed: int = 0, rotate: bool = True
) -> MatchResult:
    """``games`` games; with ``rotate`` the seats turn each game so nobody always opens."""
    n = len(seats)
    names = [s if isinstance(s, str) else type(s).__name__ for s in seats]
    out = MatchResult(names=names, totals=[0.0] * n)
    for g in range(games):
        shift = g % n if rotate else 0
        order = [(i + shift) % n for i in range(n)]  # order[p] = entrant at table seat p
        returns = play_game(game, [seats[i] for i in order], seed, g)
        per = [0.0] * n
        for p, entrant in enumerate(order):
            per[entrant] = returns[p]
            out.totals[entrant] += returns[p]
        out.per_game.append(per)
        out.games += 1
    return out


__all__ = ["MatchResult", "play_game", "play_match"]
