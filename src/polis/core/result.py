"""How a finished game ended, in one shape for every game (what the scoring pad shows)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
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


#: What a game's ``details`` function gives: every player's line and the record's ``result``.
Details = tuple[tuple[PlayerScore, ...], Mapping[str, Any]]


class GameResult:
    """Scores, places and every player's breakdown (immutable).

    ``ranking`` lists places best first; players sharing a place (after every tie-break the
    rules give) share one tuple, e.g. ``((0,), (2, 1))``. ``json`` is the game record's
    ``result`` object of formats.md, exactly as the game writes it.

    A search bot reads a result at the end of every playout and needs only the scores and
    places, so a game may pass ``details`` (a function returning ``players`` and ``json``)
    instead of the breakdown itself: it is called once, the first time either is read.
    """

    __slots__ = ("_details", "_json", "_players", "game", "mode", "ranking", "scores")

    game: str
    mode: str
    scores: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]
    _players: tuple[PlayerScore, ...]
    _json: Mapping[str, Any]
    _details: Callable[[], Details] | None

    def __init__(
        self,
        game: str,
        mode: str,
        scores: tuple[int, ...],
        ranking: tuple[tuple[int, ...], ...],
        players: tuple[PlayerScore, ...] = (),
        json: Mapping[str, Any] | None = None,
        *,
        details: Callable[[], Details] | None = None,
    ) -> None:
        put = object.__setattr__
        put(self, "game", game)
        put(self, "mode", mode)
        put(self, "scores", scores)
        put(self, "ranking", ranking)
        put(self, "_players", players)
        put(self, "_json", {} if json is None else json)
        put(self, "_details", details)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a GameResult is immutable (cannot set {name})")

    def _explain(self) -> None:
        details = self._details
        if details is not None:
            players, data = details()
            object.__setattr__(self, "_players", players)
            object.__setattr__(self, "_json", data)
            object.__setattr__(self, "_details", None)

    @property
    def players(self) -> tuple[PlayerScore, ...]:
        """Every player's line on the scoring pad, in seat order."""
        self._explain()
        return self._players

    @property
    def json(self) -> Mapping[str, Any]:
        """The record's ``result`` object as the game wrote it (empty if it gave none)."""
        self._explain()
        return self._json

    def _key(self) -> tuple[object, ...]:
        return (self.game, self.mode, self.scores, self.ranking, self.players)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameResult):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self.game, self.mode, self.scores, self.ranking))

    def __repr__(self) -> str:
        return (
            f"GameResult(game={self.game!r}, mode={self.mode!r}, scores={self.scores!r}, "
            f"ranking={self.ranking!r})"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            _rebuild,
            (self.game, self.mode, self.scores, self.ranking, self.players, self.json),
        )

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


def _rebuild(*args: Any) -> GameResult:
    """Unpickle a result (its details already worked out)."""
    return GameResult(*args)


def _copy(data: Any) -> Any:
    if isinstance(data, Mapping):
        return {k: _copy(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [_copy(v) for v in data]
    return data


__all__ = ["Details", "GameResult", "PlayerScore"]
