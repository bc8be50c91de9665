"""How server games are dealt: from a secret nobody can search for or choose.

The engines draw every chance outcome from ``random.Random(seed)``. A Mersenne Twister seeded
with a small number is no secret: searching all 2**31 seeds for the one whose deal matches
what a seat sees at the start takes minutes, and then every face-down tile, future round and
other player's card is known. So a server game's seed is 256 bits from the operating
system's secure source (``secrets``), written as hex text (a record's seed may be a string;
``random.Random`` hashes a string's every bit into its state). It stays in the store and
appears only in the record, which is given out once the game is over.

A seed chosen by the game's creator would let them know the deal of a game against other
people; it is accepted only where no other person's secrets are at stake: at most one seat
held by a person (a game against bots, or bots alone for analysis), or a hot-seat game whose
creator holds every seat. The record says so (``seed_chosen``).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

#: Bits of a server-drawn seed.
SEED_BITS = 256


def new_seed() -> str:
    """A fresh secret seed for a server game (hex text of :data:`SEED_BITS` random bits)."""
    return secrets.token_hex(SEED_BITS // 8)


def chosen_seed_refusal(kinds: Sequence[str], hot_seat: bool) -> str | None:
    """Why a chosen seed is not allowed at this table (seat kinds in order), or None."""
    people = sum(1 for kind in kinds if kind == "human")
    if people <= 1 or hot_seat:
        return None
    return (
        "a chosen seed would tell the game's creator every other player's secrets: it is "
        "allowed only with at most one person at the table (against bots, or bots alone) or "
        'in a hot-seat game ("hot_seat": true, one person holding every seat)'
    )
