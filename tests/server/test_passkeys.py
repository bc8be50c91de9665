"""Passkeys (WebAuthn): a software authenticator (an EC P-256 key, written here with
``cryptography`` and ``cbor2``) answers the server's real options, and the real endpoints
verify its answers with py_webauthn: a passkey is added, signs in without a password, and is
refused from another origin, with a used or expired challenge, with a counter that went back
(a copied authenticator), for a suspended account, and out of another account's reach."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
from collections.abc import Iterator
from typing import Any

import cbor2
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from fastapi.testclient import TestClient
from sqlalchemy import update

from polis.server.accounts.sessions import COOKIE
from polis.server.store import accounts as rows

from .conftest import make_app
from .test_accounts import PASSWORD, Device, csrf, signup

SITE = "https://polis.test"
BASE = "/api/account/passkeys"

UP, UV, AT = 0x01, 0x04, 0x40


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Authenticator:
    """One passkey on a software authenticator, answering as a browser would
    (``PublicKeyCredential.toJSON()``). ``count`` is its signature counter (None: it does not
    count, as synced passkeys do not)."""

    def __init__(self, rp_id: str, origin: str, count: int | None = 0) -> None:
        self.rp_id = rp_id
        self.origin = origin
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = secrets.token_bytes(16)
        self.count = count
        self.user_handle: str | None = None

    @property
    def id(self) -> str:
        return b64(self.credential_id)

    def cose_key(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        # kty EC2, alg ES256, crv P-256, x, y
        return cbor2.dumps(
            {
                1: 2,
                3: -7,
                -1: 1,
                -2: numbers.x.to_bytes(32, "big"),
                -3: numbers.y.to_bytes(32, "big"),
            }
        )

    def auth_data(self, rp_id: str, attested: bool, count: int) -> bytes:
        flags = UP | UV | (AT if attested else 0)
        data = hashlib.sha256(rp_id.encode()).digest() + bytes([flags]) + count.to_bytes(4, "big")
        if attested:
            aaguid = bytes(16)
            data += aaguid + len(self.credential_id).to_bytes(2, "big") + self.credential_id
            data += self.cose_key()
        return data

    def client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        return json.dumps(
            {
                "type": kind,
                "challenge": challenge,
                "origin": origin or self.origin,
                "crossOrigin": False,
            }
        ).encode()

    def next_count(self) -> int:
        if self.count is None:
            return 0
        self.count += 1
        return self.count

    def create(
        self, options: dict[str, Any], origin: str | None = None, rp_id: str | None = None
    ) -> dict[str, Any]:
        assert options["rp"]["id"] == self.rp_id
        assert self.id not in [c["id"] for c in options.get("excludeCredentials", [])]
        self.user_handle = options["user"]["id"]
        client_data = self.client_data("webauthn.create", options["challenge"], origin)
        auth = self.auth_data(rp_id or self.rp_id, True, self.next_count())
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth})
        return {
            "id": self.id,
            "rawId": self.id,
            "type": "public-key",
            "response": {
                "clientDataJSON": b64(client_data),
                "attestationObject": b64(attestation),
                "transports": ["internal"],
            },
            "clientExtensionResults": {},
            "authenticatorAttachment": "platform",
        }

    def get(
        self, options: dict[str, Any], origin: str | None = None, count: int | None = None
    ) -> dict[str, Any]:
        assert options["rpId"] == self.rp_id
        allowed = [c["id"] for c in options.get("allowCredentials", [])]
        assert not allowed or self.id in allowed
        client_data = self.client_data("webauthn.get", options["challenge"], origin)
        auth = self.auth_data(self.rp_id, False, self.next_count() if count is None else count)
        signature = self.key.sign(
            auth + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256())
        )
        return {
            "id": self.id,
            "rawId": self.id,
            "type": "public-key",
            "response": {
                "clientDataJSON": b64(client_data),
                "authenticatorData": b64(auth),
                "signature": b64(signature),
                "userHandle": self.user_handle,
            },
            "clientExtensionResults": {},
            "authenticatorAttachment": "platform",
        }


@pytest.fixture
def site(db_url: str) -> Iterator[TestClient]:
    """A server whose address is https://polis.test."""
    with TestClient(make_app(db_url), base_url=SITE) as c:
        yield c


def add_passkey(client: Any, key: Authenticator) -> dict[str, Any]:
    headers = csrf(client)
    options = client.post(f"{BASE}/register/options", headers=headers).json()
    r = client.post(f"{BASE}/register", json={"credential": key.create(options)}, headers=headers)
    assert r.status_code == 200, r.text
    return dict(r.json())


def login_options(client: Any, name: str | None = None) -> dict[str, Any]:
    r = client.post(f"{BASE}/login/options", json={} if name is None else {"name": name})
    assert r.status_code == 200, r.text
    assert r.headers["cache-control"] == "no-store"
    return dict(r.json())


def sign_out(client: Any) -> None:
    assert client.post("/api/account/logout", headers=csrf(client)).status_code == 200
    assert client.get("/api/account").json()["account"] is None


def engine_of(client: TestClient) -> Any:
    return client.app.state.hub.store.engine  # type: ignore[attr-defined]


def test_a_passkey_is_added_and_signs_in_without_a_password(site: TestClient) -> None:
    signup(site, "Alice")
    options = site.post(f"{BASE}/register/options", headers=csrf(site)).json()
    assert options["rp"] == {"name": "polis", "id": "polis.test"}
    assert options["user"]["name"] == "Alice"
    assert options["authenticatorSelection"]["residentKey"] == "preferred"
    assert options["authenticatorSelection"]["userVerification"] == "preferred"
    assert options["attestation"] == "none"
    assert options["excludeCredentials"] == []
    assert options["timeout"] == 300_000
    key = Authenticator("polis.test", SITE)
    r = site.post(f"{BASE}/register", json={"credential": key.create(options)}, headers=csrf(site))
    assert r.status_code == 200, r.text
    assert r.json()["id"] == key.id and r.json()["sign_count"] == 1
    listed = site.get(BASE).json()["passkeys"]
    assert [p["id"] for p in listed] == [key.id] and "public_key" not in listed[0]
    # the next registration excludes it (one passkey per account on an authenticator)
    again = site.post(f"{BASE}/register/options", headers=csrf(site)).json()
    assert [c["id"] for c in again["excludeCredentials"]] == [key.id]

    sign_out(site)
    before = site.cookies.get(COOKIE)
    options = login_options(site)
    assert options["allowCredentials"] == [] and options["userVerification"] == "preferred"
    r = site.post(f"{BASE}/login", json={"credential": key.get(options)})
    assert r.status_code == 200, r.text
    assert r.json()["account"] == {"name": "Alice", "bot": False}
    assert r.headers["cache-control"] == "no-store"
    assert "HttpOnly" in r.headers["set-cookie"] and "Secure" in r.headers["set-cookie"]
    assert site.cookies[COOKIE] != before
    me = site.get("/api/account").json()
    assert me["account"]["name"] == "Alice" and me["csrf"] == r.json()["csrf"]
    assert site.get(BASE).json()["passkeys"][0]["sign_count"] == 2


def test_a_name_narrows_the_offered_passkeys(site: TestClient) -> None:
    signup(site, "Berta")
    key = Authenticator("polis.test", SITE)
    add_passkey(site, key)
    sign_out(site)
    assert [c["id"] for c in login_options(site, "berta")["allowCredentials"]] == [key.id]
    assert login_options(site, "Nobody")["allowCredentials"] == []
    # an answer for another name's ceremony is refused
    signup(Device(site), "Carla")
    options = login_options(site, "Carla")
    r = site.post(f"{BASE}/login", json={"credential": key.get(options)})
    assert r.status_code == 401
    options = login_options(site, "Berta")
    assert site.post(f"{BASE}/login", json={"credential": key.get(options)}).status_code == 200


def test_another_origin_or_site_is_refused(site: TestClient) -> None:
    signup(site, "Dora")
    key = Authenticator("polis.test", SITE)
    options = site.post(f"{BASE}/register/options", headers=csrf(site)).json()
    r = site.post(
        f"{BASE}/register",
        json={"credential": key.create(options, origin="https://evil.test")},
        headers=csrf(site),
    )
    assert r.status_code == 400 and "origin" in r.json()["error"]["message"]
    options = site.post(f"{BASE}/register/options", headers=csrf(site)).json()
    r = site.post(
        f"{BASE}/register",
        json={"credential": key.create(options, rp_id="evil.test")},
        headers=csrf(site),
    )
    assert r.status_code == 400 and "RP ID" in r.json()["error"]["message"]
    assert site.get(BASE).json()["passkeys"] == []

    add_passkey(site, key)
    sign_out(site)
    r = site.post(
        f"{BASE}/login",
        json={"credential": key.get(login_options(site), origin="https://evil.test")},
    )
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
    assert site.get("/api/account").json()["account"] is None
    # an answer naming another account's user handle is refused
    answer = key.get(login_options(site))
    answer["response"]["userHandle"] = b64((999).to_bytes(8, "big"))
    r = site.post(f"{BASE}/login", json={"credential": answer})
    assert r.status_code == 401 and "another account" in r.json()["error"]["message"]
    # a signature by another key is refused too
    forger = Authenticator("polis.test", SITE)
    forger.credential_id = key.credential_id
    forger.user_handle = key.user_handle
    r = site.post(f"{BASE}/login", json={"credential": forger.get(login_options(site), count=50)})
    assert r.status_code == 401 and "signature" in r.json()["error"]["message"]
    assert site.get("/api/account").json()["account"] is None


def test_a_used_challenge_is_refused(site: TestClient) -> None:
    signup(site, "Edith")
    key = Authenticator("polis.test", SITE)
    options = site.post(f"{BASE}/register/options", headers=csrf(site)).json()
    answer = key.create(options)
    assert (
        site.post(f"{BASE}/register", json={"credential": answer}, headers=csrf(site)).status_code
        == 200
    )
    r = site.post(f"{BASE}/register", json={"credential": answer}, headers=csrf(site))
    assert r.status_code == 400 and "already used" in r.json()["error"]["message"]
    sign_out(site)
    answer = key.get(login_options(site))
    assert site.post(f"{BASE}/login", json={"credential": answer}).status_code == 200
    sign_out(site)
    r = site.post(f"{BASE}/login", json={"credential": answer})
    assert r.status_code == 400 and "already used" in r.json()["error"]["message"]
    assert site.get("/api/account").json()["account"] is None
    # a sign-in challenge does not add a passkey, nor the other way round
    signup(site, "Edwin")
    other = Authenticator("polis.test", SITE)
    r = site.post(
        f"{BASE}/register",
        json={
            "credential": other.create(
                login_options(site) | {"rp": {"id": "polis.test"}, "user": {"id": "x"}}
            )
        },
        headers=csrf(site),
    )
    assert r.status_code == 400
    # a registration challenge made for another account is refused
    foreign = site.post(f"{BASE}/register/options", headers=csrf(site)).json()
    mallory = Device(site)
    signup(mallory, "Mallory")
    r = mallory.post(
        f"{BASE}/register", json={"credential": other.create(foreign)}, headers=csrf(mallory)
    )
    assert r.status_code == 400 and "not made for you" in r.json()["error"]["message"]


def test_an_expired_challenge_is_refused(site: TestClient) -> None:
    signup(site, "Frida")
    key = Authenticator("polis.test", SITE)
    add_passkey(site, key)
    sign_out(site)
    options = login_options(site)
    with engine_of(site).begin() as conn:
        conn.execute(update(rows.CEREMONIES).values(expires=1.0))
    r = site.post(f"{BASE}/login", json={"credential": key.get(options)})
    assert r.status_code == 400 and "expired" in r.json()["error"]["message"]
    assert site.get("/api/account").json()["account"] is None
    # the challenge is stored as a hash only, and gone once answered
    options = login_options(site)
    with engine_of(site).connect() as conn:
        kept = [r[0] for r in conn.execute(rows.CEREMONIES.select())]
    assert kept == [hashlib.sha256(unb64(options["challenge"])).hexdigest()]
    assert site.post(f"{BASE}/login", json={"credential": key.get(options)}).status_code == 200
    with engine_of(site).connect() as conn:
        assert list(conn.execute(rows.CEREMONIES.select())) == []


def test_a_counter_that_goes_back_is_refused_as_a_copied_authenticator(
    site: TestClient,
) -> None:
    signup(site, "Greta")
    key = Authenticator("polis.test", SITE, count=10)
    add_passkey(site, key)  # counter 11
    sign_out(site)
    assert (
        site.post(f"{BASE}/login", json={"credential": key.get(login_options(site))}).status_code
        == 200
    )
    sign_out(site)
    for count in (12, 5, 0):  # the same value again, or lower: a copy of the key
        r = site.post(
            f"{BASE}/login", json={"credential": key.get(login_options(site), count=count)}
        )
        assert r.status_code == 401 and "copied" in r.json()["error"]["message"]
        assert site.get("/api/account").json()["account"] is None
    assert (
        site.post(
            f"{BASE}/login", json={"credential": key.get(login_options(site), count=13)}
        ).status_code
        == 200
    )
    assert site.get(BASE).json()["passkeys"][0]["sign_count"] == 13


def test_an_authenticator_without_a_counter_signs_in_again(site: TestClient) -> None:
    signup(site, "Hilde")
    key = Authenticator("polis.test", SITE, count=None)
    add_passkey(site, key)
    sign_out(site)
    for _ in range(2):
        r = site.post(f"{BASE}/login", json={"credential": key.get(login_options(site))})
        assert r.status_code == 200, r.text


def test_another_accounts_passkey_cannot_be_deleted(site: TestClient) -> None:
    signup(site, "Ida")
    key = Authenticator("polis.test", SITE)
    add_passkey(site, key)
    mallory = Device(site)
    signup(mallory, "Mallory")
    assert mallory.get(BASE).json()["passkeys"] == []
    r = mallory.post(f"{BASE}/delete", json={"id": key.id}, headers=csrf(mallory))
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    assert [p["id"] for p in site.get(BASE).json()["passkeys"]] == [key.id]
    # deleting needs the CSRF token
    assert site.post(f"{BASE}/delete", json={"id": key.id}).status_code == 403
    r = site.post(f"{BASE}/delete", json={"id": key.id}, headers=csrf(site))
    assert r.status_code == 200 and site.get(BASE).json()["passkeys"] == []
    sign_out(site)
    r = site.post(f"{BASE}/login", json={"credential": key.get(login_options(site))})
    assert r.status_code == 401


def test_adding_a_passkey_needs_the_session_and_its_csrf_token(site: TestClient) -> None:
    r = site.post(f"{BASE}/register/options")
    assert r.status_code == 401
    assert site.get(BASE).status_code == 401
    signup(site, "Jana")
    r = site.post(f"{BASE}/register/options")
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
    r = site.post(
        f"{BASE}/register/options",
        headers=csrf(site) | {"Origin": "https://evil.test", "Sec-Fetch-Site": "cross-site"},
    )
    assert r.status_code == 403


def test_a_suspended_or_deleted_account_cannot_sign_in_with_a_passkey(site: TestClient) -> None:
    signup(site, "Klara")
    key = Authenticator("polis.test", SITE)
    add_passkey(site, key)
    engine = engine_of(site)
    rows.set_suspended(engine, "Klara", True)
    assert site.get("/api/account").json()["account"] is None  # signed out everywhere
    r = site.post(f"{BASE}/login", json={"credential": key.get(login_options(site))})
    assert r.status_code == 403 and "suspended" in r.json()["error"]["message"]
    assert site.get("/api/account").json()["account"] is None
    rows.set_suspended(engine, "Klara", False)
    assert (
        site.post(f"{BASE}/login", json={"credential": key.get(login_options(site))}).status_code
        == 200
    )
    r = site.post("/api/account/delete", json={"password": PASSWORD}, headers=csrf(site))
    assert r.status_code == 200
    r = site.post(f"{BASE}/login", json={"credential": key.get(login_options(site))})
    assert r.status_code == 401
    with engine.connect() as conn:
        assert list(conn.execute(rows.PASSKEYS.select())) == []


def test_passkey_sign_ins_are_limited_per_address(site: TestClient) -> None:
    codes = [site.post(f"{BASE}/login/options", json={}).status_code for _ in range(22)]
    assert codes[:20] == [200] * 20 and codes[20:] == [429, 429]
    # the same address's password sign-ins are counted together
    r = site.post("/api/account/login", json={"name": "Nobody", "password": "x" * 12})
    assert r.status_code == 429


def test_malformed_answers_are_refused_with_400(site: TestClient) -> None:
    signup(site, "Lena")
    for credential in ({}, {"id": "x", "rawId": "x", "response": {}}, {"id": 1}):
        r = site.post(f"{BASE}/register", json={"credential": credential}, headers=csrf(site))
        assert r.status_code == 400, r.text
        r = site.post(f"{BASE}/login", json={"credential": credential})
        assert r.status_code == 400, r.text
    r = site.post(f"{BASE}/login/options", json={"name": "x", "extra": 1})
    assert r.status_code == 422


@pytest.mark.parametrize(
    ("base", "rp_id", "origin"),
    [
        ("http://localhost:8000", "localhost", "http://localhost:8000"),
        # polis serve listens on 127.0.0.1: its passkeys are localhost's
        ("http://127.0.0.1:8000", "localhost", "http://localhost:8000"),
    ],
)
def test_localhost_over_plain_http_is_allowed(
    db_url: str, base: str, rp_id: str, origin: str
) -> None:
    with TestClient(make_app(db_url), base_url=base) as local:
        signup(local, "Mona")
        key = Authenticator(rp_id, origin)
        add_passkey(local, key)
        sign_out(local)
        r = local.post(f"{BASE}/login", json={"credential": key.get(login_options(local))})
        assert r.status_code == 200, r.text


def test_plain_http_elsewhere_is_refused_with_the_reason(client: TestClient) -> None:
    signup(client, "Nina")
    r = client.post(f"{BASE}/register/options", headers=csrf(client))
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request"
    assert "https or on localhost" in r.json()["error"]["message"]
    r = client.post(f"{BASE}/login/options", json={})
    assert r.status_code == 400


def test_the_public_address_is_the_relying_party(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POLIS_PUBLIC_URL", "https://games.example.org/")
    # the proxy talks to the server at another address (its cookie is Secure: https here too)
    with TestClient(make_app(db_url), base_url="https://10.1.2.3:8443") as behind_proxy:
        signup(behind_proxy, "Olga")
        key = Authenticator("games.example.org", "https://games.example.org")
        add_passkey(behind_proxy, key)
        sign_out(behind_proxy)
        options = login_options(behind_proxy)
        assert options["rpId"] == "games.example.org"
        r = behind_proxy.post(f"{BASE}/login", json={"credential": key.get(options)})
        assert r.status_code == 200, r.text
