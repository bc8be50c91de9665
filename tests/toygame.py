"""The test toy game: the whole core protocol on one page, with hidden facts.

"Counting": players in turn add 1, 2 or 3 to a shared total; the game ends when the total
reaches 12. Each player holds two secrets drawn from the seed: a lucky number (an addition
of that amount scores double) and a secret word (so leak tests can search every message for
it). A view shows only its own player's secrets until the game is over.

Used by the bot, arena, server and conformance tests, so each layer is tested apart from
the real engines (``"toygame:GAME"`` loads it by module).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Literal, NotRequired, Self

from typing_extensions import TypedDict

from polis.core import (
    ActionSpace,
    Event,
    Game,
    GameResult,
    GameState,
    IllegalMove,
    InputError,
    Move,
    MoveList,
    NotationError,
    PlayerScore,
    View,
)
from polis.core.rng import seeded_rng
from polis.core.view import TERMINAL

TARGET = 12


class AddMove(Move):
    """Add ``amount`` (1-3) to the total."""

    __slots__ = ("amount",)

    def __init__(self, amount: int) -> None:
        super().__init__(amount - 1, str(amount))
        self.amount = amount

    def __reduce__(self) -> tuple[Callable[[int], AddMove], tuple[int]]:
        return _move, (self.id,)


def _parse(text: str) -> AddMove:
    stripped = text.strip()
    if not stripped.isdigit():
        raise NotationError(f"{text!r} is not a number")
    raise IllegalMove(f"you may add 1, 2 or 3, not {int(stripped)}", rule="toy §1")


SPACE: Final = ActionSpace("counting", "basic", [AddMove(a) for a in (1, 2, 3)], _parse)


def _move(action: int) -> AddMove:
    return SPACE.moves[action]


class CountingViewJSON(TypedDict):
    """The toy's view as JSON (its ``wire`` part, with :class:`CountingChoicesJSON`)."""

    game: Literal["counting"]
    mode: str
    players: int
    player: int | None
    current_player: int
    moves: list[str]
    total: int
    lucky: int | None
    secret: str | None
    revealed: NotRequired[list[tuple[int, str]]]


class CountingAmountJSON(TypedDict):
    amount: int
    move: str


class CountingChoicesJSON(TypedDict):
    amounts: list[CountingAmountJSON]


#: The ``wire`` part: the types of the toy's view and choices JSON.
VIEW = CountingViewJSON
CHOICES = CountingChoicesJSON


@dataclass(frozen=True, slots=True)
class CountingView(View):
    game: ClassVar[str] = "counting"

    mode: str
    players: int
    player: int | None
    current_player: int
    moves: tuple[AddMove, ...]
    first: int
    total: int
    lucky: int | None
    secret: str | None
    revealed: tuple[tuple[int, str], ...] | None

    def to_json(self) -> CountingViewJSON:
        out: CountingViewJSON = {
            "game": "counting",
            "mode": self.mode,
            "players": self.players,
            "player": self.player,
            "current_player": self.current_player,
            "moves": [m.text for m in self.moves],
            "total": self.total,
            "lucky": self.lucky,
            "secret": self.secret,
        }
        if self.revealed is not None:
            out["revealed"] = [list(r) for r in self.revealed]
        return out


class CountingState(GameState):
    __slots__ = ("_first", "_lucky", "_moves", "_players", "_secrets", "_total")

    game: ClassVar[Game]

    def __init__(self, players: int, first: int, lucky: Sequence[int], secrets: Sequence[str]):
        self._players = players
        self._first = first
        self._lucky = tuple(lucky)
        self._secrets = tuple(secrets)
        self._total = 0
        self._moves: list[AddMove] = []

    @property
    def num_players(self) -> int:
        return self._players

    @property
    def mode(self) -> str:
        return "basic"

    def current_player(self) -> int:
        if self._total >= TARGET:
            return TERMINAL
        return (self._first + len(self._moves)) % self._players

    def legal_moves(self) -> MoveList[AddMove]:
        return MoveList() if self.is_terminal() else MoveList(SPACE.moves)

    def random_move(self, rng: random.Random) -> AddMove:
        if self.is_terminal():
            raise IllegalMove("the game is over")
        return SPACE.moves[rng.randrange(3)]

    def apply(self, move: Any) -> None:
        if self.is_terminal():
            raise IllegalMove("the game is over")
        if not isinstance(move, AddMove):
            raise IllegalMove(f"{move!r} is not a counting move")
        self._total += move.amount
        self._moves.append(move)

    def play(self, move: Any) -> tuple[Event, ...]:
        player = self.current_player()
        self.apply(move)
        out = [Event("added", {"player": player, "amount": move.amount, "total": self._total})]
        if self.is_terminal():
            out.append(Event("game_ended", {"scores": list(self.scores())}))
        return tuple(out)

    def opening_events(self) -> tuple[Event, ...]:
        return tuple(
            Event("secret_dealt", {"player": p, "secret": self._secrets[p]}, to=(p,))
            for p in range(self._players)
        )

    @property
    def history(self) -> Sequence[AddMove]:
        return self._moves

    def scores(self) -> tuple[int, ...]:
        out = [0] * self._players
        for i, m in enumerate(self._moves):
            p = (self._first + i) % self._players
            out[p] += m.amount * (2 if m.amount == self._lucky[p] else 1)
        return tuple(out)

    def result(self) -> GameResult:
        if not self.is_terminal():
            raise IllegalMove("the game is not over yet")
        scores = self.scores()
        order = sorted(set(scores), reverse=True)
        ranking = tuple(tuple(p for p in range(self._players) if scores[p] == s) for s in order)
        players = tuple(PlayerScore(total=s, categories={"points": s}) for s in scores)
        return GameResult("counting", "basic", scores, ranking, players)

    def view(self, player: int | None) -> CountingView:
        over = self.is_terminal()
        return CountingView(
            mode="basic",
            players=self._players,
            player=player,
            current_player=self.current_player(),
            moves=tuple(self._moves),
            first=self._first,
            total=self._total,
            lucky=None if player is None else self._lucky[player],
            secret=None if player is None else self._secrets[player],
            revealed=tuple(zip(self._lucky, self._secrets, strict=True)) if over else None,
        )

    def render_text(self, player: int | None = None) -> str:
        return f"total {self._total}"

    def clone(self) -> Self:
        new = object.__new__(type(self))
        new._players, new._first = self._players, self._first
        new._lucky, new._secrets = self._lucky, self._secrets
        new._total = self._total
        new._moves = self._moves[:]
        return new

    def setup(self) -> dict[str, Any]:
        return {
            "first_player": self._first,
            "lucky": list(self._lucky),
            "secrets": list(self._secrets),
        }

    def options(self) -> dict[str, Any]:
        return {}


def _secret(rng: random.Random, player: int) -> str:
    return f"SECRET{player}x{rng.randrange(10**9):09d}"


class CountingGame(Game):
    name: ClassVar[str] = "counting"
    title: ClassVar[str] = "Counting"
    modes: ClassVar[tuple[str, ...]] = ("basic",)
    notation_examples: ClassVar[tuple[str, ...]] = ("1", "3")
    categories: ClassVar[Mapping[str, str]] = {"points": "Points"}
    plugins: ClassVar[Mapping[str, str]] = {
        "choices": "toygame:legal_choices",
        "reveals": "toygame:reveals",
        "wire": "toygame",
    }

    def new_game(
        self,
        mode: str,
        players: int,
        *,
        seed: int | str | None = None,
        setup: Mapping[str, Any] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> CountingState:
        mode, players = self.check_table(mode, players)
        if options:
            raise InputError(f"unknown counting options {sorted(options)}")
        if setup is None:
            rng = seeded_rng(seed)
            lucky = [rng.randint(1, 3) for _ in range(players)]
            secrets = [_secret(rng, p) for p in range(players)]
            return CountingState(players, rng.randrange(players), lucky, secrets)
        try:
            return CountingState(
                players, int(setup["first_player"]), list(setup["lucky"]), list(setup["secrets"])
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"bad counting set-up: {exc}") from None

    def action_space(self, mode: str) -> ActionSpace[AddMove]:
        self.check_table(mode, 2)
        return SPACE

    def determinize(self, view: View, rng: random.Random) -> CountingState:
        assert isinstance(view, CountingView)
        if view.revealed is not None:
            lucky = [r[0] for r in view.revealed]
            secrets = [r[1] for r in view.revealed]
        else:
            lucky = [rng.randint(1, 3) for _ in range(view.players)]
            secrets = [_secret(rng, p) for p in range(view.players)]
            if view.player is not None:
                assert view.lucky is not None and view.secret is not None
                lucky[view.player] = view.lucky
                secrets[view.player] = view.secret
        state = CountingState(view.players, view.first, lucky, secrets)
        for move in view.moves:
            state.apply(move)
        return state

    def score_file(self, data: Mapping[str, Any]) -> dict[str, Any]:
        raise InputError("the counting game has no score files")

    def report_lines(self, report: Mapping[str, Any]) -> tuple[PlayerScore, ...]:
        return ()


def legal_choices(view: CountingView, legal: Sequence[AddMove]) -> CountingChoicesJSON:
    """The web choices of the toy: the amounts that may be added."""
    return {"amounts": [{"amount": m.amount, "move": m.text} for m in legal]}


def reveals(before: GameState, move: Move) -> bool:
    """Only the end reveals (the secrets); every addition is public (take-backs)."""
    after = before.clone()
    after.apply(move)
    return after.is_terminal()


GAME = CountingGame()
CountingState.game = GAME
