"""Names and passwords: what an account may be called, what password it may have, and how the
password is kept (argon2id, through argon2-cffi, with its RFC 9106 parameters).

Checking a password takes the same time whether the name exists or not (a hash is checked in
both cases), so a login's answer time does not tell which names have accounts.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from importlib.resources import files

from argon2 import PasswordHasher, profiles
from argon2.exceptions import InvalidHashError, VerificationError

from polis.core.registry import games
from polis.server.errors import ServerError

#: Password length bounds (the upper one keeps a hash's input bounded).
MIN_PASSWORD = 10
MAX_PASSWORD = 256
#: Names: 3 to 20 letters, digits, "-" or "_", beginning with a letter.
NAME = re.compile(r"[^\W\d_][\w-]{2,19}")
#: Names nobody may take (they would read as the server speaking).
RESERVED = frozenset({"admin", "administrator", "polis", "server", "system", "moderator", "bot"})

#: argon2id with RFC 9106's second recommended option (t=3, 64 MiB, p=4).
PARAMETERS = profiles.RFC_9106_LOW_MEMORY
HASHER = PasswordHasher.from_parameters(PARAMETERS)
#: What an unknown name's password is checked against (equal timing).
DUMMY_PASSWORD = "not a password anyone has: equal timing"


def check_name(name: str) -> str:
    """The name, or ServerError ``invalid`` saying why it cannot be an account's."""
    name = unicodedata.normalize("NFKC", name.strip())
    if not NAME.fullmatch(name):
        raise ServerError(
            "invalid",
            "a name has 3 to 20 letters, digits, '-' or '_', and begins with a letter",
        )
    if name.casefold() in RESERVED:
        raise ServerError("invalid", f"the name {name!r} is reserved")
    return name


@cache
def common_passwords() -> frozenset[str]:
    """A small built-in list of passwords attackers try first (case-folded)."""
    text = files("polis.server.accounts").joinpath("common_passwords.txt").read_text("utf-8")
    listed = {
        line.strip().casefold() for line in text.splitlines() if line.strip() and line[0] != "#"
    }
    # what a player of this site tries first: the site's and the games' names
    sites = ["polis", *games()]
    listed |= {f"{name}{tail}" for name in sites for tail in ("", "1", "12", "123", "1234", name)}
    return frozenset(listed)


def password_problem(password: str, name: str) -> str | None:
    """Why ``password`` may not be used by ``name`` (None: it may)."""
    if len(password) < MIN_PASSWORD:
        return f"a password needs at least {MIN_PASSWORD} characters"
    if len(password) > MAX_PASSWORD:
        return f"a password has at most {MAX_PASSWORD} characters"
    folded = password.casefold()
    if folded in common_passwords():
        return "this password is on the list of passwords attackers try first: choose another"
    if len(set(folded)) < 4:
        return "this password repeats too few characters: choose another"
    if name.casefold() in folded:
        return "a password may not contain the account's name"
    return None


def check_password(password: str, name: str) -> None:
    problem = password_problem(password, name)
    if problem:
        raise ServerError("invalid", problem)


def hash_password(password: str) -> str:
    return HASHER.hash(password)


def verify(stored: str | None, password: str) -> bool:
    """Whether ``password`` matches ``stored`` (None: no such account; still takes the time
    of a check)."""
    if len(password) > MAX_PASSWORD:
        return False
    try:
        return HASHER.verify(stored or dummy_hash(), password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


@cache
def dummy_hash() -> str:
    return HASHER.hash(DUMMY_PASSWORD)


def needs_rehash(stored: str) -> bool:
    """Whether a stored hash was made with weaker parameters than today's."""
    return HASHER.check_needs_rehash(stored)
