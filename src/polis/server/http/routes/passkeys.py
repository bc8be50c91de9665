"""Passkeys over HTTP (WebAuthn, :mod:`polis.server.accounts.passkeys`): add one while signed
in, sign in with one, list and delete the account's own.

Each ceremony is two calls: the options (a fresh challenge, single use, 5 minutes) and the
browser's answer, sent back as the JSON form of the ``PublicKeyCredential`` (``toJSON()``:
base64url fields). Passkeys work only where browsers allow WebAuthn: over https, or on
``localhost`` (elsewhere the options are refused with 400 ``bad_request`` saying so).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from pydantic import Field

from polis.server.accounts.passkeys import Passkeys
from polis.server.http.deps import HubDep, SignedInDep
from polis.server.http.inputs import Body
from polis.server.http.routes.accounts import address, me, no_store

router = APIRouter(prefix="/api/account/passkeys")


class CredentialIn(Body):
    """An authenticator's answer: ``PublicKeyCredential.toJSON()`` (``id``, ``rawId``,
    ``type``, ``response`` with base64url fields)."""

    credential: dict[str, Any]


class LoginOptionsIn(Body):
    """``name``: offer only that account's passkeys; without it the browser offers the
    passkeys it holds for this site."""

    name: str | None = Field(default=None, max_length=40)


class PasskeyIdIn(Body):
    id: str = Field(min_length=1, max_length=512)


@router.post("/register/options")
async def register_options(request: Request, signed: SignedInDep, hub: HubDep) -> JSONResponse:
    """Options for ``navigator.credentials.create`` (a new challenge; the account's
    passkeys excluded)."""
    return no_store(await Passkeys(hub, request.scope).registration_options(signed))


@router.post("/register")
async def register(
    body: CredentialIn, request: Request, signed: SignedInDep, hub: HubDep
) -> dict[str, Any]:
    """Keep the passkey the browser made: ``{"id", "created", "sign_count"}``."""
    return await Passkeys(hub, request.scope).register(signed, body.credential)


@router.post("/login/options")
async def login_options(body: LoginOptionsIn, request: Request, hub: HubDep) -> JSONResponse:
    """Options for ``navigator.credentials.get`` (no session needed)."""
    options = await Passkeys(hub, request.scope).login_options(body.name, address(request))
    return no_store(options)


@router.post("/login")
async def login(body: CredentialIn, request: Request, response: Response, hub: HubDep) -> Any:
    """Sign in with a passkey: a new session, as with a password."""
    signed = await Passkeys(hub, request.scope).login(body.credential, response, request)
    response.headers["Cache-Control"] = "no-store"
    return me(signed)


@router.get("")
async def listing(request: Request, signed: SignedInDep, hub: HubDep) -> JSONResponse:
    """The account's passkeys: ``{"passkeys": [{"id", "created", "sign_count"}]}``."""
    found = await Passkeys(hub, request.scope).listing(signed.account)
    return no_store({"passkeys": found})


@router.post("/delete")
async def delete(
    body: PasskeyIdIn, request: Request, signed: SignedInDep, hub: HubDep
) -> dict[str, Any]:
    """Forget one of the account's passkeys (404 for an id it does not hold)."""
    await Passkeys(hub, request.scope).remove(signed.account, body.id)
    return {"deleted": body.id}
