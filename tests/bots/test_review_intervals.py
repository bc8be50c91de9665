"""Reviews that know their uncertainty: every loss with its 95% interval, a mark only where the
whole interval lies past the threshold, and a move a hint suggested not marked worse than the
hint said unless the review's own samples are sure of it."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from polis.bots.advice import Estimate, advise, alternatives
from polis.bots.intervals import mean_interval, paired_difference, t_quantile, wilson
from polis.bots.review import MARKS, MoveReview, losses, mark_moves, review_moves
from polis.cli.main import app
from polis.cli.play import HINT_ALTERNATIVES
from polis.core import get_game
from polis.core.match import derive_seed

INACCURACY = MARKS[-1][1]


def test_student_t_quantiles_match_the_tables() -> None:
    """Two-sided 95% quantiles from any statistics table (3 decimals)."""
    table = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 10: 2.228, 23: 2.069, 47: 2.012}
    for df, want in table.items():
        assert t_quantile(df) == pytest.approx(want, abs=5e-4), df
    assert t_quantile(1999) == pytest.approx(1.9612, abs=5e-4)


def test_wilson_never_collapses_on_a_few_samples() -> None:
    low, high = wilson(1.0, 4)
    assert high == 1.0 and low == pytest.approx(0.510, abs=1e-3)
    low, high = wilson(0.5, 100)
    assert low == pytest.approx(0.404, abs=1e-3) and high == pytest.approx(0.596, abs=1e-3)


@pytest.mark.parametrize(
    ("best", "played"),
    [
        ([1, 1, 0, 0], [0, 0, 0, 0]),
        ([1] * 20 + [0] * 4, [1] * 8 + [0] * 16),
        ([1, 0.5, 0, 1, 1, 0], [0, 0.5, 1, 1, 0, 0]),
        ([0] * 24, [0] * 24),
    ],
)
def test_the_paired_interval_holds_the_estimate(best: list[float], played: list[float]) -> None:
    low, high = paired_difference(best, played)
    middle = (sum(best) - sum(played)) / len(best)
    assert -1.0 <= low <= middle <= high <= 1.0
    assert low < high  # never a point, however the samples fell


def test_few_samples_make_no_blunder() -> None:
    """The issue's case: 4 samples on which the searcher's move won twice and the played one
    never, an estimated loss of 50% of a win, was called a blunder. Even 4 samples out of 4
    are not enough for any mark (the other move may still be as good); 24 are."""
    assert paired_difference([1, 1, 0, 0], [0, 0, 0, 0])[0] < 0
    assert paired_difference([1] * 4, [0] * 4)[0] < INACCURACY
    assert paired_difference([1] * 12 + [0] * 12, [0] * 24)[0] >= MARKS[1][1]  # a mistake
    assert paired_difference([1] * 24, [0] * 24)[0] >= MARKS[0][1]  # a blunder


def _estimate(move: object, shares: list[float], points: list[float]) -> Estimate:
    n = len(shares)
    outcomes = tuple(zip(shares, points, strict=True))
    return Estimate(move, sum(shares) / n, sum(points) / n, 0.0, n, outcomes)  # type: ignore[arg-type]


def test_a_loss_of_half_a_win_on_four_samples_is_not_marked() -> None:
    moves = get_game("metropolys").action_space("family")
    best = _estimate(moves[0], [1, 1, 0, 0], [60, 58, 40, 41])
    mine = _estimate(moves[1], [0, 0, 0, 0], [50, 49, 39, 40])
    wins, points = losses(best, mine)
    review = MoveReview(0, 0, moves[1], moves[0], False, mine, best, 0.5, 5.25, "", wins, points)
    assert mark_moves([review], 1.0)[0].mark == ""  # the estimate alone said "blunder"
    assert points is not None and points[0] <= 5.25 <= points[1]
    assert points == pytest.approx(mean_interval([10, 9, 1, 1]))


def test_the_best_move_loses_nothing_for_sure() -> None:
    move = get_game("metropolys").action_space("family")[0]
    same = _estimate(move, [1, 0], [3, 4])
    assert losses(same, same) == ((0.0, 0.0), (0.0, 0.0))


def test_a_hinted_move_is_not_marked_unless_the_review_is_sure() -> None:
    """Seat 0 plays every hint (as the terminal's ``hint`` gives it, on a small budget), then
    the game is reviewed on the same budget. On these samples the review's estimate puts
    some hinted moves 10-50% of a win behind the searcher's choice, which the old rule marked
    as inaccuracies up to a blunder; none is marked unless its whole interval says so."""
    agent, samples = "mcts:24i", 6
    game = get_game("metropolys")
    state = game.new_game("family", 2, seed=0)
    rng = random.Random(0)
    hinted = set()
    while not state.is_terminal():
        legal = state.legal_moves()
        if state.current_player() == 0 and len(legal) > 1:
            view, seed = state.view(0), derive_seed(0, "hint", len(state.history))
            others = alternatives(game, view, legal, HINT_ALTERNATIVES, seed)
            advice = advise(game, view, legal, also=others, agent=agent, samples=samples, seed=seed)
            top = sorted(advice.estimates, key=lambda e: (-e.win_share, -e.points))[0]
            hinted.add(len(state.history))
            state.apply(top.move)
        else:
            state.apply(state.random_move(rng))
    start = game.from_record({**state.to_record(), "moves": []})
    reviews = review_moves(
        game, start, list(state.history), agent=agent, samples=samples, seed=0, seats={0}
    )
    weighed = [r for r in reviews if r.index in hinted]
    assert any(r.win_share_loss >= INACCURACY for r in weighed)  # the estimate alone would mark
    for r in weighed:
        assert r.loss_interval is not None
        assert r.mark == "" or r.loss_interval[0] >= INACCURACY or r.moves_lost >= MARKS[-1][2]


def test_polis_review_shows_every_interval(tmp_path: Path) -> None:
    state = get_game("metropolys").new_game("family", 2, seed=11)
    rng = random.Random(11)
    while not state.is_terminal():
        state.apply(state.random_move(rng))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(state.to_record(["Ada", "Bo"], 11)))
    args = ["review", str(path), "--agent", "mcts:16i", "--samples", "4"]
    report = json.loads(CliRunner().invoke(app, [*args, "--json"]).stdout)
    assert report["interval_level"] == 0.95
    for m in report["moves"]:
        if m["forced"]:
            assert m["win_share_loss_interval"] is None
            continue
        low, high = m["win_share_loss_interval"]
        measured = m["best_estimate"]["win_share"] - m["played_estimate"]["win_share"]
        assert low - 1e-4 <= measured <= high + 1e-4
        # (4 samples: a mark only where the points lost are sure past a threshold)
        assert m["mark"] == "" or m["moves_lost"] >= MARKS[-1][2]
        p_low, p_high = m["points_loss_interval"]
        assert p_low - 0.01 <= m["points_loss"] <= p_high + 0.01
        for side in ("best_estimate", "played_estimate"):
            w_low, w_high = m[side]["win_share_interval"]
            assert w_low - 1e-4 <= m[side]["win_share"] <= w_high + 1e-4
    text = CliRunner().invoke(app, args, env={"COLUMNS": "100"}).stdout
    assert "95% interval over 4 sampled games" in text
    weighed = next(m for m in report["moves"] if not m["forced"] and m["best"] != m["played"])
    low, high = (round(100 * x) for x in weighed["win_share_loss_interval"])
    assert f"[{low}, {high}]" in text
    marked = any(m["mark"] for m in report["moves"])
    assert ("nothing marked" in text) != marked
