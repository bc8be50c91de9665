"""Game clocks, as on Board Game Arena: a bank of time per seat that runs while its person is
to move, and time added after each of their moves.

* **real-time**: every seat starts with ``bank`` seconds and gets ``increment`` after each of
  its moves (a Fischer increment);
* **turn-based**: every seat starts with ``per_move`` seconds (a day, say) and gets as much
  again after each move, its bank never holding more than ``max_bank``.

Both are one rule: a starting bank, an increment, and an optional cap (:class:`TimeControl`).
A clock (:class:`Clock`) keeps each seat's bank *as of the start of the current turn* and the
wall-clock time that turn started: what is left now is computed from the wall clock, so a
clock stored with the game and read back after a restart continues exactly (the downtime
counts, nothing else is gained or lost). Only people's time runs: a seat played by a bot (a
bot seat, or a bot standing in for a person) keeps its bank as it was.

Everything here is pure arithmetic on numbers the caller passes in (``now`` is the caller's
wall clock), so tests decide what time it is.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from polis.server.wire.to_client import ClockJSON, TimeControlJSON

KINDS = ("realtime", "turn")

#: Seconds a person who takes back their seat with an empty bank gets to make their move
#: (real-time clocks without an increment; otherwise the increment).
RECLAIM_LEAST = 30.0


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A table's clock rule: each seat's starting ``bank``, the ``increment`` after each of its
    moves and the most a bank may hold (``cap``, None: no limit), in seconds."""

    kind: str
    bank: float
    increment: float
    cap: float | None = None

    @classmethod
    def realtime(cls, bank: float, increment: float) -> TimeControl:
        return cls("realtime", float(bank), float(increment))

    @classmethod
    def turn_based(cls, per_move: float, max_bank: float | None = None) -> TimeControl:
        cap = max(per_move, max_bank) if max_bank is not None else float(per_move)
        return cls("turn", float(per_move), float(per_move), float(cap))

    def after_move(self, left: float) -> float:
        """The bank of a seat that moved with ``left`` seconds on its clock."""
        bank = max(0.0, left) + self.increment
        return bank if self.cap is None else min(bank, self.cap)

    def to_json(self) -> TimeControlJSON:
        return {"kind": self.kind, "bank": self.bank, "increment": self.increment, "cap": self.cap}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TimeControl:
        cap = data.get("cap")
        return cls(
            str(data["kind"]),
            float(data["bank"]),
            float(data["increment"]),
            None if cap is None else float(cap),
        )


@dataclass(frozen=True, slots=True)
class Clock:
    """Every seat's bank at the start of the current turn, when that turn ``started`` (wall
    clock, seconds since the epoch), and whose time runs (``running``: the person to move;
    None while a bot is to move or the game is over)."""

    control: TimeControl
    banks: tuple[float, ...]
    started: float
    running: int | None

    @classmethod
    def start(cls, control: TimeControl, players: int, now: float, running: int | None) -> Clock:
        return cls(control, (control.bank,) * players, now, running)

    def left(self, seat: int, now: float) -> float:
        """Seconds left on ``seat``'s clock at ``now`` (negative once it has run out)."""
        bank = self.banks[seat]
        if seat == self.running:
            bank -= max(0.0, now - self.started)
        return bank

    @property
    def deadline(self) -> float | None:
        """When the running seat's time runs out (None: nobody's runs)."""
        if self.running is None:
            return None
        return self.started + self.banks[self.running]

    def expired(self, now: float) -> bool:
        deadline = self.deadline
        return deadline is not None and now >= deadline

    def moved(self, seat: int, now: float, running: int | None) -> Clock:
        """The clock after ``seat`` moved at ``now`` (its increment added if its time ran) and
        the next turn began, with ``running``'s time running."""
        banks = list(self.banks)
        if seat == self.running:
            banks[seat] = self.control.after_move(self.left(seat, now))
        return replace(self, banks=tuple(banks), started=now, running=running)

    def stopped(self, now: float, running: int | None = None) -> Clock:
        """The clock with the running seat's time used so far taken off its bank (never below
        zero) and ``running``'s time running from ``now`` (a bot took the seat over, or a
        person took it back)."""
        banks = list(self.banks)
        if self.running is not None:
            banks[self.running] = max(0.0, self.left(self.running, now))
        return replace(self, banks=tuple(banks), started=now, running=running)

    def reclaimed(self, seat: int) -> Clock:
        """``seat``'s bank for a person taking their seat back: an empty bank gets one
        increment (or :data:`RECLAIM_LEAST`), so they are not timed out again at once."""
        least = self.control.increment or RECLAIM_LEAST
        banks = list(self.banks)
        banks[seat] = max(banks[seat], least)
        return replace(self, banks=tuple(banks))

    def to_json(self) -> ClockJSON:
        """For the state message: the rule, the banks at the start of the turn, the seat whose
        time runs and when its turn started (clients count down from there, with the server's
        time from the ``welcome`` message)."""
        return {
            **self.control.to_json(),
            "banks": [round(b, 3) for b in self.banks],
            "running": self.running,
            "started": self.started,
            "deadline": self.deadline,
        }


@dataclass(frozen=True, slots=True)
class ClockWrite:
    """A clock as the store keeps it, after a move or a change of hands."""

    banks: tuple[float, ...]
    started: float
    deadline: float | None

    @classmethod
    def of(cls, clock: Clock) -> ClockWrite:
        return cls(clock.banks, clock.started, clock.deadline)

    def params(self) -> dict[str, Any]:
        return {
            "banks": json.dumps(list(self.banks)),
            "turn_started": self.started,
            "deadline": self.deadline,
        }


@dataclass(slots=True)
class TableClock:
    """A table's rules for leavers and its clock, as stored (all None: a table that chose
    nothing, or one an older release made)."""

    #: :meth:`TimeControl.to_json`; None: no clock.
    time_control: dict[str, Any] | None = None
    #: The level of the bots that take over people's seats (None: the default level).
    stand_in: str | None = None
    #: Seconds a person may be away on their turn (tables without a clock); None: no limit.
    away_limit: float | None = None
    #: Every seat's bank when the current turn started, and when it started.
    banks: list[float] | None = None
    turn_started: float | None = None
    #: When the running seat's time runs out (None: nobody's runs).
    deadline: float | None = None
    #: The seats bots play for their people: seat -> (level, why).
    stand_ins: dict[int, tuple[str, str]] = field(default_factory=dict)

    def rules(self) -> TableClock:
        """The same rules with a fresh clock (a rematch)."""
        return TableClock(self.time_control, self.stand_in, self.away_limit)

    def started(self, players: int, now: float, running: int | None) -> TableClock:
        """The rules with every seat's bank full and ``running``'s time running from ``now``."""
        if self.time_control is None:
            return self
        clock = Clock.start(TimeControl.from_json(self.time_control), players, now, running)
        return TableClock(
            self.time_control,
            self.stand_in,
            self.away_limit,
            list(clock.banks),
            now,
            clock.deadline,
        )

    @property
    def chosen(self) -> bool:
        """Whether there is anything to store (else the table keeps no row)."""
        return (
            self.time_control is not None
            or self.stand_in is not None
            or self.away_limit is not None
        )
