"""What the routes need, taken from the app (``app.state``) through FastAPI dependencies.

``create_app`` puts one :class:`~polis.server.live.hub.Hub` and the games' web clients on the
app's state; nothing is global, so tests run several servers side by side.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from starlette.requests import HTTPConnection

from polis.server.accounts.sessions import SignedIn
from polis.server.http.webfiles import GameClient
from polis.server.live.hub import Hub
from polis.server.live.room import Room
from polis.server.store.faults import hurry


async def get_hub(conn: HTTPConnection) -> Hub:
    """The hub; an HTTP request (not a WebSocket) is marked as in a hurry, so that it waits
    for an unreachable store briefly (:func:`~polis.server.store.faults.hurry`). Async, so that it
    runs in the request's own task."""
    hub: Hub = conn.app.state.hub
    if conn.scope["type"] == "http":
        hurry(hub.config.http_patience)
    return hub


def get_clients(conn: HTTPConnection) -> dict[str, GameClient]:
    clients: dict[str, GameClient] = conn.app.state.clients
    return clients


HubDep = Annotated[Hub, Depends(get_hub)]
ClientsDep = Annotated[dict[str, GameClient], Depends(get_clients)]


async def get_room(game_id: str, hub: HubDep) -> Room:
    """The room of the game in the path (404 for an unknown id)."""
    return await hub.room(game_id)


RoomDep = Annotated[Room, Depends(get_room)]


async def get_signed_in(request: Request, hub: HubDep) -> SignedIn | None:
    """The account a request acts for (CSRF checked), or None: a guest's request."""
    return await hub.accounts.signed_in(request, request.method)


async def require_signed_in(request: Request, hub: HubDep) -> SignedIn:
    """The account a request acts for; 401 (or 403 without the CSRF token) otherwise."""
    return await hub.accounts.require(request, request.method)


MaybeSignedIn = Annotated[SignedIn | None, Depends(get_signed_in)]
SignedInDep = Annotated[SignedIn, Depends(require_signed_in)]
