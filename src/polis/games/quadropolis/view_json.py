"""The JSON Quadropolis sends to web clients, as types: what :meth:`QuadropolisView.to_json
<polis.games.quadropolis.view.QuadropolisView.to_json>` writes (:class:`QuadropolisViewJSON`)
and what :func:`~polis.games.quadropolis.choices.legal_choices` writes
(:class:`QuadropolisChoicesJSON`).

The game's ``wire`` part (:data:`polis.core.parts.WIRE`): the server's wire contract
(:mod:`polis.server.wire`) puts them in the ``state`` message's JSON Schema and, in tests,
checks every state message against them. Each field's docstring is its description there.
``TypedDict`` comes from ``typing_extensions``: pydantic, which reads these types, needs it
before Python 3.12. Nothing here runs when a view is written: the types cost nothing.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired

from typing_extensions import TypedDict

#: A site square, a spot, a city square: their names (``r1c1``, ``L1``, ``a1`` ...).
SquareName = str


class QuadropolisOptionsJSON(TypedDict):
    """The rules options in force (spec A5, A10, A14, A19)."""

    face_down_tiles: str
    """A5: ``empty`` or ``unselectable``."""
    playground_absorbs_pollution: bool
    """A10."""
    office_tower_group_cap: int
    """A14."""
    empty_squares_tie_break: str
    """A19: ``after_removal`` or ``before_removal``."""


class TileGivesJSON(TypedDict):
    """What building the tile gives at once."""

    inhabitants: int
    energy: int


class TileJSON(TypedDict):
    """A face-up tile: everything printed on its face and back."""

    id: str
    """The tile's id in ``data/tiles.json`` (``R1-TB-01``)."""
    type: str
    code: str
    """The formats §1.1 cell letter of the building it makes."""
    variant: str | None
    gives: TileGivesJSON
    vp: int
    marking: str | None
    mayor: bool
    back: str


class SiteEmptyJSON(TypedDict):
    """A construction-site square with nothing on it."""

    square: SquareName
    state: Literal["empty"]


class SiteFaceDownJSON(TypedDict):
    """A face-down tile: only its back shows (``"#2"``)."""

    square: SquareName
    state: Literal["face-down"]
    back: str | None


class SiteFaceUpJSON(TypedDict):
    """A face-up tile on the construction site."""

    square: SquareName
    state: Literal["face-up"]
    tile: TileJSON


#: One of the 25 construction-site squares.
SiteSquareJSON = SiteEmptyJSON | SiteFaceDownJSON | SiteFaceUpJSON


class SpotJSON(TypedDict):
    """One of the 20 spots around the construction site."""

    spot: SquareName
    """``L1`` .. ``L5``, ``R1`` .. ``R5``, ``T1`` .. ``T5``, ``B1`` .. ``B5``."""
    architect: int | None
    """The architect placed there (null: free)."""
    player: int | None
    """The owner (Classic) or the taker (Expert) of that architect (null: free)."""
    selects: SquareName | None
    """The site square the architect selected (null: free)."""
    blocked: bool
    """The Urbanist blocks this spot."""


class CitySquareJSON(TypedDict):
    """A built square of a city."""

    square: SquareName
    code: str
    """The formats §1.1 cell code (``T3``, ``U*1``, ``p`` ...)."""
    floors: int
    tiles: list[str]
    """The ids of the tiles built there, bottom first."""


class CityJSON(TypedDict):
    """One player's city."""

    rows: list[str]
    """The formats §1.2 row strings."""
    squares: list[CitySquareJSON | None]
    """Every square of the city, null where nothing is built."""


class QuadropolisRunningScoreJSON(TypedDict):
    """One city's score as it stands: the exact scorer (the best allocation of the inhabitants
    and energy gained so far, spec §8-§12) on the city as it is now. Cities are public, so
    every seat and spectator is sent the same; at the last position it is the result's."""

    total: int
    """The city's points as they stand."""
    categories: dict[str, int]
    """The score pad's rows (formats §1.3 ``categories``), penalties negative."""
    inhabitants_on_buildings: int
    """The first tie-break, as it stands."""
    empty_squares: int
    """The second tie-break (fewer wins), as it stands."""


class QuadropolisViewJSON(TypedDict):
    """What one seat (or a spectator) may know of a Quadropolis game. Nothing hidden is ever
    in it: a face-down tile shows only its back and future rounds are absent. Quadropolis has
    no private information, so a seat's view differs from a spectator's only in ``player``."""

    game: Literal["quadropolis"]
    mode: str
    """``classic`` or ``expert``."""
    players: int
    player: int | None
    """Whose view (null: a spectator)."""
    current_player: int
    """The player to move, -1 once the game is over."""
    moves: list[str]
    """The move history in notation (formats §1.4)."""
    options: QuadropolisOptionsJSON
    round: int
    """The round, from 1."""
    rounds: int
    """How many rounds the mode has."""
    turn: int
    """The turn within the round, 1 to 4."""
    action: int
    """Actions taken this round (0 .. 4 * players - 1; 4 * players once over)."""
    finished: bool
    starting_player: int
    """The first player of round 1 (the set-up)."""
    first_player: int
    """The first player of this round."""
    mayor: int
    """The holder of the Mayor pawn."""
    site: list[SiteSquareJSON]
    """The 25 construction-site squares r1c1 .. r5c5."""
    spots: list[SpotJSON]
    """The 20 spots L1..L5, R1..R5, T1..T5, B1..B5."""
    urbanist: SquareName | None
    """The construction-site square of the Urbanist (null: beside the board)."""
    architects: list[list[int]] | None
    """Classic: per player, the numbers of their architects not yet used this round;
    Expert: null."""
    pool: dict[str, int] | None
    """Expert: ``{"1": count, ..., "5": count}`` of architects left in the common pool;
    Classic: null."""
    cities: list[CityJSON]
    """Per player."""
    inhabitants: list[int]
    """Per player, gained so far."""
    energy: list[int]
    """Per player, gained so far."""
    discarded: list[str]
    """The ids of the discarded tiles, in order."""
    running_score: list[QuadropolisRunningScoreJSON]
    """Per player, the city's score as it stands (the table's running score)."""
    public_rounds: list[list[str | None]]
    """Per round started so far, the 25 tile ids of the layout as dealt, face-down squares as
    null (so a view alone suffices to sample the hidden facts)."""
    result: NotRequired[dict[str, Any]]
    """Only once the game is over: the game's result object (formats §3)."""


class ChoiceSpotJSON(TypedDict):
    """What an architect placed at one spot would take, and the moves that do it."""

    spot: SquareName
    square: SquareName
    """The site square the architect selects from that spot."""
    site: Literal["face-up", "face-down", "empty"]
    """What lies on that square."""
    tile: str | None
    """The face-up tile's id (the tile the move takes), else null."""
    targets: dict[SquareName, str]
    """Each city square the tile may go to, and the move that builds it there."""
    discard: str | None
    """The move that discards the tile (``x``), or null."""
    nothing: str | None
    """The move that takes nothing (``-``), or null."""


class ChoiceArchitectJSON(TypedDict):
    """One architect the player may place, and where."""

    architect: int
    spots: list[ChoiceSpotJSON]


class QuadropolisChoicesJSON(TypedDict):
    """The legal moves as the web client's choices: architect, then spot, then target; every
    leaf carries the move to send back."""

    architects: list[ChoiceArchitectJSON]


#: The ``wire`` part: the types the server's contract names.
VIEW = QuadropolisViewJSON
CHOICES = QuadropolisChoicesJSON
