"""Turn notifications for players who are away: Web Push (RFC 8030), encrypted for the
browser (RFC 8291) and signed with the server's VAPID key (RFC 8292), through ``pywebpush``.

A seat opts in from the table (:mod:`polis.server.http.routes.push`): its browser's
subscription is kept per game and seat. A signed-in person may also opt in for their account:
its browsers' subscriptions are kept per account
(:class:`polis.server.store.accounts.AccountPushRow`) and follow every seat bound to it,
whichever device took the seat. When a move stored by this process makes it a person's turn,
and that person has no connection to the table (in any process) and the table is not played
on a real-time clock, each of the seat's subscriptions and of its account's (one push per
browser, where both name it) is sent a small JSON payload: the game's title, the name of the
seat to move and a link to the table, nothing else (no view, no tile, no card, no token: the
push service and anyone seeing the phone's lock screen may read it).

Sending never holds up a table: it runs in a small thread pool of its own with a timeout,
after the move is announced; a failure is logged, and a subscription the push service says
is gone (404, 410) is forgotten, from the seat's table or the account's, wherever it was
kept. A seat's subscriptions end with its game; an account's stay until it unsubscribes. The
VAPID key is made once and kept in the store (every process sharing it signs with the same
key) or in the file ``ServerConfig.vapid_key_file``.

The endpoint comes from the client and the server POSTs to it on every turn of the seat, so
it is checked against server-side request forgery, at subscription and again before each push
(:func:`check_endpoint`). It is read with the HTTP client's own parser (urllib3's) and refused
if its authority could be read otherwise (``\\``, ``%``, spaces, control characters, user
info); it must be https, to port 443, of a host name (not an IP address) that is or ends on a
label boundary with one of ``ServerConfig.push_services``; and every address the name resolves
to must be public (not loopback, private, link-local, multicast, reserved...). The connection
itself refuses a peer that is not public (:func:`public_session`: a name re-pointed after the
check, DNS rebinding, reaches nothing) and follows no redirect. A subscription that fails at
send time is not fetched, and forgotten (unless its name merely did not resolve). A service
listed as ``http://host[:port]`` (a local one the operator set up, as in tests) is allowed as
that exact host, by http or https, without the address checks.
"""

from __future__ import annotations

import asyncio
import base64
import functools
import importlib.util
import ipaddress
import json
import logging
import os
import re
import socket
import sys
import threading
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from polis.server.store import accounts as account_rows
from polis.server.store import chat_push as rows
from polis.server.wire.to_client import TurnFacts, TurnPush

if TYPE_CHECKING:
    import requests
    from requests.adapters import HTTPAdapter

    from polis.server.live.hub import Hub
    from polis.server.live.room import Room

log = logging.getLogger("polis.server")

#: The store's name for the VAPID private key (PEM).
VAPID_SETTING = "vapid_private_key"
#: Seconds a push service keeps a notification for a browser that is offline.
PUSH_TTL = 24 * 3600
#: Pushes sent at once (the library is synchronous: each takes a thread while it waits).
SENDERS = 4
#: Statuses by which a push service says a subscription no longer exists.
GONE = (404, 410)
#: Seconds a push service's name may take to resolve.
RESOLVE_TIMEOUT = 5.0
#: A host name as the check takes it: labels of letters, digits and hyphens.
HOST_NAME = re.compile(r"[a-z0-9-]{1,63}(\.[a-z0-9-]{1,63})*")
#: IPv6 addresses that stand for an IPv4 one (RFC 6052), in the last 32 bits.
NAT64 = ipaddress.IPv6Network("64:ff9b::/96")

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


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


class Refused(Exception):
    """The server will not send to a push endpoint; the message says why (for the client).
    ``lasting`` is false when only the name did not resolve (it may, later)."""

    def __init__(self, reason: str, *, lasting: bool = True) -> None:
        super().__init__(reason)
        self.lasting = lasting


@dataclass(frozen=True)
class Endpoint:
    """Where a push goes: ``host`` as the HTTP client reads it; ``local``: a service the
    operator listed as ``http://host`` (its address is not checked)."""

    host: str
    local: bool = False


def _authority(endpoint: str) -> tuple[str, str]:
    """The scheme and the authority of ``endpoint`` as RFC 3986 delimits them (up to the
    first ``/``, ``?`` or ``#``): the widest reading, checked before any parser narrows it."""
    if not endpoint.isascii() or any(c.isspace() or not c.isprintable() for c in endpoint):
        raise Refused("the push service's address has spaces or control characters")
    scheme, sep, rest = endpoint.partition("://")
    authority = re.split(r"[/?#]", rest, maxsplit=1)[0]
    if not sep or not authority:
        raise Refused("the push service's address is not a URL")
    if "@" in authority:
        raise Refused("the push service's address must not hold a user name")
    if "\\" in authority or "%" in authority:
        raise Refused("the push service's host must not hold '\\' or '%'")
    if authority.startswith("["):
        raise Refused("the push service must be named, not given by IP address")
    return scheme.lower(), authority


def _local_service(service: str) -> tuple[str, int | None] | None:
    """The host and port (None: any) of an ``http://host[:port]`` entry of the services."""
    from urllib3.exceptions import LocationParseError
    from urllib3.util import parse_url

    if not service.lower().startswith("http://"):
        return None
    try:
        url = parse_url(service)
    except LocationParseError:
        return None
    return (url.host or "").lower(), url.port


def parse_endpoint(endpoint: str, services: tuple[str, ...]) -> Endpoint:
    """Where the server would send a push for ``endpoint``, read by the HTTP client's own
    parser (urllib3's, which requests uses), or :class:`Refused` naming why not.

    Anything that parsers read differently (``\\``, ``%``, user info, spaces) is refused
    outright. Then the endpoint must be https to port 443 of a host name that is, or ends on
    a label boundary with, one of ``services``; an entry ``http://host[:port]`` allows that
    one host by http or https (a local service the operator set up, e.g. in tests).
    """
    from urllib3.exceptions import LocationParseError
    from urllib3.util import parse_url

    scheme, authority = _authority(endpoint)
    name, colon, port = authority.partition(":")
    if colon and not port.isdigit():
        raise Refused("a push service is reached on port 443 only")
    try:
        url = parse_url(endpoint)
    except LocationParseError:
        raise Refused("the push service's address is not a URL") from None
    host = name.lower()
    read = (url.scheme, url.auth, url.host, url.port)
    if read != (scheme, None, host, int(port) if colon else None):
        raise Refused("the push service's address reads differently to the HTTP client")
    listed = [local for local in map(_local_service, services) if local]
    if scheme in ("http", "https") and any(h == host and p in (None, url.port) for h, p in listed):
        return Endpoint(host, local=True)
    if scheme != "https":
        raise Refused("the push service's address must be https")
    if colon and port != "443":
        raise Refused("a push service is reached on port 443 only")
    if not HOST_NAME.fullmatch(host):
        raise Refused("the push service's host is not a plain host name")
    if not host.rsplit(".", 1)[-1][:1].isalpha():  # 127.0.0.1, 2130706433, 0x7f.1: an address
        raise Refused("the push service must be named, not given by IP address")
    suffixes = [s.lower().rstrip(".") for s in services if not s.lower().startswith("http://")]
    if not any(host == s or host.endswith("." + s) for s in suffixes):
        raise Refused("this push service is not one the server sends to")
    return Endpoint(host)


def public(ip: IPAddress) -> bool:
    """Whether ``ip`` is on the public internet: not loopback, private, shared, link-local,
    multicast, reserved or unspecified, nor such an IPv4 address inside an IPv6 one
    (IPv4-mapped, 6to4, NAT64)."""
    if isinstance(ip, ipaddress.IPv6Address):
        inner = ip.ipv4_mapped or ip.sixtofour
        if inner is None and ip in NAT64:
            inner = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
        if inner is not None and not public(inner):
            return False
    special = ip.is_loopback or ip.is_private or ip.is_link_local or ip.is_multicast
    return ip.is_global and not (special or ip.is_reserved or ip.is_unspecified)


def resolve(host: str) -> list[IPAddress]:
    """The addresses ``host`` resolves to (blocking)."""
    infos = socket.getaddrinfo(host, 443, type=socket.SOCK_STREAM)
    return [ipaddress.ip_address(str(info[4][0])) for info in infos]


async def check_endpoint(
    endpoint: str, services: tuple[str, ...], timeout: float = RESOLVE_TIMEOUT
) -> Endpoint:
    """:func:`parse_endpoint`, and then every address the host resolves to now must be
    public (resolved off the event loop): a name may lead into the server's own network."""
    target = parse_endpoint(endpoint, services)
    if target.local:
        return target
    try:
        addresses = await asyncio.wait_for(asyncio.to_thread(resolve, target.host), timeout)
    except (OSError, TimeoutError, ValueError):
        addresses = []
    if not addresses:
        raise Refused("the push service's name does not resolve", lasting=False)
    if not all(public(a) for a in addresses):
        raise Refused("the push service's name leads to an address that is not public")
    return target


def _public_peer(conn: Any, sock: socket.socket) -> socket.socket:
    """``sock``, just connected for ``conn``, if its peer is public; else closed, and
    urllib3's NewConnectionError raised before a byte is sent."""
    from urllib3.exceptions import NewConnectionError

    peer = ipaddress.ip_address(str(sock.getpeername()[0]))
    if public(peer):
        return sock
    sock.close()
    raise NewConnectionError(conn, f"refused to connect to {peer}: the address is not public")


@functools.cache
def _public_adapter() -> type[HTTPAdapter]:
    """An adapter whose connections check the address they reached (defined on first use:
    requests comes with pywebpush, which this module does not need)."""
    from requests.adapters import HTTPAdapter
    from urllib3.connection import HTTPConnection, HTTPSConnection
    from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

    class PublicHTTP(HTTPConnection):
        def _new_conn(self) -> socket.socket:
            return _public_peer(self, super()._new_conn())

    class PublicHTTPS(HTTPSConnection):
        def _new_conn(self) -> socket.socket:
            return _public_peer(self, super()._new_conn())

    class PublicHTTPPool(HTTPConnectionPool):
        ConnectionCls = PublicHTTP

    class PublicHTTPSPool(HTTPSConnectionPool):
        ConnectionCls = PublicHTTPS

    class PublicOnly(HTTPAdapter):
        def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
            super().init_poolmanager(*args, **kwargs)
            pools = {"http": PublicHTTPPool, "https": PublicHTTPSPool}
            self.poolmanager.pool_classes_by_scheme = pools

    return PublicOnly


def public_session() -> requests.Session:
    """A session that connects only to public addresses, whatever the name resolves to by
    then (a name re-pointed after :func:`check_endpoint`: DNS rebinding), and follows no
    redirect. A proxy from the environment is still used: it is reached instead."""
    import requests

    session = requests.Session()
    session.max_redirects = 0
    adapter = _public_adapter()()
    session.mount("https://", adapter)
    session.mount("http://", adapter)
    return session


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


def turn_payload(room: Room, seat: int) -> TurnFacts:
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
    (:mod:`polis.server.table.clocks`); a real-time table expects its players there."""
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
    subscription: Mapping[str, Any],
    data: str,
    vapid: Any,
    subject: str,
    timeout: float,
    local: bool = False,
) -> None:
    """Send one push (blocking); :class:`PushGone` for a subscription that is no more, any
    other exception for a failure. Over a :func:`public_session` unless ``local`` (a
    service the operator listed as ``http://host``)."""
    from pywebpush import WebPushException, webpush

    session = None if local else public_session()
    try:
        webpush(
            dict(subscription),
            data,
            vapid_private_key=vapid,
            vapid_claims={"sub": subject},
            timeout=timeout,
            ttl=PUSH_TTL,
            headers={"Urgency": "high"},
            requests_session=session,
        )
    except WebPushException as exc:
        if exc.status_code in GONE:
            raise PushGone(str(exc.status_code)) from None
        raise
    finally:
        if session is not None:
            session.close()


def once_each(*kept: list[rows.Subscription]) -> list[rows.Subscription]:
    """The subscriptions of the lists ``kept`` (a seat's own, then its account's), one per
    browser (its endpoint): the first list's where two name the same browser."""
    found: dict[str, rows.Subscription] = {}
    for subs in kept:
        for sub in subs:
            found.setdefault(sub.endpoint, sub)
    return list(found.values())


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

    async def _notify(self, game_id: str, seat: int, payload: TurnFacts) -> None:
        hub = self.hub
        engine = hub.store.engine

        def read() -> tuple[list[rows.Subscription], list[rows.Subscription]]:
            own = rows.subscriptions(engine, game_id, seat)
            mine = account_rows.seat_account_pushes(engine, game_id, seat)  # its account's
            return own, mine

        try:
            own, mine = await hub.patiently(read, "push subscriptions")
            subs = once_each(own, mine)
            if not subs:
                return
            vapid = await self._signer()
            outcomes = await asyncio.gather(*(self._send(s, payload, vapid) for s in subs))
            pairs = zip(subs, outcomes, strict=True)
            gone = {s.endpoint for s, outcome in pairs if outcome in ("gone", "refused")}
            if gone:  # each browser gone is forgotten from the seat's table and the account's
                seats = [s.id for s in own if s.endpoint in gone]
                accounts = [s.id for s in mine if s.endpoint in gone]

                def forget() -> None:
                    rows.drop_subscriptions(engine, seats)
                    account_rows.drop_account_pushes(engine, accounts)

                await hub.write(forget, "forgetting subscriptions")
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

    async def _send(self, sub: rows.Subscription, payload: TurnFacts, vapid: Any) -> str:
        """Send one push; "sent", "gone" (forget the subscription), "refused" (the endpoint
        fails :func:`check_endpoint` now: never fetched, forgotten) or "failed"."""
        config = self.hub.config
        try:
            target = await check_endpoint(sub.endpoint, config.push_services)
        except Refused as exc:
            log.warning("push subscription %d not sent: %s", sub.id, exc)
            return "refused" if exc.lasting else "failed"
        worded = TurnPush(**payload, lang=sub.lang)
        if self.hub.wire is not None:
            self.hub.wire.push(worded)
        data = json.dumps(worded)
        if self._pool is None:
            self._pool = ThreadPoolExecutor(SENDERS, thread_name_prefix="polis-push")
        call = functools.partial(
            send_one,
            sub.info(),
            data,
            vapid,
            config.push_subject,
            config.push_timeout,
            local=target.local,
        )
        host = target.host
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
