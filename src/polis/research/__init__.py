"""Research interfaces: PettingZoo, Gymnasium and OpenSpiel adapters over the core protocol.

They name no game: every game of the registry is offered, with its own action space
(``game.action_space(mode)``), observation encoder (``game.plugin(OBSERVATION)``) and, for
OpenSpiel, chance model (``game.plugin(CHANCE)``); the keys and the interfaces the games
implement live in :mod:`polis.core.parts`, so no game imports from here. Each adapter lives
in its own module and imports its library only there, so the core package stays light
(``pip install -e '.[rl]'`` for PettingZoo/Gymnasium, ``'.[openspiel]'`` for OpenSpiel):

* :mod:`polis.research.actions` - legal-action ids and masks over a game's action space.
* :mod:`polis.research.observations` - a game's encoder for a table; re-exports the base of
  the games' encoders (:mod:`polis.core.parts.observation`): the view encoding defines the
  features, each game's fast paths compute them (and the masks) from states.
* :mod:`polis.research.chance` - re-exports the chance-model protocol the games implement for
  OpenSpiel (:mod:`polis.core.parts.chance`).
* :mod:`polis.research.session` - one game seen through the encodings (shared by the envs).
* :mod:`polis.research.pettingzoo_env` - ``PolisAECEnv`` (all seats, AEC API) and
  ``PolisParallelEnv`` (the parallel API: one move per step).
* :mod:`polis.research.gym_env` - ``PolisGymEnv`` (one seat against polis bots); registers
  ``polis/<Title>-v0`` for every game.
* :mod:`polis.research.gym_vector` - ``PolisVectorEnv``: many such tables as one Gymnasium
  vector environment (numpy arrays in and out, same-step auto-reset).
* :mod:`polis.research.batch` - ``BatchEnv``: batched self-play, every seat of many tables
  through one ``step(actions)`` with numpy arrays in and out (pgx-style), seeded per table.
* :mod:`polis.research.compiled_batch` - ``CompiledBatchEnv``: the same API on the games'
  compiled engines (numba), one compiled call per step for all tables.
* :mod:`polis.research.openspiel_game` - registers ``polis_<name>`` with pyspiel for every
  game; :mod:`polis.research.spiel_arena` seats OpenSpiel bots and polis bots at one table,
  :mod:`polis.research.spiel_evaluator` is a fast rollout evaluator for OpenSpiel's searches.
"""
