"""OpenSpiel games ``polis_quadropolis`` and ``polis_metropolys``, registered from Python.

Importing this module registers both with ``pyspiel.register_game``; then
``pyspiel.load_game("polis_metropolys(mode=expert,players=3)")`` works like any game.
Parameters: ``mode`` (``classic``/``expert`` or ``family``/``expert``), ``players`` (2-4),
``first_player`` (-1 = a chance node, else that seat opens).

* Chance: the set-up is dealt by explicit chance nodes (:mod:`polis.research.dealers`).
* Actions: the fixed encodings of :mod:`polis.research.actions`.
* Returns: the win share at the end (constant sum 1).
* Information: the observation tensor is the view encoding of
  :mod:`polis.research.observations`; the information-state string holds exactly what the
  player has seen (own secret cards, public set-up facts, every public move), the
  observation string is the engine's text picture for that player. The information-state
  tensor is the same view encoding (the current view; it does not repeat the history).
* ``resample_from_infostate`` asks the engine's ``determinize`` for a world consistent with
  the player's view; Quadropolis rounds not yet started stay undealt chance nodes.

The engine state and the chance record live in one holder whose copy is ``engine.clone()``,
so OpenSpiel's clone (a deep copy of the Python attributes) stays cheap, and whose pickled
form is the set-up plus the moves in notation (OpenSpiel's serialization).
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from polis.core.protocol import GameState
from polis.core.registry import get_game
from polis.research.actions import ActionCodec, codec
from polis.research.dealers import Deal, chance_nodes, max_chance_outcomes, new_deal
from polis.research.observations import Encoder, encoder

DEFAULT_MODE = {"quadropolis": "classic", "metropolys": "family"}
#: View keys that together hold everything a player has seen (its information state).
RECALL_KEYS = {
    "quadropolis": ("player", "starting_player", "public_rounds", "moves"),
    "metropolys": (
        "player",
        "first_player",
        "unused_districts",
        "layout",
        "area_card",
        "neighbourhood_card",
        "moves",
    ),
}


def game_type(name: str) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=f"polis_{name}",
        long_name=f"polis {name.capitalize()}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"mode": DEFAULT_MODE[name], "players": 2, "first_player": -1},
    )


def max_game_length(name: str, mode: str, players: int) -> int:
    """Most player moves in one game."""
    if name == "quadropolis":
        return (4 if mode == "classic" else 5) * 4 * players
    builds = 13 + 12 * (players - 1)  # the game ends with someone's 13th building
    return builds * (13 + players - 1)  # per round: rising bids 1..13, then passes


class Table:
    """The engine state, its chance record and its moves: the whole OpenSpiel state."""

    __slots__ = ("deal", "engine", "free_until", "game", "moves")

    def __init__(self, game: PolisGame, deal: Deal) -> None:
        self.game = game
        self.deal = deal
        self.engine: GameState | None = None
        self.moves: list[Any] = []
        #: No chance node is due while fewer moves than this have been played.
        self.free_until = deal.free_until()

    def build(self) -> None:
        """(Re)build the engine from the dealt set-up and replay the moves."""
        g = self.game
        engine = g.engine.new_game(g.mode, g.players, setup=self.deal.setup())
        for move in self.moves:
            engine.apply(move)
        self.engine = engine

    def pending(self) -> bool:
        return len(self.moves) >= self.free_until and self.deal.pending(len(self.moves))

    def deal_one(self, outcome: int) -> None:
        """Apply one chance outcome; build the engine when a set-up part is complete."""
        if self.deal.apply(outcome) and self.deal.ready():
            self.build()
        self.free_until = self.deal.free_until()

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        out = Table(self.game, self.deal.copy())
        out.engine = self.engine.clone() if self.engine is not None else None
        out.moves = list(self.moves)
        out.free_until = self.free_until
        return out

    def __getstate__(self) -> dict[str, Any]:
        texts = [self.engine.move_to_str(m) for m in self.moves] if self.engine else []
        return {"params": self.game.params, "deal": self.deal.copy(), "moves": texts}

    def __setstate__(self, data: dict[str, Any]) -> None:
        params = dict(data["params"])
        name = params.pop("game")
        self.game = pyspiel.load_game(f"polis_{name}", params)
        self.deal = data["deal"]
        self.engine = None
        self.moves = []
        self.free_until = self.deal.free_until()
        if self.deal.ready():
            self.build()
            assert self.engine is not None
            for text in data["moves"]:
                self.moves.append(self.engine.apply_str(text))


class PolisGame(pyspiel.Game):  # type: ignore[misc]
    """One polis game as an OpenSpiel game (subclassed per game below)."""

    NAME = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        name = self.NAME
        merged = {"mode": DEFAULT_MODE[name], "players": 2, "first_player": -1, **(params or {})}
        self.mode = str(merged["mode"])
        self.players = int(merged["players"])
        first = int(merged["first_player"])
        self.first = first if first >= 0 else None
        self.engine = get_game(name)
        if self.mode not in self.engine.modes:
            raise ValueError(f"unknown {name} mode {self.mode!r}")
        if not 2 <= self.players <= 4 or first >= self.players:
            raise ValueError(f"bad players/first_player: {self.players}/{first}")
        self.codec: ActionCodec = codec(name, self.mode)
        self.encoder: Encoder = encoder(name, self.mode, self.players)
        self.params = {"game": name, **merged}
        info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.n,
            max_chance_outcomes=max_chance_outcomes(name, self.players),
            num_players=self.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=max_game_length(name, self.mode, self.players),
        )
        super().__init__(
            game_type(name),
            info,
            {"mode": self.mode, "players": self.players, "first_player": first},
        )

    def new_initial_state(self) -> PolisState:
        return PolisState(self)

    def max_chance_nodes_in_history(self) -> int:
        return chance_nodes(self.NAME, self.mode, self.players)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> PolisObserver:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return PolisObserver(self, perfect_recall, iig_obs_type)


class QuadropolisSpielGame(PolisGame):
    NAME = "quadropolis"


class MetropolysSpielGame(PolisGame):
    NAME = "metropolys"


class PolisState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state wrapping a polis engine state (all data in :class:`Table`)."""

    def __init__(self, game: PolisGame) -> None:
        super().__init__(game)
        self._t = Table(game, new_deal(game.NAME, game.mode, game.players, game.first))

    # -- whose turn ------------------------------------------------------------------------------
    def current_player(self) -> int:
        t = self._t
        if t.pending():
            return int(pyspiel.PlayerId.CHANCE)
        assert t.engine is not None
        if t.engine.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return t.engine.current_player()

    def is_terminal(self) -> bool:
        t = self._t
        return t.engine is not None and not t.pending() and t.engine.is_terminal()

    # -- actions ---------------------------------------------------------------------------------
    def _legal_actions(self, player: int) -> list[int]:
        t = self._t
        assert t.engine is not None
        return t.game.codec.legal_actions(t.engine)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._t.deal.outcomes()

    def _apply_action(self, action: int) -> None:
        t = self._t
        if t.pending():
            t.deal_one(int(action))
            return
        assert t.engine is not None
        move = t.game.codec.move_of(t.engine, int(action))
        t.engine.apply(move)
        t.moves.append(move)

    def _action_to_string(self, player: int, action: int) -> str:
        t = self._t
        if player == pyspiel.PlayerId.CHANCE:
            return t.deal.outcome_str(int(action))
        return t.game.codec.to_str(int(action))

    # -- outcome ---------------------------------------------------------------------------------
    def returns(self) -> list[float]:
        t = self._t
        if not self.is_terminal():
            return [0.0] * t.game.players
        assert t.engine is not None
        return [float(x) for x in t.engine.result().win_shares()]

    # -- information -----------------------------------------------------------------------------
    def view(self, player: int | None) -> dict[str, Any] | None:
        """The engine view of ``player`` (None: public facts only), or None while the set-up
        is being dealt."""
        t = self._t
        if t.engine is None or t.pending():
            return None
        return t.engine.view(player)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> PolisState:
        """A state the player cannot tell from this one, drawn by the engine's determinize."""
        t = self._t
        view = self.view(player_id)
        if view is None:  # nothing is known yet beyond the parameters
            return self.get_game().new_initial_state()  # type: ignore[no-any-return]
        seed = int(float(probability_sampler()) * 2**52) if callable(probability_sampler) else 0
        sampled = t.game.engine.determinize(view, random.Random(seed))
        out: PolisState = self.get_game().new_initial_state()
        o = out._t
        o.deal.adopt(sampled, len(getattr(t.deal, "rounds", ())))
        o.free_until = o.deal.free_until()
        o.engine = sampled
        o.moves = list(t.moves)
        return out

    def __str__(self) -> str:
        t = self._t
        deal = t.deal
        if isinstance(deal.first, int) and deal.ready():
            head = json.dumps(deal.setup(), sort_keys=True)
            rounds = getattr(deal, "rounds", [])
            if rounds and len(rounds[-1]) < 25:  # a Quadropolis round being dealt
                head += f"\ndealing round {len(rounds)}: {rounds[-1]}"
        else:
            head = repr({k: getattr(deal, k) for k in deal.__slots__})
        moves = " | ".join(t.engine.move_to_str(m) for m in t.moves) if t.engine else ""
        return f"{head}\nmoves: {moves}"


class PolisObserver:
    """OpenSpiel's PyObserver: the view encoding as tensor, strings from the view.

    ``private_info=SINGLE_PLAYER`` (the default) shows the player's own view;
    ``private_info=NONE`` shows only public facts (a spectator's view, seated at the player).
    """

    def __init__(
        self,
        game: PolisGame,
        perfect_recall: bool,
        iig_obs_type: pyspiel.IIGObservationType | None = None,
    ) -> None:
        private = iig_obs_type.private_info if iig_obs_type is not None else None
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("polis observers show one player's private facts or none, not all")
        self.public_only = private == pyspiel.PrivateInfoType.NONE
        self.game = game
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(game.encoder.size, np.float32)
        self.dict = game.encoder.layout.views(self.tensor)

    def _view(self, state: PolisState, player: int) -> dict[str, Any] | None:
        return state.view(None if self.public_only else player)

    def set_from(self, state: PolisState, player: int) -> None:
        view = self._view(state, player)
        if view is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = self.game.encoder.encode(view, seat=player)

    def string_from(self, state: PolisState, player: int) -> str:
        view = self._view(state, player)
        if view is None:
            return f"p{player} dealing the set-up"
        if self.perfect_recall:
            known = {k: view[k] for k in RECALL_KEYS[self.game.NAME]}
            known["seat"] = player
            return json.dumps(known, sort_keys=True, separators=(",", ":"))
        engine = state._t.engine
        assert engine is not None
        return engine.render_text(None if self.public_only else player)


def _register() -> None:
    for cls in (QuadropolisSpielGame, MetropolysSpielGame):
        pyspiel.register_game(game_type(cls.NAME), cls)


_register()

__all__ = ["MetropolysSpielGame", "PolisGame", "PolisState", "QuadropolisSpielGame"]
