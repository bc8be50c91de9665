"""A learned value of a Metropolys Family position (2 or 4 players): what a deeper search
would say.

``mcts`` mixes it into the reward of each playout (half playout, half value), so a leaf
carries some of what a search from that position would find, not only one biased playout.
The value is linear in seven differences between the two players (score now, buildings
built, buildings left: their sum, top value and count of 10 or more, who is to move, who
holds the round's top bid), each weighted anew for the phase of the game (the weights are a
quadratic in how far the game has gone). The weights were fitted by ridge regression to the
values that an all-seeing ``mcts`` search at 800 iterations found at 5,040 positions of
games the playout policy played against itself (R² 0.69 on 5,040 other positions);
``benchmarks/fit_value.py`` regenerates them.

At a 4-player table each player is valued on its own, against the best and the mean of the
others (:func:`standings`), fitted to every player's value as the same searches found it at
1,110 positions (the mean reward of the playouts after the move chosen; R² 0.57 on 1,114
other positions). Three players have no value yet.

The two players' values add up to 1, and the value only reads the state it is given (a
searcher's own determinization), never anything else.
"""

from __future__ import annotations

from typing import Final

from polis.core.view import TERMINAL
from polis.games.metropolys.state import VALUES_OF, MetropolysState

#: Per feature (see :func:`differences`): weight at the start, per unit of progress, and per
#: unit of progress squared (``benchmarks/fit_value.py``: fitted on seed 11, seed 12 held out).
WEIGHTS: Final = (
    (0.0840, 0.0263, 0.0956),
    (0.0271, 0.4727, -0.4318),
    (0.1179, 0.4462, -0.3292),
    (0.0106, -0.1410, 0.1030),
    (-0.0792, 0.2757, -0.2143),
    (0.0774, -0.0516, 0.2065),
    (0.0479, 0.1801, -0.1068),
)

#: The same for the 4-player features (see :func:`standings`; the first is a constant):
#: fitted to each player's value found by the searches (seed 11, seed 12 held out).
WEIGHTS_4: Final = (
    (0.3026, -0.0660, 0.1997),
    (-0.0244, 0.0475, 0.0781),
    (0.1311, 0.1004, -0.1771),
    (-0.2016, 0.7242, -0.3759),
    (-0.0627, 0.7093, -0.3698),
    (0.0360, -0.1473, -0.0056),
    (-0.0711, 0.3146, -0.2857),
    (0.0387, -0.0563, 0.2073),
    (-0.0135, 0.2396, -0.1976),
)


def differences(state: MetropolysState, player: int) -> tuple[float, ...]:
    """The seven features of the position for ``player`` against the other (each scaled to
    about 1 for a clear lead, and the negation of the other player's)."""
    other = 1 - player
    scores = state.scores_now()
    built = state._built
    mine, theirs = VALUES_OF[state._supply[player]], VALUES_OF[state._supply[other]]
    current = state._current
    top = 0.0
    if state._bids:
        top = 1.0 if state._cells[state._bids[-1]] >> 4 == player else -1.0
    return (
        (scores[player] - scores[other]) / 6.0,
        (built[player] - built[other]) / 3.0,
        (sum(mine) - sum(theirs)) / 20.0,
        (sum(1 for v in mine if v >= 10) - sum(1 for v in theirs if v >= 10)) / 2.0,
        ((mine[-1] if mine else 0) - (theirs[-1] if theirs else 0)) / 4.0,
        1.0 if current == player else -1.0 if current == other else 0.0,
        top,
    )


def standings(state: MetropolysState) -> list[tuple[float, ...]]:
    """Per player, the features of the position at a table of three or more: a constant,
    then the player against the best and the mean of the others (scaled like
    :func:`differences`): score now (twice), buildings built, and of the buildings left
    their sum, count of 10 or more and top value; who is to move, and who holds the round's
    top bid."""
    n = state._facts.players
    k = float(n - 1)
    scores = state.scores_now()
    built = state._built
    left = [VALUES_OF[s] for s in state._supply]
    sums = [sum(v) for v in left]
    highs = [sum(1 for x in v if x >= 10) for v in left]
    tops = [v[-1] if v else 0 for v in left]
    holder = state._cells[state._bids[-1]] >> 4 if state._bids else -1
    current = state._current
    totals = (sum(scores), sum(built), sum(sums), sum(highs), sum(tops))
    out: list[tuple[float, ...]] = []
    for p in range(n):
        best = max(scores[q] for q in range(n) if q != p)
        out.append(
            (
                1.0,
                (scores[p] - best) / 6.0,
                (scores[p] - (totals[0] - scores[p]) / k) / 6.0,
                (built[p] - (totals[1] - built[p]) / k) / 3.0,
                (sums[p] - (totals[2] - sums[p]) / k) / 20.0,
                (highs[p] - (totals[3] - highs[p]) / k) / 2.0,
                (tops[p] - (totals[4] - tops[p]) / k) / 4.0,
                1.0 if current == p else -1.0 / k,
                0.0 if holder < 0 else 1.0 if holder == p else -1.0 / k,
            )
        )
    return out


def weighted(features: tuple[float, ...], weights: tuple[float, ...], base: float = 0.0) -> float:
    """``base`` plus the features' weighted sum, clamped to [0, 1]."""
    v = base
    for x, w in zip(features, weights, strict=True):
        v += x * w
    return 0.0 if v < 0.0 else 1.0 if v > 1.0 else v


def at_progress(table: tuple[tuple[float, float, float], ...], g: float) -> tuple[float, ...]:
    """Each feature's weight at progress ``g`` (its quadratic), once per valuation."""
    g2 = g * g
    return tuple(w0 + w1 * g + w2 * g2 for w0, w1, w2 in table)


def progress(state: MetropolysState) -> float:
    """How far the game has gone: the most buildings one player has built, of 13."""
    return max(state._built) / 13.0


def position_value(state: MetropolysState) -> tuple[float, ...] | None:
    """Each player's expected reward (the searches' blend of win, rank and margin) at a
    Family position with 2 or 4 players that is not over; None elsewhere (no value was
    fitted)."""
    if state._current == TERMINAL or state._facts.mode != "family":
        return None
    players = state._facts.players
    if players == 4:
        weights = at_progress(WEIGHTS_4, progress(state))
        return tuple(weighted(features, weights) for features in standings(state))
    if players != 2:
        return None
    v = weighted(differences(state, 0), at_progress(WEIGHTS, progress(state)), 0.5)
    return v, 1.0 - v
