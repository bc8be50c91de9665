"""A client of a polis server's bot API: put an agent on a server, where people (and other
bots) play it.

* :class:`BotClient` (:mod:`~polis.client.http`): the API's calls and its two NDJSON streams
  (httpx), entering and leaving events (tournaments), refusals as :class:`ApiError`;
* the event stream's events as typed values (:mod:`~polis.client.events`);
* :func:`seat_view` (:mod:`~polis.client.views`): the seat's view object back from the state
  message's JSON, so agents decide (and determinize) from exactly what the seat sees;
* :class:`AgentMaker` (:mod:`~polis.client.agents`): agents from the specs polis takes
  everywhere (``random``, ``easy``, ``hard``, ``mcts:1s``) or a ``module:attribute`` factory;
* :class:`BotRunner` (:mod:`~polis.client.runner`): accepts challenges, plays every game it
  is seated at (every table of an event it entered, until the event is over), and keeps
  playing through dropped connections and server restarts. The command ``polis bot
  connect`` runs it.

It needs httpx (``pip install 'polis-boardgames[client]'``), and never the server's packages.
"""

from __future__ import annotations

from polis.client.agents import AgentMaker
from polis.client.backoff import Backoff
from polis.client.events import Challenge, Event, GameFinish, GameStart, read_event
from polis.client.http import ApiError, BotClient
from polis.client.runner import BotRunner
from polis.client.views import JsonView, legal_moves, seat_view

__all__ = [
    "AgentMaker",
    "ApiError",
    "Backoff",
    "BotClient",
    "BotRunner",
    "Challenge",
    "Event",
    "GameFinish",
    "GameStart",
    "JsonView",
    "legal_moves",
    "read_event",
    "seat_view",
]
