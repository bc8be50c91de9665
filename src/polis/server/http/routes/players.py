"""Players over HTTP: an account's public profile and the leaderboards (both public, without
a session: :mod:`polis.server.accounts.profiles` says what they hold and what they never do).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from polis.server.accounts import profiles
from polis.server.errors import ServerError
from polis.server.http.deps import HubDep

router = APIRouter(prefix="/api")

#: Longest name looked up (account names are at most 20 characters).
MAX_NAME = 40


@router.get("/players/{name}")
async def player(name: str, hub: HubDep) -> dict[str, Any]:
    """An account's profile: ratings (with their history), statistics per game and mode,
    and its last finished games. 404 for an unknown, deleted or suspended name."""
    engine = hub.store.engine
    found: dict[str, Any] | None = None
    if len(name) <= MAX_NAME:
        found = await hub.patiently(lambda: profiles.profile(engine, name), "a profile")
    if found is None:
        raise ServerError("not_found", f"no player is called {name[:MAX_NAME]!r}")
    return found


@router.get("/leaderboard")
async def leaderboard(
    hub: HubDep, game: str | None = None, mode: str | None = None, bots: bool = True
) -> dict[str, Any]:
    """The best rated accounts of a game (default: the first served) and mode (default: its
    first); ``bots=false`` lists people only."""
    name = game if game is not None else next(iter(hub.games))
    if name not in hub.games:
        raise ServerError("not_found", f"this server has no game {name[:32]!r}")
    served = hub.games[name]
    chosen = mode if mode is not None else served.default_mode
    if chosen not in served.modes:
        raise ServerError("not_found", f"{name} has no mode {chosen[:16]!r}")
    engine = hub.store.engine
    board: dict[str, Any] = await hub.patiently(
        lambda: profiles.leaderboard(engine, name, chosen, bots), "a leaderboard"
    )
    return board
