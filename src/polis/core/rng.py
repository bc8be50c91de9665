"""The one way engines turn a seed into a random number generator."""

from __future__ import annotations

import random

from polis.core.errors import InputError


def seeded_rng(seed: object) -> random.Random:
    """``random.Random(seed)`` for a seed a record may hold (a number, a string or null).

    Anything else (a list, an object) is refused with :class:`InputError` instead of the
    ``TypeError`` the random module would raise.
    """
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int | float | str)):
        raise InputError(f"seed must be a number or null, not {seed!r}")
    return random.Random(seed)
