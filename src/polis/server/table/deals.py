"""How server games are dealt: from a secret nobody can search for or choose.

The engines draw every chance outcome from ``random.Random(seed)``. A Mersenne Twister seeded
with a small number is no secret: searching all 2**31 seeds for the one whose deal matches
what a seat sees at the start takes minutes, and then every face-down tile, future round and
other player's card is known. So a server game's seed is 256 bits from the operating
system's secure source (``secrets``), written as hex text (a record's seed may be a string;
``random.Random`` hashes a string's every bit into its state). It stays in the store and
appears only in the record, which is given out once the game is over.

A seed chosen by the game's creator would let them know the deal of a game against other
people; it is accepted only where every seat is played from the creator's device or by a bot
(:func:`polis.server.table.seats.nobody_else`): at most one seat held by a person (a game against
bots, or bots alone for analysis), or a hot-seat game whose creator holds every seat, and
never with an open seat. Such a table is never listed and its seats are never given to
anyone (:mod:`polis.server.table.open_tables`); every seat's state message, the summary and the
record say so (``seed_chosen``).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from polis.server.table.seats import nobody_else

#: Bits of a server-drawn seed.
SEED_BITS = 256


def new_seed() -> str:
    """A fresh secret seed for a server game (hex text of :data:`SEED_BITS` random bits)."""
    return secrets.token_hex(SEED_BITS // 8)


def chosen_seed_refusal(kinds: Sequence[str], hot_seat: bool, listed: bool) -> str | None:
    """Why a chosen seed is not allowed at this table (seat kinds in order: ``human``,
    ``bot``, ``open``), or None."""
    if "open" in kinds:
        return (
            "a chosen seed would tell the game's creator the secrets of whoever takes the "
            "open seat: a table with an open seat is always dealt from a secret seed"
        )
    if not nobody_else(kinds, hot_seat):
        return (
            "a chosen seed would tell the game's creator every other player's secrets: it is "
            "allowed only with at most one person at the table (against bots, or bots alone) "
            'or in a hot-seat game ("hot_seat": true, one person holding every seat)'
        )
    if listed:
        return (
            'a table with a chosen seed is never listed in the lobby: leave out "listed" or '
            "set it to false"
        )
    return None
