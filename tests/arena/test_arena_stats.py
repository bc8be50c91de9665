"""The arena's statistics, ratings and schedule on known inputs."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polis.arena.match import Outcome
from polis.arena.ratings import rate
from polis.arena.schedule import Seating, balanced, balanced_step, schedule, seats_per_spec
from polis.arena.stats import mean_ci, summarise, wilson
from polis.core.match import derive_seed


def outcome(index: int, lineup: tuple[int, ...], scores: tuple[int, ...]) -> Outcome:
    order = sorted(set(scores), reverse=True)
    ranking = tuple(tuple(p for p in range(len(scores)) if scores[p] == s) for s in order)
    from polis.core.protocol import GameResult

    result = GameResult("counting", "basic", scores, ranking)
    return Outcome(index, lineup, scores, result.ranks(), result.win_shares(), ranking, 10)


def test_wilson_known_values() -> None:
    lo, hi = wilson(14.5, 20)
    assert (round(lo, 3), round(hi, 3)) == (0.506, 0.872)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and round(hi, 3) == 0.278
    lo, hi = wilson(10, 10)
    assert round(lo, 3) == 0.722 and hi == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_mean_ci_known_values() -> None:
    mean, lo, hi = mean_ci([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5
    half = 1.959963984540054 * math.sqrt((2.25 + 0.25 + 0.25 + 2.25) / 3 / 4)
    assert lo == pytest.approx(2.5 - half) and hi == pytest.approx(2.5 + half)
    assert mean_ci([7.0]) == (7.0, 7.0, 7.0)


def test_summary_counts_shared_wins_fractionally() -> None:
    outcomes = [
        outcome(0, (0, 1), (30, 20)),
        outcome(1, (1, 0), (25, 25)),  # shared first place: half a win each
        outcome(2, (0, 1), (10, 40)),
        outcome(3, (1, 0), (12, 18)),
    ]
    rows = summarise(["a", "b"], outcomes, [(25.0, 8.0), (25.0, 8.0)])
    a, b = rows
    assert a["games"] == b["games"] == 4
    assert a["wins"] == 2.5 and b["wins"] == 1.5
    assert a["win_share"] == 0.625
    assert a["mean_rank"] == pytest.approx((1 + 1.5 + 2 + 1) / 4)
    assert a["mean_score"] == pytest.approx((30 + 25 + 10 + 18) / 4)
    assert a["mean_margin"] == pytest.approx((10 + 0 - 30 + 6) / 4)
    assert b["mean_margin"] == pytest.approx(-a["mean_margin"])
    lo, hi = a["win_share_ci"]
    assert lo < 0.625 < hi


def test_summary_with_one_spec_in_several_seats() -> None:
    outcomes = [outcome(0, (0, 1, 0, 1), (5, 9, 7, 1)), outcome(1, (1, 0, 1, 0), (3, 3, 8, 2))]
    a, b = summarise(["a", "b"], outcomes, [(25.0, 8.0)] * 2)
    assert a["games"] == b["games"] == 4
    assert a["wins"] + b["wins"] == 2
    assert b["wins"] == 2  # 9 wins game 0, 8 wins game 1


def test_ratings_reward_the_winner() -> None:
    outcomes = [
        outcome(i, (i % 2, 1 - i % 2), (10, 5) if i % 2 == 0 else (5, 10)) for i in range(10)
    ]
    (mu_a, _), (mu_b, _) = rate(["a", "b"], outcomes)
    assert mu_a > 25 > mu_b


def test_ratings_of_equal_agents_stay_equal() -> None:
    outcomes = [outcome(i, (0, 1) if i % 2 == 0 else (1, 0), (7, 5)) for i in range(10)]
    (mu_a, _), (mu_b, _) = rate(["a", "b"], outcomes)
    assert mu_a == pytest.approx(mu_b, abs=2.5)  # only the order of updates differs


@pytest.mark.parametrize(
    ("specs", "players"),
    [(1, 3), (2, 2), (2, 4), (3, 2), (3, 4), (4, 2), (4, 4), (3, 3), (5, 3), (6, 4)],
)
def test_schedule_rotates_seats_fairly(specs: int, players: int) -> None:
    block = math.lcm(specs, players)
    tables = schedule(11, specs, players, 2 * block)
    for c in range(0, len(tables), specs):
        cycle = tables[c : c + specs]
        seats = Counter((who, seat) for t in cycle for seat, who in enumerate(t.lineup))
        # every spec in every seat exactly once a cycle
        assert seats == Counter({(a, s): 1 for a in range(specs) for s in range(players)})
    for b in (0, block):
        assert len({t.setup_seed for t in tables[b : b + block]}) == 1  # one deal per block
    assert len({t.setup_seed for t in tables}) == 2
    if specs >= players:
        assert all(len(set(t.lineup)) == players for t in tables)
    assert schedule(11, specs, players, len(tables) + 5)[: len(tables)] == tables  # prefixes


def earlier_schedule(seed: int, specs: int, players: int, games: int) -> list[Seating]:
    """The schedule before issue 16 (blocks of ``players`` games rotating one line-up)."""
    if specs >= players:
        groups = [tuple(c) for c in itertools.combinations(range(specs), players)]
    else:
        groups = [tuple(i % specs for i in range(players))]
    out = []
    for index in range(games):
        block, turn = divmod(index, players)
        group = groups[block % len(groups)]
        seeds = tuple(derive_seed(seed, "agent", index, s) for s in range(players))
        out.append(
            Seating(index, group[turn:] + group[:turn], derive_seed(seed, "deal", block), seeds)
        )
    return out


@pytest.mark.parametrize(("specs", "players"), [(1, 2), (1, 4), (2, 2), (2, 4), (4, 4), (3, 3)])
def test_schedule_is_unchanged_when_the_specs_divide_the_seats(specs: int, players: int) -> None:
    """The ladder's published runs (two levels, or four at four seats) replay game for game."""
    assert schedule(7, specs, players, 24) == earlier_schedule(7, specs, players, 24)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 7), st.integers(2, 4), st.integers(0, 30))
def test_game_counts_are_as_equal_as_the_game_count_allows(
    specs: int, players: int, games: int
) -> None:
    """After any number of games no spec has more than one seat more than another, so the
    counts are equal exactly when ``games * players`` divides evenly (issue 16: three agents,
    two seats, three games gave 3, 2 and 1 games)."""
    tables = schedule(5, specs, players, games)
    for n in range(games + 1):
        counts = seats_per_spec(tables[:n], specs)
        assert max(counts) - min(counts) <= 1
    counts = seats_per_spec(tables, specs)
    assert (len(set(counts)) == 1) == balanced(specs, players, games)
    assert balanced(specs, players, games) == (games % balanced_step(specs, players) == 0)


def test_three_agents_at_two_seats_over_three_games() -> None:
    tables = schedule(0, 3, 2, 3)
    assert seats_per_spec(tables, 3) == [2, 2, 2]
    assert {frozenset(t.lineup) for t in tables} == {frozenset(p) for p in ((0, 1), (0, 2), (1, 2))}


def test_with_more_specs_than_seats_everyone_meets_everyone() -> None:
    tables = schedule(2, 5, 2, 5 * 8)
    pairs = {frozenset(t.lineup) for t in tables}
    assert pairs == {frozenset((a, b)) for a in range(5) for b in range(a + 1, 5)}
