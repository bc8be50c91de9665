"""Stand-ins for the hint and review searches, importable by the worker processes (pickled
by reference to this module, with ``functools.partial`` for their first arguments): they
take as long as a test wants without using the processor, so what a hint costs is known."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from polis.bots.review import MoveReview
from polis.core.moves import Move
from polis.core.protocol import Game
from polis.core.view import View
from polis.server.table.hint_search import Suggestion
from waiting import eventually


def _suggestion(legal: Sequence[Move], samples: int) -> Suggestion:
    move = legal[0]
    params = {"move": move.text, "win": 50, "games": samples, "points": 0}
    return Suggestion(move, {"key": "hint.only", "params": params})


def slow_suggest(
    seconds: float,
    game: Game,
    view: View,
    legal: Sequence[Move],
    agent: str,
    samples: int,
    seed: int,
) -> Suggestion:
    """A hint that takes ``seconds`` (a real one takes 1.6-2 s)."""
    time.sleep(seconds)
    return _suggestion(legal, samples)


def wait_for(release: Path, started: Path | None = None) -> None:
    """Create ``started`` (if given), then wait for ``release`` to exist (a minute at most)."""
    if started is not None:
        started.touch()
    with contextlib.suppress(AssertionError):  # then it answers anyway
        eventually(release.exists, timeout=60, interval=0.01)


def gated_suggest(
    release: Path,
    game: Game,
    view: View,
    legal: Sequence[Move],
    agent: str,
    samples: int,
    seed: int,
) -> Suggestion:
    """A hint given once ``release`` exists."""
    wait_for(release)
    return _suggestion(legal, samples)


def gated_weigh(release: Path, *args: Any) -> MoveReview:
    """A review's move, weighed once ``release`` exists (as a forced move: no search)."""
    wait_for(release)
    _game, view, _legal, index, played = args[:5]
    return MoveReview.forced_move(index, view.player, played)
