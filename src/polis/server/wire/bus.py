"""Every message one server process tells the others on the bus (:mod:`polis.server.live.bus`),
as types.

Messages are JSON objects with short keys (every move sends one to every process holding
the game): ``t`` the kind (:data:`BusMessage`), ``g`` the game id, ``o`` the sending process
(the bus adds it as it publishes; a process ignores its own messages). What the keys of each
kind mean is in its type. A receiver reads them defensively (processes of two releases may
share a bus while one replaces the other): a message it cannot use is ignored, never fatal.
With ``POLIS_CHECK_WIRE=1`` every message published and heard is checked against these types
(:mod:`polis.server.wire.check`).
"""

from __future__ import annotations

from typing import Literal, NotRequired

from typing_extensions import TypedDict

from polis.server.wire.to_client import ChatLineJSON

#: The kinds of change a room's pipeline commits (:mod:`polis.server.live.pipeline`).
ChangeKind = Literal["move", "takeback", "stand_in", "hand_back", "seat"]


class BusChange(TypedDict):
    """A change the sender stored through its room's pipeline; the receiver commits it as a
    ``Heard`` change (applied from the message when it is the next entry, else read back from
    the store)."""

    o: NotRequired[str]
    """The sending process (added by the bus)."""
    t: Literal["change"]
    g: str
    """The game id."""
    k: ChangeKind
    """The kind of change."""
    i: NotRequired[int]
    """Moves and take-backs: the index of the entry."""
    m: NotRequired[str]
    """Moves and take-backs: the entry's text (a move's notation, or ``-takeback``)."""
    a: NotRequired[str | None]
    """Moves and take-backs: who made it (``person``, ``bot:<level>``)."""
    s: NotRequired[int]
    """Changes of hands and seats taken: the seat."""


class BusSeats(TypedDict):
    """The seats online through the sender (its word holds for a minute unless repeated)."""

    o: NotRequired[str]
    """The sending process (added by the bus)."""
    t: Literal["seats"]
    g: str
    """The game id."""
    s: list[int]
    """The seats with a connection to the sender."""


class BusTakeback(TypedDict):
    """A take-back asked or answered through the sender."""

    o: NotRequired[str]
    """The sending process (added by the bus)."""
    t: Literal["takeback"]
    g: str
    """The game id."""
    k: Literal["ask", "yes", "no"]
    """A request, or an answer to one."""
    s: int
    """The seat asking or answering."""
    p: int
    """The position the request is for."""


class BusChat(TypedDict):
    """A chat line the sender stored."""

    o: NotRequired[str]
    """The sending process (added by the bus)."""
    t: Literal["chat"]
    g: str
    """The game id."""
    l: ChatLineJSON  # noqa: E741 - the bus's one-letter keys
    """The line."""


class BusRematch(TypedDict):
    """A rematch of the game was created through the sender."""

    o: NotRequired[str]
    """The sending process (added by the bus)."""
    t: Literal["rematch"]
    g: str
    """The finished game's id."""
    r: str
    """The rematch's game id."""


class BusBye(TypedDict):
    """The sender stops: forget the seats it said were online (on the channel of every
    process, not a game's)."""

    o: str
    """The sending process."""
    t: Literal["bye"]
    g: Literal[""]


#: Every message on the bus.
BusMessage = BusChange | BusSeats | BusTakeback | BusChat | BusRematch | BusBye
