"""How a finished game ended, in one shape for every game (what the scoring pad shows)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class PlayerScore:
    """One player's line on the scoring pad."""

    total: int
    #: Points per scoring category, in the order of the printed pad (keys of formats.md).
    categories: Mapping[str, int]
    #: What breaks a tie on the total, in the order the rules apply it (the game's
    #: ``tie_breaks`` labels say which way each one counts).
    tie_breaks: Mapping[str, int] = field(default_factory=dict)
    #: The formats.md score report of this player (JSON-able).
    report: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class GameResult:
    """Scores, places and every player's breakdown.

    ``ranking`` lists places best first; players sharing a place (after every tie-break the
    rules give) share one tuple, e.g. ``((0,), (2, 1))``. ``json`` is the game record's
    ``result`` object of formats.md, exactly as the game writes it.
    """

    game: str
    mode: str
    scores: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]
    players: tuple[PlayerScore, ...] = ()
    json: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def win_shares(self) -> tuple[float, ...]:
        """1 for a sole winner, 1/k for each of k players sharing first place, else 0."""
        shares = [0.0] * len(self.scores)
        first = self.ranking[0]
        for p in first:
            shares[p] = 1.0 / len(first)
        return tuple(shares)

    def ranks(self) -> tuple[float, ...]:
        """Rank of each player (1 = best); tied players get the mean of the places they span."""
        out = [0.0] * len(self.scores)
        place = 1
        for group in self.ranking:
            mean = place + (len(group) - 1) / 2
            for p in group:
                out[p] = mean
            place += len(group)
        return tuple(out)

    def to_json(self) -> dict[str, Any]:
        """The ``result`` object of a game record (a fresh, JSON-able dict)."""
        if self.json:
            copied: dict[str, Any] = _copy(self.json)
            return copied
        return {
            "game": self.game,
            "mode": self.mode,
            "scores": list(self.scores),
            "ranking": [list(g) for g in self.ranking],
        }


def _copy(data: Any) -> Any:
    if isinstance(data, Mapping):
        return {k: _copy(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [_copy(v) for v in data]
    return data


__all__ = ["GameResult", "PlayerScore"]
