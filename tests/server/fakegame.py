"""A tiny game implementing the core protocol, so the server is tested apart from the engines.

"Counting": players in turn add 1, 2 or 3 to a shared total; the game ends at 12 or more. Each
player holds a secret word (drawn from the seed) that only their own view shows, so leak tests
can look for it in every message.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Self

from polis.core.errors import IllegalMove, InputError, NotationError
from polis.core.protocol import TERMINAL, Game, GameResult, GameState, Move

TARGET = 12


class CountingState(GameState):
    def __init__(self, players: int, secrets: list[str], first: int) -> None:
        self._players = players
        self.secrets = secrets
        self.first = first
        self.total = 0
        self.moves: list[int] = []
        self.turn = first

    @property
    def num_players(self) -> int:
        return self._players

    @property
    def mode(self) -> str:
        return "basic"

    def current_player(self) -> int:
        return TERMINAL if self.total >= TARGET else self.turn

    def legal_moves(self) -> list[Move]:
        return [] if self.is_terminal() else [1, 2, 3]

    def random_move(self, rng: random.Random) -> Move:
        return rng.choice([1, 2, 3])

    def apply(self, move: Move) -> None:
        if self.is_terminal():
            raise IllegalMove("the game is over")
        if move not in (1, 2, 3):
            raise IllegalMove(f"you may add 1, 2 or 3, not {move}")
        assert isinstance(move, int)
        self.total += move
        self.moves.append(move)
        self.turn = (self.turn + 1) % self._players

    def move_to_str(self, move: Move) -> str:
        return str(move)

    def parse_move(self, text: str) -> Move:
        if not text.strip().isdigit():
            raise NotationError(f"{text!r} is not a number")
        return int(text)

    @property
    def history(self) -> Sequence[str]:
        return [str(m) for m in self.moves]

    def scores(self) -> tuple[int, ...]:
        out = [0] * self._players
        for i, m in enumerate(self.moves):
            out[(self.first + i) % self._players] += m
        return tuple(out)

    def result(self) -> GameResult:
        scores = self.scores()
        order = sorted(set(scores), reverse=True)
        ranking = tuple(tuple(p for p in range(self._players) if scores[p] == s) for s in order)
        return GameResult(scores, ranking, tuple({"total": s} for s in scores))

    def view(self, player: int | None) -> dict[str, Any]:
        return {
            "game": "counting",
            "mode": "basic",
            "players": self._players,
            "player": player,
            "current_player": self.current_player(),
            "moves": list(self.history),
            "total": self.total,
            "secret": self.secrets[player] if player is not None else None,
        }

    def render_text(self, player: int | None = None) -> str:
        return f"total {self.total}"

    def clone(self) -> Self:
        other = type(self)(self._players, self.secrets, self.first)
        other.total = self.total
        other.moves = list(self.moves)
        other.turn = self.turn
        return other

    def setup(self) -> dict[str, Any]:
        return {"first_player": self.first, "secrets": list(self.secrets)}

    def options(self) -> dict[str, Any]:
        return {}


class CountingGame(Game):
    name = "counting"
    modes = ("basic",)

    def new_game(
        self,
        mode: str,
        players: int,
        *,
        seed: int | None = None,
        setup: Mapping[str, Any] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> GameState:
        if mode != "basic":
            raise InputError(f"no mode {mode!r}")
        if setup is None:
            rng = random.Random(seed)
            secrets = [f"SECRET{p}x{rng.randrange(10**9):09d}" for p in range(players)]
            setup = {"first_player": 0, "secrets": secrets}
        return CountingState(players, list(setup["secrets"]), int(setup["first_player"]))

    def determinize(self, view: Mapping[str, Any], rng: random.Random) -> GameState:
        raise NotImplementedError

    def score_file(self, data: Mapping[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def result_json(self, result: GameResult) -> dict[str, Any]:
        return {"scores": list(result.scores), "ranking": [list(g) for g in result.ranking]}


GAME = CountingGame()


def get_game(name: str) -> Game:
    if name == "counting":
        return GAME
    from polis.core.registry import get_game as real

    return real(name)


CountingState.game = GAME
