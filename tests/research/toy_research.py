"""The toy game (tests/toygame.py) with the two research parts a game provides: an observation
encoder and a chance model. The research adapters have never heard of it, so running them on
it shows they read games only through the protocol."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any, ClassVar, Self

from polis.core.protocol import GameState
from polis.core.view import View
from polis.research.chance import NEVER
from polis.research.observations import Encoder, Layout, Obs, slot
from toygame import TARGET, CountingGame, CountingView

#: Secret words the toy deal hands out: ``SECRET<player>x<k>`` for k below this.
WORDS = 10


class CountingEncoder(Encoder[CountingView]):
    """``total`` one-hot (0 .. TARGET+2), ``to_move`` n slots, ``lucky`` own lucky number."""

    def __init__(self, mode: str, players: int) -> None:
        self.n = players
        lay = Layout()
        lay.add("total", TARGET + 3)
        lay.add("to_move", players)
        lay.add("lucky", 3)
        self.layout = lay

    def fill(self, b: dict[str, Obs], view: CountingView, me: int) -> None:
        b["total"][view.total] = 1
        cur = slot(view.current_player, me, self.n)
        if cur >= 0:
            b["to_move"][cur] = 1
        if view.lucky is not None:
            b["lucky"][view.lucky - 1] = 1


def word(player: int, k: int) -> str:
    return f"SECRET{player}x{k:09d}"


class CountingDeal:
    """Lucky numbers, then secret words, then the first player: all before the first move."""

    __slots__ = ("first", "lucky", "players", "secrets")

    def __init__(self, mode: str, players: int, first: int | None) -> None:
        self.players = players
        self.first = first
        self.lucky: list[int] = []
        self.secrets: list[str] = []

    @classmethod
    def max_outcomes(cls, mode: str, players: int) -> int:
        return max(WORDS, players)

    @classmethod
    def max_chance_nodes(cls, mode: str, players: int) -> int:
        return 2 * players + 1

    @classmethod
    def max_game_length(cls, mode: str, players: int) -> int:
        return TARGET

    @classmethod
    def recall(cls, view: View) -> dict[str, Any]:
        assert isinstance(view, CountingView)
        return {
            "player": view.player,
            "first": view.first,
            "lucky": view.lucky,
            "secret": view.secret,
            "moves": [m.text for m in view.moves],
        }

    def copy(self) -> Self:
        out = type(self)("basic", self.players, self.first)
        out.lucky = list(self.lucky)
        out.secrets = list(self.secrets)
        return out

    def ready(self) -> bool:
        return len(self.secrets) == self.players and self.first is not None

    def free_until(self) -> int:
        return NEVER if self.ready() else 0

    def outcomes(self) -> list[tuple[int, float]]:
        k = 3 if len(self.lucky) < self.players else WORDS
        if len(self.secrets) == self.players:
            k = self.players
        return [(i, 1.0 / k) for i in range(k)]

    def apply(self, outcome: int) -> bool:
        if len(self.lucky) < self.players:
            self.lucky.append(outcome + 1)
        elif len(self.secrets) < self.players:
            self.secrets.append(word(len(self.secrets), outcome))
        else:
            self.first = outcome
        return self.ready()

    def outcome_str(self, outcome: int) -> str:
        if len(self.lucky) < self.players:
            return f"lucky {outcome + 1} to player {len(self.lucky)}"
        if len(self.secrets) < self.players:
            return f"secret word {outcome} to player {len(self.secrets)}"
        return f"first player {outcome}"

    def setup(self) -> dict[str, Any]:
        return {"first_player": self.first, "lucky": self.lucky, "secrets": self.secrets}

    def describe(self) -> str:
        return json.dumps(self.setup(), sort_keys=True)

    def resampled(self, world: GameState) -> Self:
        setup = world.setup()
        out = type(self)("basic", self.players, setup["first_player"])
        out.lucky = list(setup["lucky"])
        out.secrets = list(setup["secrets"])
        return out

    def world(self, engine: GameState, rng: random.Random) -> GameState:
        return engine.clone()


class ResearchCountingGame(CountingGame):
    """The toy game with research parts (not in the registry: the adapters are handed it)."""

    plugins: ClassVar[Mapping[str, str]] = {
        **CountingGame.plugins,
        "observation": "research.toy_research:CountingEncoder",
        "chance": "research.toy_research:CountingDeal",
    }


GAME = ResearchCountingGame()
