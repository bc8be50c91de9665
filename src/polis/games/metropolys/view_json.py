"""The JSON Metropolys sends to web clients, as types: what :meth:`MetropolysView.to_json
<polis.games.metropolys.view.MetropolysView.to_json>` writes (:class:`MetropolysViewJSON`)
and what :func:`~polis.games.metropolys.choices.legal_choices` writes
(:class:`MetropolysChoicesJSON`).

The game's ``wire`` part (:data:`polis.core.parts.WIRE`): the server's wire contract
(:mod:`polis.server.wire`) puts them in the ``state`` message's JSON Schema and, in tests,
checks every state message against them. Each field's docstring is its description there.
``TypedDict`` comes from ``typing_extensions``: pydantic, which reads these types, needs it
before Python 3.12. Nothing here runs when a view is written: the types cost nothing.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired

from typing_extensions import TypedDict

#: A token kind: ``chic``, ``metro`` or ``archaeology``.
Token = Literal["chic", "metro", "archaeology"]


class MetropolysOptionsJSON(TypedDict):
    """The rules options in force."""

    lake_groups: str
    """``one_per_lake`` or ``per_three``."""
    field_51_outskirts: bool
    """R17: whether field 51 counts as outskirts."""


class BuildingJSON(TypedDict):
    """A building on a field."""

    player: int
    value: int
    built: bool
    """False: a bid of the current round."""


class FieldJSON(TypedDict):
    """One of the 55 fields of the board."""

    id: int
    district: str
    colour: str
    in_play: bool
    token: Token | None
    """The token still lying there, or null."""
    building: BuildingJSON | None


class BidJSON(TypedDict):
    """A bid of the current round."""

    field: int
    value: int
    player: int


class TokensCollectedJSON(TypedDict):
    """How many tokens of each kind a player collected."""

    chic: int
    metro: int
    archaeology: int


class CardsJSON(TypedDict):
    """A player's secret cards, revealed once the game is over."""

    area_card: str
    neighbourhood_card: str | None
    """Null in Family."""


class MetropolysRunningScoreJSON(TypedDict):
    """A player's score as it stands, as far as every seat may know it. During the game only
    the public points: tokens, the metro and archaeology cards and (Expert) the highest
    buildings, from the buildings built so far; the secret area and neighbourhood cards are
    left out (their keys absent), so it is the same in every seat's view. Once the game is
    over, every card revealed: the result's total and breakdown."""

    total: int
    """The points of ``categories`` added up."""
    categories: dict[str, int]
    """Breakdown entries (formats §2.3 names): ``chic``, ``metro``, ``metro_card``,
    ``archaeology``, ``archaeology_card``, and ``highest`` in Expert; once over, all eight."""


class MetropolysViewJSON(TypedDict):
    """What one player (or a spectator) may see of a Metropolys game: no other player's secret
    card is in it until the game is over (then every card is revealed)."""

    game: Literal["metropolys"]
    mode: str
    """``family`` or ``expert``."""
    players: int
    player: int | None
    """Whose view (null: a spectator)."""
    current_player: int
    """The player to move, -1 once the game is over."""
    terminal: bool
    """The game is over."""
    moves: list[str]
    """The public move history, in notation (formats §2.1)."""
    first_player: int
    """The opener of round 1."""
    start_player: int
    """The opener of the current round."""
    unused_districts: list[str]
    layout: dict[str, Token]
    """The set-up's face-up token layout: field id (as a string) to token."""
    options: MetropolysOptionsJSON
    fields: list[FieldJSON]
    """The 55 fields."""
    bid: BidJSON | None
    """The current (last) bid, or null."""
    bids: list[BidJSON]
    """Every bid of this round, in order."""
    passed: list[int]
    """The players out of this round."""
    supplies: list[list[int]]
    """Each player's supply: the values of the buildings left, ascending (public)."""
    built: list[int]
    """Buildings built, per player."""
    tokens_collected: list[TokensCollectedJSON]
    """Per player."""
    metro_card: int | None
    """The holder of the metro card, or null."""
    archaeology_card: int | None
    """The holder of the archaeology card, or null."""
    running_score: list[MetropolysRunningScoreJSON]
    """Per player, the score as it stands (the table's running score): the public points
    during the game, everything once it is over."""
    area_card: str | None
    """The viewing player's own secret area card (null for a spectator)."""
    neighbourhood_card: str | None
    """The viewing player's own secret neighbourhood card (null for a spectator and in
    Family)."""
    cards: NotRequired[list[CardsJSON]]
    """Only once the game is over: every player's cards, revealed."""
    result: NotRequired[dict[str, Any]]
    """Only once the game is over: the game's result object (formats §3)."""


class ChoiceValueJSON(TypedDict):
    """A value the player may bid on a field, and the move that bids it."""

    value: int
    move: str


class ChoiceFieldJSON(TypedDict):
    """A field the player may bid on, with its values ascending."""

    field: int
    values: list[ChoiceValueJSON]


#: ``pass``, a Python keyword, can only be named in the functional syntax: the move that
#: passes (``pass``), or null when passing is not allowed.
_Pass = TypedDict("_Pass", {"pass": str | None})


class MetropolysChoicesJSON(_Pass):
    """The legal moves as the web client's choices: a field, then a value; or ``pass`` (the
    move that passes, or null). Every leaf carries the move to send back."""

    fields: list[ChoiceFieldJSON]
    """Fields ascending."""


#: The ``wire`` part: the types the server's contract names.
VIEW = MetropolysViewJSON
CHOICES = MetropolysChoicesJSON
