"""Why one Metropolys move was better than another, in the words of the game's catalogue
(the ``reasons`` part, :class:`polis.core.parts.Reasons`, for the post-game review).

Facts read off the view the player had, in the order a player would think of them:

* a **token** on the field: the better move wins a trendy neighbourhood (+3) or a subway
  (+1), or the played one an archaeological site (-1);
* the player's **objective**: the better field counts for their area card (or, in Expert,
  their neighbourhood colour) and the played one does not;
* a **neighbour lost**: the played bid lets someone still in the call raise onto a free
  neighbouring field that holds a trendy neighbourhood;
* a bid that **could not win**: someone still in the call holds a higher building and has a
  free field next to the bid to raise onto (so passing, or another bid, was better); or,
  the other way round, the better bid was one nobody could raise;
* **kept buildings**: a lower building on the same field, or passing, keeps the higher one
  in the supply for a later call.

Where none of these holds, the sentence gives the points the review's played-out games
expected the better move to add (``review.later``), or its wins (``review.wins``).
"""

from __future__ import annotations

from typing import Any

from polis.core.errors import InputError
from polis.core.moves import Move
from polis.core.parts import Reason
from polis.core.view import View
from polis.games.metropolys.board import (
    ADJACENT,
    ARCHAEOLOGY,
    CHIC,
    COLOUR,
    METRO,
    ON_BRIDGE,
    ON_LAKE,
    ON_STATUE,
    OUTSKIRTS,
    TOKENS,
)
from polis.games.metropolys.moves import MetropolysMove
from polis.games.metropolys.view import MetropolysView

#: The area cards one field meets on its own, and the test.
_AREA = {
    "bridges": lambda f: ON_BRIDGE[f],
    "statues": lambda f: ON_STATUE[f],
    "lakes": lambda f: ON_LAKE[f],
    "outskirts": lambda f: f in OUTSKIRTS,
}


def _words(key: str, **params: Any) -> Reason:
    return {"key": key, "params": params}


def _phrase(prefix: str, move: MetropolysMove) -> Reason:
    if move.is_pass:
        return _words(f"{prefix}.pass")
    return _words(f"{prefix}.bid", value=move.value, field=move.field)


def _raisers(view: MetropolysView, player: int, move: MetropolysMove) -> list[int]:
    """Players still in the call who could raise over ``move`` (a bid): a higher building in
    their supply and a free field next to it."""
    if not any(view.cells[g] == -1 and g != move.field for g in ADJACENT[move.field]):
        return []
    return [
        q
        for q in range(view.players)
        if q != player and not view.passed >> q & 1 and any(v > move.value for v in view.supply(q))
    ]


def _neighbour_lost(view: MetropolysView, player: int, move: MetropolysMove) -> int | None:
    """A free field next to the bid that holds a trendy neighbourhood, onto which someone
    still in the call could raise (None: none)."""
    if not _raisers(view, player, move):
        return None
    return next(
        (
            g
            for g in ADJACENT[move.field]
            if g != move.field and view.cells[g] == -1 and view.tokens[g] == CHIC
        ),
        None,
    )


def _objective(view: MetropolysView, field: int) -> Reason | None:
    """The player's objective ``field`` counts for (None: none it counts for alone)."""
    card = view.area_card
    if card in _AREA and _AREA[card](field):
        return _words(f"area.{card}")
    if view.neighbourhood_card is not None and COLOUR[field] == view.neighbourhood_card:
        return _words(f"colour.{view.neighbourhood_card}")
    return None


def _why(
    view: MetropolysView, player: int, played: MetropolysMove, best: MetropolysMove
) -> Reason | None:
    good = (CHIC, METRO)
    if (
        not best.is_pass
        and view.tokens[best.field] in good
        and (played.is_pass or view.tokens[played.field] not in good)
    ):
        token = _words(f"token.{TOKENS[view.tokens[best.field] - 1]}")
        return _words("review.why.token", field=best.field, token=token)
    if (
        not played.is_pass
        and view.tokens[played.field] == ARCHAEOLOGY
        and (best.is_pass or view.tokens[best.field] != ARCHAEOLOGY)
    ):
        token = _words(f"token.{TOKENS[ARCHAEOLOGY - 1]}")
        return _words("review.why.token", field=played.field, token=token)
    if not best.is_pass:
        card = _objective(view, best.field)
        if card is not None and (played.is_pass or _objective(view, played.field) is None):
            return _words("review.why.objective", field=best.field, card=card)
    if not played.is_pass:
        lost = _neighbour_lost(view, player, played)
        if lost is not None and (best.is_pass or _neighbour_lost(view, player, best) is None):
            return _words("review.why.neighbour", field=lost)
        raisers = _raisers(view, player, played)
        if raisers and (best.is_pass or not _raisers(view, player, best)):
            return _words("review.why.outbid", n=len(raisers))
        if best.is_pass or (best.field == played.field and best.value < played.value):
            return _words("review.why.kept", value=played.value)
    if not best.is_pass and not _raisers(view, player, best):
        return _words("review.why.unbeatable")
    return None


def reasons(
    view: View, played: Move, best: Move, /, *, points: float, win_share: float
) -> Reason | None:
    """Why ``best`` was better than ``played`` for the player whose ``view`` it is."""
    if not isinstance(view, MetropolysView) or view.player is None:
        raise InputError("a Metropolys reason needs a player's Metropolys view")
    if not isinstance(played, MetropolysMove) or not isinstance(best, MetropolysMove):
        raise InputError("a Metropolys reason compares two Metropolys moves")
    do, did = _phrase("review.do", best), _phrase("review.did", played)
    why = _why(view, view.player, played, best)
    if why is not None:
        return _words("review.better", best=do, played=did, why=why)
    expected = round(points)
    if expected >= 1:
        return _words("review.later", best=do, played=did, points=expected)
    return _words("review.wins", best=do, played=did, win=max(1, round(100 * win_share)))


__all__ = ["reasons"]
