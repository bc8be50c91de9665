"""The agent a bot plays with, from the same specs ``polis arena`` and ``polis play`` take.

``random``, ``greedy``, ``mcts:1s``, a level (``easy``, ``medium``, ``hard``) ...: made by
:func:`polis.bots.make_agent`, as everywhere in polis. Anything else of the form
``module:attribute`` (or ``path/to/file.py:attribute``) names a factory of your own: an
:class:`~polis.bots.Agent` made by calling it with the game's seed (an ``int``) if it takes
an argument, else with none; or the attribute may be an agent itself. A factory is called
once per game, so an agent may keep memory within a game.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from polis.bots import AGENTS, LEVELS, Agent, Budget, make_agent
from polis.bots.factory import FIXED_BUDGET
from polis.core.errors import InputError


def is_builtin(spec: str) -> bool:
    """Whether ``spec`` names one of polis's agents or levels (``mcts:1s`` included)."""
    return spec.partition(":")[0].strip() in {*AGENTS, *LEVELS}


def _module(name: str) -> Any:
    """A module by dotted name, or the Python file at ``name``."""
    if name.endswith(".py") or "/" in name or "\\" in name:
        path = Path(name)
        if not path.is_file():
            raise InputError(f"no agent file {name!r}")
        module_name = f"polis_agent_{abs(hash(path.resolve()))}"
        spec = importlib.util.spec_from_file_location(module_name, path)
        if spec is None or spec.loader is None:
            raise InputError(f"cannot load {name!r} as Python")
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
        return module
    return importlib.import_module(name)


def load_factory(spec: str) -> Any:
    """The object ``module:attribute`` names; InputError naming what went wrong."""
    module_name, _, attr = spec.rpartition(":")
    if not module_name or not attr:
        known = ", ".join([*AGENTS, *LEVELS])
        raise InputError(f"unknown agent {spec!r}: choose one of {known}, or module:attribute")
    try:
        found = getattr(_module(module_name), attr)
    except (ImportError, AttributeError, OSError, SyntaxError) as exc:
        raise InputError(f"cannot load the agent {spec!r}: {exc}") from None
    if not callable(found) and not hasattr(found, "act"):
        raise InputError(f"{spec!r} is neither an agent nor a factory of agents")
    return found


def _takes_seed(factory: Callable[..., Any]) -> bool:
    try:
        parameters = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(
        p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL) for p in parameters
    )


class AgentMaker:
    """Makes one fresh agent per game from a spec (checked when made: a typo, or a factory
    that fails, such as a model file that is not there, fails at once, not at the first
    game)."""

    def __init__(self, spec: str) -> None:
        self.spec = spec.strip()
        #: The factory (or agent) a ``module:attribute`` spec names; None: polis's own.
        self.factory: Any = None
        if is_builtin(self.spec):
            make_agent(self.spec, 0)  # InputError for a bad budget or name
        else:
            self.factory = load_factory(self.spec)
            try:  # one agent made now: a factory that cannot make one fails before play
                self.make(0)
            except InputError:
                raise
            except Exception as exc:
                raise InputError(
                    f"the agent {self.spec!r} could not be made: {type(exc).__name__}: {exc}"
                ) from None

    def make(self, seed: int) -> tuple[Agent, Budget]:
        """A fresh agent for one game (seeded) and its budget."""
        factory = self.factory
        if factory is None:
            return make_agent(self.spec, seed)
        if hasattr(factory, "act") and not isinstance(factory, type):
            return factory, FIXED_BUDGET
        agent = factory(seed) if _takes_seed(factory) else factory()
        if not hasattr(agent, "act"):
            raise InputError(f"{self.spec!r} made {agent!r}, which is no agent (it has no act)")
        budget = getattr(agent, "budget", FIXED_BUDGET)
        return agent, budget if isinstance(budget, Budget) else FIXED_BUDGET
