"""Turn notifications by Web Push: a seat's browser subscribes; when a move makes it that
seat's turn while it is away, the server sends a push, encrypted for the browser and signed
with the server's VAPID key, that says the game, who is to move and where, and nothing the
seat may not see. A connected seat, or one that did not opt in, gets none; a subscription
the push service says is gone is forgotten.

The push service is a local HTTP server of the test's own; the test decrypts what it
receives with the keys it made for its "browser" (``http_ece``), as a browser would.
"""

from __future__ import annotations

import base64
import json
import os
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from fastapi.testclient import TestClient

from polis.core.registry import games
from polis.server import create_app
from polis.server.config import ServerConfig
from polis.server.store import chat_push as rows
from polis.server.table.push import turn_based
from waiting import eventually

http_ece = pytest.importorskip("http_ece")
pytest.importorskip("pywebpush")

HUMANS2 = [{"name": "Ada", "kind": "human"}, {"name": "Lin", "kind": "human"}]


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class PushService:
    """A push service on 127.0.0.1: keeps what it is sent; answers 410 under ``/gone/`` and
    404 under ``/missing/`` (subscriptions that expired), 201 otherwise."""

    def __init__(self) -> None:
        self.received: list[tuple[str, dict[str, str], bytes]] = []
        self.arrived = threading.Condition()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                headers = {k.lower(): v for k, v in self.headers.items()}
                with service.arrived:
                    service.received.append((self.path, headers, body))
                    service.arrived.notify_all()
                status = 410 if "/gone/" in self.path else 404 if "/missing/" in self.path else 201
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *_args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def wait(self, count: int, timeout: float = 30) -> None:
        with self.arrived:
            ok = self.arrived.wait_for(lambda: len(self.received) >= count, timeout)
        assert ok, f"the push service got {len(self.received)} pushes, not {count}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Browser:
    """A browser's push subscription: its own keys, and the endpoint at the service."""

    def __init__(self, service: PushService, path: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.endpoint = f"{service.base}{path}"
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.subscription = {
            "endpoint": self.endpoint,
            "keys": {"p256dh": b64url(point), "auth": b64url(self.auth)},
        }

    def decrypt(self, body: bytes) -> dict[str, Any]:
        plain = http_ece.decrypt(
            body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        data: dict[str, Any] = json.loads(plain)
        return data


@pytest.fixture
def service() -> Iterator[PushService]:
    svc = PushService()
    yield svc
    svc.close()


def make(db_url: str) -> TestClient:
    # the local push service is plain http on 127.0.0.1: allowed for this server only
    config = ServerConfig.from_env(push_services=("http://127.0.0.1",), push_timeout=10.0)
    return TestClient(create_app(db_url, games=games().values(), bot_delay=0.0, config=config))


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with make(db_url) as c:
        yield c


def table(client: TestClient) -> tuple[str, list[str], int]:
    """A new table of two people: its id, the seats' tokens, the seat to move first."""
    resp = client.post("/api/games", json={"game": "counting", "mode": "basic", "seats": HUMANS2})
    assert resp.status_code == 200, resp.text
    data = resp.json()
    first = client.get(f"/api/games/{data['id']}").json()["current_player"]
    return data["id"], [s["token"] for s in data["seats"]], first


def subscribe(client: TestClient, gid: str, token: str, browser: Browser, lang: str = "en") -> Any:
    return client.post(
        f"/api/games/{gid}/push",
        json={"token": token, "subscription": browser.subscription, "lang": lang},
    )


def greet(ws: Any, token: str) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token})
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == "state":
            return msg


def move(ws: Any, state: dict[str, Any]) -> dict[str, Any]:
    """Play the first legal move; the state after it."""
    ws.send_json({"type": "move", "move": state["legal"][0], "position": state["position"]})
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == "state" and msg["position"] > state["position"]:
            return msg


def wait_seat(ws: Any, seat: int, connected: bool) -> None:
    """Until the server tells ``ws`` that ``seat`` is (not) connected."""
    while True:
        msg = ws.receive_json()
        if msg["type"] in ("seats", "state") and msg["seats"][seat]["connected"] is connected:
            return


def settled(client: TestClient, count: int, timeout: float = 30) -> None:
    """Until the server has dealt with ``count`` turn notices (sent or not)."""
    hub = client.app.state.hub  # type: ignore[attr-defined]
    eventually(
        lambda: hub.push.settled >= count,
        lambda: f"{hub.push.settled} turn notices, not {count}",
        timeout=timeout,
    )


def test_a_seat_away_is_sent_its_turn_encrypted_signed_and_with_nothing_hidden(
    client: TestClient, service: PushService
) -> None:
    gid, tokens, first = table(client)
    other = 1 - first
    lin = Browser(service, "/push/lin")
    resp = subscribe(client, gid, tokens[other], lin, lang="de")
    assert resp.status_code == 200, resp.text
    assert resp.json() == {"seat": other, "subscribed": True}
    key = client.get("/api/push/key").json()["key"]
    with client.websocket_connect(f"/ws/{gid}") as ws:
        state = move(ws, greet(ws, tokens[first]))
    service.wait(1)
    path, headers, body = service.received[0]
    assert path == "/push/lin"
    assert headers["content-encoding"] == "aes128gcm" and int(headers["ttl"]) > 0
    # signed with the key the server gives browsers (VAPID, RFC 8292)
    from py_vapid import Vapid02

    scheme, _, params = headers["authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(p.strip().split("=", 1) for p in params.split(","))
    assert fields["k"] == key
    assert Vapid02.verify(headers["authorization"])
    payload = lin.decrypt(body)
    assert payload == {
        "type": "turn",
        "game_id": gid,
        "game": "counting",
        "title": "Counting",
        "seat": other,
        "name": HUMANS2[other]["name"],
        "position": state["position"],
        "url": f"/#/game/{gid}",
        "lang": "de",
    }
    # nothing any seat holds secretly (the toy game's secret words and lucky numbers), no token
    plain = json.dumps(payload)
    assert "SECRET" not in plain and "lucky" not in plain
    assert not any(token in plain for token in tokens)
    assert "view" not in payload and "log" not in payload


def test_no_push_to_a_connected_seat_nor_to_one_that_did_not_opt_in(
    client: TestClient, service: PushService
) -> None:
    gid, tokens, first = table(client)
    other = 1 - first
    phone = Browser(service, "/push/b")
    assert subscribe(client, gid, tokens[other], phone).status_code == 200
    with client.websocket_connect(f"/ws/{gid}") as a:
        state = greet(a, tokens[first])
        with client.websocket_connect(f"/ws/{gid}") as b:
            greet(b, tokens[other])
            wait_seat(a, other, True)
            move(a, state)  # the other seat's turn: it is here, so no push
            move(b, state_at(b, 1))  # back to the first seat: here too
        state = state_at(a, 2)
        wait_seat(a, other, False)  # the other seat left
        move(a, state)  # its turn while it is away: the one push of this test
    service.wait(1)
    settled(client, 1)
    with client.websocket_connect(f"/ws/{gid}") as b:
        state = greet(b, tokens[other])
        if state["seats"][first]["connected"]:
            wait_seat(b, first, False)
        move(b, state)  # the first seat's turn, away but not opted in: nothing to send
    settled(client, 2)
    assert [phone.decrypt(body)["position"] for _path, _h, body in service.received] == [3]


def state_at(ws: Any, position: int) -> dict[str, Any]:
    """The state ``ws`` is sent for ``position``."""
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == "state" and msg["position"] == position:
            return msg


def test_an_expired_subscription_is_forgotten_the_others_kept(
    client: TestClient, service: PushService
) -> None:
    gid, tokens, first = table(client)
    other = 1 - first
    keep = Browser(service, "/push/phone")
    for browser in [Browser(service, "/gone/laptop"), Browser(service, "/missing/tablet"), keep]:
        assert subscribe(client, gid, tokens[other], browser).status_code == 200
    engine = client.app.state.hub.store.engine  # type: ignore[attr-defined]
    assert len(rows.subscriptions(engine, gid, other)) == 3
    with client.websocket_connect(f"/ws/{gid}") as ws:
        move(ws, greet(ws, tokens[first]))
    service.wait(3)
    settled(client, 1)
    left = rows.subscriptions(engine, gid, other)
    assert [s.endpoint for s in left] == [keep.endpoint]
    payloads = {path: b for path, _h, b in service.received}
    assert keep.decrypt(payloads["/push/phone"])["seat"] == other


def test_only_the_seat_subscribes_and_only_to_a_push_service(
    client: TestClient, service: PushService
) -> None:
    gid, tokens, _first = table(client)
    browser = Browser(service, "/push/x")
    assert subscribe(client, gid, "not-a-real-token", browser).status_code == 403
    evil = Browser(service, "/push/x")
    for endpoint in [
        "http://10.0.0.1/push",  # the server's own network: never called
        "https://evil.example/push",
        "file:///etc/passwd",
        "http://user:pw@127.0.0.1/push",
    ]:
        evil.subscription["endpoint"] = endpoint
        resp = subscribe(client, gid, tokens[0], evil)
        assert resp.status_code == 400, endpoint
        assert "push service" in resp.json()["error"]["message"]
    bad = Browser(service, "/push/x")
    bad.subscription["keys"] = {"p256dh": "AAAA", "auth": b64url(os.urandom(16))}
    resp = subscribe(client, gid, tokens[0], bad)
    assert resp.status_code == 400 and "p256dh" in resp.json()["error"]["message"]
    # subscribing twice keeps one; unsubscribing forgets it, and only this seat's
    for _ in range(2):
        assert subscribe(client, gid, tokens[0], browser).status_code == 200
    assert subscribe(client, gid, tokens[1], browser).status_code == 200
    engine = client.app.state.hub.store.engine  # type: ignore[attr-defined]
    assert len(rows.subscriptions(engine, gid, 0)) == 1
    gone = client.request(
        "DELETE", f"/api/games/{gid}/push", json={"token": tokens[0], "endpoint": browser.endpoint}
    )
    assert gone.status_code == 200 and gone.json()["removed"] is True
    assert rows.subscriptions(engine, gid, 0) == []
    assert len(rows.subscriptions(engine, gid, 1)) == 1


def test_the_key_is_made_once_and_kept_and_the_worker_is_served_from_the_root(
    db_url: str,
) -> None:
    with make(db_url) as one:
        key = one.get("/api/push/key").json()["key"]
        worker = one.get("/sw.js")
    assert key and len(base64.urlsafe_b64decode(key + "==")) == 65
    with make(db_url) as again:  # a restart (or another process on the same store)
        assert again.get("/api/push/key").json()["key"] == key
    assert worker.status_code == 200
    assert worker.headers["content-type"].startswith("text/javascript")
    assert "script-src 'self'" in worker.headers["content-security-policy"]
    assert "showNotification" in worker.text and "innerHTML" not in worker.text


def test_the_key_can_be_kept_in_a_file(db_url: str, tmp_path: Any) -> None:
    path = tmp_path / "keys" / "vapid.pem"
    config = ServerConfig.from_env(vapid_key_file=str(path))
    app = create_app(db_url, games=games().values(), bot_delay=0.0, config=config)
    with TestClient(app) as c:
        key = c.get("/api/push/key").json()["key"]
    assert path.read_text().startswith("-----BEGIN PRIVATE KEY-----")
    assert path.stat().st_mode & 0o077 == 0  # readable by its owner only
    with TestClient(create_app(db_url, games=games().values(), config=config)) as c:
        assert c.get("/api/push/key").json()["key"] == key


@pytest.mark.parametrize(
    ("clock", "pushed"),
    [
        ({"kind": "turn", "per_move": 86400, "max_bank": 3 * 86400}, True),
        ({"kind": "realtime", "bank": 600, "increment": 5}, False),
        (None, True),
    ],
)
def test_pushes_are_for_turn_based_tables(
    client: TestClient, service: PushService, clock: dict[str, Any] | None, pushed: bool
) -> None:
    body: dict[str, Any] = {"game": "counting", "mode": "basic", "seats": HUMANS2}
    if clock:
        body["clock"] = clock
    resp = client.post("/api/games", json=body)
    assert resp.status_code == 200, resp.text
    gid = resp.json()["id"]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    room = hub.rooms[gid]
    assert turn_based(room) is pushed
    if pushed:  # and the push is sent (the seat is away)
        tokens = [s["token"] for s in resp.json()["seats"]]
        first = client.get(f"/api/games/{gid}").json()["current_player"]
        phone = Browser(service, "/push/turn")
        assert subscribe(client, gid, tokens[1 - first], phone).status_code == 200
        with client.websocket_connect(f"/ws/{gid}") as ws:
            move(ws, greet(ws, tokens[first]))
        service.wait(1)
        assert phone.decrypt(service.received[0][2])["game_id"] == gid


def test_a_finished_game_forgets_its_subscriptions_and_takes_no_more(
    client: TestClient, service: PushService
) -> None:
    gid, tokens, first = table(client)
    engine = client.app.state.hub.store.engine  # type: ignore[attr-defined]
    assert subscribe(client, gid, tokens[1 - first], Browser(service, "/push/x")).status_code == 200
    with client.websocket_connect(f"/ws/{gid}") as a, client.websocket_connect(f"/ws/{gid}") as b:
        states = {first: greet(a, tokens[first]), 1 - first: greet(b, tokens[1 - first])}
        socks = {first: a, 1 - first: b}
        state = states[first]
        while not state["finished"]:
            seat = state["current_player"]
            mine = states[seat]  # every seat's state is at the same position
            socks[seat].send_json(
                {"type": "move", "move": mine["legal"][-1], "position": mine["position"]}
            )
            for s, ws in socks.items():
                states[s] = state_at(ws, state["position"] + 1)
            state = states[first]
    eventually(
        lambda: not rows.subscriptions(engine, gid),
        "the finished game kept its subscriptions",
        timeout=30,
    )
    resp = subscribe(client, gid, tokens[0], Browser(service, "/push/y"))
    assert resp.status_code == 400 and "over" in resp.json()["error"]["message"]


def test_no_push_for_a_seat_a_bot_plays(client: TestClient, service: PushService) -> None:
    gid, tokens, first = table(client)
    other = 1 - first
    assert subscribe(client, gid, tokens[other], Browser(service, "/push/x")).status_code == 200
    resigned = client.post(f"/api/games/{gid}/resign", json={"token": tokens[other]})
    assert resigned.status_code == 200, resigned.text
    with client.websocket_connect(f"/ws/{gid}") as ws:
        state = move(ws, greet(ws, tokens[first]))  # the other seat's turn: its bot plays it
        state_at(ws, state["position"] + 1)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    assert hub.push.settled == 0 and service.received == []
