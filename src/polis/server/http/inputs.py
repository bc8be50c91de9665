"""Text from clients, checked before it reaches a game, the store or another player's screen.

A NUL cannot be stored in PostgreSQL, a lone surrogate cannot be encoded at all, and control
or bidirectional-override characters in a name garble other people's screens; each is refused
with a 4xx that says which, instead of failing deep inside with a 500.
"""

from __future__ import annotations

import re
import unicodedata

from pydantic import BaseModel, ConfigDict

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


#: Categories a name may not hold: control, format (zero-width, direction marks), private use,
#: unassigned and surrogate code points, and line or paragraph separators. Each can make one
#: name look like another's, or garble the screens it is shown on.
NAME_REFUSED = frozenset({"Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp"})
#: How a refusal names each category (the rest are control characters).
NAME_KINDS = {
    "Cf": "invisible format",
    "Co": "private-use",
    "Cn": "unassigned",
    "Cs": "surrogate",
    "Zl": "line separator",
    "Zp": "paragraph separator",
}


class Body(BaseModel):
    """A request body: a field the server does not know is refused (422 naming it), never
    silently dropped (a client that misspells ``hot_seat`` must not get another table)."""

    model_config = ConfigDict(extra="forbid")


def check_name(value: str, what: str = "the name") -> str:
    """``value`` in NFC with its ends trimmed; ValueError when blank or when it holds a
    character of :data:`NAME_REFUSED` (so "A" and "A" + zero-width spaces cannot both sit)."""
    value = unicodedata.normalize("NFC", value).strip()
    if not value:
        raise ValueError(f"{what} cannot be blank")
    for ch in value:
        category = unicodedata.category(ch)
        if category in NAME_REFUSED:
            kind = NAME_KINDS.get(category, "control")
            raise ValueError(f"{what} cannot hold the {kind} character U+{ord(ch):04X}")
    return value


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
