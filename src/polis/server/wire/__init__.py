"""The server's wire contract, in one place: every message that crosses a process boundary,
as types.

* :mod:`~polis.server.wire.to_client`: what the server sends on a table's WebSocket
  (``welcome``, ``state``, ``seats``, ``chat``, ``error``, ``store``, ``takeback_done``,
  ``takeback_declined``, ``rematch``, ``pong``), the error codes, the HTTP error body and
  the turn notification's Web Push payload;
* :mod:`~polis.server.wire.from_client`: what a client sends on it (``hello``, ``move``,
  ``takeback``, ``takeback_answer``, ``chat``, ``ping``) and the parser that checks it;
* :mod:`~polis.server.wire.bus`: what server processes tell each other (``change``,
  ``seats``, ``takeback``, ``chat``, ``rematch``, ``bye``);
* :mod:`~polis.server.wire.http`: the HTTP request bodies by route;
* :mod:`~polis.server.wire.bot`: the bot API's event stream lines and answers (its game
  stream's lines are ``state`` messages);
* each game's view and choices JSON: the game's ``wire`` part (:data:`polis.core.parts.WIRE`).

The types are ``TypedDict`` classes: every place that builds a message builds it as its type
(mypy checks the keys) and it stays a plain dict at run time, at no cost.
:mod:`~polis.server.wire.schema` turns them into one JSON Schema (pydantic),
:mod:`~polis.server.wire.docs` writes it to ``docs/server-api.schema.json`` and the tables
of ``docs/server-api.md`` from it (``make api-docs``), and :mod:`~polis.server.wire.check`
checks real traffic against the types where ``POLIS_CHECK_WIRE=1`` (the tests).
"""
