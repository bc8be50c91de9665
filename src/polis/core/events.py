"""What happened: typed engine events, each with the seats that may see it.

Every applied move yields events in the order things happened (a piece placed, a building
built, a round ended ...). An event is a key plus JSON-able parameters, so every
front end words it in its own language; ``to`` names the seats that may see it (``None``:
everyone), so the events one seat may see are that seat's log. The web log, the terminal
game, replays and narration read events; none of them parses notation.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from polis.core.protocol import GameState


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened: ``key`` names it, ``params`` say who, what and where."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)
    #: The seats that may see this event; ``None`` = everyone (spectators included).
    to: tuple[int, ...] | None = None

    def visible_to(self, seat: int | None) -> bool:
        """May ``seat`` (``None``: a spectator) see this event?"""
        return self.to is None or (seat is not None and seat in self.to)

    def to_json(self) -> dict[str, Any]:
        """``{"key": ..., "params": {...}}``: what leaves the process (never ``to``)."""
        return {"key": self.key, "params": dict(self.params)}


def visible(events: tuple[Event, ...] | list[Event], seat: int | None) -> list[Event]:
    """The events of ``events`` that ``seat`` may see, in order."""
    return [e for e in events if e.to is None or (seat is not None and seat in e.to)]


def event_log(state: GameState, seat: int | None) -> list[Event]:
    """Every event of the game so far that ``seat`` may see: its log, rebuilt from the set-up.

    Replays ``state``'s set-up and moves with events on; used where a whole log is needed
    at once (a replay, a reconnecting client, the conformance suite).
    """
    game = state.game
    replay = game.new_game(
        state.mode, state.num_players, setup=state.setup(), options=state.options() or None
    )
    log = visible(replay.opening_events(), seat)
    for move in state.history:
        log.extend(visible(replay.play(move), seat))
    return log


__all__ = ["Event", "event_log", "visible"]
