"""OpenSpiel games ``polis_<name>`` for every registered game, registered from Python.

Importing this module registers, with ``pyspiel.register_game``, each game of the polis
registry that has a chance model and an observation encoder (its ``chance`` and
``observation`` plugins); then ``pyspiel.load_game("polis_<name>(mode=...,players=3)")``
works like any game. :func:`register` adds a game registered later. Parameters: ``mode``
(default: the game's default mode), ``players``, ``first_player`` (-1 = a chance node, else
that seat opens), and each rules option of the game by its own name with its default value
(``polis_quadropolis(face_down_tiles=unselectable)``, as in the other environments'
``options``; the game validates them).

* Chance: the set-up is dealt by explicit chance nodes (the game's
  :class:`~polis.research.chance.ChanceModel`), which also bounds the game for OpenSpiel.
* Actions: the game's own fixed action space (``game.action_space(mode)``).
* Returns: the win share at the end (constant sum 1).
* Information: the observation tensor is the game's view encoding; the information-state
  string holds exactly what the player has seen (the chance model's ``recall`` of the view:
  own secrets, public set-up facts, every public move), the observation string is the
  engine's text picture for that player. The information-state tensor is the same view
  encoding (the current view; it does not repeat the history).
* ``resample_from_infostate`` asks the engine's ``determinize`` for a world consistent with
  the player's view; parts the chance model has not dealt yet stay chance nodes.

All data of one OpenSpiel state (engine state, chance record, moves) lives in one
:class:`SpielStateData`, whose copy is ``engine.clone()``, so OpenSpiel's clone (a deep copy
of the Python attributes) stays cheap, and whose pickled form is the chance record plus the
moves in notation (OpenSpiel's serialization).
"""

from __future__ import annotations

import json
import random
from typing import Any, ClassVar

import numpy as np
import pyspiel

from polis.core.errors import PolisError
from polis.core.moves import ActionSpace, Move
from polis.core.parts import CHANCE, OBSERVATION
from polis.core.protocol import Game, GameState
from polis.core.registry import games, get_game
from polis.core.view import View
from polis.research.chance import ChanceModel, Deal
from polis.research.observations import Encoder, encoder

#: Name prefix of the polis games in pyspiel's registry.
PREFIX = "polis_"


#: Parameters every polis OpenSpiel game has besides the rules options.
TABLE_PARAMETERS = ("mode", "players", "first_player")


def option_defaults(game: Game) -> dict[str, Any]:
    """The game's rules options with their default values (what a new game holds)."""
    defaults = game.new_game(game.default_mode, game.min_players, seed=0).options()
    clash = set(defaults) & set(TABLE_PARAMETERS)
    if clash:
        raise ValueError(f"{game.name} options may not be named {', '.join(sorted(clash))}")
    return defaults


def game_type(game: Game) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=f"{PREFIX}{game.name}",
        long_name=f"polis {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "mode": game.default_mode,
            "players": game.min_players,
            "first_player": -1,
            **option_defaults(game),
        },
    )


class SpielStateData:
    """Everything one OpenSpiel state holds: the engine state, its chance record, its moves.

    ``engine`` is None until the chance record is ready (enough is dealt for a first move).
    """

    __slots__ = ("deal", "engine", "free_until", "game", "moves")

    def __init__(self, game: PolisSpielGame, deal: Deal) -> None:
        self.game = game
        self.deal = deal
        self.engine: GameState | None = None
        self.moves: list[Move] = []
        #: No chance node is due while fewer moves than this have been played.
        self.free_until = deal.free_until()

    def build(self) -> None:
        """(Re)build the engine from the dealt set-up and replay the moves."""
        g = self.game
        engine = g.polis_game.new_game(
            g.mode, g.players, setup=self.deal.setup(), options=g.options
        )
        for move in self.moves:
            engine.apply(move)
        self.engine = engine

    def pending(self) -> bool:
        """Is a chance node due?"""
        return len(self.moves) >= self.free_until

    def deal_one(self, outcome: int) -> None:
        """Apply one chance outcome; (re)build the engine when the deal says so."""
        if self.deal.apply(outcome):
            self.build()
        self.free_until = self.deal.free_until()

    def world(self, rng: random.Random) -> GameState:
        """A complete engine state here, for a rollout: what is not dealt yet drawn from
        ``rng`` (a whole new game while nothing is dealt)."""
        if self.engine is None:
            g = self.game
            return g.polis_game.new_game(
                g.mode, g.players, seed=rng.getrandbits(32), options=g.options
            )
        return self.deal.world(self.engine, rng)

    def __deepcopy__(self, memo: dict[int, Any]) -> SpielStateData:
        out = SpielStateData(self.game, self.deal.copy())
        out.engine = self.engine.clone() if self.engine is not None else None
        out.moves = list(self.moves)
        out.free_until = self.free_until
        return out

    def __getstate__(self) -> dict[str, Any]:
        return {
            "params": self.game.params,
            "deal": self.deal.copy(),
            "moves": [m.text for m in self.moves],
        }

    def __setstate__(self, data: dict[str, Any]) -> None:
        params = dict(data["params"])
        name = params.pop("game")
        self.game = pyspiel.load_game(f"{PREFIX}{name}", params)
        self.deal = data["deal"]
        self.engine = None
        self.moves = []
        self.free_until = self.deal.free_until()
        if self.deal.ready():
            self.build()
            assert self.engine is not None
            for text in data["moves"]:
                self.moves.append(self.engine.apply_str(text))


class PolisSpielGame(pyspiel.Game):  # type: ignore[misc]
    """One polis game as an OpenSpiel game: one class for all games.

    :func:`register` gives pyspiel a subclass per game that only sets :attr:`polis_game`:
    pyspiel calls a game's creator with the parameters alone, and keeps the creator until
    after Python has shut down, which a class survives but a ``functools.partial`` does not
    (the interpreter aborts at exit).
    """

    #: The polis game played.
    polis_game: ClassVar[Game]

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        polis_game = self.polis_game
        defaults = option_defaults(polis_game)
        merged = {
            "mode": polis_game.default_mode,
            "players": polis_game.min_players,
            "first_player": -1,
            **defaults,
            **(params or {}),
        }
        try:
            self.mode, self.players = polis_game.check_table(
                str(merged["mode"]), int(merged["players"])
            )
        except PolisError as exc:
            raise ValueError(str(exc)) from None
        first = int(merged["first_player"])
        if first >= self.players:
            raise ValueError(f"first_player {first} is not a seat of {self.players}")
        unknown = set(merged) - set(TABLE_PARAMETERS) - set(defaults)
        if unknown:
            raise ValueError(f"unknown parameter(s) {', '.join(sorted(unknown))}")
        #: The rules options of every game of this table (checked by the game here).
        self.options = {k: merged[k] for k in defaults}
        try:
            polis_game.new_game(self.mode, self.players, seed=0, options=self.options)
        except PolisError as exc:
            raise ValueError(str(exc)) from None
        self.first = first if first >= 0 else None
        self.chance: ChanceModel = polis_game.plugin(CHANCE)
        self.space: ActionSpace[Move] = polis_game.action_space(self.mode)
        self.encoder: Encoder[Any] = encoder(polis_game, self.mode, self.players)
        self.params = {"game": polis_game.name, **merged}
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.space),
            max_chance_outcomes=self.chance.max_outcomes(self.mode, self.players),
            num_players=self.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=self.chance.max_game_length(self.mode, self.players),
        )
        super().__init__(
            game_type(polis_game),
            info,
            {"mode": self.mode, "players": self.players, "first_player": first, **self.options},
        )

    def new_initial_state(self) -> PolisSpielState:
        return PolisSpielState(self)

    def max_chance_nodes_in_history(self) -> int:
        return self.chance.max_chance_nodes(self.mode, self.players)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> PolisObserver:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return PolisObserver(self, perfect_recall, iig_obs_type)


class PolisSpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state wrapping a polis engine state (all data in :attr:`data`)."""

    def __init__(self, game: PolisSpielGame) -> None:
        super().__init__(game)
        self.data = SpielStateData(game, game.chance(game.mode, game.players, game.first))

    # -- whose turn ------------------------------------------------------------------------------
    def current_player(self) -> int:
        d = self.data
        if d.pending():
            return int(pyspiel.PlayerId.CHANCE)
        assert d.engine is not None
        if d.engine.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return d.engine.current_player()

    def is_terminal(self) -> bool:
        d = self.data
        return d.engine is not None and not d.pending() and d.engine.is_terminal()

    # -- actions ---------------------------------------------------------------------------------
    def _legal_actions(self, player: int) -> list[int]:
        d = self.data
        assert d.engine is not None
        ids: list[int] = d.game.encoder.legal_ids(d.engine).tolist()
        return ids

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.data.deal.outcomes()

    def _apply_action(self, action: int) -> None:
        d = self.data
        if d.pending():
            d.deal_one(int(action))
            return
        assert d.engine is not None
        move = d.game.space.move(int(action))
        d.engine.apply(move)
        d.moves.append(move)

    def _action_to_string(self, player: int, action: int) -> str:
        d = self.data
        if player == pyspiel.PlayerId.CHANCE:
            return d.deal.outcome_str(int(action))
        return d.game.space.move(int(action)).text

    # -- outcome ---------------------------------------------------------------------------------
    def returns(self) -> list[float]:
        d = self.data
        if not self.is_terminal():
            return [0.0] * d.game.players
        assert d.engine is not None
        return [float(x) for x in d.engine.result().win_shares()]

    # -- information -----------------------------------------------------------------------------
    def view(self, player: int | None) -> View | None:
        """The engine view of ``player`` (None: public facts only), or None while the set-up
        is being dealt."""
        d = self.data
        if d.engine is None or d.pending():
            return None
        return d.engine.view(player)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> PolisSpielState:
        """A state the player cannot tell from this one, drawn by the engine's determinize."""
        d = self.data
        view = self.view(player_id)
        if view is None:  # nothing is known yet beyond the parameters
            return self.get_game().new_initial_state()  # type: ignore[no-any-return]
        seed = int(float(probability_sampler()) * 2**52) if callable(probability_sampler) else 0
        sampled = d.game.polis_game.determinize(view, random.Random(seed))
        out: PolisSpielState = self.get_game().new_initial_state()
        o = out.data
        o.deal = d.deal.resampled(sampled)
        o.free_until = o.deal.free_until()
        o.engine = sampled
        o.moves = list(d.moves)
        return out

    def __str__(self) -> str:
        d = self.data
        return f"{d.deal.describe()}\nmoves: {' | '.join(m.text for m in d.moves)}"


class PolisObserver:
    """OpenSpiel's PyObserver: the view encoding as tensor, strings from the view.

    ``private_info=SINGLE_PLAYER`` (the default) shows the player's own view;
    ``private_info=NONE`` shows only public facts (a spectator's view, seated at the player).
    """

    def __init__(
        self,
        game: PolisSpielGame,
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

    def _view(self, state: PolisSpielState, player: int) -> View | None:
        return state.view(None if self.public_only else player)

    def set_from(self, state: PolisSpielState, player: int) -> None:
        d = state.data
        if d.engine is None or d.pending():
            self.tensor.fill(0.0)
        else:
            encoded = self.game.encoder.encode_state(d.engine, player, public=self.public_only)
            self.tensor[:] = encoded

    def string_from(self, state: PolisSpielState, player: int) -> str:
        view = self._view(state, player)
        if view is None:
            return f"p{player} dealing the set-up"
        if self.perfect_recall:
            known = self.game.chance.recall(view)
            known["seat"] = player
            return json.dumps(known, sort_keys=True, separators=(",", ":"))
        engine = state.data.engine
        assert engine is not None
        return engine.render_text(None if self.public_only else player)


_REGISTERED: set[str] = set()


def register(game: Game | str) -> str:
    """Register ``game`` with pyspiel as ``polis_<name>`` (once); returns that name.

    The game needs ``chance`` and ``observation`` plugins (InputError names the missing one).
    """
    if isinstance(game, str):
        game = get_game(game)
    for part in (CHANCE, OBSERVATION):
        game.plugin(part)  # InputError when the game lacks it
    short = f"{PREFIX}{game.name}"
    if short not in _REGISTERED:
        per_game = type(short, (PolisSpielGame,), {"polis_game": game, "__module__": __name__})
        pyspiel.register_game(game_type(game), per_game)
        _REGISTERED.add(short)
    return short


def register_games() -> list[str]:
    """Register every game of the polis registry that has the plugins OpenSpiel needs."""
    found = {game.name: game for game in games().values()}
    return [
        register(game)
        for game in found.values()
        if CHANCE.name in game.plugins and OBSERVATION.name in game.plugins
    ]


register_games()

__all__ = [
    "PREFIX",
    "PolisObserver",
    "PolisSpielGame",
    "PolisSpielState",
    "SpielStateData",
    "register",
    "register_games",
]
