"""Server-side sessions: a random id in an HttpOnly, SameSite=Lax cookie (Secure on https),
of which the store keeps only the SHA-256, and an anti-CSRF token per session.

A request made with the cookie counts as the account's only when it is safe (GET, HEAD) or
carries the session's CSRF token in the ``X-CSRF-Token`` header and, if it says where it comes
from (``Origin``), comes from this server: a page of another site can make a browser send the
cookie, but can neither read the token nor forge the header. A request without them is a
guest's. Sessions end after :data:`IDLE` without use or :data:`LIFETIME` in all; signing in
always starts a new one (the id a browser had before is never reused: no fixation).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass

from fastapi import Response
from starlette.requests import HTTPConnection

from polis.server.http.middleware import public_base
from polis.server.store import accounts as rows
from polis.server.store.accounts import Account
from polis.server.store.games import Store

COOKIE = "polis_session"
CSRF_HEADER = "x-csrf-token"
#: A session unused this long ends (seconds).
IDLE = 14 * 24 * 3600.0
#: A session ends this long after it began, used or not (seconds).
LIFETIME = 30 * 24 * 3600.0
#: Last use is written at most this often (seconds): reading a session costs no write.
TOUCH_EVERY = 600.0
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def hash_id(session_id: str) -> str:
    return hashlib.sha256(session_id.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class SignedIn:
    """The account a request is made for, with its session."""

    account: Account
    id_hash: str
    csrf: str


def start(
    store: Store, account: Account, response: Response, conn: HTTPConnection, secure: bool
) -> SignedIn:
    """A new session for ``account``, its cookie set on ``response`` (the old cookie's
    session, if any, ends: the id changes at every sign-in)."""
    old = conn.cookies.get(COOKIE)
    if old:
        rows.end_session(store.engine, hash_id(old))
    session_id = secrets.token_urlsafe(32)
    csrf = secrets.token_urlsafe(32)
    id_hash = hash_id(session_id)
    rows.add_session(store.engine, id_hash, account.id, csrf, time.time())
    response.set_cookie(
        COOKIE,
        session_id,
        max_age=int(LIFETIME),
        httponly=True,
        samesite="lax",
        secure=secure,
        path="/",
    )
    return SignedIn(account, id_hash, csrf)


def end(store: Store, conn: HTTPConnection, response: Response, secure: bool) -> None:
    session_id = conn.cookies.get(COOKIE)
    if session_id:
        rows.end_session(store.engine, hash_id(session_id))
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=secure)


def is_https(conn: HTTPConnection, public_url: str | None) -> bool:
    """Whether people reach this server over https (its public address says so, or the
    request came that way): the cookie is then sent over https only."""
    return public_base(conn.scope, public_url).startswith("https:") or conn.url.scheme in (
        "https",
        "wss",
    )


def session_of(store: Store, conn: HTTPConnection) -> SignedIn | None:
    """The live session the cookie names (the account neither deleted nor suspended), or
    None; ends sessions past their limits."""
    session_id = conn.cookies.get(COOKIE)
    if not session_id or len(session_id) > 128:
        return None
    id_hash = hash_id(session_id)
    found = rows.session(store.engine, id_hash)
    if found is None:
        return None
    account, csrf, created, seen = found
    now = time.time()
    if now - seen > IDLE or now - created > LIFETIME:
        rows.end_session(store.engine, id_hash)
        return None
    if now - seen > TOUCH_EVERY:
        rows.touch_session(store.engine, id_hash, now)
    return SignedIn(account, id_hash, csrf)


def same_origin(conn: HTTPConnection, public_url: str | None) -> bool:
    """Whether the request says it comes from this server's own pages (or says nothing,
    as non-browser clients do). ``Sec-Fetch-Site`` first, then ``Origin``."""
    site = conn.headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return False
    origin = conn.headers.get("origin")
    if origin is None or (origin == "null" and site == "same-origin"):
        return True
    own = {public_base(conn.scope, public_url)}
    host = conn.headers.get("host")
    if host:  # the address the browser used (the page and the request share it)
        own |= {f"http://{host}", f"https://{host}"}
    return origin in own


def csrf_ok(signed: SignedIn, conn: HTTPConnection, method: str, public_url: str | None) -> bool:
    """Whether a request made with the session's cookie may act for its account."""
    if method in SAFE_METHODS:
        return True
    token = conn.headers.get(CSRF_HEADER, "")
    return hmac.compare_digest(token.encode(), signed.csrf.encode()) and same_origin(
        conn, public_url
    )
