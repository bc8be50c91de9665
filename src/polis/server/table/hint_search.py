"""What a bot worker computes for hints and post-game reviews, from one seat's view only.

These functions run in a worker (:meth:`polis.server.bots.pool.WorkerPool.compute`), never in
the web process: each is a search and some hundred played-out games. They are given what the
seat could see at that moment (its :class:`~polis.core.view.View` and legal moves), never a
game state, so a hint or a review cannot tell anything the seat could not see. They wrap
:mod:`polis.bots.advice` the way the terminal's ``hint`` and ``polis review`` do, so the web
and the terminal agree for the same agent, samples and seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from polis.bots.advice import advise, alternatives
from polis.bots.review import weigh
from polis.core.moves import Move
from polis.core.protocol import Game
from polis.core.view import View

#: How many promising moves a hint compares its move with (as the terminal's ``hint``).
HINT_ALTERNATIVES = 3


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A hint: the move, and why in words the client puts in its language."""

    move: Move
    #: ``{"key": "hint.only" | "hint.equal" | "hint.gain", "params": {...}}``
    reason: dict[str, Any]


def suggest(
    game: Game, view: View, legal: Sequence[Move], agent: str, samples: int, seed: int
) -> Suggestion:
    """The searcher's move and a few promising others, weighed on the same sampled games:
    the one that did best, how often it wins, and what it gains over the next best."""
    others = alternatives(game, view, legal, HINT_ALTERNATIVES, seed)
    advice = advise(game, view, legal, also=others, agent=agent, samples=samples, seed=seed)
    ranked = sorted(advice.estimates, key=lambda e: (-e.win_share, -e.points))
    best = ranked[0]
    params: dict[str, Any] = {
        "move": best.move.text,
        "win": round(100 * best.win_share),
        "games": best.samples,
        "points": round(best.points),
    }
    if len(ranked) == 1:
        return Suggestion(best.move, {"key": "hint.only", "params": params})
    runner = ranked[1]
    gain_wins = best.win_share - runner.win_share
    gain_points = best.points - runner.points
    params["other"] = runner.move.text
    params["otherWin"] = round(100 * runner.win_share)
    if gain_wins < 0.01 and gain_points < 0.5:
        return Suggestion(best.move, {"key": "hint.equal", "params": params})
    params["gainWins"] = round(100 * gain_wins)
    params["gainPoints"] = round(gain_points, 1)
    return Suggestion(best.move, {"key": "hint.gain", "params": params})


__all__ = ["HINT_ALTERNATIVES", "Suggestion", "suggest", "weigh"]
