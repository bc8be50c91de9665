"""A tiny hidden-information game on the core protocol, for testing bots and the arena.

A public row of numbered coins; in turn each player takes the leftmost or rightmost coin.
Each player holds a secret lucky number (1-3): a taken coin of that value scores double.
The lucky numbers are hidden facts: a view shows only its own player's.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Self

from polis.core.errors import IllegalMove, InputError, NotationError
from polis.core.protocol import TERMINAL, Game, GameResult, GameState, Move


class CoinState(GameState):
    def __init__(self, players: int, row: list[int], lucky: list[int]) -> None:
        self.players = players
        self.row = row
        self.lo = 0
        self.hi = len(row)
        self.lucky = lucky
        self.taken: list[list[int]] = [[] for _ in range(players)]
        self.turn = 0
        self._history: list[str] = []

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def mode(self) -> str:
        return "basic"

    def current_player(self) -> int:
        return TERMINAL if self.lo >= self.hi else self.turn % self.players

    def legal_moves(self) -> list[Move]:
        if self.lo >= self.hi:
            return []
        return ["L"] if self.hi - self.lo == 1 else ["L", "R"]

    def random_move(self, rng: random.Random) -> Move:
        return self.legal_moves()[rng.randrange(len(self.legal_moves()))]

    def apply(self, move: Move) -> None:
        if move not in self.legal_moves():
            raise IllegalMove(f"{move!r} is not a legal move")
        p = self.current_player()
        if move == "L":
            coin = self.row[self.lo]
            self.lo += 1
        else:
            self.hi -= 1
            coin = self.row[self.hi]
        self.taken[p].append(coin)
        self.turn += 1
        self._history.append(str(move))

    def move_to_str(self, move: Move) -> str:
        return str(move)

    def parse_move(self, text: str) -> Move:
        if text not in ("L", "R"):
            raise NotationError(f"not a move: {text!r}")
        return text

    @property
    def history(self) -> Sequence[str]:
        return self._history

    def score(self, p: int) -> int:
        return sum(c * (2 if c == self.lucky[p] else 1) for c in self.taken[p])

    def result(self) -> GameResult:
        scores = tuple(self.score(p) for p in range(self.players))
        order = sorted(set(scores), reverse=True)
        ranking = tuple(tuple(p for p in range(self.players) if scores[p] == s) for s in order)
        return GameResult(scores, ranking)

    def view(self, player: int | None) -> dict[str, Any]:
        return {
            "game": "toy",
            "mode": "basic",
            "players": self.players,
            "player": player,
            "current_player": self.current_player(),
            "moves": list(self._history),
            "row": self.row[self.lo : self.hi],
            "taken": [list(t) for t in self.taken],
            "lucky": None if player is None else self.lucky[player],
        }

    def render_text(self, player: int | None = None) -> str:
        return str(self.view(player))

    def clone(self) -> Self:
        new = object.__new__(type(self))
        new.players = self.players
        new.row = self.row
        new.lo, new.hi = self.lo, self.hi
        new.lucky = self.lucky
        new.taken = [list(t) for t in self.taken]
        new.turn = self.turn
        new._history = list(self._history)
        return new

    def setup(self) -> dict[str, Any]:
        return {"row": list(self.row), "lucky": list(self.lucky)}

    def options(self) -> dict[str, Any]:
        return {}


class CoinGame(Game):
    name: ClassVar[str] = "toy"
    modes: ClassVar[tuple[str, ...]] = ("basic",)

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
            raise InputError(f"unknown mode {mode!r}")
        if setup is not None:
            return CoinState(players, list(setup["row"]), list(setup["lucky"]))
        rng = random.Random(seed)
        row = [rng.randint(1, 5) for _ in range(4 * players + 1)]
        return CoinState(players, row, [rng.randint(1, 3) for _ in range(players)])

    def determinize(self, view: Mapping[str, Any], rng: random.Random) -> GameState:
        players = view["players"]
        me = view["player"]
        lucky = [rng.randint(1, 3) for _ in range(players)]
        lucky[me] = view["lucky"]
        taken = view["taken"]
        done = sum(len(t) for t in taken)
        # Rebuild a row whose taken prefix/suffix is unknown but irrelevant: only the rest matters.
        state = CoinState(players, list(view["row"]), lucky)
        state.taken = [list(t) for t in taken]
        state.turn = done
        state._history = list(view["moves"])
        return state

    def score_file(self, data: Mapping[str, Any]) -> dict[str, Any]:
        raise InputError("no score files")

    def result_json(self, result: GameResult) -> dict[str, Any]:
        return {"scores": list(result.scores), "ranking": [list(g) for g in result.ranking]}


GAME = CoinGame()
CoinState.game = GAME
