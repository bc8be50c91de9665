"""Research interfaces: PettingZoo, Gymnasium and OpenSpiel adapters over the core protocol.

Each adapter lives in its own module and imports its library only there, so the core package
stays light (``pip install -e '.[rl]'`` for PettingZoo/Gymnasium, ``'.[openspiel]'`` for
OpenSpiel):

* :mod:`polis.research.actions` - fixed action encodings (one id per notation move).
* :mod:`polis.research.observations` - fixed-shape encodings of one player's view.
* :mod:`polis.research.pettingzoo_env` - ``PolisAECEnv`` (all seats, AEC API).
* :mod:`polis.research.gym_env` - ``PolisGymEnv`` (one seat against polis bots);
  registers ``polis/Quadropolis-v0`` and ``polis/Metropolys-v0``.
* :mod:`polis.research.openspiel_game` - registers ``polis_quadropolis`` and
  ``polis_metropolys`` with pyspiel; :mod:`polis.research.spiel_arena` seats OpenSpiel bots
  and polis bots at one table.
"""
