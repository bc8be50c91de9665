"""Accounts over HTTP: sign up, sign in and out, the signed-in account, its password, its
games ("My games"), seats bound and opened on this device, export and deletion.

Every answer about an account goes only to that account's own session: no route takes an
account's id or name to read its private data (profiles, :mod:`.players`, are public by
design and hold nothing private).
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from pydantic import Field

from polis.server.accounts import challenges
from polis.server.accounts.bots import bot_api
from polis.server.accounts.profiles import rating_json
from polis.server.accounts.sessions import COOKIE, SignedIn
from polis.server.errors import ServerError
from polis.server.http.deps import HubDep, MaybeSignedIn, SignedInDep
from polis.server.http.inputs import Body, is_token
from polis.server.http.middleware import public_base
from polis.server.store import accounts as rows
from polis.server.store import standings

router = APIRouter(prefix="/api/account")


class Credentials(Body):
    name: str = Field(min_length=1, max_length=40)
    password: str = Field(min_length=1, max_length=1024)


class PasswordChange(Body):
    old: str = Field(min_length=1, max_length=1024)
    new: str = Field(min_length=1, max_length=1024)


class PasswordIn(Body):
    password: str = Field(min_length=1, max_length=1024)


class ClaimIn(Body):
    game_id: str = Field(min_length=1, max_length=32)
    token: str = Field(min_length=1, max_length=64)


def address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def me(signed: SignedIn) -> dict[str, Any]:
    """The signed-in account as its own pages see it (with the session's CSRF token, which
    every state-changing request sends back in ``X-CSRF-Token``)."""
    return {
        "account": {"name": signed.account.name, "bot": signed.account.bot},
        "csrf": signed.csrf,
    }


def no_store(data: dict[str, Any]) -> JSONResponse:
    """An answer no cache keeps (it holds the session's CSRF token or private data)."""
    return JSONResponse(data, headers={"Cache-Control": "no-store"})


@router.post("/signup")
async def signup(body: Credentials, request: Request, response: Response, hub: HubDep) -> Any:
    """A new account (a name and a password); signed in at once."""
    signed = await hub.accounts.signup(
        body.name, body.password, address(request), response, request
    )
    response.headers["Cache-Control"] = "no-store"
    return me(signed)


@router.post("/login")
async def login(body: Credentials, request: Request, response: Response, hub: HubDep) -> Any:
    """Sign in: a new session (any session the browser had ends)."""
    signed = await hub.accounts.login(body.name, body.password, address(request), response, request)
    response.headers["Cache-Control"] = "no-store"
    return me(signed)


@router.post("/logout")
async def logout(request: Request, response: Response, hub: HubDep) -> dict[str, Any]:
    """Sign this browser out (its session and the seat keys it was given end)."""
    if COOKIE in request.cookies:  # a session may only be ended by its own pages
        await hub.accounts.require(request, "POST")
    await hub.accounts.logout(request, response)
    return {"account": None}


@router.get("")
async def account(signed: MaybeSignedIn, hub: HubDep) -> Any:
    """The signed-in account with its ratings, or ``{"account": null}`` for a guest."""
    if signed is None:
        return no_store({"account": None})
    found = await hub.patiently(
        lambda: standings.ratings(hub.store.engine, signed.account.id), "ratings"
    )
    return no_store(me(signed) | {"ratings": [rating_json(r) for r in found]})


@router.post("/password")
async def password(body: PasswordChange, signed: SignedInDep, hub: HubDep) -> dict[str, Any]:
    """A new password (the old one asked again); every other session ends."""
    await hub.accounts.change_password(signed, body.old, body.new)
    return {"changed": True}


@router.get("/games")
async def games(signed: SignedInDep, hub: HubDep) -> Any:
    """ "My games": the tables where it is the account's turn (longest waiting first), the
    games in progress and the finished ones."""
    found: dict[str, Any] = dict(await hub.accounts.games(signed.account))
    # the open challenges to and from the account (:mod:`polis.server.accounts.challenges`)
    found["challenges"] = await challenges.listing(hub, signed.account, waiting_only=True)
    return no_store(found)


@router.post("/games/{game_id}/key")
async def key(game_id: str, request: Request, signed: SignedInDep, hub: HubDep) -> Any:
    """A token for this device to play the account's seat at ``game_id`` (it ends with
    the session)."""
    seat, token = await hub.accounts.seat_key(signed, game_id)
    base = public_base(request.scope, hub.config.public_url)
    return no_store(
        {"id": game_id, "seat": seat, "token": token, "invite": f"{base}/#/game/{game_id}/{token}"}
    )


@router.post("/claim")
async def claim(body: ClaimIn, signed: SignedInDep, hub: HubDep) -> dict[str, Any]:
    """Bind a seat held by link (its token) to the account: it joins "My games"."""
    if not is_token(body.game_id) or not is_token(body.token):
        raise ServerError("invalid", "a game id and a seat token are letters, digits, - and _")
    seat = await hub.accounts.claim(signed.account, body.game_id, body.token)
    return {"id": body.game_id, "seat": seat}


@router.get("/export")
async def export(signed: SignedInDep, hub: HubDep) -> Response:
    """Everything kept about the account, as one JSON file."""
    data = await hub.accounts.export(signed.account)
    return Response(
        json.dumps(data, indent=2, ensure_ascii=False, default=str),
        media_type="application/json",
        headers={
            "Content-Disposition": f'attachment; filename="polis-{signed.account.name}.json"',
            "Cache-Control": "no-store",
        },
    )


@router.post("/delete")
async def delete(
    body: PasswordIn, request: Request, response: Response, signed: SignedInDep, hub: HubDep
) -> dict[str, Any]:
    """Delete the account (its password asked again). Its games stay, its seats shown as
    "deleted player"; its sessions, passkeys, API tokens, ratings and lists go."""
    tokens = await hub.accounts.delete(signed, body.password)
    bot_api(request).forget(tokens)  # a bot account's open streams end now
    response.delete_cookie(COOKIE, path="/")
    return {"deleted": True, "shown_as": rows.DELETED}
