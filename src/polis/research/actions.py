"""Fixed action encodings: every move of formats.md notation gets one stable integer.

Learning code needs a ``Discrete(n)`` space that does not change from position to position,
so each game and mode enumerates *every* move its notation can write, legal or not; a mask
says which ones are legal now. The mapping is one-to-one with the notation (``names[a]`` is
the move text of action ``a``), so an action id can always be logged, replayed or typed.

Quadropolis (one encoding per mode; A = architects, N = city squares)::

    a = ((architect - 1) * 20 + spot) * (N + 2) + target
    spot   = side * 5 + (index - 1), sides L R T B      (formats §1.4)
    target = 0 .. N-1: city square r1c1, r1c2, ... row-major; N: "x" (discard); N+1: "-"
    Classic: A = 4, N = 16 -> 4 * 20 * 18 = 1440 actions
    Expert:  A = 5, N = 20 -> 5 * 20 * 22 = 2200 actions

Metropolys (both modes)::

    a = (value - 1) * 55 + field   for "<value>@<field>", value 1..13, field 0..54
    a = 715                        for "pass"              -> 716 actions
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np
import numpy.typing as npt

from polis.core.errors import InputError, NotationError
from polis.core.protocol import GameState

SIDES = "LRTB"
METROPOLYS_FIELDS = 55
METROPOLYS_VALUES = 13
METROPOLYS_PASS = METROPOLYS_VALUES * METROPOLYS_FIELDS  # 715

#: City size (rows, columns) and architect count of each Quadropolis mode (formats §1.1).
QUADROPOLIS_MATS = {"classic": (4, 4, 4), "expert": (4, 5, 5)}


class ActionCodec:
    """Action ids <-> notation <-> engine moves for one game and mode.

    Engine moves are looked up through the core protocol (``move_to_str``/``parse_move``)
    once and then cached: both engines' moves are plain values whose notation does not
    depend on the position, so the caches stay valid for every state of the same mode.
    """

    __slots__ = ("_action_of_move", "_move_of_action", "game", "index", "mode", "n", "names")

    def __init__(self, game: str, mode: str, names: Sequence[str]) -> None:
        self.game = game
        self.mode = mode
        self.names: tuple[str, ...] = tuple(names)
        self.n = len(self.names)
        self.index: dict[str, int] = {name: a for a, name in enumerate(self.names)}
        self._action_of_move: dict[Hashable, int] = {}
        self._move_of_action: dict[int, Hashable] = {}

    def to_str(self, action: int) -> str:
        """The notation of ``action``."""
        if not 0 <= action < self.n:
            raise InputError(
                f"action {action} is outside 0..{self.n - 1} of {self.game} {self.mode}"
            )
        return self.names[action]

    def from_str(self, text: str) -> int:
        """The action id of a move written in notation (canonical spelling)."""
        action = self.index.get(" ".join(text.split()))
        if action is None:
            raise NotationError(f"{text!r} is not a {self.game} {self.mode} move")
        return action

    def action_of(self, state: GameState, move: Hashable) -> int:
        """The action id of an engine move."""
        action = self._action_of_move.get(move)
        if action is None:
            action = self.from_str(state.move_to_str(move))
            self._action_of_move[move] = action
        return action

    def move_of(self, state: GameState, action: int) -> Hashable:
        """The engine move of an action id (parsed by the engine; legality is not checked)."""
        move = self._move_of_action.get(action)
        if move is None:
            move = state.parse_move(self.to_str(action))
            self._move_of_action[action] = move
        return move

    def actions_of(self, state: GameState, moves: Sequence[Hashable]) -> list[int]:
        """Action ids of ``moves`` (a hot path: one dict look-up per move once cached)."""
        try:
            return list(map(self._action_of_move.__getitem__, moves))
        except KeyError:
            return [self.action_of(state, m) for m in moves]

    def legal_actions(self, state: GameState) -> list[int]:
        """Sorted action ids of the legal moves of ``state``."""
        return sorted(self.actions_of(state, state.legal_moves()))

    def mask(self, state: GameState) -> npt.NDArray[np.int8]:
        """1 for every legal action of ``state`` (all zeros when it is over)."""
        out = np.zeros(self.n, dtype=np.int8)
        out[self.actions_of(state, state.legal_moves())] = 1
        return out


def quadropolis_names(mode: str) -> list[str]:
    """Every Quadropolis move of ``mode`` in action order (module docstring)."""
    rows, cols, architects = QUADROPOLIS_MATS[mode]
    targets = [f"r{q // cols + 1}c{q % cols + 1}" for q in range(rows * cols)] + ["x", "-"]
    return [
        f"{k}{SIDES[spot // 5]}{spot % 5 + 1} {target}"
        for k in range(1, architects + 1)
        for spot in range(20)
        for target in targets
    ]


def metropolys_names() -> list[str]:
    """Every Metropolys move in action order (module docstring)."""
    bids = [
        f"{value}@{field}"
        for value in range(1, METROPOLYS_VALUES + 1)
        for field in range(METROPOLYS_FIELDS)
    ]
    return [*bids, "pass"]


_CODECS: dict[tuple[str, str], ActionCodec] = {}


def codec(game: str, mode: str) -> ActionCodec:
    """The shared action encoding of ``game`` in ``mode``."""
    key = (game, mode)
    found = _CODECS.get(key)
    if found is None:
        if game == "quadropolis" and mode in QUADROPOLIS_MATS:
            found = ActionCodec(game, mode, quadropolis_names(mode))
        elif game == "metropolys" and mode in ("family", "expert"):
            found = ActionCodec(game, mode, metropolys_names())
        else:
            raise InputError(f"no action encoding for {game} mode {mode!r}")
        _CODECS[key] = found
    return found
