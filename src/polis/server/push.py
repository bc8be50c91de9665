"""Turn notifications for players who are away: Web Push (RFC 8030), encrypted for the
browser (RFC 8291) and signed with the server's VAPID key (RFC 8292), through ``pywebpush``.

A seat opts in from the table (:mod:`polis.server.routes.push`): its browser's subscription is
kept per game and seat. When a move stored by this process makes it a person's turn, and that
person has no connection to the table (in any process) and the table is not played on a
real-time clock, each of the seat's subscriptions is sent a small JSON payload: the game's
title, the name of the seat to move and a link to the table, nothing else (no view, no tile,
no card, no token: the push service and anyone seeing the phone's lock screen may read it).

Sending never holds up a table: it runs in a small thread pool of its own with a timeout,
after the move is announced; a failure is logged, and a subscription the push service says
is gone (404, 410) is forgotten. The VAPID key is made once and kept in the store (every
process sharing it signs with the same key) or in the file ``ServerConfig.vapid_key_file``.
"""

from __future__ import annotations

import asyncio
import base64
import functools
import importlib.util
import json
import logging
import os
import sys
import threading
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from polis.server import chatpush_store as rows

if TYPE_CHECKING:
    from polis.server.hub import Hub
    from polis.server.room import Room

log = logging.getLogger("polis.server")

#: The store's name for the VAPID private key (PEM).
VAPID_SETTING = "vapid_private_key"
#: Seconds a push service keeps a notification for a browser that is offline.
PUSH_TTL = 24 * 3600
#: Pushes sent at once (the library is synchronous: each takes a thread while it waits).
SENDERS = 4
#: Statuses by which a push service says a subscription no longer exists.
GONE = (404, 410)


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def new_key_pem() -> str:
    """A fresh VAPID private key (P-256), as PEM."""
    key = ec.generate_private_key(ec.SECP256R1())
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode("ascii")


def key_from_file(path: Path) -> str:
    """The key in ``path``, made there (readable by its owner only) if there is none yet;
    processes starting together agree on the first one written."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "w") as out:
                out.write(new_key_pem())
    return path.read_text("ascii")


def public_key_of(pem: str) -> str:
    """The public key as browsers take it (``applicationServerKey``): the uncompressed
    point, base64url without padding."""
    key = serialization.load_pem_private_key(pem.encode("ascii"), password=None)
    assert isinstance(key, ec.EllipticCurvePrivateKey)
    point = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url(point)


def service_allowed(endpoint: str, services: tuple[str, ...]) -> bool:
    """Whether the server may send to ``endpoint``: https to a known push service (a host
    name or suffix in ``services``), or plain http to a host listed as ``http://host``.

    The server makes a request to whatever address a subscription names: only push services
    are allowed, so a client cannot make it call into the server's own network.
    """
    try:
        parts = urlsplit(endpoint)
        host = (parts.hostname or "").lower()
    except ValueError:
        return False
    if not host or parts.username or parts.password:
        return False
    for service in services:
        service = service.lower()
        if service.startswith("http://"):
            if parts.scheme in ("http", "https") and host == service[len("http://") :]:
                return True
        elif parts.scheme == "https" and (host == service or host.endswith("." + service)):
            return True
    return False


def keys_problem(p256dh: str, auth: str) -> str | None:
    """Why a subscription's keys cannot be used, or None."""
    try:
        point = b64url_decode(p256dh)
        secret = b64url_decode(auth)
    except ValueError:
        return "the subscription's keys are not base64url"
    if len(point) != 65 or point[0] != 4:
        return "'p256dh' must be an uncompressed P-256 point"
    if len(secret) != 16:
        return "'auth' must be 16 bytes"
    return None


def turn_payload(room: Room, seat: int) -> dict[str, Any]:
    """What a notification of ``seat``'s turn says: only what every spectator sees."""
    return {
        "type": "turn",
        "game_id": room.id,
        "game": room.stored.game,
        "title": room.game.title,
        "seat": seat,
        "name": room.stored.seats[seat].name,
        "position": room.position,
        "url": f"/#/game/{room.id}",
    }


def turn_based(room: Room) -> bool:
    """Whether turns may wait for an absent player: a table with a turn-based clock or none
    (:mod:`polis.server.clocks`); a real-time table expects its players there."""
    control = room.stored.table.time_control
    return control is None or control.get("kind") != "realtime"


def _preload() -> None:
    """Import the push library ahead of the first push: the import holds the interpreter for
    most of a tenth of a second, which must not fall on a move's broadcast."""
    try:
        importlib.import_module("pywebpush")
    except Exception:  # pragma: no cover - reported when a push is sent
        log.debug("pywebpush not preloaded", exc_info=True)


class PushGone(Exception):
    """The push service says the subscription no longer exists."""


def send_one(
    subscription: Mapping[str, Any], data: str, vapid: Any, subject: str, timeout: float
) -> None:
    """Send one push (blocking); :class:`PushGone` for a subscription that is no more, any
    other exception for a failure."""
    from pywebpush import WebPushException, webpush

    try:
        webpush(
            dict(subscription),
            data,
            vapid_private_key=vapid,
            vapid_claims={"sub": subject},
            timeout=timeout,
            ttl=PUSH_TTL,
            headers={"Urgency": "high"},
        )
    except WebPushException as exc:
        if exc.status_code in GONE:
            raise PushGone(str(exc.status_code)) from None
        raise


class Pusher:
    """The turn notifications of one server process."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        #: pywebpush is installed (the server extra): otherwise nobody can opt in.
        self.available = importlib.util.find_spec("pywebpush") is not None
        if self.available and "pywebpush" not in sys.modules:
            threading.Thread(target=_preload, name="polis-push-import", daemon=True).start()
        self._pem: str | None = None
        self._vapid: Any = None
        self._key_lock = asyncio.Lock()
        self._pool: ThreadPoolExecutor | None = None
        #: Turn notices dealt with (sent, failed, or nobody to send to): tests wait on it.
        self.settled = 0
        #: Pushes a push service accepted.
        self.sent = 0

    async def key(self) -> str:
        """The VAPID private key (PEM), made on first use."""
        if self._pem is None:
            async with self._key_lock:
                if self._pem is None:
                    file = self.hub.config.vapid_key_file
                    if file:
                        pem = await asyncio.to_thread(key_from_file, Path(file).expanduser())
                    else:
                        engine = self.hub.store.engine
                        pem = await self.hub.patiently(
                            lambda: rows.setting(engine, VAPID_SETTING, new_key_pem),
                            "the VAPID key",
                        )
                    self._pem = pem
        return self._pem

    async def public_key(self) -> str | None:
        """The public key browsers subscribe with (None: pushes are not available)."""
        if not self.available:
            return None
        return public_key_of(await self.key())

    def moved(self, room: Room, mover: int | None) -> None:
        """A move this process stored: notify the seat whose turn it became, if it is away.
        Decided at once (who is connected now); the sending happens in the background."""
        if room.finished:
            self.hub.spawn(self._forget_game(room.id))
            return
        seat = room.state.current_player()
        if seat < 0 or seat == mover or not self.available:
            return
        info = room.stored.seats[seat]
        if info.bot_level is not None or info.vacant:  # a bot plays it (for its person, too)
            return
        if seat in room.presence.online or not turn_based(room):
            return
        self.hub.spawn(self._notify(room.id, seat, turn_payload(room, seat)))

    async def _notify(self, game_id: str, seat: int, payload: dict[str, Any]) -> None:
        hub = self.hub
        engine = hub.store.engine
        try:
            subs: list[rows.Subscription] = await hub.patiently(
                lambda: rows.subscriptions(engine, game_id, seat), "push subscriptions"
            )
            if not subs:
                return
            vapid = await self._signer()
            outcomes = await asyncio.gather(*(self._send(s, payload, vapid) for s in subs))
            gone = [s.id for s, outcome in zip(subs, outcomes, strict=True) if outcome == "gone"]
            if gone:
                await hub.write(
                    lambda: rows.drop_subscriptions(engine, gone), "forgetting subscriptions"
                )
        except Exception:
            log.warning("turn notice for game %s seat %d failed", game_id, seat, exc_info=True)
        finally:
            self.settled += 1

    async def _signer(self) -> Any:
        if self._vapid is None:
            from py_vapid import Vapid

            pem = await self.key()
            key = serialization.load_pem_private_key(pem.encode("ascii"), password=None)
            self._vapid = Vapid(key)
        return self._vapid

    async def _send(self, sub: rows.Subscription, payload: dict[str, Any], vapid: Any) -> str:
        """Send one push; "sent", "gone" (forget the subscription) or "failed"."""
        config = self.hub.config
        data = json.dumps({**payload, "lang": sub.lang})
        if self._pool is None:
            self._pool = ThreadPoolExecutor(SENDERS, thread_name_prefix="polis-push")
        call = functools.partial(
            send_one, sub.info(), data, vapid, config.push_subject, config.push_timeout
        )
        host = urlsplit(sub.endpoint).hostname
        loop = asyncio.get_running_loop()
        try:
            await asyncio.wait_for(loop.run_in_executor(self._pool, call), config.push_timeout + 5)
        except PushGone as exc:
            log.info("push subscription at %s is gone (%s): forgotten", host, exc)
            return "gone"
        except TimeoutError:
            log.warning("push to %s took too long: given up", host)
            return "failed"
        except Exception as exc:
            log.warning("push to %s failed: %s", host, exc)
            return "failed"
        self.sent += 1
        return "sent"

    async def _forget_game(self, game_id: str) -> None:
        """The game is over: no turn is left to tell of."""
        engine = self.hub.store.engine
        try:
            await self.hub.write(
                lambda: rows.drop_game_subscriptions(engine, game_id), "forgetting subscriptions"
            )
        except Exception:
            log.warning("push subscriptions of game %s not forgotten", game_id, exc_info=True)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
