"""The parts a game offers the layers above the engines, and the typed keys that fetch them.

A game's registration object (:class:`~polis.core.protocol.Game`) names its parts in its
``plugins`` table ("module:attribute", loaded on first request); a layer asks for one with a
key of this module and gets it with its static type::

    knowledge = game.plugin(KNOWLEDGE)(game)  # a Knowledge
    encoder = game.plugin(OBSERVATION)(mode, players)  # an Encoder

Every interface a game implements for the bots, the research adapters, the terminal and the
web lives here, in the core, so a game implements all of them importing nothing above
``polis.core``:

* ``KNOWLEDGE``, for the bots: a :class:`KnowledgeFactory`, ``(game) -> Knowledge`` (the base
  class: :mod:`polis.core.parts.knowledge`);
* ``OBSERVATION``, for the research adapters: an :class:`ObservationFactory`,
  ``(mode, players) -> Encoder`` (the base classes and the encoding helpers:
  :mod:`polis.core.parts.observation`, the one module here that needs numpy);
* ``CHANCE``, for OpenSpiel: a :class:`~polis.core.parts.chance.ChanceModel`, which deals the
  chance nodes and bounds the game;
* ``CHOICES``, for the web client: :class:`Choices`, ``(view, legal) -> JSON``;
* ``REVEALS``, for the server's take-backs: :class:`Reveals`, ``(before, move) -> bool``;
* ``TEXT``, for terminals: :class:`TextParts`, a module drawing the game as text;
* ``WIRE``, for the server's wire contract: :class:`WireTypes`, a module naming the types
  (``TypedDict`` classes) of the JSON the view's ``to_json`` and the ``choices`` part write;
* ``READ_VIEW``, for programs playing through the server's bot API (:mod:`polis.client`):
  :class:`ReadView`, ``(json) -> View``, the view back from what its ``to_json`` wrote;
* ``REASONS``, for the post-game review (:mod:`polis.bots.review`): :class:`Reasons`,
  ``(view, played, best, points=, win_share=) -> Reason``, why one move was better than
  another, as a key of the game's catalogue and its arguments;
* ``COMPILED_BATCH``, for the compiled batched API (:mod:`polis.research.compiled_batch`): a
  :class:`CompiledTablesFactory`, ``(encoder's batch, tables, options) -> CompiledTables``
  (:mod:`polis.core.parts.batch_kernel`), for a game with a compiled engine.

Importing this package loads no part and no third-party library: the interfaces' own
modules are imported only for type checking here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, final

if TYPE_CHECKING:
    from polis.core.events import Event
    from polis.core.moves import Move
    from polis.core.parts.batch_kernel import CompiledTables
    from polis.core.parts.chance import ChanceModel
    from polis.core.parts.knowledge import Knowledge
    from polis.core.parts.observation import Encoder
    from polis.core.protocol import JSON, Game, GameState
    from polis.core.view import View

T_co = TypeVar("T_co", covariant=True)


@final
class PluginKey(Generic[T_co]):
    """The name of one part of a game, typed by what the part is.

    ``game.plugin(key)`` returns a ``T_co``: the key carries the static type a game's
    ``plugins`` table (names only) cannot. Keys are equal when their names are.
    """

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"PluginKey({self.name!r})"

    def __str__(self) -> str:
        return self.name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PluginKey) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)


class KnowledgeFactory(Protocol):
    """A game's ``knowledge`` part: makes one agent's knowledge of one game (usually the
    game's subclass of :class:`~polis.core.parts.knowledge.Knowledge`)."""

    def __call__(self, game: Game, /) -> Knowledge: ...


class ObservationFactory(Protocol):
    """A game's ``observation`` part: makes the encoder of a table (usually the game's
    subclass of :class:`~polis.core.parts.observation.Encoder`)."""

    def __call__(self, mode: str, players: int, /) -> Encoder[Any]: ...


class Choices(Protocol):
    """A game's ``choices`` part: the legal moves as structured choices for the web client,
    built from the view and the legal moves only (every leaf carries a move's notation)."""

    def __call__(self, view: View, legal: Sequence[Move], /) -> JSON: ...


class Reveals(Protocol):
    """A game's ``reveals`` part: True when playing ``move`` from ``before`` shows anyone
    something no seat's view held before (a chance outcome, a secret, the end of the game);
    the server allows a take-back only of a move that revealed nothing."""

    def __call__(self, before: GameState, move: Move, /) -> bool: ...


class TextParts(Protocol):
    """A game's ``text`` part (a module, its ``render``): the game drawn for an 80-column
    terminal. The terminal game only arranges what these return, so it names no game.

    Every word comes from the game's catalogue in the language ``lang`` names (one of
    :data:`polis.core.wording.LANGUAGES`); the notation stays as it is."""

    def legend(self, lang: str = "en") -> str:
        """What the signs on the board mean."""
        ...

    def board(
        self, view: Any, names: Sequence[str] | None = None, width: int = 80, lang: str = "en"
    ) -> str:
        """The table as the view's seat sees it, seats named ``names``."""
        ...

    def narrate(self, event: Event, names: Sequence[str], lang: str = "en") -> str | None:
        """One line telling ``event`` to a person (None: nothing worth a line)."""
        ...

    def moves_text(self, view: Any, legal: Sequence[Any], query: str = "", lang: str = "en") -> str:
        """The legal moves, grouped compactly (``query`` narrows them)."""
        ...

    def example(self, view: Any, legal: Sequence[Any]) -> str:
        """One legal move to show as an example in the prompt (notation)."""
        ...

    def prompt_help(self, view: Any, lang: str = "en") -> str:
        """What to type, in the notation's words."""
        ...


class WireTypes(Protocol):
    """A game's ``wire`` part (a module): the types of the JSON the game sends to web clients,
    as ``TypedDict`` classes (from ``typing_extensions``, which pydantic reads on every Python
    the project supports). The server builds the ``state`` message's JSON Schema from them
    and, in tests, checks every message against it (:mod:`polis.server.wire`)."""

    #: What the game's view's ``to_json`` writes (its ``game`` key: a ``Literal`` of the
    #: game's name, so the schema tells the games' views apart).
    VIEW: Any
    #: What the ``choices`` part writes; None for a game without one.
    CHOICES: Any


class ReadView(Protocol):
    """A game's ``read_view`` part: the view whose ``to_json`` wrote ``data``, equal to it at
    every position in play (InputError for JSON no view of the game writes). A program that
    gets a seat's view as JSON only (the server's bot API) rebuilds it for its agents."""

    def __call__(self, data: Mapping[str, Any], /) -> View: ...


#: Words to be formatted from a catalogue: ``{"key": str, "params": {name: value}}``, where a
#: value is a string, a number or itself a reason (formatted first, in the same catalogue):
#: plain JSON, formatted alike by the terminal (:func:`polis.core.wording.say_reason`) and
#: the browser (``static/js/review.js``).
Reason = Mapping[str, Any]


class Reasons(Protocol):
    """A game's ``reasons`` part: why ``best`` was better than ``played`` for the player whose
    ``view`` it is, from the facts the game computes (its scorer, its board), as a
    :data:`Reason` of the game's catalogue; ``points`` and ``win_share`` are what the
    review's played-out games say ``played`` lost. None: nothing to say beyond the figures."""

    def __call__(
        self, view: View, played: Move, best: Move, /, *, points: float, win_share: float
    ) -> Reason | None: ...


class CompiledTablesFactory(Protocol):
    """A game's ``compiled_batch`` part: ``tables`` tables on its compiled engine, observed
    and masked as its encoder's ``batch`` does, under the rules ``options``."""

    def __call__(self, batch: Any, tables: int, options: Any, /) -> CompiledTables: ...


KNOWLEDGE: PluginKey[KnowledgeFactory] = PluginKey("knowledge")
OBSERVATION: PluginKey[ObservationFactory] = PluginKey("observation")
CHANCE: PluginKey[ChanceModel] = PluginKey("chance")
CHOICES: PluginKey[Choices] = PluginKey("choices")
REVEALS: PluginKey[Reveals] = PluginKey("reveals")
TEXT: PluginKey[TextParts] = PluginKey("text")
WIRE: PluginKey[WireTypes] = PluginKey("wire")
READ_VIEW: PluginKey[ReadView] = PluginKey("read_view")
REASONS: PluginKey[Reasons] = PluginKey("reasons")
COMPILED_BATCH: PluginKey[CompiledTablesFactory] = PluginKey("compiled_batch")

#: Every part a game may offer, by name.
PARTS: Mapping[str, PluginKey[object]] = {
    key.name: key
    for key in (
        KNOWLEDGE,
        OBSERVATION,
        CHANCE,
        CHOICES,
        REVEALS,
        TEXT,
        WIRE,
        READ_VIEW,
        REASONS,
        COMPILED_BATCH,
    )
}

__all__ = [
    "CHANCE",
    "CHOICES",
    "COMPILED_BATCH",
    "KNOWLEDGE",
    "OBSERVATION",
    "PARTS",
    "READ_VIEW",
    "REASONS",
    "REVEALS",
    "TEXT",
    "WIRE",
    "Choices",
    "CompiledTablesFactory",
    "KnowledgeFactory",
    "ObservationFactory",
    "PluginKey",
    "ReadView",
    "Reason",
    "Reasons",
    "Reveals",
    "TextParts",
    "WireTypes",
]
