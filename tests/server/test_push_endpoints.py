"""The server calls a push subscription's endpoint on every turn of its seat, so a client must
not be able to make it call anything but a public push service (server-side request forgery):
an endpoint is refused at subscription when the HTTP client would read its host differently
from the check (``\\``, ``%``, user info), when it names another port, plain http or an IP
address, and when its name leads to an address that is not public; the name is resolved again
before each push, and the connection itself refuses a peer that is not public and follows no
redirect.

Names are resolved by a fake ``socket.getaddrinfo`` (no network): push-service names it is not
told of do not resolve.
"""

from __future__ import annotations

import os
import socket
import ssl
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from fastapi.testclient import TestClient

from polis.core.registry import games
from polis.server import create_app
from polis.server.config import ServerConfig
from polis.server.store import chat_push as rows
from polis.server.table import push

from .test_push import b64url, greet, move, settled, table

pywebpush = pytest.importorskip("pywebpush")

#: A public address (TEST-NET would not do: it is reserved) for names that resolve fine.
PUBLIC = "142.250.74.42"
PUSH_SUFFIXES = ServerConfig().push_services


@pytest.fixture
def dns(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    """Name -> addresses the fake resolver answers (change it to re-point a name)."""
    names: dict[str, list[str]] = {}
    real = socket.getaddrinfo

    def getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        name = host.decode() if isinstance(host, bytes) else str(host)
        if name in names:
            return [
                (socket.AF_INET6, socket.SOCK_STREAM, 6, "", (a, port, 0, 0))
                if ":" in a
                else (socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port))
                for a in names[name]
            ]
        if any(name == s or name.endswith("." + s) for s in PUSH_SUFFIXES):
            raise socket.gaierror(socket.EAI_NONAME, "not known to the test")
        return real(host, port, *args, **kwargs)  # the database's host, localhost

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return names


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The subscriptions ``pywebpush.webpush`` was called for (it sends nothing), each with
    the ``requests_session`` it was given."""
    calls: list[dict[str, Any]] = []

    def webpush(subscription_info: dict[str, Any], *args: Any, **kwargs: Any) -> None:
        calls.append({**subscription_info, "session": kwargs.get("requests_session")})

    monkeypatch.setattr(pywebpush, "webpush", webpush)
    return calls


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    """A server with the default (strict) push services."""
    app = create_app(db_url, games=games().values(), bot_delay=0.0, config=ServerConfig.from_env())
    with TestClient(app) as c:
        yield c


def subscription(endpoint: str) -> dict[str, Any]:
    key = ec.generate_private_key(ec.SECP256R1()).public_key()
    point = key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return {"endpoint": endpoint, "keys": {"p256dh": b64url(point), "auth": b64url(os.urandom(16))}}


def subscribe(client: TestClient, gid: str, token: str, endpoint: str) -> Any:
    body = {"token": token, "subscription": subscription(endpoint)}
    return client.post(f"/api/games/{gid}/push", json=body)


def engine_of(client: TestClient) -> Any:
    return client.app.state.hub.store.engine  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://fcm.googleapis.com/fcm/send/abc",
        "https://FCM.googleapis.com:443/fcm/send/abc",
        "https://updates.push.services.mozilla.com/wpush/v2/abc",
    ],
)
def test_a_push_service_that_resolves_to_a_public_address_is_accepted(
    client: TestClient, dns: dict[str, list[str]], endpoint: str
) -> None:
    dns["fcm.googleapis.com"] = dns["updates.push.services.mozilla.com"] = [PUBLIC]
    gid, tokens, _first = table(client)
    resp = subscribe(client, gid, tokens[0], endpoint)
    assert resp.status_code == 200, resp.text
    assert [s.endpoint for s in rows.subscriptions(engine_of(client), gid, 0)] == [endpoint]


@pytest.mark.parametrize(
    ("endpoint", "reason"),
    [
        # urllib3 ends the host at "\": this would be a request to 127.0.0.1:443
        ("https://127.0.0.1\\.fcm.googleapis.com/x", "'\\'"),
        ("https://127.0.0.1@fcm.googleapis.com/x", "user"),
        ("https://fcm.googleapis.com@127.0.0.1/x", "user"),
        ("https://fcm.googleapis.com:8443/x", "port 443"),
        ("https://fcm.googleapis.com:0443/x", "port 443"),
        ("https://fcm.googleapis.com:/x", "port 443"),
        ("https://127.0.0.1%2f.fcm.googleapis.com/x", "'%'"),  # urllib3 decodes it
        ("https://x%2efcm.googleapis.com/x", "'%'"),
        ("https://127.0.0.1\t.fcm.googleapis.com/x", "space"),  # urlsplit drops the tab
        ("https://x.fcm.googleapis.com\n/x", "space"),
        (" https://x.fcm.googleapis.com/x", "space"),
        ("https://x.fcm.googleapis.com /x", "space"),
        ("http://fcm.googleapis.com/x", "https"),
        ("https://127.0.0.1/x", "IP address"),
        ("https://[::1]/x", "IP address"),
        ("https://2130706433/x", "IP address"),
        ("https://evilfcm.googleapis.com/x", "not one the server sends to"),
        ("https://fcm.googleapis.com.evil.example/x", "not one the server sends to"),
        ("https:///x", "not a URL"),
    ],
)
def test_an_endpoint_read_otherwise_by_the_http_client_is_refused(
    client: TestClient, dns: dict[str, list[str]], endpoint: str, reason: str
) -> None:
    # every name resolves to a public address: only the endpoint's form can refuse it
    for name in ["fcm.googleapis.com", "x.fcm.googleapis.com", "evilfcm.googleapis.com"]:
        dns[name] = [PUBLIC]
    gid, tokens, _first = table(client)
    resp = subscribe(client, gid, tokens[0], endpoint)
    assert resp.status_code == 400, (endpoint, resp.text)
    message = resp.json()["error"]["message"]
    assert "push service" in message and reason in message, message
    assert rows.subscriptions(engine_of(client), gid, 0) == []


def test_an_ip_address_is_refused_even_when_listed(db_url: str) -> None:
    config = ServerConfig.from_env(push_services=("142.250.74.42",))
    app = create_app(db_url, games=games().values(), bot_delay=0.0, config=config)
    with TestClient(app) as client:
        gid, tokens, _first = table(client)
        resp = subscribe(client, gid, tokens[0], f"https://{PUBLIC}/push")
        assert resp.status_code == 400 and "IP address" in resp.json()["error"]["message"]


@pytest.mark.parametrize(
    "addresses",
    [
        ["127.0.0.1"],
        ["::1"],
        ["10.1.2.3"],
        ["192.168.0.10"],
        ["100.64.0.1"],  # shared address space (carrier NAT)
        ["169.254.169.254"],  # a cloud's metadata service
        ["fe80::1"],
        ["fd00::1"],
        ["0.0.0.0"],
        ["224.0.1.1"],  # multicast (Python deems it global)
        ["240.0.0.1"],
        ["::ffff:127.0.0.1"],
        ["2002:7f00:1::1"],  # 6to4 around 127.0.0.1
        ["64:ff9b::a01:203"],  # NAT64 around 10.1.2.3
        [PUBLIC, "127.0.0.1"],  # one bad address is enough
    ],
)
def test_a_push_service_name_that_leads_inside_is_refused(
    client: TestClient, dns: dict[str, list[str]], addresses: list[str]
) -> None:
    dns["evil.fcm.googleapis.com"] = addresses
    gid, tokens, _first = table(client)
    resp = subscribe(client, gid, tokens[0], "https://evil.fcm.googleapis.com/x")
    assert resp.status_code == 400, resp.text
    assert "not public" in resp.json()["error"]["message"]
    assert rows.subscriptions(engine_of(client), gid, 0) == []


def test_a_name_that_does_not_resolve_is_refused(
    client: TestClient, dns: dict[str, list[str]]
) -> None:
    gid, tokens, _first = table(client)
    resp = subscribe(client, gid, tokens[0], "https://nowhere.fcm.googleapis.com/x")
    assert resp.status_code == 400 and "resolve" in resp.json()["error"]["message"]


@pytest.mark.parametrize("later", [[PUBLIC], ["127.0.0.1"], ["10.0.0.1", PUBLIC], []])
def test_the_name_is_resolved_again_before_each_push(
    client: TestClient, dns: dict[str, list[str]], sent: list[dict[str, Any]], later: list[str]
) -> None:
    endpoint = "https://rebind.fcm.googleapis.com/fcm/send/abc"
    dns["rebind.fcm.googleapis.com"] = [PUBLIC]
    gid, tokens, first = table(client)
    other = 1 - first
    assert subscribe(client, gid, tokens[other], endpoint).status_code == 200
    dns["rebind.fcm.googleapis.com"] = later  # re-pointed after the check (DNS rebinding)
    with client.websocket_connect(f"/ws/{gid}") as ws:
        move(ws, greet(ws, tokens[first]))
    settled(client, 1)
    left = rows.subscriptions(engine_of(client), gid, other)
    if later == [PUBLIC]:  # the control: the same path does send
        assert [s["endpoint"] for s in sent] == [endpoint]
        # over a session whose connections check the address they reach
        adapter = sent[0]["session"].get_adapter(endpoint)
        assert isinstance(adapter, push._public_adapter())
        assert [s.endpoint for s in left] == [endpoint]
    elif later:  # never fetched, and forgotten
        assert sent == []
        assert left == []
    else:  # the name does not resolve just now: not fetched, but kept for the next turn
        assert sent == []
        assert [s.endpoint for s in left] == [endpoint]


class Site:
    """A web server on 127.0.0.1 (https with a self-signed certificate kept in the folder
    ``tls``, if given) that keeps the paths asked for: ``/redirect`` answers 307 to
    ``/landed``, others 201."""

    def __init__(self, tls: Path | None = None) -> None:
        self.paths: list[str] = []
        #: What a client verifies the server's certificate with.
        self.cert: str | bool = True
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                site.paths.append(self.path)
                self.send_response(307 if self.path == "/redirect" else 201)
                self.send_header("Location", "/landed")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *_args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        if tls is not None:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            self.cert, key = self_signed(tls)
            context.load_cert_chain(self.cert, key)
            self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        scheme = "https" if tls else "http"
        self.base = f"{scheme}://localhost:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def self_signed(folder: Path) -> tuple[str, str]:
    """A certificate and key for localhost, as files in ``folder``."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.now(UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(minutes=1))
        .not_valid_after(now + timedelta(hours=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost")]), critical=False)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = str(folder / "cert.pem"), str(folder / "key.pem")
    with open(cert_file, "wb") as out:
        out.write(cert.public_bytes(serialization.Encoding.PEM))
    with open(key_file, "wb") as out:
        out.write(
            key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
        )
    return cert_file, key_file


@pytest.fixture(params=[False, True], ids=["http", "https"])
def site(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Site]:
    s = Site(tls=tmp_path if request.param else None)
    yield s
    s.close()


def test_the_connection_refuses_a_peer_that_is_not_public(site: Site) -> None:
    """What a name re-pointed between the check and the connection would reach: the client's
    own resolution of localhost leads to 127.0.0.1, and the connection is refused there,
    before TLS and before any request."""
    import requests

    with (
        push.public_session() as session,
        pytest.raises(requests.ConnectionError, match="not public"),
    ):
        session.post(f"{site.base}/push", data=b"x", timeout=5, verify=site.cert)
    assert site.paths == []
    # the same request without the check arrives (so the refusal above is the check's)
    assert requests.post(f"{site.base}/push", data=b"x", timeout=5, verify=site.cert).ok
    assert site.paths == ["/push"]


def test_a_public_peer_is_reached_and_no_redirect_followed(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    import requests

    monkeypatch.setattr(push, "public", lambda ip: True)  # 127.0.0.1 stands for the internet
    with push.public_session() as session:
        sent = session.post(f"{site.base}/push", data=b"x", timeout=5, verify=site.cert)
        assert sent.status_code == 201
        with pytest.raises(requests.TooManyRedirects):
            session.post(f"{site.base}/redirect", data=b"x", timeout=5, verify=site.cert)
    assert site.paths == ["/push", "/redirect"]  # never /landed
