"""The one protocol every polis game implements, and everything above the engines uses.

Modelled on OpenSpiel's ``State``: a mutable state object with a small API. Bots, the command
line, the server and the research adapters talk to an engine only through :class:`Game` and
:class:`GameState` (and the values they hand out: moves, views, events, results); they never
import a game's internals.

Conventions

* Players are numbered ``0 .. num_players-1`` in seating order.
* A move is a :class:`~polis.core.moves.Move` of the game's fixed action space: ``str(move)``
  is its notation (formats.md), ``move.id`` its action id. Text is parsed only at the edges
  (``state.parse_move``, ``game.parse_move``).
* Every chance outcome is fixed by the game's *set-up* (a JSON-able dict, formats.md §3),
  drawn from an explicit seeded ``random.Random`` when not given. Engines never call the
  global random module.
* A view (:class:`~polis.core.view.View`) is what one player may know: typed values with no
  hidden fact in them; ``view.to_json()`` where it leaves the process.
* ``apply`` is the hot path (bots and researchers call it millions of times); ``play`` is
  ``apply`` plus the :class:`~polis.core.events.Event` list of what happened.
"""

from __future__ import annotations

import importlib
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Self, TypeVar, overload

from polis.core.errors import InputError, PolisError, RecordError
from polis.core.events import Event
from polis.core.moves import ActionSpace, Move, MoveList
from polis.core.result import GameResult, PlayerScore
from polis.core.view import TERMINAL, View

if TYPE_CHECKING:
    from polis.core.parts import PluginKey

JSON = Any
T = TypeVar("T")


class GameState(ABC):
    """One game in progress. ``apply`` mutates in place; ``clone`` is cheap (no deep copy)."""

    __slots__ = ()

    game: ClassVar[Game]

    # -- who acts ---------------------------------------------------------------------------
    @property
    @abstractmethod
    def num_players(self) -> int:
        """Number of seats (2-4)."""

    @property
    @abstractmethod
    def mode(self) -> str:
        """The game's mode (one of ``game.modes``)."""

    @abstractmethod
    def current_player(self) -> int:
        """The player to move, or :data:`TERMINAL` when the game is over."""

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    # -- moves --------------------------------------------------------------------------------
    @abstractmethod
    def legal_moves(self) -> MoveList[Move]:
        """Every legal move of the current player, in a stable order (empty when over)."""

    @abstractmethod
    def random_move(self, rng: random.Random) -> Move:
        """A legal move drawn cheaply (without necessarily listing all of them).

        Playouts call this millions of times; it need not be uniform over ``legal_moves()``,
        and it depends only on what the player to move may see.
        """

    @abstractmethod
    def apply(self, move: Any) -> None:
        """Play ``move`` for the current player.

        Raises :class:`~polis.core.errors.IllegalMove` naming the rule when the move is not
        legal here (or not a move of this game); the state is then unchanged.
        """

    @abstractmethod
    def play(self, move: Any) -> tuple[Event, ...]:
        """:meth:`apply`, returning the events of what happened, in order."""

    @abstractmethod
    def opening_events(self) -> tuple[Event, ...]:
        """The events of the set-up, before the first move (e.g. secret cards dealt)."""

    def parse_move(self, text: str) -> Move:
        """The move written ``text`` in this game's notation.

        Raises :class:`~polis.core.errors.NotationError` for text that is not a move at all;
        legality is checked by :meth:`apply`.
        """
        return self.game.parse_move(text, self.mode)

    def apply_str(self, text: str) -> Move:
        """Parse and apply a move given in notation; returns the move."""
        move = self.parse_move(text)
        self.apply(move)
        return move

    @property
    @abstractmethod
    def history(self) -> Sequence[Move]:
        """Every move played so far, in order (the state's own list: read, never change)."""

    # -- outcome ------------------------------------------------------------------------------
    @abstractmethod
    def result(self) -> GameResult:
        """Scores, ranking and breakdowns; raises IllegalMove before the end."""

    # -- information --------------------------------------------------------------------------
    @abstractmethod
    def view(self, player: int | None) -> View:
        """What ``player`` may know (``None``: a spectator, who sees only public facts)."""

    @abstractmethod
    def render_text(self, player: int | None = None) -> str:
        """A plain-text picture of the position as ``player`` may see it (no hidden facts)."""

    # -- copies and records -------------------------------------------------------------------
    @abstractmethod
    def clone(self) -> Self:
        """An independent copy sharing only immutable data."""

    @abstractmethod
    def setup(self) -> dict[str, JSON]:
        """The full explicit set-up (formats.md §3 ``setup``); hidden facts included."""

    @abstractmethod
    def options(self) -> dict[str, JSON]:
        """The rules options in force (named resolutions of uncertain rules)."""

    def to_record(
        self, names: Sequence[str] | None = None, seed: int | str | None = None
    ) -> dict[str, JSON]:
        """The game record of formats.md §3 (with the result once the game is over)."""
        record: dict[str, JSON] = {
            "game": self.game.name,
            "mode": self.mode,
            "players": self.num_players,
            "names": list(names) if names else [f"player {i + 1}" for i in range(self.num_players)],
            "seed": seed,
            "setup": self.setup(),
            "moves": [m.text for m in self.history],
        }
        opts = self.options()
        if opts:
            record["options"] = opts
        if self.is_terminal():
            record["result"] = self.result().to_json()
        return record


class Game(ABC):
    """A game: how to start, resume, determinize and score it. One instance per game.

    The instance is the game's registration object: everything above the engines finds a
    game's parts through it. ``plugins`` names the modules of the game's parts for the upper
    layers ("module:attribute"), loaded only when asked for (:meth:`plugin`), so importing a
    game never imports numpy, the bots or a web framework. The parts' interfaces and their
    typed keys live in :mod:`polis.core.parts`:

    * ``knowledge`` (``KNOWLEDGE``): the bots' knowledge of the game, ``(game) -> Knowledge``;
    * ``observation`` (``OBSERVATION``): the research observation encoder, called
      ``(mode, players)``;
    * ``chance`` (``CHANCE``): the OpenSpiel chance model;
    * ``choices`` (``CHOICES``): the legal moves as structured choices for the web client;
    * ``text`` (``TEXT``): the module that draws the game for terminals;
    * ``reveals`` (``REVEALS``): ``reveals(state_before, move) -> bool``, True when playing
      ``move`` shows anyone something no seat's view held before (a chance outcome, a
      secret, the end of the game); the server allows a take-back only of a move that
      revealed nothing;
    * ``wire`` (``WIRE``): the module naming the types of the view's and the choices' JSON,
      for the server's wire contract.

    A part named without ``:attribute`` is the module itself.
    """

    name: ClassVar[str]
    #: The game's name as printed on the box.
    title: ClassVar[str]
    modes: ClassVar[tuple[str, ...]]
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    #: Examples of the move notation, for help texts (formats.md).
    notation_examples: ClassVar[tuple[str, ...]] = ()
    #: Scoring-pad row labels (English) by category key, in pad order.
    categories: ClassVar[Mapping[str, str]] = {}
    #: Tie-break row labels (English) by key, in the order the rules apply them.
    tie_breaks: ClassVar[Mapping[str, str]] = {}
    plugins: ClassVar[Mapping[str, str]] = {}

    @property
    def default_mode(self) -> str:
        return self.modes[0]

    def check_table(self, mode: object, players: object) -> tuple[str, int]:
        """The mode and player count of a new game, or InputError naming the rule."""
        return check_table(
            self.title, self.modes, mode, players, self.min_players, self.max_players
        )

    @abstractmethod
    def new_game(
        self,
        mode: str,
        players: int,
        *,
        seed: int | str | None = None,
        setup: Mapping[str, JSON] | None = None,
        options: Mapping[str, JSON] | None = None,
    ) -> GameState:
        """A fresh game. Chance is drawn from ``random.Random(seed)`` unless ``setup`` fixes it.

        Raises :class:`~polis.core.errors.InputError` for an impossible set-up or option.
        """

    @abstractmethod
    def action_space(self, mode: str) -> ActionSpace[Move]:
        """Every move of ``mode`` with its stable id (the research action space)."""

    def parse_move(self, text: str, mode: str) -> Move:
        """The move written ``text`` in ``mode`` (NotationError if it is no move at all)."""
        return self.action_space(mode).parse(text)

    @abstractmethod
    def determinize(self, view: View, rng: random.Random) -> GameState:
        """A complete state consistent with everything the view's player has seen.

        Hidden facts (face-down tiles, future layouts, other players' secret cards) are
        sampled from ``rng``; the result is a legal game state at the view's position, and
        its view for the same player equals ``view``.
        """

    @abstractmethod
    def score_file(self, data: Mapping[str, JSON]) -> dict[str, JSON]:
        """``polis score``: an end position / city file in, the score report out."""

    @abstractmethod
    def report_lines(self, report: Mapping[str, JSON]) -> tuple[PlayerScore, ...]:
        """The scoring-pad lines of a :meth:`score_file` report (one per player or city)."""

    def client_data(self) -> dict[str, JSON]:
        """Public component data the web client draws from (a board, player mats)."""
        return {}

    @overload
    def plugin(self, part: PluginKey[T]) -> T: ...

    @overload
    def plugin(self, part: str) -> Any: ...

    def plugin(self, part: PluginKey[Any] | str) -> Any:
        """The game's ``part`` for an upper layer (see the class docstring), typed by its key
        (:mod:`polis.core.parts`); a bare name is still accepted, untyped. InputError when
        the game offers no such part. Loaded on every call: callers keep what they need."""
        name = part if isinstance(part, str) else part.name
        target = self.plugins.get(name)
        if target is None:
            raise InputError(f"{self.title} has no {name} (it offers {', '.join(self.plugins)})")
        module, _, attr = target.partition(":")
        loaded = importlib.import_module(module)
        return getattr(loaded, attr) if attr else loaded

    def from_record(self, record: Mapping[str, JSON]) -> GameState:
        """Replay a record (formats.md §3), checking every move.

        Raises :class:`~polis.core.errors.RecordError` with ``move_index`` on an illegal move
        (``None`` when the record itself is malformed).
        """
        if not isinstance(record, Mapping):
            raise RecordError("malformed record: it must be a JSON object")
        try:
            mode = record["mode"]
            players = record["players"]
        except KeyError as exc:
            raise RecordError(f"malformed record: missing {exc}") from None
        setup = record.get("setup")
        moves = record.get("moves", [])
        if record.get("game") != self.name:
            raise RecordError(f"not a {self.name} record (game = {record.get('game')!r})")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise RecordError("malformed record: 'moves' must be a list of strings")
        if setup is None and record.get("seed") is None:
            raise RecordError("malformed record: it has neither a 'setup' nor a 'seed'")
        try:
            state = self.new_game(
                mode, players, seed=record.get("seed"), setup=setup, options=record.get("options")
            )
        except PolisError as exc:
            raise RecordError(f"bad set-up: {exc}") from None
        for index, text in enumerate(moves):
            if state.is_terminal():
                raise RecordError("move after the end of the game", move_index=index)
            try:
                state.apply_str(text)
            except PolisError as exc:
                raise RecordError(f"{text!r}: {exc}", move_index=index, rule=exc.rule) from None
        return state


def check_table(
    title: str, modes: Sequence[str], mode: object, players: object, low: int = 2, high: int = 4
) -> tuple[str, int]:
    """The mode and player count of a new game of ``title``, or InputError naming the rule."""
    if mode not in modes:
        raise InputError(f"unknown {title} mode {mode!r}: choose {' or '.join(modes)}")
    if isinstance(players, bool) or not isinstance(players, int) or not low <= players <= high:
        raise InputError(f"{title} is played by {low} to {high} players, not {players!r}")
    return str(mode), players


def play_random_game(state: GameState, rng: random.Random) -> GameState:
    """Play random moves until the end (mutates and returns ``state``)."""
    while not state.is_terminal():
        state.apply(state.random_move(rng))
    return state


__all__ = [
    "JSON",
    "TERMINAL",
    "Game",
    "GameResult",
    "GameState",
    "Move",
    "MoveList",
    "View",
    "check_table",
    "play_random_game",
]
