"""What every HTTP answer carries and what every request may not exceed.

* Security headers: a Content-Security-Policy that allows scripts, styles and connections
  from this origin only (no inline script or style attribute, no framing: the invite tokens
  shown on the page stay out of other sites' frames), no referrer (an invite link must not
  leak through one), no content-type sniffing.
* A request body larger than ``max_body`` is refused with 413 as soon as that is known (its
  Content-Length, or the bytes received), never read in full.

Both are plain ASGI (no per-request task or buffering) and leave WebSockets alone.
"""

from __future__ import annotations

import ipaddress
import json
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from polis.server.errors import ServerError
from polis.server.wire.http import error_body

#: The policy of every page and file of the app.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
#: The API documentation page (Swagger UI) loads its script and style from a CDN and starts
#: them inline; it shows no game data and gets its own, looser policy.
DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "img-src 'self' data: https://fastapi.tiangolo.com; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'"
)
HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
]
DOCS_PATHS = ("/api/docs", "/api/docs/oauth2-redirect")


class SecurityHeaders:
    """Adds the security headers to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._csp = (b"content-security-policy", CSP.encode())
        self._docs_csp = (b"content-security-policy", DOCS_CSP.encode())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        csp = self._docs_csp if scope.get("path") in DOCS_PATHS else self._csp

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {name.lower() for name, _value in headers}
                headers.extend(h for h in (csp, *HEADERS) if h[0] not in names)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


class BodyLimit:
    """Refuses request bodies over ``limit`` bytes with 413, without reading them."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = self.limit + 1
                if declared > self.limit:
                    await self._refuse(send)
                    return
        received = 0
        refused = False

        async def counted() -> Message:
            nonlocal received, refused
            message = await receive()
            if message["type"] == "http.request" and not refused:
                received += len(message.get("body", b""))
                if received > self.limit:
                    # answered here; the app is told the client left and its answer dropped
                    refused = True
                    await self._refuse(send)
                    return {"type": "http.disconnect"}
            return message

        async def watched(message: Message) -> None:
            if not refused:
                await send(message)

        await self.app(scope, counted, watched)

    async def _refuse(self, send: Send) -> None:
        refusal = ServerError("too_large", f"request body too large (at most {self.limit} bytes)")
        body = json.dumps(error_body(refusal.to_message())).encode()
        headers: list[Any] = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
        ]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})


class Forwarded:
    """The client's address and the scheme and host it used, from the X-Forwarded-* headers
    of a trusted reverse proxy (and only such a proxy: anyone else could claim any address).

    Sets ``scope["client"]`` (so limits count the person, not the proxy) and
    ``scope["scheme"]`` (keeping the server's own in ``scope["polis.server_scheme"]``). The
    forwarded host is never read: links are built from the configured public address or the
    server's own (:func:`public_base`), so no header can send an invite elsewhere. WebSocket
    scopes also get
    ``scope["polis.transport"]``, the server's transport if it has one, so a connection that
    does not read can be cut at once instead of lingering until its buffers drain.
    """

    def __init__(self, app: ASGIApp, trusted: tuple[str, ...]) -> None:
        self.app = app
        self.trusted = _networks(trusted)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if kind == "websocket":
            owner = getattr(send, "__self__", None)
            scope["polis.transport"] = getattr(owner, "transport", None)
        client = scope.get("client")
        if client and self._trusts(client[0]):
            scope = self._forwarded(scope)
        await self.app(scope, receive, send)

    def _trusts(self, host: str) -> bool:
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in net for net in self.trusted)

    def _forwarded(self, scope: Scope) -> Scope:
        headers: dict[bytes, bytes] = {}
        for name, value in scope.get("headers", []):
            if name in (b"x-forwarded-for", b"x-forwarded-proto"):
                headers[name] = value
        if not headers:
            return scope
        scope = dict(scope)
        chain = headers.get(b"x-forwarded-for", b"").decode("latin-1").split(",")
        hops = [hop.strip() for hop in chain if hop.strip()]
        # the nearest hop not itself a trusted proxy is the client
        while hops and self._trusts(hops[-1]) and len(hops) > 1:
            hops.pop()
        if hops and _is_ip(hops[-1]):
            scope["client"] = (hops[-1], 0)
        proto = headers.get(b"x-forwarded-proto", b"").decode("latin-1").strip().lower()
        if proto in ("http", "https"):
            scope["polis.server_scheme"] = scope.get("scheme", "http")
            secure = proto == "https"
            if scope["type"] == "websocket":
                scope["scheme"] = "wss" if secure else "ws"
            else:
                scope["scheme"] = proto
        return scope


def _is_ip(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def _networks(trusted: tuple[str, ...]) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    nets = []
    for item in trusted:
        if item == "*":
            nets += [ipaddress.ip_network("0.0.0.0/0"), ipaddress.ip_network("::/0")]
        else:
            nets.append(ipaddress.ip_network(item, strict=False))
    return nets


def public_base(scope: Scope, public_url: str | None) -> str:
    """Where people reach this server, for links: the configured public address, else the
    address and scheme this server itself listens on. Never the Host header nor anything a
    proxy forwards: whoever can send a request could otherwise choose where invites point."""
    if public_url:
        return public_url.rstrip("/")
    own = scope.get("polis.server_scheme", scope.get("scheme", "http"))
    scheme = {"ws": "http", "wss": "https"}.get(own, own)
    scheme = scheme if scheme in ("http", "https") else "http"
    server = scope.get("server")
    if not server:
        return f"{scheme}://localhost"
    name, port = server[0], server[1]
    name = f"[{name}]" if ":" in str(name) else str(name)
    default = (scheme == "http" and port == 80) or (scheme == "https" and port == 443)
    host = name if default or port is None else f"{name}:{port}"
    return f"{scheme}://{host}"
