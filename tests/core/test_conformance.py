"""The conformance suite passes on every game, and fails on games that break a promise."""

from __future__ import annotations

import dataclasses
import random
import re
from typing import Any, ClassVar

import pytest

from polis.core import Event, IllegalMove, games
from polis.core.testing import check_game
from toygame import CountingGame, CountingState, CountingView


@pytest.mark.parametrize("name", sorted(games()))
def test_every_registered_game_conforms(name: str) -> None:
    game = games()[name]
    report = check_game(game, games=2, seed=3)
    expected = {(m, n) for m in game.modes for n in range(game.min_players, game.max_players + 1)}
    assert set(report.configs) == expected
    assert report.games == 2 * len(expected) and report.moves > report.games
    assert report.illegal_tried and report.determinized and report.event_logs and report.records


# -- games that break one promise each: the suite must notice ---------------------------------


class _Broken(CountingGame):
    """The toy game, with a state class that breaks something."""

    state_class: ClassVar[type[CountingState]]

    def new_game(self, mode: str, players: int, **kwargs: Any) -> CountingState:
        return self._retype(super().new_game(mode, players, **kwargs))

    def determinize(self, view: Any, rng: random.Random) -> CountingState:
        return self._retype(super().determinize(view, rng))

    def _retype(self, state: CountingState) -> CountingState:
        broken = object.__new__(self.state_class)
        for slot in CountingState.__slots__:
            setattr(broken, slot, getattr(state, slot))
        return broken


class LeakyView(CountingState):
    """Every seat's view shows every secret word."""

    __slots__ = ()

    def view(self, player: int | None) -> CountingView:
        view = super().view(player)
        secrets = "/".join(self._secrets)
        return dataclasses.replace(view, secret=secrets)


class LeakyEvents(CountingState):
    """The deal of the secrets is announced to everyone."""

    __slots__ = ()

    def opening_events(self) -> tuple[Event, ...]:
        return tuple(Event(e.key, e.params) for e in super().opening_events())


class HalfApplied(CountingState):
    """An illegal move is recorded before it is refused."""

    __slots__ = ()

    def apply(self, move: Any) -> None:
        if not self.is_terminal() and move not in self.legal_moves():
            self._moves.append(self.legal_moves()[0])
            raise IllegalMove("not a move")
        super().apply(move)


class SharedClone(CountingState):
    """A clone that shares its move list with the original."""

    __slots__ = ()

    def clone(self) -> Any:
        other = super().clone()
        other._moves = self._moves
        return other


@pytest.mark.parametrize(
    ("state_class", "words"),
    [
        (LeakyView, "view(determinize(view)) differs"),
        (LeakyEvents, "events depend on facts it cannot see"),
        (HalfApplied, "the refused move"),
        (SharedClone, "applying to a clone changed the original"),
    ],
)
def test_the_suite_catches_a_broken_promise(state_class: type[CountingState], words: str) -> None:
    broken = type(f"Broken{state_class.__name__}", (_Broken,), {"state_class": state_class})()
    state_class.game = broken
    with pytest.raises(AssertionError, match=re.escape(words)):
        check_game(broken, games=2)
