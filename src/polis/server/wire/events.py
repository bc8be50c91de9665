"""The events' side of the wire contract: the bodies the event routes answer with
(:mod:`polis.server.http.routes.events`). Request bodies are the routes' models
(:mod:`polis.server.wire.http`)."""

from __future__ import annotations

from typing import Literal

from pydantic import with_config
from typing_extensions import TypedDict

from polis.server.wire.to_client import CONFIG

#: How an event pairs its rounds.
Format = Literal["swiss", "round_robin"]
#: Where an event is: taking entrants, playing its rounds, over, or called off (too few
#: entrants at its start time).
Status = Literal["open", "running", "finished", "cancelled"]
#: Why an entrant plays no more: they left, did not come to a table, or their account went.
Why = Literal["left", "no_show", "gone"]


@with_config(CONFIG)
class EventRulesJSON(TypedDict):
    """The rules of every table of the event (as ``POST /api/games`` takes them)."""

    clock: dict[str, float | str] | None
    """The tables' clock (``kind``, ``bank``, ``increment``, ``per_move``, ``max_bank``);
    null: none."""
    stand_in: str | None
    """The level of the bots that take over seats (a no-show's, a leaver's)."""
    away_limit: float | None
    """Seconds a person may be away on their turn at a table without a clock (null: the
    events' default for no-shows, 300 s)."""


@with_config(CONFIG)
class EventSummaryJSON(TypedDict):
    """An event as the list shows it."""

    id: str
    """What the event's routes and page (``#/event/{id}``) name it by."""
    name: str
    """Its title."""
    game: str
    mode: str
    players: int
    """Players per table."""
    format: Format
    """``swiss``: each round paired by the standings; ``round_robin``: everyone meets
    everyone."""
    rated: bool
    """Its games are rated (their results move the players' ratings)."""
    rules: EventRulesJSON
    status: Status
    """``open``: taking entrants; ``running``; ``finished``; ``cancelled``: called off (too
    few entrants at its start time)."""
    rounds: int | None
    """Rounds to play (a round robin's: known once it starts)."""
    round: int
    """The round being played (0 before the start; the last once finished)."""
    starts: float | None
    """When it starts by itself (seconds since the epoch); null: when its creator starts
    it."""
    started: float | None
    """When it started (seconds since the epoch)."""
    ended: float | None
    """When it finished or was called off (seconds since the epoch)."""
    creator: str | None
    """The name of the account that made it (null: the operator)."""
    entrants: int
    """How many entrants it has (withdrawn ones too)."""


@with_config(CONFIG)
class EventListJSON(TypedDict):
    """``GET /api/events``: the events by where they are."""

    upcoming: list[EventSummaryJSON]
    """Taking entrants, soonest first."""
    running: list[EventSummaryJSON]
    """Playing their rounds."""
    finished: list[EventSummaryJSON]
    """The latest finished (and called off) first."""


@with_config(CONFIG)
class EntrantJSON(TypedDict):
    name: str
    bot: bool
    """A bot account (it plays through the bot API)."""
    withdrawn: int | None
    """The round after which the entrant plays no more (0: before the first); null: in."""
    why: Why | None


@with_config(CONFIG)
class EventSeatJSON(TypedDict):
    """One entrant at a table of a round."""

    name: str
    bot: bool
    seat: int
    place: int | None
    """1 = first (tied entrants share the better place); null while the table plays."""
    points: float | None
    score: float | None
    """The entrant's game score."""
    no_show: bool
    """A bot made the entrant's first move: placed last, out of the later rounds."""


@with_config(CONFIG)
class EventTableJSON(TypedDict):
    """A table of a round: its game (to watch or replay) and its entrants in seat order."""

    board: int
    """The table's number in its round, from 1."""
    game_id: str | None
    """Null for a moment, while the game is being made."""
    finished: bool
    """Its result counts (the game is over and its places are written)."""
    seats: list[EventSeatJSON]


@with_config(CONFIG)
class EventRoundJSON(TypedDict):
    round: int
    tables: list[EventTableJSON]
    byes: list[str]
    """Who sits the round out (a bye scores 1, like a win)."""


@with_config(CONFIG)
class StandingJSON(TypedDict):
    """A line of the standings: points, then the tie-breaks (Buchholz: the mean points of
    each table's opponents, summed; then the total game score, then wins)."""

    rank: int
    """Entrants equal on points and every tie-break share a rank."""
    name: str
    bot: bool
    points: float
    buchholz: float
    score: float
    wins: int
    played: int
    byes: int
    withdrawn: bool


@with_config(CONFIG)
class EventJSON(EventSummaryJSON):
    """``GET /api/events/{id}``: the event with its entrants, rounds, live standings and,
    once finished, its final table."""

    roster: list[EntrantJSON]
    """The entrants in the order they joined."""
    schedule: list[EventRoundJSON]
    """Every round paired so far, with its tables (and their results) and byes."""
    standings: list[StandingJSON]
    """The standings now, best first (every entrant, withdrawn ones too)."""
    final: list[StandingJSON] | None
    """The standings after the last round; null until the event is finished."""
    joined: bool | None
    """Whether the account asking is an entrant (null: nobody signed in)."""
    can_start: bool
    """Whether the account asking may start the event now (its creator, while open)."""


@with_config(CONFIG)
class EventEntryJSON(TypedDict):
    """The answer to joining or leaving."""

    event_id: str
    """The event's id."""
    joined: bool
    """Whether the account is an entrant now (a withdrawn entrant still is: its results
    stand)."""
    withdrawn: bool
    """The entrant plays no more rounds (left a running event)."""


#: The body of a 2xx answer of the event routes.
EventAnswer = EventJSON | EventListJSON | EventEntryJSON

__all__ = [
    "EntrantJSON",
    "EventAnswer",
    "EventEntryJSON",
    "EventJSON",
    "EventListJSON",
    "EventRoundJSON",
    "EventRulesJSON",
    "EventSeatJSON",
    "EventSummaryJSON",
    "EventTableJSON",
    "Format",
    "StandingJSON",
    "Status",
    "Why",
]
