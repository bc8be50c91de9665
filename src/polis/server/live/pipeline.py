"""Every change to a game, as one kind of object: the actions the room's pipeline commits.

Anything that changes a game — a person's or a bot's move, a take-back, a bot standing in
for a person (their clock ran out, they were away, they left), the person taking their seat
back, an open seat taken — is an *action* handed to :meth:`polis.server.live.room.Room.commit`.
The room runs each through the same steps, under its lock:

1. **prepare**: the part that owns the kind (the game's rules for a move,
   :class:`~polis.server.table.takebacks.TakeBacks`,
   :class:`~polis.server.table.standins.SeatWatch`, :mod:`~polis.server.table.open_tables`)
   checks it against the game as it stands and says what it would change: a
   :class:`Change` (or refuses with a ``ServerError``);
2. **store**: the change is written through the store's position guard (an entry of the
   move log) or its conditional update (who holds a seat); when another process changed the
   game first, nothing is installed: the room catches up from the store instead;
3. **install**: the change becomes part of the room (its state, log, seats, clock);
4. **announce**: every connection is sent its seat's new state and the change's notices;
   other processes are told on the bus (:func:`published`), the seat whose turn it became
   may get a push, and the after-move work runs (the next bot, the clock's timer).

A change another process stored arrives as :class:`Heard` (from the bus) and goes through
the same pipeline: it is read back (from the message or the store), installed and announced
here, and neither stored nor published again. So every kind reaches every process the same
way, and a feature cannot forget a step (as take-backs once forgot the push and the author).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, get_args

from polis.core.moves import Move
from polis.core.protocol import GameState
from polis.server.errors import ServerError
from polis.server.store.games import Append, SeatInfo
from polis.server.wire.bus import BusChange, ChangeKind
from polis.server.wire.to_client import Notice

#: The kinds of change, as the bus and the pipeline's spies name them.
Kind = ChangeKind
KINDS: tuple[Kind, ...] = get_args(ChangeKind)


@dataclass(frozen=True, slots=True)
class Play:
    """A move at ``position``: notation from a person's client, a move from a bot."""

    seat: int | None
    move: str | Move
    position: int
    bot: bool = False
    kind: ClassVar[Kind] = "move"


@dataclass(frozen=True, slots=True)
class TakeBack:
    """``seat`` takes back its last move, made just before ``position`` (consent given)."""

    seat: int
    position: int
    kind: ClassVar[Kind] = "takeback"


@dataclass(frozen=True, slots=True)
class StandIn:
    """A bot of the table's level plays a person's ``seat`` from now on; ``why``: "time"
    (their clock ran out), "away" (past the away limit) or "left" (they left)."""

    seat: int
    why: str
    kind: ClassVar[Kind] = "stand_in"


@dataclass(frozen=True, slots=True)
class HandBack:
    """The person of ``seat`` takes it back from its stand-in (they connected)."""

    seat: int
    kind: ClassVar[Kind] = "hand_back"


@dataclass(frozen=True, slots=True)
class TakeSeat:
    """``name`` takes a vacant seat of an open table (``seat``, or the first one free)."""

    name: str
    seat: int | None
    token_hash: str
    #: The signed-in taker's account (its id and name): the seat is bound to it.
    account_id: int | None = None
    account: str | None = None
    kind: ClassVar[Kind] = "seat"


@dataclass(frozen=True, slots=True)
class Heard:
    """A change of ``kind`` another process stored (the bus said so): entry ``index`` of the
    move log with its ``text`` and ``author`` for moves and take-backs. ``kind`` None: read
    back whatever changed (the bus reconnected, a clock or authors to refresh)."""

    kind: Kind | None
    index: int | None = None
    text: str | None = None
    author: str | None = None


#: Everything the pipeline commits.
Action = Play | TakeBack | StandIn | HandBack | TakeSeat | Heard


@dataclass(slots=True)
class Change:
    """What an action changes, worked out under the room's lock before anything is stored.

    Exactly one of ``entry`` (an entry of the move log, stored through the position guard)
    and ``write`` (a conditional update of who holds a seat, True when it took effect) says
    what is stored; nothing is for a :class:`Heard` change. ``install`` makes it part of the
    room; ``lost`` is raised when another process changed the game first (None: the commit
    answers False instead).
    """

    kind: Kind
    install: Callable[[], None]
    entry: Append | None = None
    write: Callable[[], Any] | None = None
    lost: ServerError | None = None
    #: The seat whose change it was (the push skips it: it is not away).
    mover: int | None = None
    #: Public messages every connection is sent after the new state.
    notices: Sequence[Notice] = field(default_factory=tuple)
    #: Whether other processes are told (False for what they told this one).
    publish: bool = True
    #: What a successful commit answers (the seat an open table gave, ...).
    result: Any = True
    #: The seat the change is about, for the bus (stand-ins, hand-backs, seats taken).
    seat: int | None = None
    #: A bot thinking about the position before it should stop (its position is gone).
    stops_bots: bool = False
    #: Whose turn it is may have changed: the seat to move is pushed a notification if away
    #: (a change of hands leaves the turn where it was).
    turns: bool = True


def published(game_id: str, change: Change) -> BusChange:
    """The bus message that tells other processes of ``change``
    (:class:`~polis.server.wire.bus.BusChange`): ``k`` the kind; ``i``, ``m`` and ``a`` the
    entry's index, text and author for moves and take-backs; ``s`` the seat for changes of
    hands and seats taken."""
    message = BusChange(t="change", g=game_id, k=change.kind)
    if change.entry is not None:
        message["i"] = change.entry.index
        message["m"] = change.entry.text
        message["a"] = change.entry.author
    if change.seat is not None:
        message["s"] = change.seat
    return message


def heard(message: dict[str, Any]) -> Heard | None:
    """The :class:`Heard` action of a bus ``change`` message, read defensively (None: not
    one this process can use)."""
    kind = message.get("k")
    if kind not in KINDS:
        return None
    index = message.get("i")
    text = message.get("m")
    author = message.get("a")
    return Heard(
        kind,
        index if isinstance(index, int) else None,
        text if isinstance(text, str) else None,
        author if isinstance(author, str) else None,
    )


def bot_turn(seats: Sequence[SeatInfo], state: GameState) -> bool:
    """Whether a bot (a seat's own, or one standing in) is to move in ``state``: the store
    keeps it, so the upkeep finds games whose bot must be woken."""
    if state.is_terminal():
        return False
    return seats[state.current_player()].bot_level is not None
