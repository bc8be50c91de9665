"""The one protocol every polis game implements, and everything above the engines uses.

Modelled on OpenSpiel's ``State``: a mutable state object with a small API. Bots, the command
line, the server and the research adapters talk to an engine only through :class:`Game` and
:class:`GameState`; they never import a game's internals.

Conventions

* Players are numbered ``0 .. num_players-1`` in seating (clockwise) order.
* A *move* is an engine-specific, hashable, immutable value (usually a small tuple). Its text
  form is the game's notation (formats.md); ``state.move_to_str`` / ``state.parse_move``
  convert. Moves must be compared only with moves of the same state's game.
* Every chance outcome is fixed by the game's *set-up* (a JSON-able dict, formats.md §3),
  drawn from an explicit seeded ``random.Random`` when not given. Engines never call the
  global random module.
* A *view* is what one player may know: a JSON-able dict with no hidden fact in it (no
  face-down tile, no future round, no other player's secret card). It always carries
  ``"game"``, ``"mode"``, ``"players"``, ``"player"`` (whose view, or ``None`` for a
  spectator), ``"current_player"`` and ``"moves"`` (the public move history, in notation),
  and whatever else the game shows at the table.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from polis.core.errors import IllegalMove, InputError, RecordError

#: ``current_player()`` of a finished game.
TERMINAL = -1

Move = Hashable
JSON = Any


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a finished game ended.

    ``ranking`` lists places best first; players sharing a place (after every tie-break the
    rules give) share one list, e.g. ``[[0], [2, 1]]``. ``reports`` are the per-player score
    reports of formats.md (JSON-able).
    """

    scores: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]
    reports: tuple[JSON, ...] = field(default=())

    def win_shares(self) -> tuple[float, ...]:
        """1 for a sole winner, 1/k for each of k players sharing first place, else 0."""
        shares = [0.0] * len(self.scores)
        first = self.ranking[0]
        for p in first:
            shares[p] = 1.0 / len(first)
        return tuple(shares)

    def ranks(self) -> tuple[float, ...]:
        """Rank of each player (1 = best); tied players get the mean of the places they span."""
        out = [0.0] * len(self.scores)
        place = 1
        for group in self.ranking:
            mean = place + (len(group) - 1) / 2
            for p in group:
                out[p] = mean
            place += len(group)
        return tuple(out)


class GameState(ABC):
    """One game in progress. ``apply`` mutates in place; ``clone`` is cheap (no deep copy)."""

    game: ClassVar[Game]

    # -- who acts ---------------------------------------------------------------------------
    @property
    @abstractmethod
    def num_players(self) -> int:
        """Number of seats (2-4)."""

    @property
    @abstractmethod
    def mode(self) -> str:
        """Game mode: ``classic``/``expert`` (Quadropolis), ``family``/``expert`` (Metropolys)."""

    @abstractmethod
    def current_player(self) -> int:
        """The player to move, or :data:`TERMINAL` when the game is over."""

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    # -- moves --------------------------------------------------------------------------------
    @abstractmethod
    def legal_moves(self) -> list[Move]:
        """Every legal move of the current player, in a stable order (empty when terminal)."""

    @abstractmethod
    def random_move(self, rng: random.Random) -> Move:
        """A legal move drawn cheaply (without necessarily listing all of them).

        Playouts call this millions of times; it need not be uniform over ``legal_moves()``.
        """

    @abstractmethod
    def apply(self, move: Move) -> None:
        """Play ``move`` for the current player.

        Raises :class:`~polis.core.errors.IllegalMove` naming the rule when the move is not
        legal; the state is then unchanged.
        """

    @abstractmethod
    def move_to_str(self, move: Move) -> str:
        """The move in the game's notation (formats.md)."""

    @abstractmethod
    def parse_move(self, text: str) -> Move:
        """Parse notation into a move of this position.

        Raises :class:`~polis.core.errors.NotationError` for text that is not a move at all;
        legality is checked by :meth:`apply`.
        """

    def apply_str(self, text: str) -> Move:
        """Parse and apply a move given in notation; returns the move."""
        move = self.parse_move(text)
        self.apply(move)
        return move

    @property
    @abstractmethod
    def history(self) -> Sequence[str]:
        """Every move played so far, in notation."""

    # -- outcome ------------------------------------------------------------------------------
    @abstractmethod
    def result(self) -> GameResult:
        """Scores, ranking and score reports; only valid when :meth:`is_terminal`."""

    # -- information --------------------------------------------------------------------------
    @abstractmethod
    def view(self, player: int | None) -> dict[str, JSON]:
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
        self, names: Sequence[str] | None = None, seed: int | None = None
    ) -> dict[str, JSON]:
        """The game record of formats.md §3 (with the result once the game is over)."""
        record: dict[str, JSON] = {
            "game": self.game.name,
            "mode": self.mode,
            "players": self.num_players,
            "names": list(names) if names else [f"player {i + 1}" for i in range(self.num_players)],
            "seed": seed,
            "setup": self.setup(),
            "moves": list(self.history),
        }
        opts = self.options()
        if opts:
            record["options"] = opts
        if self.is_terminal():
            record["result"] = self.game.result_json(self.result())
        return record


class Game(ABC):
    """A game: how to start, resume and score it. One instance per game, stateless."""

    name: ClassVar[str]
    modes: ClassVar[tuple[str, ...]]
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4

    @abstractmethod
    def new_game(
        self,
        mode: str,
        players: int,
        *,
        seed: int | None = None,
        setup: Mapping[str, JSON] | None = None,
        options: Mapping[str, JSON] | None = None,
    ) -> GameState:
        """A fresh game. Chance is drawn from ``random.Random(seed)`` unless ``setup`` fixes it.

        Raises :class:`~polis.core.errors.InputError` for an impossible set-up or option.
        """

    @abstractmethod
    def determinize(self, view: Mapping[str, JSON], rng: random.Random) -> GameState:
        """A complete state consistent with everything the view's player has seen.

        Hidden facts (face-down tiles, future layouts, other players' secret cards) are
        sampled from ``rng``; the result is a legal game state at the view's position.
        """

    @abstractmethod
    def score_file(self, data: Mapping[str, JSON]) -> dict[str, JSON]:
        """``polis score``: an end position / city file in, the score report out."""

    @abstractmethod
    def result_json(self, result: GameResult) -> dict[str, JSON]:
        """The ``result`` object of a game record (per-player score reports and ranking)."""

    def from_record(self, record: Mapping[str, JSON]) -> GameState:
        """Replay a record (formats.md §3), checking every move.

        Raises :class:`~polis.core.errors.RecordError` with ``move_index`` on an illegal move
        (``None`` when the record itself is malformed).
        """
        from polis.core.errors import PolisError

        try:
            mode = record["mode"]
            players = record["players"]
            setup = record.get("setup")
            moves = record.get("moves", [])
        except (KeyError, TypeError, AttributeError) as exc:
            raise RecordError(f"malformed record: missing {exc}") from None
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


def check_table(title: str, modes: Sequence[str], mode: object, players: object) -> tuple[str, int]:
    """The mode and player count of a new game of ``title``, or InputError naming the rule."""
    if mode not in modes:
        raise InputError(f"unknown {title} mode {mode!r}: choose {' or '.join(modes)}")
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
        raise InputError(f"{title} is played by 2 to 4 players, not {players!r}")
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
    "IllegalMove",
    "Move",
    "check_table",
    "play_random_game",
]
