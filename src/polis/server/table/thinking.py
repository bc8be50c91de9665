"""Caps on the hints and reviews a server process works out at once.

A hint is a search of seconds in a bot worker, a review one per move of a game; they queue
for the workers the bots leave free (:mod:`polis.server.bots.pool`), so without a cap one
address asking a hint in each of many games would queue minutes of work and every other
asker would wait behind it. So a computation is counted from when it is started until it
ends, per client address, per owner (a seat: one hint at a time, so moving on or taking
back and asking again cannot pile up searches) and per server process; past a cap the ask
is refused at once (HTTP 429, :class:`~polis.server.errors.ServerError` ``rate_limited``)
rather than queued for long. Askers that join a computation already under way (the same
line of play asked again, from another tab) cost nothing and are not counted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable

from polis.server.errors import ServerError

#: Hints being worked out for one client address (a person plays a game or two at once).
HINTS_PER_ADDRESS = 2
#: Hints in flight per worker that may run them: about four hints' time (some 8 s) of
#: waiting at most, beyond which asking again later is better than waiting.
HINTS_PER_WORKER = 4
#: Reviews being worked out for one client address.
REVIEWS_PER_ADDRESS = 2
#: Reviews under way in one server process (two work at once, the others wait their turn).
REVIEWS_PER_SERVER = 8


class Ticket:
    """One computation counted in :class:`InFlight` until :meth:`done` (idempotent)."""

    def __init__(self, counts: InFlight, address: str, owner: Hashable | None) -> None:
        self._counts: InFlight | None = counts
        self.address = address
        self.owner = owner

    def done(self) -> None:
        counts, self._counts = self._counts, None
        if counts is not None:
            counts.release(self)


class InFlight:
    """The computations of one kind (``one``: "hint", ``many``: "hints") under way, with
    caps."""

    def __init__(self, one: str, many: str, per_address: int, per_server: int) -> None:
        self.one, self.many = one, many
        self.per_address = per_address
        self.per_server = per_server
        self.running = 0
        self._addresses: Counter[str] = Counter()
        self._owners: set[Hashable] = set()

    def take(self, address: str, owner: Hashable | None = None) -> Ticket:
        """Count a new computation for ``address`` (and ``owner``, one at a time); ServerError
        ``rate_limited`` past a cap."""
        refusal = self.refusal(address, owner)
        if refusal is not None:
            raise ServerError("rate_limited", refusal)
        self.running += 1
        self._addresses[address] += 1
        if owner is not None:
            self._owners.add(owner)
        return Ticket(self, address, owner)

    def refusal(self, address: str, owner: Hashable | None = None) -> str | None:
        """Why a new computation would be refused now, or None."""
        many = self.many
        if owner is not None and owner in self._owners:
            return f"your previous {self.one} is still being worked out; ask again once it is given"
        if self._addresses[address] >= self.per_address:
            return (
                f"too many {many} are being worked out for your address (at most "
                f"{self.per_address} at once); ask again once one is given"
            )
        if self.running >= self.per_server:
            return (
                f"the server is busy working out other {many} (at most {self.per_server} at "
                "once); try again in a few seconds"
            )
        return None

    def release(self, ticket: Ticket) -> None:
        self.running -= 1
        self._addresses[ticket.address] -= 1
        if self._addresses[ticket.address] <= 0:
            del self._addresses[ticket.address]
        if ticket.owner is not None:
            self._owners.discard(ticket.owner)


class Thinking:
    """The hints and reviews of one server process under way (held by the hub)."""

    def __init__(self, workers: int) -> None:
        self.hints = InFlight(
            "hint", "hints", HINTS_PER_ADDRESS, HINTS_PER_WORKER * max(1, workers - 1)
        )
        self.reviews = InFlight("review", "reviews", REVIEWS_PER_ADDRESS, REVIEWS_PER_SERVER)
