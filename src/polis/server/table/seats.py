"""Seat tokens: unguessable secrets handed to people, of which the store keeps only hashes.

A token is the only proof that a connection may act for a seat, so it is drawn from
``secrets`` and never written anywhere but into the invite link given to its holder.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence


def new_token() -> str:
    """A fresh seat token (about 190 bits of entropy, URL-safe)."""
    return secrets.token_urlsafe(24)


def new_game_id() -> str:
    """A public game id: unguessable enough that game ids cannot be enumerated."""
    return secrets.token_urlsafe(9)


def hash_token(token: str) -> str:
    """The stored form of a token (SHA-256: tokens are long and random, so no salt)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str, stored_hash: str | None) -> bool:
    """Constant-time comparison of a presented token with a stored hash."""
    if stored_hash is None:
        return False
    return hmac.compare_digest(hash_token(token), stored_hash)


def nobody_else(kinds: Sequence[str], hot_seat: bool) -> bool:
    """True where no other person can sit at the table: no seat is open (``"open"``: anyone
    may take it), and at most one seat is a person's (``"human"``) or every person's seat is
    played from the creator's device (``hot_seat``). Only there may the creator choose the
    deal, and only there are hints on by default: nobody else's secrets or game are at stake.
    """
    if "open" in kinds:
        return False
    return hot_seat or sum(kind == "human" for kind in kinds) <= 1
