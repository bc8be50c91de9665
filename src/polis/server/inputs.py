"""Text from clients, checked before it reaches a game, the store or another player's screen.

A NUL cannot be stored in PostgreSQL, a lone surrogate cannot be encoded at all, and control
or bidirectional-override characters in a name garble other people's screens; each is refused
with a 4xx that says which, instead of failing deep inside with a 500.
"""

from __future__ import annotations

import re
import unicodedata

#: Characters that reorder the text around them (a name could make another look like it).
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: Game ids and seat tokens are URL-safe base64 (``secrets.token_urlsafe``).
TOKEN_CHARS = re.compile(r"[A-Za-z0-9_-]+")


def text_problem(value: str) -> str | None:
    """Why ``value`` cannot be accepted as text, or None when it can."""
    for ch in value:
        category = unicodedata.category(ch)
        if category == "Cs":
            return "it contains an unpaired surrogate (not valid Unicode)"
        if category == "Cc":
            return f"it contains the control character U+{ord(ch):04X}"
        if ch in BIDI_CONTROLS:
            return f"it contains the direction control U+{ord(ch):04X}"
    return None


def check_text(value: str, what: str) -> str:
    """``value`` itself; ValueError naming ``what`` and the problem otherwise."""
    problem = text_problem(value)
    if problem:
        raise ValueError(f"{what} cannot be used: {problem}")
    return value


def is_token(value: str) -> bool:
    """True for a string shaped like a game id or seat token (nothing else can be one)."""
    return TOKEN_CHARS.fullmatch(value) is not None


def printable(value: str) -> str:
    """``value`` safe to put in a JSON answer encoded as UTF-8 (lone surrogates escaped)."""
    return value.encode("utf-8", "backslashreplace").decode("utf-8")
