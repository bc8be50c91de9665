"""Turn notifications, opted into per seat or per account: the server's public VAPID key, a
seat's browser subscribing and unsubscribing, a signed-in browser doing so for every seat bound
to its account, and the service worker that shows the notifications.

Only a seat's holder (its token) can subscribe that seat, and only an account's own session
(with its CSRF token) the account; the push service's address must be a known push service at
a public address (:func:`polis.server.table.push.check_endpoint`), never anything else the
server could be made to call. ``/sw.js`` is served from the site's root so its scope is the
whole site; it is a plain file of this origin, so the page's script policy allows it.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse
from pydantic import Field, model_validator

from polis.server.errors import ServerError
from polis.server.http.deps import HubDep, RoomDep, SignedInDep
from polis.server.http.inputs import Body
from polis.server.http.routes.pages import NO_CACHE, STATIC
from polis.server.http.webfiles import LANGUAGES
from polis.server.live.hub import Hub
from polis.server.live.room import Room
from polis.server.store import accounts as account_rows
from polis.server.store import chat_push as rows
from polis.server.table.push import Refused, check_endpoint, keys_problem
from polis.server.wire.from_client import MAX_TOKEN

router = APIRouter()


class PushKeys(Body):
    p256dh: str = Field(min_length=1, max_length=128)
    auth: str = Field(min_length=1, max_length=64)


class PushSubscriptionIn(Body):
    """A browser's ``PushSubscription.toJSON()`` (what it needs to be sent a push)."""

    endpoint: str = Field(min_length=1, max_length=1024)
    keys: PushKeys


class Subscribe(Body):
    token: str = Field(min_length=1, max_length=MAX_TOKEN)
    subscription: PushSubscriptionIn
    #: The language notifications are worded in.
    lang: str = Field(default="en", max_length=8)


class Unsubscribe(Body):
    token: str = Field(min_length=1, max_length=MAX_TOKEN)
    endpoint: str = Field(min_length=1, max_length=1024)


class AccountSubscribe(Body):
    subscription: PushSubscriptionIn
    #: The language notifications are worded in.
    lang: str = Field(default="en", max_length=8)


class AccountUnsubscribe(Body):
    """The browser's subscription as it subscribed (``lang`` is ignored), or its endpoint."""

    subscription: PushSubscriptionIn | None = None
    endpoint: str | None = Field(default=None, min_length=1, max_length=1024)
    lang: str | None = Field(default=None, max_length=8)

    @model_validator(mode="after")
    def _one(self) -> AccountUnsubscribe:
        if (self.subscription is None) == (self.endpoint is None):
            raise ValueError("give the subscription or its endpoint")
        return self

    def address(self) -> str:
        if self.subscription is not None:
            return self.subscription.endpoint
        assert self.endpoint is not None
        return self.endpoint


@router.get("/api/push/key")
async def public_key(hub: HubDep) -> dict[str, Any]:
    """The key browsers subscribe with (``applicationServerKey``); null: no pushes here."""
    return {"key": await hub.push.public_key()}


async def _seat(room: Room, token: str) -> int:
    try:
        return await room.seat_for(token)
    except ServerError:
        raise ServerError("bad_token", "only the seat's player can ask for its notices") from None


def serving(hub: Hub) -> None:
    """ServerError ``not_found`` where this server sends no notifications."""
    if not hub.push.available:
        raise ServerError("not_found", "this server sends no notifications")


async def check_subscription(hub: Hub, sub: PushSubscriptionIn) -> None:
    """ServerError ``bad_request`` unless the server can and may send to ``sub``: its keys
    are usable and its endpoint is a push service it sends to, at a public address."""
    problem = keys_problem(sub.keys.p256dh, sub.keys.auth)
    if problem:
        raise ServerError("bad_request", problem)
    try:
        await check_endpoint(sub.endpoint, hub.config.push_services)
    except Refused as exc:
        raise ServerError("bad_request", str(exc)) from None


def language(lang: str) -> str:
    return lang if lang in LANGUAGES else "en"


@router.post("/api/games/{game_id}/push")
async def subscribe(body: Subscribe, room: RoomDep, hub: HubDep) -> dict[str, Any]:
    """Notify this seat's browser when it becomes the seat's turn while it is away."""
    serving(hub)
    seat = await _seat(room, body.token)
    if room.finished:
        raise ServerError("bad_request", "the game is over: there are no turns to tell of")
    sub = body.subscription
    await check_subscription(hub, sub)
    lang = language(body.lang)
    engine = hub.store.engine
    await hub.write(
        lambda: rows.save_subscription(
            engine, room.id, seat, sub.endpoint, sub.keys.p256dh, sub.keys.auth, lang
        ),
        "saving a push subscription",
    )
    return {"seat": seat, "subscribed": True}


@router.delete("/api/games/{game_id}/push")
async def unsubscribe(body: Unsubscribe, room: RoomDep, hub: HubDep) -> dict[str, Any]:
    """Stop notifying this seat's browser (the seat's other browsers keep theirs)."""
    seat = await _seat(room, body.token)
    engine = hub.store.engine
    removed = await hub.write(
        lambda: rows.delete_subscription(engine, room.id, seat, body.endpoint),
        "deleting a push subscription",
    )
    return {"seat": seat, "subscribed": False, "removed": bool(removed)}


@router.post("/api/account/push")
async def subscribe_account(
    body: AccountSubscribe, signed: SignedInDep, hub: HubDep
) -> dict[str, Any]:
    """Notify this browser of the turns of every seat bound to the account (made on any
    device, now or later) while its player is away from that table; it lasts until the
    browser unsubscribes or the push service says it is gone."""
    serving(hub)
    sub = body.subscription
    await check_subscription(hub, sub)
    lang = language(body.lang)
    engine = hub.store.engine
    account_id = signed.account.id
    await hub.write(
        lambda: account_rows.save_account_push(
            engine, account_id, sub.endpoint, sub.keys.p256dh, sub.keys.auth, lang
        ),
        "saving a push subscription",
    )
    return {"subscribed": True}


@router.delete("/api/account/push")
async def unsubscribe_account(
    body: AccountUnsubscribe, signed: SignedInDep, hub: HubDep
) -> dict[str, Any]:
    """Stop notifying this browser of the account's turns (its other browsers keep theirs;
    a seat's own subscription, made at its table, stays)."""
    engine = hub.store.engine
    account_id = signed.account.id
    endpoint = body.address()
    removed = await hub.write(
        lambda: account_rows.delete_account_push(engine, account_id, endpoint),
        "deleting a push subscription",
    )
    return {"subscribed": False, "removed": bool(removed)}


@router.get("/sw.js", include_in_schema=False)
async def service_worker() -> FileResponse:
    """The service worker, from the root so that it may serve the whole site."""
    return FileResponse(
        STATIC / "js" / "sw.js",
        media_type="text/javascript",
        headers={**NO_CACHE, "Service-Worker-Allowed": "/"},
    )
