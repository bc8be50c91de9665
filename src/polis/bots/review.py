"""Post-game review: every move weighed against the move the strongest level would have made.

For each move of a finished game, from the view of the player who made it at that moment
(:mod:`polis.bots.advice`): the searcher's choice, the estimated win share and points of both
moves on the same sampled games, and the loss, each with its 95% sampling interval
(:mod:`polis.bots.intervals`). With an iteration budget and a seed the review is the same on
every run.

Severity: the marks of chess sites (inaccuracy, mistake, blunder), measured on the game's
own scale and only where the review is sure. A move's severity has two sides, and the
worse one counts (:data:`MARKS`):

* **win share**: the low end of the 95% interval of the win share lost, past 0.10, 0.20 or
  0.30 of a win. This is what matters in a close game; but in a game one side loses by 40,
  every move of the loser has a win share of 0 whatever it is, so wins alone say nothing
  there (that old rule, with the game's 3 worst moves at most, showed at most three
  inaccuracies in a game lost 43 to -1).
* **points**: the points lost as estimated, in *moves' worth*, where the 95% interval of
  the points lost lies wholly above 0 (the move surely lost points): 1, 1.5 or 2.5 moves'
  worth. One move's worth is :func:`points_scale`: the winner's final score (from 0, or
  from the lowest score when that is below 0) over the moves each player made, the points
  an average move of the winner brought (1.9 to 3.9 points in the calibration's games).
  So the scale follows the game and the table (4 players, or a game in which everybody
  scores little, have their own), and a loss is weighed against what one move can do in
  that game.

Only what the samples are sure of counts: 4 sampled games that happen to favour the
searcher's move do not make a blunder (the win share needs its whole interval past the
threshold, the points an interval wholly above 0), so a move a hint suggested is labelled
worse than the hint said only when the review's own samples are sure of it. Every move past
a threshold is marked, with no cap: a game lost by 44 shows all its blunders.

**Second look** (:func:`second_look`): once the game's scale is known, a move the first look
left unmarked although its estimate reaches a mark (a win share lost past 0.10, or points
past 1 move's worth) is weighed again on :data:`SECOND_LOOK` (3) times its samples more,
the played and the best move only, on the same new samples (common random numbers: their
difference varies far less than either), and marked on all the samples. This is where the
bidding game needs it: one call's outcome swings each playout, so at 24 samples a real loss
often has an interval that still reaches 0. A second look only adds marks (a marked move is
not looked at again: with more samples its estimate would drift back towards the mean and
the mark could only fall), and it costs little: it runs no search, and only 3 to 4 moves a
game need it.

Calibration (``benchmarks/review_marks.py`` prints the figures, per game; its docstring
has them): 2-player games of a random player against the ``hard`` level in each registered
game, each move reviewed as the web app reviews it (``mcts:200i``, 24 sampled games). The
thresholds sit where the two sides part. The hard level's moves that surely lost points
lost at most 0.7 and 0.9 moves' worth in the two games, so 1 move's worth marks none of
them; of the random player's moves in the tile-laying game, a quarter surely lost 1.2 to
1.7 moves' worth or more and a tenth 2.2 to 2.3 or more (two calibrations; hence 1.5 and
2.5), in the bidding game a quarter 1.1 and a tenth 1.9 or more. On 6 games
of each (seeds 1-6, lost by 33 to 56 points): in the tile-laying game the random player gets
0.5 blunders, 2.7 mistakes and 2.5 inaccuracies a game, the hard level 0.2 inaccuracies
(the second look finds nothing more there); in the bidding game the first look alone gives
the random player 1.0 blunders, 2.3 mistakes and 0.8 inaccuracies a game and the second
look 1.0, 2.7 and 1.8 (3.7 mistakes or blunders a game, at least one in every game), the
hard level 0.3 inaccuracies and nothing worse; the review takes 1.05 to 1.1 times as long.
The old rule (win share only, the 3 worst) marked 0.2 inaccuracies a game and nothing else.

Each marked move is explained in words by the game's ``reasons`` part
(:data:`polis.core.parts.REASONS`): a catalogue key and its arguments, computed by the game
from what the player saw (:func:`explain`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from polis.bots.advice import DEFAULT_AGENT, DEFAULT_SAMPLES, Estimate, advise, combined, estimate
from polis.bots.intervals import Interval, mean_interval, paired_difference, rounded
from polis.core.errors import PolisError
from polis.core.match import derive_seed
from polis.core.moves import Move
from polis.core.parts import REASONS, Reason
from polis.core.protocol import Game, GameState
from polis.core.view import View

#: The marks, worst first: (name, win share lost, points lost in moves' worth). A move gets
#: the first mark whose win share the low end of its loss's 95% interval reaches, or whose
#: moves' worth its points lost reach where their interval lies wholly above 0.
MARKS = (("blunder", 0.30, 2.5), ("mistake", 0.20, 1.5), ("inaccuracy", 0.10, 1.0))
#: The least points one move is taken to be worth (a game where nobody scored).
MIN_SCALE = 1.0
#: A second look weighs a move on this many times the first look's samples more
#: (:func:`second_look`): 24 + 72 samples narrow an interval to half its width.
SECOND_LOOK = 3


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
    #: The points lost in moves' worth (:attr:`points_loss` over :func:`points_scale`) where
    #: they were surely lost (:attr:`surely_lost_points`), else 0; set by :func:`mark_moves`.
    moves_lost: float = 0.0
    #: Why ``best`` was better, in the words of the game's catalogue: ``{"key", "params"}``
    #: (a param may itself be such a reason, formatted first); None where nothing is said.
    reason: Reason | None = None

    @classmethod
    def forced_move(cls, index: int, player: int, played: Move) -> MoveReview:
        """A move that was the only legal one: nothing to weigh."""
        return cls(index, player, played, played, True, None, None, 0.0, 0.0)

    @property
    def surely_lost(self) -> float:
        """The win share the move lost for sure (the low end of its interval, at least 0;
        0 without an interval)."""
        return 0.0 if self.loss_interval is None else max(0.0, self.loss_interval[0])

    @property
    def surely_lost_points(self) -> bool:
        """Did the move lose points for sure (the low end of its interval above 0)?"""
        return self.points_interval is not None and self.points_interval[0] > 0.0

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
            "moves_lost": round(self.moves_lost, 2),
            "reason": reason_json(self.reason),
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
    """Weigh ``moves`` played from ``start`` (the players in ``seats``, default all), mark
    them on the game's scale and explain the marked ones."""
    state = start.clone()
    out = []
    views: dict[int, View] = {}
    for index, played in enumerate(moves):
        player = state.current_player()
        if seats is None or player in seats:
            out.append(_weigh(game, state, index, played, agent, samples, seed))
            views[index] = state.view(player)
        state.apply(played)
        if progress is not None:
            progress(index + 1, len(moves))
    # points are weighed on the game's scale, known at its end: a game not over is marked on
    # its wins alone
    scale = (
        points_scale(state.result().scores, len(moves), state.num_players)
        if state.is_terminal()
        else math.inf
    )
    out = [
        second_look(game, views[r.index], r, seed) if needs_second_look(r, scale) else r
        for r in out
    ]
    return explain_marked(game, mark_moves(out, scale), views.__getitem__)


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


def needs_second_look(review: MoveReview, scale: float) -> bool:
    """Does the first look leave ``review`` unmarked only for want of samples: its estimate
    past the least mark (a win share or moves' worth) but its interval not sure? (A move
    the first look marked keeps its mark: a second look only adds marks.)"""
    if review.forced or review.best is review.played or mark_of(review, scale):
        return False
    _name, win, worth = MARKS[-1]
    unsure_wins = review.win_share_loss >= win > review.surely_lost
    unsure_points = review.points_loss / scale >= worth and not review.surely_lost_points
    return unsure_wins or unsure_points


def second_look(game: Game, view: View, review: MoveReview, seed: int) -> MoveReview:
    """``review`` weighed again on :data:`SECOND_LOOK` times its samples more sampled games
    (the played and the best move only, on the same new samples; no search), its estimates
    and intervals then taken on all the samples. ``view`` is the view its player had."""
    if review.played_estimate is None or review.best_estimate is None:
        return review
    first = review.best_estimate.samples
    more = estimate(
        game, view, [review.best, review.played], samples=SECOND_LOOK * first,
        seed=derive_seed(seed, "move", review.index), first=first,
    )  # fmt: skip
    best = combined(review.best_estimate, more[0])
    mine = combined(review.played_estimate, more[1])
    loss, points = losses(best, mine)
    return replace(
        review,
        played_estimate=mine,
        best_estimate=best,
        win_share_loss=max(0.0, best.win_share - mine.win_share),
        points_loss=best.points - mine.points,
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


def points_scale(scores: Sequence[float], moves: int, players: int) -> float:
    """The points one move is worth in a game that ended with ``scores`` after ``moves``
    moves of ``players``: the winner's score, counted from 0 (or from the lowest score when
    that is below 0), over the moves each player made; at least :data:`MIN_SCALE`."""
    if not scores:
        return MIN_SCALE
    spread = max(scores) - min(0.0, min(scores))
    return max(MIN_SCALE, spread / max(1.0, moves / max(1, players)))


def moves_worth(review: MoveReview, scale: float) -> float:
    """The points ``review`` lost in moves' worth (points over ``scale``), where it surely
    lost points; else 0."""
    return review.points_loss / scale if review.surely_lost_points else 0.0


def mark_of(review: MoveReview, scale: float = math.inf) -> str:
    """The worst mark the move's intervals support ("" where none does): its sure loss of
    wins, or the points it surely lost, in moves' worth (points over ``scale``)."""
    sure, moves = review.surely_lost, moves_worth(review, scale)
    return next((name for name, win, worth in MARKS if sure >= win or moves >= worth), "")


def mark_moves(reviews: Sequence[MoveReview], scale: float) -> list[MoveReview]:
    """The same reviews, each marked as its intervals support on a game whose moves are
    worth ``scale`` points each (:func:`points_scale`); forced moves never are."""
    return [
        r if r.forced else replace(r, mark=mark_of(r, scale), moves_lost=moves_worth(r, scale))
        for r in reviews
    ]


def explain(game: Game, view: View, review: MoveReview) -> MoveReview:
    """``review`` with the reason its game gives for ``best`` over ``played`` from ``view``
    (the view the player had), unchanged where the game offers no ``reasons`` part or the
    move was the best."""
    if review.forced or review.best is review.played or REASONS.name not in game.plugins:
        return review
    reasons = game.plugin(REASONS)
    try:
        reason = reasons(
            view,
            review.played,
            review.best,
            points=review.points_loss,
            win_share=review.win_share_loss,
        )
    except PolisError:  # a view the game cannot read again: the row keeps its figures
        return review
    return review if reason is None else replace(review, reason=reason)


def explain_marked(
    game: Game, reviews: Sequence[MoveReview], view_of: Callable[[int], View]
) -> list[MoveReview]:
    """Every marked move explained (:func:`explain`); ``view_of(index)`` is the view its
    player had."""
    return [explain(game, view_of(r.index), r) if r.mark else r for r in reviews]


def reason_json(reason: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """A reason as plain JSON (nested reasons included)."""
    if reason is None:
        return None
    params = {
        k: reason_json(v) if isinstance(v, Mapping) else v
        for k, v in reason.get("params", {}).items()
    }
    return {"key": reason["key"], "params": params}


__all__ = [
    "MARKS",
    "MIN_SCALE",
    "SECOND_LOOK",
    "MoveReview",
    "explain",
    "explain_marked",
    "losses",
    "mark_moves",
    "mark_of",
    "moves_worth",
    "needs_second_look",
    "points_scale",
    "reason_json",
    "review_moves",
    "second_look",
    "weigh",
]
