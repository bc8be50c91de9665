"""Advice from one player's own view: the move a searcher would make and what moves are worth.

Hints and post-game review both ask the same two questions at a position: which move would
the strongest level choose, and how much does each move of interest win and score? Both are
answered from the player's view alone: the searcher is an ordinary agent given the view, and
the worth of a move is measured on states sampled from the view by the game's knowledge
(``determinize``, or a belief over the opponents' secrets), never on the true state. So
changing anything the player could not see leaves the advice unchanged (tested).

Every candidate is played out from the same samples with the same random numbers (common
random numbers), so two moves are compared on equal terms and a fixed ``seed`` and iteration
budget give the same advice on every machine.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from polis.bots.factory import make_agent
from polis.bots.intervals import Interval, mean_interval, wilson
from polis.bots.knowledge import knowledge_for
from polis.bots.montecarlo import candidates
from polis.core.errors import PolisError
from polis.core.match import derive_seed
from polis.core.moves import Move
from polis.core.protocol import Game, GameState
from polis.core.view import View

#: The searcher asked for its move unless told otherwise (a fixed budget: reproducible).
DEFAULT_AGENT = "mcts:400i"
#: Sampled games per move estimate unless told otherwise.
DEFAULT_SAMPLES = 48


@dataclass(frozen=True, slots=True)
class Estimate:
    """What one move is worth to the player, averaged over the sampled games."""

    move: Move
    #: Mean win share (1 for a sole win, 1/k for a k-way shared first place).
    win_share: float
    #: Mean final score of the player.
    points: float
    #: Mean final score minus the best other player's.
    margin: float
    samples: int
    #: Each sampled game's win share and points, in the order of the samples (the same
    #: samples for every move of one :func:`estimate`): what the intervals are taken from.
    outcomes: tuple[tuple[float, float], ...] = ()

    def win_share_interval(self) -> Interval:
        """The 95% interval of :attr:`win_share` (Wilson's)."""
        return wilson(self.win_share, self.samples)

    def points_interval(self) -> Interval | None:
        """The 95% interval of :attr:`points` (Student's t; None below two samples)."""
        return mean_interval([p for _, p in self.outcomes])


@dataclass(frozen=True, slots=True)
class Advice:
    """The searcher's move at a position and the estimates of the moves asked about."""

    player: int
    best: Move
    #: ``best`` first, then the other moves estimated (each once).
    estimates: tuple[Estimate, ...]

    def of(self, move: Move) -> Estimate:
        """The estimate of ``move`` (KeyError if it was not estimated)."""
        for estimate in self.estimates:
            if estimate.move is move:
                return estimate
        raise KeyError(str(move))


def _player_of(view: View) -> int:
    if view.player is None:
        raise PolisError("advice is for a player: a spectator's view has no moves to weigh")
    return view.player


def estimate(
    game: Game, view: View, moves: Sequence[Move], *, samples: int, seed: int, first: int = 0
) -> tuple[Estimate, ...]:
    """Each of ``moves`` (legal in ``view``) played, then the game finished by the playout
    policy, on ``samples`` states drawn from the view; the same states and random numbers
    for every move. ``first`` skips that many samples of the same seed: the samples a
    second look adds to a first one of ``first`` (:func:`combined`)."""
    player = _player_of(view)
    knowledge = knowledge_for(game)
    knowledge.observe(view)
    rng = random.Random(derive_seed(seed, "samples"))
    dealt = [knowledge.sample(view, rng) for _ in range(first + samples)][first:]
    out = []
    for move in moves:
        wins = points = margin = 0.0
        counted = 0
        outcomes = []
        for i, sample in enumerate(dealt, first):
            state: GameState = sample.clone()
            state.apply(move)
            playout_rng = random.Random(derive_seed(seed, "playout", i))
            while not state.is_terminal():
                state.apply(knowledge.playout_move(state, playout_rng))
            result = state.result()
            scores = result.scores
            share = result.win_shares()[player]
            outcomes.append((float(share), float(scores[player])))
            wins += share
            points += scores[player]
            margin += scores[player] - max(s for q, s in enumerate(scores) if q != player)
            counted += 1
        out.append(
            Estimate(
                move, wins / counted, points / counted, margin / counted, counted, tuple(outcomes)
            )
        )
    return tuple(out)


def combined(a: Estimate, b: Estimate) -> Estimate:
    """One move's estimates on two sets of samples as one (``b``'s samples after ``a``'s)."""
    if a.move is not b.move and a.move != b.move:
        raise ValueError("only estimates of one move combine")
    n = a.samples + b.samples
    return Estimate(
        a.move,
        (a.win_share * a.samples + b.win_share * b.samples) / n,
        (a.points * a.samples + b.points * b.samples) / n,
        (a.margin * a.samples + b.margin * b.samples) / n,
        n,
        a.outcomes + b.outcomes,
    )


def advise(
    game: Game,
    view: View,
    legal: Sequence[Move],
    *,
    also: Sequence[Move] = (),
    agent: str = DEFAULT_AGENT,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
) -> Advice:
    """The move ``agent`` chooses from ``view`` and the estimates of it and of ``also``."""
    player = _player_of(view)
    if not legal:
        raise PolisError("there is no move to advise on: the game is over")
    searcher, budget = make_agent(agent, derive_seed(seed, "agent"))
    best = searcher.act(view, legal, game, budget)
    wanted = [best]
    for move in also:
        if move not in wanted:
            wanted.append(move)
    found = estimate(game, view, wanted, samples=samples, seed=seed)
    return Advice(player, best, found)


def alternatives(
    game: Game, view: View, legal: Sequence[Move], count: int, seed: int
) -> list[Move]:
    """Up to ``count`` promising moves by the game's one-ply evaluation (what a hint compares
    its move with)."""
    knowledge = knowledge_for(game)
    knowledge.observe(view)
    moves, _ = candidates(knowledge, view, legal, count, random.Random(seed))
    return list(moves)


__all__ = [
    "DEFAULT_AGENT",
    "DEFAULT_SAMPLES",
    "Advice",
    "Estimate",
    "advise",
    "alternatives",
    "combined",
    "estimate",
]
