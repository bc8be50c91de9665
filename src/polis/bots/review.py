"""Post-game review: every move weighed against the move the strongest level would have made.

For each move of a finished game, from the view of the player who made it at that moment
(:mod:`polis.bots.advice`): the searcher's choice, the estimated win share and points of both
moves on the same sampled games, and the loss, each with its 95% sampling interval
(:mod:`polis.bots.intervals`). The biggest losses are marked, in the manner of chess sites: an
inaccuracy, a mistake, a blunder, but only where the whole interval of the win share lost lies
past the mark's threshold: 4 sampled games that happen to favour the searcher's move do not
make a blunder. So a move a hint suggested is labelled worse than the hint said only when the
review's own samples are sure of it. With an iteration budget and a seed the review is the
same on every run.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from typing import Any

from polis.bots.advice import DEFAULT_AGENT, DEFAULT_SAMPLES, Estimate, advise
from polis.bots.intervals import Interval, mean_interval, paired_difference, rounded
from polis.core.match import derive_seed
from polis.core.moves import Move
from polis.core.protocol import Game, GameState
from polis.core.view import View

#: Win share lost from which a move is marked, worst first: the low end of the loss's 95%
#: interval must reach it.
MARKS = (("blunder", 0.30), ("mistake", 0.20), ("inaccuracy", 0.10))
#: How many of the worst moves of a game are marked at most.
MARKED = 3


@dataclass(frozen=True, slots=True)
class MoveReview:
    """One move of the game, weighed."""

    #: Position of the move in the game (0 = the first move).
    index: int
    player: int
    played: Move
    #: The searcher's choice from the player's view (the played move when it was forced).
    best: Move
    #: Only one legal move: nothing to weigh.
    forced: bool
    played_estimate: Estimate | None
    best_estimate: Estimate | None
    #: Estimated win share the played move gave away against ``best`` (0 when it is best).
    win_share_loss: float
    #: Estimated final points it gave away.
    points_loss: float
    #: "", "inaccuracy", "mistake" or "blunder" (only the game's worst moves are marked, and
    #: only where :attr:`loss_interval` lies wholly past the threshold).
    mark: str = ""
    #: The 95% interval of the win share lost, best minus played on the same samples, before
    #: the loss is clipped at 0 (a negative low end: the played move may be the better one);
    #: None when nothing was weighed (a forced move).
    loss_interval: Interval | None = None
    #: The 95% interval of the points lost (None: forced, or a single sample).
    points_interval: Interval | None = None

    @classmethod
    def forced_move(cls, index: int, player: int, played: Move) -> MoveReview:
        """A move that was the only legal one: nothing to weigh."""
        return cls(index, player, played, played, True, None, None, 0.0, 0.0)

    @property
    def surely_lost(self) -> float:
        """The win share the move lost for sure (the low end of its interval, at least 0;
        0 without an interval)."""
        return 0.0 if self.loss_interval is None else max(0.0, self.loss_interval[0])

    def to_json(self) -> dict[str, Any]:
        """The move's entry in a review's JSON (``polis review --json`` and the web's)."""
        return {
            "index": self.index,
            "player": self.player,
            "played": str(self.played),
            "best": str(self.best),
            "forced": self.forced,
            "played_estimate": _estimate_json(self.played_estimate),
            "best_estimate": _estimate_json(self.best_estimate),
            "win_share_loss": round(self.win_share_loss, 4),
            "points_loss": round(self.points_loss, 2),
            "mark": self.mark,
            "win_share_loss_interval": rounded(self.loss_interval, 4),
            "points_loss_interval": rounded(self.points_interval, 2),
        }


def _estimate_json(e: Estimate | None) -> dict[str, Any] | None:
    if e is None:
        return None
    return {
        "win_share": round(e.win_share, 4),
        "points": round(e.points, 2),
        "samples": e.samples,
        "win_share_interval": rounded(e.win_share_interval(), 4),
        "points_interval": rounded(e.points_interval(), 2),
    }


def review_moves(
    game: Game,
    start: GameState,
    moves: Sequence[Move],
    *,
    agent: str = DEFAULT_AGENT,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    seats: Collection[int] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[MoveReview]:
    """Weigh ``moves`` played from ``start`` (the players in ``seats``, default all)."""
    state = start.clone()
    out = []
    for index, played in enumerate(moves):
        player = state.current_player()
        if seats is None or player in seats:
            out.append(_weigh(game, state, index, played, agent, samples, seed))
        state.apply(played)
        if progress is not None:
            progress(index + 1, len(moves))
    return mark_worst(out)


def _weigh(
    game: Game, state: GameState, index: int, played: Move, agent: str, samples: int, seed: int
) -> MoveReview:
    player = state.current_player()
    legal = state.legal_moves()
    if len(legal) == 1:
        return MoveReview.forced_move(index, player, played)
    # everything below starts from what the player saw
    return weigh(game, state.view(player), legal, index, played, agent, samples, seed)


def weigh(
    game: Game,
    view: View,
    legal: Sequence[Move],
    index: int,
    played: Move,
    agent: str,
    samples: int,
    seed: int,
) -> MoveReview:
    """Move ``index`` (not forced) against the searcher's choice from ``view``, the view its
    player had then: both moves played out on the same sampled games."""
    assert view.player is not None
    advice = advise(
        game, view, legal, also=(played,), agent=agent, samples=samples,
        seed=derive_seed(seed, "move", index),
    )  # fmt: skip
    best, mine = advice.of(advice.best), advice.of(played)
    loss, points = losses(best, mine)
    return MoveReview(
        index,
        view.player,
        played,
        advice.best,
        False,
        mine,
        best,
        max(0.0, best.win_share - mine.win_share),
        best.points - mine.points,
        loss_interval=loss,
        points_interval=points,
    )


def losses(best: Estimate, played: Estimate) -> tuple[Interval, Interval | None]:
    """The 95% intervals of the win share and the points ``played`` gives away against
    ``best``, both estimated on the same samples (compared sample by sample)."""
    if best.move is played.move:
        return (0.0, 0.0), (0.0, 0.0)
    if len(best.outcomes) != len(played.outcomes) or not best.outcomes:
        raise ValueError("a loss is measured on the same samples for both moves")
    wins = paired_difference([w for w, _ in best.outcomes], [w for w, _ in played.outcomes])
    points = mean_interval(
        [b - p for (_, b), (_, p) in zip(best.outcomes, played.outcomes, strict=True)]
    )
    return wins, points


def mark_of(review: MoveReview) -> str:
    """The worst mark the move's interval supports ("" where none does)."""
    sure = review.surely_lost
    return next((name for name, at in MARKS if sure >= at), "")


def mark_worst(reviews: list[MoveReview]) -> list[MoveReview]:
    """The same reviews with the game's :data:`MARKED` worst moves marked: those whose whole
    interval of the win share lost lies past a threshold, the surest losses first."""
    worst = sorted(
        (r for r in reviews if mark_of(r)),
        key=lambda r: (-r.surely_lost, -r.win_share_loss, r.index),
    )[:MARKED]
    marks = {r.index: mark_of(r) for r in worst}
    return [replace(r, mark=marks.get(r.index, "")) for r in reviews]


__all__ = [
    "MARKED",
    "MARKS",
    "MoveReview",
    "losses",
    "mark_of",
    "mark_worst",
    "review_moves",
    "weigh",
]
