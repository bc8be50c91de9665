"""The set-up of each game as a sequence of explicit OpenSpiel chance nodes.

OpenSpiel wants chance as nodes in the game tree, not as a seed. A *dealer* turns the
set-up of formats §3 into small chance decisions, each uniform (or weighted exactly as the
physical shuffle) over what is still possible, and writes the result as a set-up dict the
engine accepts, so the engine stays the only judge of the rules.

Quadropolis deals each round's layout when that round starts (one node per site square,
outcome = position of the tile in the round's sorted pool), so future rounds are genuinely
undecided during play and search bots cannot peek at them. Metropolys deals everything
before the first bid: unused district(s), then per district in play each token's field and
type, then the secret cards, then (optionally) the first player.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from polis.core.protocol import GameState
from polis.core.registry import get_game
from polis.games.metropolys.board import (
    ADJACENT_PERIPHERAL_PAIRS,
    COLOURS,
    DISTRICTS,
    TOKEN_COUNTS,
    TOKEN_FIELDS,
)
from polis.games.metropolys.board import TOKENS as TOKEN_TYPES
from polis.games.metropolys.cards import area_deck

# -- Quadropolis -----------------------------------------------------------------------------


@cache
def quadropolis_pools(mode: str) -> tuple[tuple[str, ...], ...]:
    """Per round, the 25 tile ids of ``mode`` (sorted). Any seed's set-up lists them all."""
    setup = get_game("quadropolis").new_game(mode, 2, seed=0).setup()
    return tuple(tuple(sorted(layout)) for layout in setup["rounds"])


class QuadropolisDeal:
    """Chance record of a Quadropolis game: first player and the layouts dealt so far."""

    __slots__ = ("first", "mode", "players", "rounds")

    def __init__(self, mode: str, players: int, first: int | None) -> None:
        self.mode = mode
        self.players = players
        self.first = first
        self.rounds: list[list[int]] = []  # pool positions, row-major site squares

    def copy(self) -> QuadropolisDeal:
        out = QuadropolisDeal(self.mode, self.players, self.first)
        out.rounds = [list(r) for r in self.rounds]
        return out

    def pending(self, moves_played: int) -> bool:
        """Is a chance node due after ``moves_played`` moves?"""
        if self.first is None:
            return True
        pools = quadropolis_pools(self.mode)
        needed = min(len(pools), moves_played // (4 * self.players) + 1)
        return len(self.rounds) < needed or len(self.rounds[-1]) < 25

    def free_until(self) -> int:
        """Moves that can be played before the next chance node (a fast path for pending)."""
        if self.first is None or not self.rounds or len(self.rounds[-1]) < 25:
            return 0
        if len(self.rounds) == len(quadropolis_pools(self.mode)):
            return 1 << 30
        return len(self.rounds) * 4 * self.players

    def ready(self) -> bool:
        """Can the engine be built (first player and round 1 dealt)?"""
        return self.first is not None and bool(self.rounds) and len(self.rounds[0]) == 25

    def outcomes(self) -> list[tuple[int, float]]:
        if self.first is None:
            return [(p, 1.0 / self.players) for p in range(self.players)]
        current = self.rounds[-1] if self.rounds and len(self.rounds[-1]) < 25 else []
        left = sorted(set(range(25)) - set(current))
        return [(i, 1.0 / len(left)) for i in left]

    def apply(self, outcome: int) -> bool:
        """Record ``outcome``; True when a round's layout (the engine's input) is complete."""
        if self.first is None:
            self.first = outcome
            return False
        if not self.rounds or len(self.rounds[-1]) == 25:
            self.rounds.append([])
        self.rounds[-1].append(outcome)
        return len(self.rounds[-1]) == 25

    def outcome_str(self, outcome: int) -> str:
        if self.first is None:
            return f"first player {outcome}"
        r = len(self.rounds) if self.rounds and len(self.rounds[-1]) < 25 else len(self.rounds) + 1
        square = len(self.rounds[-1]) if r == len(self.rounds) else 0
        tile = quadropolis_pools(self.mode)[r - 1][outcome]
        return f"round {r} r{square // 5 + 1}c{square % 5 + 1}: {tile}"

    def setup(self) -> dict[str, Any]:
        """The engine set-up: dealt rounds, later rounds as placeholders (never shown, since
        a round is re-dealt before it starts)."""
        pools = quadropolis_pools(self.mode)
        dealt = [layout for layout in self.rounds if len(layout) == 25]
        rounds = [[pools[r][i] for i in layout] for r, layout in enumerate(dealt)]
        rounds += [list(pools[r]) for r in range(len(dealt), len(pools))]
        return {"first_player": self.first, "rounds": rounds}

    def adopt(self, state: GameState, rounds_started: int) -> None:
        """Take over a complete state's first player and its first ``rounds_started`` layouts."""
        setup = state.setup()
        pools = quadropolis_pools(self.mode)
        self.first = setup["first_player"]
        self.rounds = [
            [pools[r].index(t) for t in setup["rounds"][r]] for r in range(rounds_started)
        ]


# -- Metropolys ------------------------------------------------------------------------------


class MetropolysDeal:
    """Chance record of a Metropolys set-up, filled one chance node at a time."""

    __slots__ = ("area", "first", "mode", "neighbourhood", "players", "tokens", "unused")

    def __init__(self, mode: str, players: int, first: int | None) -> None:
        self.mode = mode
        self.players = players
        self.first = first
        self.unused: tuple[str, ...] | None = () if players == 4 else None
        self.tokens: list[tuple[int, int]] = []  # (field, type) in dealing order
        self.area: list[str] = []
        self.neighbourhood: list[str] = []

    def copy(self) -> MetropolysDeal:
        out = MetropolysDeal(self.mode, self.players, self.first)
        out.unused = self.unused
        out.tokens = list(self.tokens)
        out.area = list(self.area)
        out.neighbourhood = list(self.neighbourhood)
        return out

    # The dealing order: unused, tokens (field then type, per slot), area, neighbourhood, first.
    def _slots(self) -> list[int]:
        """District code of every token slot, in dealing order."""
        assert self.unused is not None
        out = []
        for d, name in enumerate(DISTRICTS):
            if name not in self.unused:
                out += [d] * (7 if d == 0 else 5)
        return out

    def _step(self) -> str:
        if self.unused is None:
            return "unused"
        if self.tokens and self.tokens[-1][1] < 0:
            return "type"
        if len(self.tokens) < len(self._slots()):
            return "field"
        if len(self.area) < self.players:
            return "area"
        if self.mode == "expert" and len(self.neighbourhood) < self.players:
            return "neighbourhood"
        if self.first is None:
            return "first"
        return "done"

    def pending(self, moves_played: int) -> bool:
        return self._step() != "done"

    def free_until(self) -> int:
        """Moves that can be played before the next chance node (none: all come first)."""
        return 1 << 30 if self.ready() else 0

    def ready(self) -> bool:
        """Can the engine be built (the whole set-up is dealt)?"""
        return self._step() == "done"

    def outcomes(self) -> list[tuple[int, float]]:
        step = self._step()
        if step == "unused":
            k = 4  # 3 players: one of 4 districts (code 1-4); 2 players: one of 4 pairs
            return [(i, 1.0 / k) for i in range(k)]
        if step == "field":
            district = self._slots()[len(self.tokens)]
            taken = {f for f, _ in self.tokens}
            left = [f for f in TOKEN_FIELDS[district] if f not in taken]
            return [(f, 1.0 / len(left)) for f in left]
        if step == "type":
            counts = [TOKEN_COUNTS[self.players][t] for t in TOKEN_TYPES]
            for _, t in self.tokens[:-1]:
                counts[t] -= 1
            total = sum(counts)
            return [(t, c / total) for t, c in enumerate(counts) if c]
        if step == "area":
            deck = area_deck(self.mode, self.players)
            left = [i for i, c in enumerate(deck) if c not in self.area]
            return [(i, 1.0 / len(left)) for i in left]
        if step == "neighbourhood":
            left = [i for i, c in enumerate(COLOURS) if c not in self.neighbourhood]
            return [(i, 1.0 / len(left)) for i in left]
        return [(p, 1.0 / self.players) for p in range(self.players)]

    def apply(self, outcome: int) -> bool:
        """Record ``outcome``; True once the whole set-up is dealt."""
        step = self._step()
        if step == "unused":
            pairs = ADJACENT_PERIPHERAL_PAIRS
            self.unused = (DISTRICTS[1 + outcome],) if self.players == 3 else pairs[outcome]
        elif step == "field":
            self.tokens.append((outcome, -1))
        elif step == "type":
            self.tokens[-1] = (self.tokens[-1][0], outcome)
        elif step == "area":
            self.area.append(area_deck(self.mode, self.players)[outcome])
        elif step == "neighbourhood":
            self.neighbourhood.append(COLOURS[outcome])
        else:
            self.first = outcome
        return self._step() == "done"

    def outcome_str(self, outcome: int) -> str:
        step = self._step()
        if step == "unused":
            if self.players == 3:
                return f"unused district {DISTRICTS[1 + outcome]}"
            return f"unused districts {'+'.join(ADJACENT_PERIPHERAL_PAIRS[outcome])}"
        if step == "field":
            return f"token on field {outcome}"
        if step == "type":
            return f"token type {TOKEN_TYPES[outcome]}"
        if step == "area":
            card = area_deck(self.mode, self.players)[outcome]
            return f"area card {card} to player {len(self.area)}"
        if step == "neighbourhood":
            return f"neighbourhood card {COLOURS[outcome]} to player {len(self.neighbourhood)}"
        return f"first player {outcome}"

    def setup(self) -> dict[str, Any]:
        assert self.unused is not None and self.first is not None
        out: dict[str, Any] = {
            "first_player": self.first,
            "unused_districts": list(self.unused),
            "tokens": {str(f): TOKEN_TYPES[t] for f, t in self.tokens},
            "area_cards": list(self.area),
        }
        if self.mode == "expert":
            out["neighbourhood_cards"] = list(self.neighbourhood)
        return out

    def adopt(self, state: GameState, rounds_started: int) -> None:
        """Take over a complete state's set-up (the token dealing order is by field id)."""
        setup = state.setup()
        self.first = setup["first_player"]
        self.unused = tuple(setup["unused_districts"])
        layout = {int(f): TOKEN_TYPES.index(t) for f, t in setup["tokens"].items()}
        self.tokens = [(f, layout[f]) for d in range(5) for f in TOKEN_FIELDS[d] if f in layout]
        self.area = list(setup["area_cards"])
        self.neighbourhood = list(setup.get("neighbourhood_cards") or [])


Deal = QuadropolisDeal | MetropolysDeal


def new_deal(game: str, mode: str, players: int, first: int | None) -> Deal:
    if game == "quadropolis":
        return QuadropolisDeal(mode, players, first)
    return MetropolysDeal(mode, players, first)


def max_chance_outcomes(game: str, players: int) -> int:
    return max(25, players) if game == "quadropolis" else 55


def chance_nodes(game: str, mode: str, players: int) -> int:
    """Upper bound of chance nodes in one game."""
    if game == "quadropolis":
        return 1 + 25 * len(quadropolis_pools(mode))
    slots = 7 + 5 * (players - 1)
    return 1 + 2 * slots + 2 * players + 1


__all__ = ["Deal", "MetropolysDeal", "QuadropolisDeal", "new_deal"]
