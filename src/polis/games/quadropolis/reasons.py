"""Why one Quadropolis move was better than another, in the words of the game's catalogue
(the ``reasons`` part, :class:`polis.core.parts.Reasons`, for the post-game review).

From the view the player had: the city after each of the two moves, scored as it stands by
the exact scorer (the running score's: the best allocation of the inhabitants and energy
gained so far), category by category. Where the better move scores more at once, the
sentence names its tile and square, the points it adds and the category that makes the
difference (``review.now``; a Harbor that lines up with others says so). Where it does not
(a move that pays later: inhabitants, energy, a square kept free), the sentence gives the
points the review's played-out games expected it to add by the end (``review.later``, with
the inhabitants or energy it brings where it brings more), or the wins
(``review.wins``) where the points alone do not tell.

Every reason is ``{"key", "params"}`` of ``web/i18n/<lang>.json``; the tile, the square,
the category and the two moves are reasons of their own inside it (formatted first), so
the browser and the terminal word it alike.
"""

from __future__ import annotations

import random
from typing import Any

from polis.core.errors import InputError
from polis.core.moves import Move
from polis.core.parts import Reason
from polis.core.view import View
from polis.games.quadropolis.city import geometry
from polis.games.quadropolis.moves import DISCARD, NOTHING, QuadropolisMove
from polis.games.quadropolis.scoring import ScoreReport, score_city
from polis.games.quadropolis.state import QuadropolisState
from polis.games.quadropolis.tiles import TILES
from polis.games.quadropolis.view import QuadropolisView

#: Penalty categories: a gain there is a penalty avoided.
PENALTIES = frozenset({"inhabitants_penalty", "energy_penalty"})


def _words(key: str, **params: Any) -> Reason:
    return {"key": key, "params": params}


def _tile(tile: int) -> Reason:
    t = TILES[tile]
    return _words("type.playground" if t.code == "p" else f"type.{t.type}")


def _square(mode: str, square: int) -> Reason:
    row, col = divmod(square, geometry(mode).cols)
    return _words("square", row=row + 1, col=col + 1)


def _phrase(prefix: str, mode: str, move: QuadropolisMove, tile: int) -> Reason:
    """``review.do.*`` (a sentence's start) or ``review.did.*`` (inside one) for ``move``,
    which takes ``tile`` (-1: nothing)."""
    if move.target == NOTHING or tile < 0:
        return _words(f"{prefix}.nothing")
    if move.target == DISCARD:
        return _words(f"{prefix}.discard", tile=_tile(tile))
    return _words(f"{prefix}.build", tile=_tile(tile), square=_square(mode, move.target))


def _score(state: QuadropolisState, player: int) -> ScoreReport:
    inhabitants, energy = state.resources(player)
    playground, cap, after_removal = state.rules.scoring
    return score_city(
        state.mode,
        state.city(player),
        inhabitants,
        energy,
        playground_absorbs_pollution=playground,
        office_tower_group_cap=cap,
        empty_squares_after_removal=after_removal,
    )


def _category(key: str, category: str, n: int) -> Reason:
    """``n`` points more (``review.why.category``) or fewer (``review.why.less``) in one
    category of the scoring pad (a penalty's points counted as the penalty)."""
    kind = "penalty" if category in PENALTIES else "points"
    return _words(key, category=_words(f"cat.{category}"), kind=kind, n=n)


def _after(state: QuadropolisState, move: QuadropolisMove) -> tuple[QuadropolisState, int]:
    """The state after ``move`` and the tile it took (-1: none)."""
    tile = state.offer(move.architect, move.spot)
    after = state.clone()
    after.apply(move)
    return after, tile


def _harbor_line(state: QuadropolisState, player: int, square: int) -> int:
    """Harbors in the longest straight line of them through ``square``."""
    g = geometry(state.mode)
    kinds = state.kinds(player)
    row, col = divmod(square, g.cols)
    best = 0
    for dr, dc in ((0, 1), (1, 0)):
        run = 1
        for sign in (1, -1):
            r, c = row + sign * dr, col + sign * dc
            while 0 <= r < g.rows and 0 <= c < g.cols and kinds[r * g.cols + c] == "H":
                run += 1
                r, c = r + sign * dr, c + sign * dc
        best = max(best, run)
    return best


def reasons(
    view: View, played: Move, best: Move, /, *, points: float, win_share: float
) -> Reason | None:
    """Why ``best`` was better than ``played`` for the player whose ``view`` it is."""
    if not isinstance(view, QuadropolisView) or view.player is None:
        raise InputError("a Quadropolis reason needs a player's Quadropolis view")
    if not isinstance(played, QuadropolisMove) or not isinstance(best, QuadropolisMove):
        raise InputError("a Quadropolis reason compares two Quadropolis moves")
    from polis.games.quadropolis.game import GAME

    player, mode = view.player, view.mode
    # the hidden tiles (face-down, later rounds) change neither move's city
    state = GAME.determinize(view, random.Random(0))
    mine, my_tile = _after(state, played)
    other, other_tile = _after(state, best)
    was, could = _score(mine, player), _score(other, player)
    do = _phrase("review.do", mode, best, other_tile)
    did = _phrase("review.did", mode, played, my_tile)
    gain = could.total - was.total
    if gain >= 1:
        category = max(
            could.categories,
            key=lambda c: (could.categories[c] - was.categories[c], c not in PENALTIES),
        )
        delta = could.categories[category] - was.categories[category]
        why = _category("review.why.category", category, delta)
        lost = min(could.categories, key=lambda c: (could.categories[c] - was.categories[c], c))
        down = was.categories[lost] - could.categories[lost]
        if down >= 1:  # the better move gives something up too: say what, or the sum reads wrong
            why = _words(
                "review.why.trade", gain=why, loss=_category("review.why.less", lost, down)
            )
        if category == "harbors" and best.target >= 0 and TILES[other_tile].code == "H":
            line = _harbor_line(other, player, best.target)
            if line >= 2:
                why = _words("review.why.harbors", n=line - 1)
        return _words("review.now", best=do, played=did, points=gain, why=why)
    expected = round(points)
    if expected >= 1:
        more_inhabitants = _brings(other_tile, best, "inhabitants") - _brings(
            my_tile, played, "inhabitants"
        )
        more_energy = _brings(other_tile, best, "energy") - _brings(my_tile, played, "energy")
        if more_inhabitants > 0:
            why = _words("review.why.inhabitants", n=more_inhabitants)
        elif more_energy > 0:
            why = _words("review.why.energy", n=more_energy)
        else:
            return _words("review.later", best=do, played=did, points=expected)
        return _words("review.laterWhy", best=do, played=did, points=expected, why=why)
    return _words("review.wins", best=do, played=did, win=max(1, round(100 * win_share)))


def _brings(tile: int, move: QuadropolisMove, what: str) -> int:
    """The inhabitants or energy a move's tile brings (none when it is not built)."""
    if tile < 0 or move.target < 0:
        return 0
    value: int = getattr(TILES[tile], what)
    return value


__all__ = ["reasons"]
