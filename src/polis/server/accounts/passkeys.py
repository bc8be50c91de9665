"""Passkeys (WebAuthn): an account adds one while signed in, then signs in with it alone, no
name or password typed. Verification is py_webauthn's (:mod:`webauthn`); this module keeps
the ceremonies, the credentials and the rules around them.

* **Ceremonies.** Each challenge is 32 random bytes, handed out once in the options and kept
  in the store as its SHA-256 only (``polis_webauthn``), so whichever server process gets the
  answer can finish the ceremony. The answer names its challenge (in ``clientDataJSON``); the
  row is taken out of the store before anything else is checked, so a challenge is used at
  most once, and one older than :data:`CEREMONY_SECONDS` is refused.
* **The relying party** is the host of the server's public address (``public_url``, else the
  address it listens on: :func:`~polis.server.http.middleware.public_base`, never the Host
  header), the expected origin that address itself. Browsers allow WebAuthn only in a secure
  context, so it is offered only on https or on ``localhost``; a server listening on a
  loopback address (``polis serve``'s default, 127.0.0.1) is "localhost": its pages must be
  opened at ``http://localhost:<port>`` for passkeys (an IP address cannot be a relying party).
* **Credentials** are kept as their id and COSE public key (base64url) with the signature
  counter: a counter that does not grow (where the authenticator counts at all) is refused,
  as a sign of a cloned authenticator. Registration asks for a discoverable credential
  ("resident key", preferred) so that the browser can offer it with no name typed, and for
  user verification (preferred: a security key without a PIN still works).
* **Signing in** starts a session exactly as a password does
  (:meth:`~polis.server.accounts.service.Accounts.start`), under the same per-address limit
  (:mod:`~polis.server.accounts.throttle`); a failed signature counts against the account's
  name like a wrong password. Suspended and deleted accounts cannot sign in (deleting an
  account deletes its passkeys: :func:`~polis.server.store.accounts.delete_account`).

The store functions (synchronous, run by the hub's store threads) are kept here with the
ceremonies: nothing else reads these two tables.
"""

from __future__ import annotations

import asyncio
import hashlib
import ipaddress
import secrets
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from starlette.requests import HTTPConnection
from starlette.responses import Response
from starlette.types import Scope
from webauthn import (
    base64url_to_bytes,
    generate_authentication_options,
    generate_registration_options,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import (
    bytes_to_base64url,
    options_to_json_dict,
    parse_authentication_credential_json,
    parse_client_data_json,
    parse_registration_credential_json,
)
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AttestationConveyancePreference,
    AuthenticationCredential,
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    RegistrationCredential,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from polis.server.accounts.sessions import SignedIn
from polis.server.errors import ServerError
from polis.server.http.middleware import public_base
from polis.server.store import accounts as rows
from polis.server.store.accounts import CEREMONIES, PASSKEYS, Account
from polis.server.store.schema import now

if TYPE_CHECKING:
    from polis.server.live.hub import Hub

#: How long a challenge can be answered (seconds); the browser is given as long.
CEREMONY_SECONDS = 300.0
#: The name the browser shows for this site when it asks to make a passkey.
RP_NAME = "polis"
#: Passkeys one account may hold.
MAX_PASSKEYS = 20
#: Registrations one account may have open at once (tabs); the oldest go first.
MAX_OPEN_REGISTRATIONS = 5
REGISTER = "register"
LOGIN = "login"


@dataclass(frozen=True, slots=True)
class RelyingParty:
    """Who a passkey is for: ``id`` (a host name) and the page ``origin`` that asks."""

    id: str
    origin: str


def relying_party(scope: Scope, public_url: str | None) -> RelyingParty:
    """The relying party of the server's public address; ServerError ``bad_request`` where
    browsers allow no WebAuthn (plain http on a host other than localhost, an IP address)."""
    base = public_base(scope, public_url)
    parts = urlsplit(base)
    host = (parts.hostname or "").lower().rstrip(".")
    if _loopback(host):
        host = "localhost"
    local = host == "localhost" or host.endswith(".localhost")
    if parts.scheme != "https" and not local:
        raise ServerError(
            "bad_request",
            f"passkeys work only over https or on localhost, and this server's address is "
            f"{base}: set its public https address (--public-url, POLIS_PUBLIC_URL)",
        )
    if _is_ip(host):
        raise ServerError(
            "bad_request",
            f"passkeys need a host name, not an IP address ({base}): set the server's public "
            f"address (--public-url, POLIS_PUBLIC_URL)",
        )
    try:
        port = parts.port
    except ValueError:
        port = None
    netloc = host if port is None else f"{host}:{port}"
    return RelyingParty(host, f"{parts.scheme}://{netloc}")


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def user_handle(account: Account) -> bytes:
    """The WebAuthn user id of an account: its number, nothing personal (the spec asks that
    the handle hold no name or address), the same for every passkey of the account."""
    return account.id.to_bytes(8, "big")


def challenge_hash(challenge: bytes) -> str:
    return hashlib.sha256(challenge).hexdigest()


# -- the store --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Ceremony:
    purpose: str
    account_id: int | None
    expires: float


@dataclass(frozen=True, slots=True)
class Stored:
    """A passkey as the store keeps it."""

    credential_id: str
    account_id: int
    public_key: str
    sign_count: int


def add_ceremony(
    engine: Engine, hashed: str, purpose: str, account_id: int | None, at: float
) -> None:
    """Keep a challenge handed out; forget the expired ones (and an account's oldest open
    registrations past :data:`MAX_OPEN_REGISTRATIONS`)."""
    with engine.begin() as conn:
        conn.execute(delete(CEREMONIES).where(CEREMONIES.c.expires < at))
        if purpose == REGISTER and account_id is not None:
            open_ones = conn.execute(
                select(CEREMONIES.c.challenge_hash)
                .where(CEREMONIES.c.purpose == REGISTER, CEREMONIES.c.account_id == account_id)
                .order_by(CEREMONIES.c.expires.desc())
            ).all()
            old = [r[0] for r in open_ones[MAX_OPEN_REGISTRATIONS - 1 :]]
            if old:
                conn.execute(delete(CEREMONIES).where(CEREMONIES.c.challenge_hash.in_(old)))
        conn.execute(
            insert(CEREMONIES).values(
                challenge_hash=hashed,
                purpose=purpose,
                account_id=account_id,
                expires=at + CEREMONY_SECONDS,
            )
        )


def take_ceremony(engine: Engine, hashed: str) -> Ceremony | None:
    """The ceremony of a challenge, taken out of the store (None: unknown or already taken,
    by this process or another)."""
    with engine.begin() as conn:
        row = conn.execute(
            select(CEREMONIES.c.purpose, CEREMONIES.c.account_id, CEREMONIES.c.expires).where(
                CEREMONIES.c.challenge_hash == hashed
            )
        ).first()
        if row is None:
            return None
        done = conn.execute(delete(CEREMONIES).where(CEREMONIES.c.challenge_hash == hashed))
        if done.rowcount != 1:
            return None
    return Ceremony(row.purpose, row.account_id, float(row.expires))


def passkeys_of(engine: Engine, account_id: int) -> list[dict[str, Any]]:
    with engine.connect() as conn:
        found = conn.execute(
            select(PASSKEYS.c.credential_id, PASSKEYS.c.created, PASSKEYS.c.sign_count)
            .where(PASSKEYS.c.account_id == account_id)
            .order_by(PASSKEYS.c.created, PASSKEYS.c.credential_id)
        )
        return [{"id": r[0], "created": r[1], "sign_count": r[2]} for r in found]


def count_of(engine: Engine, account_id: int) -> int:
    with engine.connect() as conn:
        return int(
            conn.execute(select(func.count()).where(PASSKEYS.c.account_id == account_id)).scalar()
            or 0
        )


def add_passkey(
    engine: Engine, account_id: int, credential_id: str, public_key: str, sign_count: int
) -> bool:
    """Keep a new passkey; False when that credential is already kept (for any account)."""
    try:
        with engine.begin() as conn:
            conn.execute(
                insert(PASSKEYS).values(
                    credential_id=credential_id,
                    account_id=account_id,
                    public_key=public_key,
                    sign_count=sign_count,
                    created=now(),
                )
            )
    except IntegrityError:
        return False
    return True


def stored_passkey(engine: Engine, credential_id: str) -> Stored | None:
    with engine.connect() as conn:
        row = conn.execute(
            select(
                PASSKEYS.c.credential_id,
                PASSKEYS.c.account_id,
                PASSKEYS.c.public_key,
                PASSKEYS.c.sign_count,
            ).where(PASSKEYS.c.credential_id == credential_id)
        ).first()
    return None if row is None else Stored(row[0], row[1], row[2], int(row[3]))


def set_sign_count(engine: Engine, credential_id: str, was: int, count: int) -> bool:
    """Move the counter from ``was`` to ``count``; False when another sign-in moved it first
    (two answers with one counter value: one of them is a copy)."""
    with engine.begin() as conn:
        done = conn.execute(
            update(PASSKEYS)
            .where(PASSKEYS.c.credential_id == credential_id, PASSKEYS.c.sign_count == was)
            .values(sign_count=count)
        )
        return bool(done.rowcount == 1)


def delete_passkey(engine: Engine, account_id: int, credential_id: str) -> bool:
    """Forget one of the account's passkeys; False when it holds none by that id."""
    with engine.begin() as conn:
        done = conn.execute(
            delete(PASSKEYS).where(
                PASSKEYS.c.credential_id == credential_id, PASSKEYS.c.account_id == account_id
            )
        )
        return bool(done.rowcount == 1)


# -- the ceremonies ---------------------------------------------------------------------------
def _descriptors(found: list[dict[str, Any]]) -> list[PublicKeyCredentialDescriptor]:
    return [PublicKeyCredentialDescriptor(id=base64url_to_bytes(p["id"])) for p in found]


def passkey_json(entry: dict[str, Any]) -> dict[str, Any]:
    """A passkey as its account's pages see it (the public key stays in the store)."""
    created = entry["created"]
    return {
        "id": entry["id"],
        "created": created.isoformat() if hasattr(created, "isoformat") else str(created),
        "sign_count": entry["sign_count"],
    }


class Passkeys:
    """The passkey ceremonies of one request (cheap: made by each route)."""

    def __init__(self, hub: Hub, scope: Scope) -> None:
        self.hub = hub
        self.scope = scope

    @property
    def engine(self) -> Engine:
        engine: Engine = self.hub.store.engine
        return engine

    def party(self) -> RelyingParty:
        return relying_party(self.scope, self.hub.config.public_url)

    async def _challenge(self, purpose: str, account_id: int | None) -> bytes:
        challenge = secrets.token_bytes(32)
        hashed = challenge_hash(challenge)
        await self.hub.write(
            lambda: add_ceremony(self.engine, hashed, purpose, account_id, time.time()),
            "a passkey challenge",
        )
        return challenge

    async def _take(self, client_data_json: bytes, purpose: str) -> tuple[bytes, Ceremony]:
        """The challenge an answer names and its ceremony, taken (single use); ServerError
        ``bad_request`` when it is unknown, used, expired or for another ceremony."""
        try:
            challenge = parse_client_data_json(client_data_json).challenge
        except (WebAuthnException, ValueError, TypeError) as exc:
            raise ServerError("bad_request", f"the passkey's answer is malformed: {exc}") from exc
        hashed = challenge_hash(challenge)
        ceremony: Ceremony | None = await self.hub.write(
            lambda: take_ceremony(self.engine, hashed), "a passkey challenge"
        )
        if ceremony is None or ceremony.purpose != purpose:
            raise ServerError(
                "bad_request",
                "this passkey challenge is unknown or was already used: ask for a new one",
            )
        if ceremony.expires < time.time():
            raise ServerError("bad_request", "this passkey challenge expired: ask for a new one")
        return challenge, ceremony

    # -- adding a passkey ---------------------------------------------------------------------
    async def registration_options(self, signed: SignedIn) -> dict[str, Any]:
        """Options for ``navigator.credentials.create`` (their JSON form): a new challenge,
        the account's passkeys excluded (an authenticator holds one per account)."""
        party = self.party()
        account = signed.account
        held = await self.hub.patiently(lambda: passkeys_of(self.engine, account.id), "passkeys")
        if len(held) >= MAX_PASSKEYS:
            raise ServerError(
                "bad_request", f"an account holds at most {MAX_PASSKEYS} passkeys: delete one first"
            )
        challenge = await self._challenge(REGISTER, account.id)
        options = generate_registration_options(
            rp_id=party.id,
            rp_name=RP_NAME,
            user_name=account.name,
            user_id=user_handle(account),
            user_display_name=account.name,
            challenge=challenge,
            timeout=int(CEREMONY_SECONDS * 1000),
            attestation=AttestationConveyancePreference.NONE,
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.PREFERRED,
                user_verification=UserVerificationRequirement.PREFERRED,
            ),
            exclude_credentials=_descriptors(held),
        )
        return options_to_json_dict(options)

    async def register(self, signed: SignedIn, credential: dict[str, Any]) -> dict[str, Any]:
        """Check the authenticator's answer to :meth:`registration_options` and keep the
        passkey; its entry in the account's list."""
        party = self.party()
        parsed = _parse(parse_registration_credential_json, credential)
        assert isinstance(parsed, RegistrationCredential)
        challenge, ceremony = await self._take(parsed.response.client_data_json, REGISTER)
        if ceremony.account_id != signed.account.id:
            raise ServerError("bad_request", "this passkey challenge was not made for you")
        try:
            verified = await asyncio.to_thread(
                lambda: verify_registration_response(
                    credential=parsed,
                    expected_challenge=challenge,
                    expected_rp_id=party.id,
                    expected_origin=party.origin,
                )
            )
        except WebAuthnException as exc:
            raise ServerError("bad_request", f"the passkey was not accepted: {exc}") from exc
        credential_id = bytes_to_base64url(verified.credential_id)
        public_key = bytes_to_base64url(verified.credential_public_key)
        account_id = signed.account.id

        def keep() -> bool:
            if count_of(self.engine, account_id) >= MAX_PASSKEYS:
                return False
            return add_passkey(
                self.engine, account_id, credential_id, public_key, verified.sign_count
            )

        if not await self.hub.write(keep, "adding a passkey"):
            raise ServerError(
                "bad_request", "this passkey is already kept, or the account holds too many"
            )
        found = await self.hub.patiently(lambda: passkeys_of(self.engine, account_id), "passkeys")
        return next(passkey_json(p) for p in found if p["id"] == credential_id)

    # -- signing in ---------------------------------------------------------------------------
    async def login_options(self, name: str | None, address: str) -> dict[str, Any]:
        """Options for ``navigator.credentials.get``: with a name, the passkeys of that
        account are offered (``allowCredentials``); without, the browser offers the passkeys
        it holds for this site. Counted as a sign-in attempt of the address."""
        party = self.party()
        self.hub.accounts.limits.attempt(address, name or "")
        account_id: int | None = None
        allowed: list[dict[str, Any]] = []
        if name:
            found = await self.hub.patiently(lambda: rows.by_name(self.engine, name), "an account")
            if found is not None:
                account_id = found[0].id
                known = account_id
                allowed = await self.hub.patiently(
                    lambda: passkeys_of(self.engine, known), "passkeys"
                )
        challenge = await self._challenge(LOGIN, account_id)
        options = generate_authentication_options(
            rp_id=party.id,
            challenge=challenge,
            timeout=int(CEREMONY_SECONDS * 1000),
            allow_credentials=_descriptors(allowed),
            user_verification=UserVerificationRequirement.PREFERRED,
        )
        return options_to_json_dict(options)

    async def login(
        self, credential: dict[str, Any], response: Response, conn: HTTPConnection
    ) -> SignedIn:
        """Check the authenticator's answer to :meth:`login_options` and start a session for
        the passkey's account (ServerError ``unauthorized`` when it does not sign)."""
        party = self.party()
        parsed = _parse(parse_authentication_credential_json, credential)
        assert isinstance(parsed, AuthenticationCredential)
        challenge, ceremony = await self._take(parsed.response.client_data_json, LOGIN)
        credential_id = bytes_to_base64url(parsed.raw_id)
        stored: Stored | None = await self.hub.patiently(
            lambda: stored_passkey(self.engine, credential_id), "a passkey"
        )
        account = None
        if stored is not None:
            owner = stored.account_id
            account = await self.hub.patiently(lambda: rows.by_id(self.engine, owner), "account")
        if stored is None or account is None or account.deleted:
            raise ServerError("unauthorized", "this passkey does not belong to an account here")
        if ceremony.account_id is not None and ceremony.account_id != account.id:
            raise ServerError("unauthorized", "this passkey belongs to another account")
        limits = self.hub.accounts.limits
        if limits.names.full(account.name.casefold()):
            raise ServerError(
                "rate_limited", "too many failed sign-ins for this name; try again later"
            )
        handle = parsed.response.user_handle
        if handle is not None and handle != user_handle(account):
            limits.failed(account.name)
            raise ServerError("unauthorized", "this passkey belongs to another account")
        try:
            verified = await asyncio.to_thread(
                lambda: verify_authentication_response(
                    credential=parsed,
                    expected_challenge=challenge,
                    expected_rp_id=party.id,
                    expected_origin=party.origin,
                    credential_public_key=base64url_to_bytes(stored.public_key),
                    # the counter is checked below, once the signature is known to be good
                    credential_current_sign_count=0,
                )
            )
        except WebAuthnException as exc:
            limits.failed(account.name)
            raise ServerError("unauthorized", f"the passkey did not sign in: {exc}") from exc
        was, new = stored.sign_count, verified.new_sign_count
        if (new > 0 or was > 0) and new <= was:
            limits.failed(account.name)
            raise ServerError(
                "unauthorized",
                "this passkey's signature counter did not go up: the authenticator may have "
                "been copied, so it is refused",
            )
        if account.suspended:
            raise ServerError("forbidden", "this account is suspended")
        if new != was and not await self.hub.write(
            lambda: set_sign_count(self.engine, credential_id, was, new), "a passkey's counter"
        ):
            raise ServerError(
                "unauthorized", "this passkey signed in twice with one counter value: refused"
            )
        signed: SignedIn = await self.hub.accounts.start(account, response, conn)
        return signed

    # -- the account's list -------------------------------------------------------------------
    async def listing(self, account: Account) -> list[dict[str, Any]]:
        found = await self.hub.patiently(lambda: passkeys_of(self.engine, account.id), "passkeys")
        return [passkey_json(p) for p in found]

    async def remove(self, account: Account, credential_id: str) -> None:
        """Forget one of the account's passkeys (ServerError ``not_found`` when the account
        holds none by that id: another account's passkeys are out of reach)."""
        done = await self.hub.write(
            lambda: delete_passkey(self.engine, account.id, credential_id), "deleting a passkey"
        )
        if not done:
            raise ServerError("not_found", "you hold no passkey by this id")


def _parse(parse: Any, credential: dict[str, Any]) -> Any:
    try:
        return parse(credential)
    except (WebAuthnException, ValueError, TypeError) as exc:
        raise ServerError("bad_request", f"the passkey's answer is malformed: {exc}") from exc
