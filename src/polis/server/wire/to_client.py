"""Every message the server sends a client over the table's WebSocket, as types; and the Web
Push payload of a turn notification.

Each message is a JSON object whose ``type`` says which it is (:data:`ToClient`). Every
place that builds one builds it as the type here (``PongMessage(type="pong")``, or a literal
the type annotates), so mypy checks its keys; at run time it is a plain dict, serialized by
:func:`polis.server.live.jsontext.dumps`. The ``state`` message, the one sent on every move,
is assembled as text for speed (:mod:`polis.server.live.snapshots`) from parts typed here
(:class:`StateBody`, :class:`StateTable`, :class:`StateClock`, :class:`StateTakeBack`,
:class:`StateHints`); :class:`StateMessage` is the whole, which tests check the text against.

``TypedDict`` comes from ``typing_extensions``: pydantic, which builds the JSON Schema from
these types (:mod:`polis.server.wire.schema`), needs it before Python 3.12. A field's
docstring is its description in the schema and in ``docs/server-api.md``.
"""

from __future__ import annotations

from typing import Any, Generic, Literal, NotRequired, TypeVar

from pydantic import ConfigDict, with_config
from typing_extensions import TypedDict

#: How the contract reads every one of its types: closed (a key the type does not name is an
#: error), strict (``"1"`` is no number, ``1`` no boolean), each field's docstring its
#: description. Given to the adapters of the unions (:mod:`polis.server.wire.schema`) and
#: to the TypedDicts that are roots of the contract themselves.
CONFIG = ConfigDict(extra="forbid", strict=True, use_attribute_docstrings=True)

#: Every error code the server sends (HTTP and WebSocket): what a client branches on.
#: ``docs/server-api.md`` says when each is sent; :data:`polis.server.errors.STATUS` gives
#: each its HTTP status (400 when not listed there).
ErrorCode = Literal[
    # a request the server understood but refuses
    "bad_request",
    # a move, take-back or hint that does not fit the game as it stands
    "illegal",
    "stale",
    "not_your_turn",
    "finished",
    "spectator",
    "stood_in",
    "time_out",
    "unauthorized",
    "bad_token",
    "forbidden",
    "not_found",
    "method_not_allowed",
    # the table is not in a state that allows it
    "not_finished",
    "seat_taken",
    # an account's name (in any case) already has an account
    "name_taken",
    "waiting",
    "no_takeback",
    "no_hint",
    "too_large",
    "invalid",
    "rate_limited",
    "full",
    "unavailable",
    "internal",
    # on the WebSocket only
    "malformed",
    "chat_forbidden",
    "chat_invalid",
    "chat_rate_limited",
]


class ErrorMessage(TypedDict):
    """A refusal: on the WebSocket the message itself (the socket stays open unless the
    hello was refused), over HTTP the ``error`` of the body (:class:`ErrorBody`)."""

    type: Literal["error"]
    code: ErrorCode
    """Stable: what a client branches on."""
    message: str
    """English words to show or log."""
    rule: NotRequired[str]
    """Only where a rule of the game refused a move: that rule."""


@with_config(CONFIG)
class ErrorBody(TypedDict):
    """The body of every HTTP answer with a status other than 2xx."""

    error: ErrorMessage


# -- chat ------------------------------------------------------------------------------------
class ChatLineJSON(TypedDict):
    """One line of a table's chat."""

    id: int
    """Increasing within a game: a client keeps each id once."""
    seat: int
    name: str
    text: str
    """Plain text (never HTML), at most 300 characters."""
    at: str
    """When it was said: ISO 8601, UTC (``2024-05-01T12:00:00Z``)."""


class ChatMessage(ChatLineJSON):
    """A chat line, sent to every connection that may read the table's chat."""

    type: Literal["chat"]


class ChatBacklog(TypedDict):
    """What a newcomer may do in the chat, and the last lines if it may read them."""

    read: bool
    """Seats always; spectators where the table allows it (``chat_spectators``)."""
    write: bool
    """Seats only."""
    lines: list[ChatLineJSON]
    """The last 50 lines, oldest first (empty when it may not read)."""


# -- seats -----------------------------------------------------------------------------------
class SeatJSON(TypedDict):
    """A seat as every client may see it (never a token)."""

    seat: int
    name: str
    """Empty for an open seat nobody has taken yet."""
    kind: str
    """``human`` or ``bot``."""
    level: str | None
    """A bot seat's level (``easy``, ``medium``, ``hard``); null for a person's."""
    connected: bool
    """Someone holds the seat open now (bots always)."""
    vacant: bool
    """An open seat waiting for anyone to take it."""
    stand_in: str | None
    """The level of the bot playing a person's seat now, or null."""
    stand_in_why: str | None
    """Why the bot stands in: ``time``, ``away`` or ``left``."""
    account: NotRequired[str | None]
    """The name of the account the seat is bound to (its profile), or null: a guest's seat."""


# -- the messages ----------------------------------------------------------------------------
class WelcomeMessage(TypedDict):
    """The first message of a connection, once its hello is accepted."""

    type: Literal["welcome"]
    game_id: str
    seat: int | None
    """The seat the connection is bound to for its life (null: a spectator)."""
    chat: ChatBacklog
    now: float
    """The server's time (seconds since the epoch): clocks count down from it."""


class LogEntryJSON(TypedDict):
    """One event of the game the seat may see."""

    move: int | None
    """The index of the entry of the move it belongs to (null: the set-up)."""
    key: str
    """The event's key in the game's catalogue (what the client words)."""
    params: dict[str, Any]
    """The event's arguments (who, what, where), as the game's catalogue names them."""


class TimeControlJSON(TypedDict):
    """A table's clock rule."""

    kind: str
    """``realtime`` (a bank and an increment per move) or ``turn`` (time per move)."""
    bank: float
    """Each seat's starting bank, in seconds."""
    increment: float
    """Seconds added after each of a seat's moves."""
    cap: float | None
    """The most a bank may hold (null: no limit)."""


class ClockJSON(TimeControlJSON):
    """A table's clock: the rule, every bank at the start of the turn, whose time runs and
    since when (clients count down from there, with ``now`` of the welcome)."""

    banks: list[float]
    """Every seat's bank when the current turn started, in seconds."""
    running: int | None
    """The seat whose time runs (null: a bot is to move or the game is over)."""
    started: float
    """When the current turn started (seconds since the epoch)."""
    deadline: float | None
    """When the running seat's time runs out (null: nobody's runs)."""


class TableRulesJSON(TypedDict):
    """The table's rules for leavers."""

    stand_in: str | None
    """The level of the bots that replace leavers."""
    away_limit: float | None
    """Seconds a person may be away on their turn (tables without a clock); null: no limit."""
    leave_final: bool
    """Leaving is final here: a seat its person left stays with its stand-in."""


class TakeBackRequestJSON(TypedDict):
    """A take-back waiting for the other people's consent."""

    seat: int
    """The seat asking."""
    position: int
    """The position it was asked at."""
    waiting: list[int]
    """The seats whose answer is still awaited."""


class TakeBackStatusJSON(TypedDict):
    """Who may take back now, and the request waiting, if any."""

    seat: int | None
    """The seat that may take back its last move now (null: none)."""
    request: TakeBackRequestJSON | None


V = TypeVar("V")
C = TypeVar("C")


class StateBody(TypedDict, Generic[V, C]):
    """What of the state message only the position and the seat decide (built once per seat
    and position)."""

    type: Literal["state"]
    game_id: str
    game: str
    """The game's name (its registry name): the view's type follows from it."""
    mode: str
    players: int
    seat: int | None
    """Whose message (null: a spectator's)."""
    position: int
    """Entries so far (moves and take-backs): a move is sent back with it."""
    current_player: int
    """The seat to move, -1 once the game is over."""
    finished: bool
    seed_chosen: bool
    """The game's creator chose the deal (so knew it): only where nobody else sits."""
    view: V
    """The game's view for this seat (its ``wire`` part's type)."""
    legal: list[str]
    """The seat to move: its legal moves in notation; else empty (also while an open table
    waits for a player, or a bot stands in for the seat)."""
    choices: C | None
    """The seat to move: the game's structured choices, each leaf with the move text to
    send; else null."""
    authors: list[str | None]
    """Per entry: ``person``, ``bot:<level>``, or null when not recorded."""
    result: NotRequired[dict[str, Any]]
    """Once the game is over: the game's result object (formats.md §3)."""


class StateTable(TypedDict):
    """What of the state message may change between moves: who is online, the rematch."""

    seats: list[SeatJSON]
    rematch_id: str | None
    """The rematch's game id, once someone asked for one."""


class StateClock(TypedDict):
    """The state message's clock and rules for leavers
    (:meth:`polis.server.table.standins.SeatWatch.extra`)."""

    clock: ClockJSON | None
    """The table's clock, or null for a table without one."""
    rules: TableRulesJSON


class StateTakeBack(TypedDict):
    """The state message's take-back status (:meth:`polis.server.table.takebacks.TakeBacks
    .extra`)."""

    take_back: TakeBackStatusJSON
    played: int
    """The moves standing (replays go up to it; ``position`` counts take-backs too)."""


class StateHints(TypedDict):
    """The state message's ``hints`` (:meth:`polis.server.table.hints.Hints.extra`)."""

    hints: bool
    """The seat to move may ask for a suggested move at this table."""


class StateExtras(StateClock, StateTakeBack, StateHints):
    """Everything the table's parts add to the state message."""


class StateMessage(StateBody[V, C], StateTable, StateExtras, Generic[V, C]):
    """A seat's (or a spectator's) whole state: sent on joining, after every change, and after
    a refused move. Its ``view`` and ``choices`` are those of its game."""

    log: list[LogEntryJSON]
    """The events this seat may see, in order."""


class SeatsMessage(TypedDict):
    """Who is connected changed (several changes of a moment told at once)."""

    type: Literal["seats"]
    seats: list[SeatJSON]


class StoreUnavailableMessage(TypedDict):
    """The game store went away: moves wait until it returns."""

    type: Literal["store"]
    status: Literal["unavailable"]
    since: float
    """Since when (server time, seconds since the epoch)."""


class StoreBackMessage(TypedDict):
    """The game store is back."""

    type: Literal["store"]
    status: Literal["back"]


#: A ``store`` message.
StoreMessage = StoreUnavailableMessage | StoreBackMessage


class TakebackDoneMessage(TypedDict):
    """A move was taken back (the new state follows)."""

    type: Literal["takeback_done"]
    seat: int
    """The seat whose move it was."""


class TakebackDeclinedMessage(TypedDict):
    """A take-back request was declined."""

    type: Literal["takeback_declined"]
    seat: int
    """The seat that asked."""
    by: int
    """The seat that declined."""


class RematchMessage(TypedDict):
    """A rematch of this game was created."""

    type: Literal["rematch"]
    game_id: str
    """The new game's id."""


class PongMessage(TypedDict):
    """The answer to a ``ping``."""

    type: Literal["pong"]


#: Every message a client gets on the WebSocket (the state message's view and choices left
#: open: the schema and the checks put each game's types there).
ToClient = (
    WelcomeMessage
    | StateMessage[Any, Any]
    | SeatsMessage
    | ChatMessage
    | ErrorMessage
    | StoreUnavailableMessage
    | StoreBackMessage
    | TakebackDoneMessage
    | TakebackDeclinedMessage
    | RematchMessage
    | PongMessage
)

#: The messages every connection of a table is sent alike (a change's notices, ...).
Notice = TakebackDoneMessage | TakebackDeclinedMessage | RematchMessage


# -- Web Push --------------------------------------------------------------------------------
class TurnFacts(TypedDict):
    """What a turn notification says of the game: only what every spectator sees."""

    type: Literal["turn"]
    game_id: str
    game: str
    title: str
    """The game's name as printed on the box."""
    seat: int
    """The seat whose turn it is."""
    name: str
    """That seat's name."""
    position: int
    url: str
    """Where the notification leads (``/#/game/<id>``)."""


@with_config(CONFIG)
class TurnPush(TurnFacts):
    """The payload of a turn notification (Web Push, to the seat's service worker)."""

    lang: str
    """The language to word it in (the subscription's)."""
