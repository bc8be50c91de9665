"""No client can hold up anyone else, and nothing a client sends gets a 500: connection and
rate limits, request sizes, text that cannot be stored, invite links that do not trust the
Host header, security headers, coalesced presence, idle rooms leaving memory, a start-up that
replays nothing."""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from polis.core.registry import games
from polis.server import create_app
from polis.server.config import Limits, ServerConfig, parse_limits
from waiting import eventually, eventually_async

from .seat_client import seated

ROOT = Path(__file__).resolve().parents[2]
PEOPLE = [{"name": "Ada", "kind": "human"}, {"name": "Lin", "kind": "human"}]
JSON = {"Content-Type": "application/json"}


@pytest.fixture
def app_with(tmp_path: Path) -> Iterator[Callable[..., TestClient]]:
    """A server on SQLite with the given config changes (``limits`` as text)."""
    opened: list[TestClient] = []

    def make(limits: str = "", peer: str = "testclient", **changes: Any) -> TestClient:
        config = ServerConfig.from_env(bot_delay=0.0, limits=parse_limits(limits), **changes)
        app = create_app(
            f"sqlite:///{tmp_path / 'abuse.db'}", games=games().values(), config=config
        )
        client = TestClient(app, client=(peer, 50000))
        client.__enter__()
        opened.append(client)
        return client

    yield make
    for client in opened:
        client.__exit__(None, None, None)


def create(client: TestClient, seats: list[dict[str, Any]] | None = None, **extra: Any) -> Any:
    headers = extra.pop("headers", None)
    body = {"game": "counting", "mode": "basic", "seats": seats or PEOPLE, **extra}
    return client.post("/api/games", json=body, headers=headers)


def hello(ws: Any, token: str | None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token})
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == "state":
            return msg


# -- headers and the page ------------------------------------------------------------------------


def test_every_answer_carries_the_security_headers(app_with: Callable[..., TestClient]) -> None:
    client = app_with()
    for path in ["/", "/static/js/app.js", "/api/meta", "/api/games/nosuchgame", "/nothing"]:
        resp = client.get(path)
        csp = resp.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp, path
        assert "frame-ancestors 'none'" in csp and "style-src 'self'" in csp
        assert resp.headers["x-frame-options"] == "DENY"
        assert resp.headers["referrer-policy"] == "no-referrer"
        assert resp.headers["x-content-type-options"] == "nosniff"
    docs = client.get("/api/docs")
    assert (
        docs.status_code == 200
        and "frame-ancestors 'none'" in docs.headers["content-security-policy"]
    )


def client_files() -> list[Path]:
    found = sorted((ROOT / "src/polis/server/static").rglob("*.html"))
    found += sorted((ROOT / "src/polis/server/static").rglob("*.js"))
    found += sorted((ROOT / "src/polis/games").glob("*/web/*.js"))
    return found


def test_the_client_has_no_inline_script_style_or_handler() -> None:
    """What the page's CSP would block: inline scripts, style attributes, handlers in markup
    or set as attributes, code from strings."""
    files = client_files()
    assert any(p.name == "index.html" for p in files) and len(files) > 5
    for path in files:
        text = path.read_text()
        if path.suffix == ".html":
            for script in re.findall(r"<script\b[^>]*>", text):
                assert "src=" in script, (path, script)
            assert not re.search(r"\son\w+\s*=", text), path
            assert not re.search(r"\sstyle\s*=", text), path
        else:
            assert ".innerHTML" not in text and "insertAdjacentHTML" not in text, path
            assert not re.search(r"\beval\(|new Function\(", text), path
            assert not re.search(r"setAttribute\(\s*[\"'](style|on\w+)", text), path


# -- requests ------------------------------------------------------------------------------------


def test_request_bodies_over_the_limit_are_refused_unread(
    app_with: Callable[..., TestClient],
) -> None:
    client = app_with("max_body=2048")
    big = json.dumps({"game": "counting", "mode": "basic", "seats": PEOPLE, "x": "y" * 5000})
    resp = client.post("/api/games", content=big, headers={"Content-Type": "application/json"})
    assert resp.status_code == 413 and resp.json()["error"]["code"] == "too_large"

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        for _ in range(10):
            yield b"x" * 1000

    resp = client.post("/api/games", content=chunks(), headers={"Content-Type": "application/json"})
    assert resp.status_code == 413
    assert create(client).status_code == 200  # a normal request still goes through


BAD_TEXT = ["a\x00b", "a\x1bb", "x\u202ey", "\ud800", "ok\udfff"]


@pytest.mark.parametrize("bad", BAD_TEXT)
def test_control_characters_and_lone_surrogates_get_a_clear_4xx(
    app_with: Callable[..., TestClient], bad: str
) -> None:
    client = app_with()
    seats = [{"name": bad, "kind": "human"}, {"name": "Lin", "kind": "human"}]
    # json.dumps writes a lone surrogate as the escape \ud800, as a browser would
    resp = client.post(
        "/api/games",
        content=json.dumps({"game": "counting", "mode": "basic", "seats": seats}),
        headers={"Content-Type": "application/json"},
    )
    assert resp.status_code == 422, resp.text
    assert "seats.0.name" in resp.json()["error"]["message"]
    bodies: list[tuple[str, dict[str, Any]]] = [
        ("/api/games", {"game": bad, "mode": "basic", "seats": PEOPLE}),
        ("/api/games/nosuchgame/rematch", {"tokens": [bad]}),
    ]
    for path, body in bodies:
        resp = client.post(
            path, content=json.dumps(body), headers={"Content-Type": "application/json"}
        )
        assert 400 <= resp.status_code < 500, (body, resp.text)
    made = create(client).json()
    quoted = bad.encode("utf-8", "surrogatepass").hex()
    path = "/api/games/" + "".join(f"%{quoted[i : i + 2]}" for i in range(0, len(quoted), 2))
    assert client.get(path).status_code == 404
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": bad}))
        err = ws.receive_json()
        assert err["code"] == "malformed"
    with seated(client, made["id"], made["seats"][0]["token"]) as seat:
        # read to the error: a seats broadcast may come first on a busy machine
        seat.ws.send_text(json.dumps({"type": "move", "move": bad, "position": 0}))
        assert seat.error()["code"] == "malformed"


def test_invite_links_never_come_from_the_host_header(
    app_with: Callable[..., TestClient],
) -> None:
    client = app_with()
    made = create(client, headers={"Host": "evil.example"}).json()
    for seat in made["seats"]:
        assert seat["invite"].startswith("http://testserver/#/game/")  # the server's own
    assert "evil" not in json.dumps(made)
    public = app_with(public_url="https://polis.example.org/")
    made = create(public, headers={"Host": "evil.example"}).json()
    assert made["seats"][0]["invite"].startswith("https://polis.example.org/#/game/")
    assert made["watch"] == f"https://polis.example.org/#/game/{made['id']}"


def test_forwarded_headers_count_only_from_trusted_proxies() -> None:
    from polis.server.http.middleware import Forwarded, public_base

    seen: list[dict[str, Any]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen.append(scope)

    headers = [
        (b"x-forwarded-for", b"203.0.113.9, 10.0.0.2"),
        (b"x-forwarded-proto", b"https"),
        (b"x-forwarded-host", b"polis.example.org"),
    ]
    base = {"type": "http", "headers": headers, "scheme": "http", "server": ("10.0.0.2", 8000)}
    guarded = Forwarded(app, trusted=("10.0.0.0/8",))

    async def nothing(*_: Any) -> Any:
        return None

    for client in [("10.0.0.2", 5000), ("198.51.100.7", 5000)]:
        asyncio.run(guarded({**base, "client": client}, nothing, nothing))
    trusted, untrusted = seen
    assert trusted["client"][0] == "203.0.113.9" and trusted["scheme"] == "https"
    # links: the server's own address, never the forwarded host or scheme
    assert public_base(trusted, None) == "http://10.0.0.2:8000"
    assert public_base(trusted, "https://polis.example.org/") == "https://polis.example.org"
    assert untrusted["client"][0] == "198.51.100.7" and untrusted["scheme"] == "http"
    assert public_base(untrusted, None) == "http://10.0.0.2:8000"


def test_invite_links_ignore_forwarded_host_headers_even_from_the_shipped_proxy(
    app_with: Callable[..., TestClient],
) -> None:
    """The audit's case: 127.0.0.1 is a trusted proxy by default, nginx forwarded
    X-Forwarded-Host, and with no public URL the links followed whatever the client sent."""
    client = app_with(peer="127.0.0.1")  # the shipped nginx: a trusted proxy by default
    evil = {
        "Host": "evil.example",
        "X-Forwarded-Host": "evil.example",
        "X-Forwarded-Proto": "https",
        "X-Forwarded-For": "203.0.113.9",
        "Forwarded": "host=evil.example;proto=https",
    }
    made = create(client, headers=evil).json()
    assert "evil" not in json.dumps(made)
    for seat in made["seats"]:
        assert seat["invite"].startswith("http://testserver/#/game/")
    taken = client.post(
        "/api/games",
        json={"game": "counting", "mode": "basic", "seats": [{"kind": "open"}, {"kind": "open"}]},
    ).json()
    seat = client.post(f"/api/games/{taken['id']}/seats", json={"name": "Zoe"}, headers=evil).json()
    assert seat["invite"].startswith("http://testserver/#/game/")
    public = app_with(peer="127.0.0.1", public_url="https://polis.example.org")
    made = create(public, headers=evil).json()
    assert all(s["invite"].startswith("https://polis.example.org/#/game/") for s in made["seats"])


# -- rates and caps ------------------------------------------------------------------------------


def test_game_creation_is_rate_limited_per_address(app_with: Callable[..., TestClient]) -> None:
    client = app_with("create_rate=3/minute")
    assert [create(client).status_code for _ in range(3)] == [200, 200, 200]
    refused = create(client)
    assert refused.status_code == 429 and refused.headers["retry-after"]
    assert refused.json()["error"]["code"] == "rate_limited"


def test_connections_per_address_are_capped_before_accepting(
    app_with: Callable[..., TestClient],
) -> None:
    client = app_with("connections_per_address=2")
    gid = create(client).json()["id"]
    with client.websocket_connect(f"/ws/{gid}") as a, client.websocket_connect(f"/ws/{gid}") as b:
        hello(a, None)
        hello(b, None)
        with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(f"/ws/{gid}"):
            pass
        assert refused.value.code == 1008
    with client.websocket_connect(f"/ws/{gid}") as c:  # closed ones no longer count
        hello(c, None)


def test_spectators_are_capped_but_a_seat_holder_always_gets_in(
    app_with: Callable[..., TestClient],
) -> None:
    client = app_with("spectators_per_game=2,connections_per_seat=2")
    made = create(client).json()
    gid, token = made["id"], made["seats"][0]["token"]
    with client.websocket_connect(f"/ws/{gid}") as s1, client.websocket_connect(f"/ws/{gid}") as s2:
        hello(s1, None)
        hello(s2, None)
        with client.websocket_connect(f"/ws/{gid}") as s3:
            s3.send_json({"type": "hello", "token": None})
            assert s3.receive_json()["code"] == "full"
            with pytest.raises(WebSocketDisconnect) as closed:
                s3.receive_json()
            assert closed.value.code == 4429
        with (
            client.websocket_connect(f"/ws/{gid}") as p1,
            client.websocket_connect(f"/ws/{gid}") as p2,
        ):
            assert hello(p1, token)["seat"] == 0 and hello(p2, token)["seat"] == 0
            with client.websocket_connect(f"/ws/{gid}") as p3:  # the seat's own cap
                p3.send_json({"type": "hello", "token": token})
                assert p3.receive_json()["code"] == "full"


def test_messages_over_the_rate_are_refused_then_the_connection_is_closed(
    app_with: Callable[..., TestClient],
) -> None:
    client = app_with("message_rate=5/second")
    gid = create(client).json()["id"]
    with client.websocket_connect(f"/ws/{gid}") as ws:
        hello(ws, None)
        for _ in range(200):
            ws.send_json({"type": "ping"})
        kinds: list[str] = []
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                msg = ws.receive_json()
                kinds.append(msg.get("code") or msg["type"])
        assert closed.value.code == 1008
        assert 1 <= kinds.count("pong") <= 6 and "rate_limited" in kinds


@pytest.mark.timeout(60)  # an unanswered message would wait for ever
def test_every_message_over_the_rate_is_answered_while_the_client_reads(
    app_with: Callable[..., TestClient],
) -> None:
    """A move over the rate is not read, and the client is told so: one dropped unanswered
    would leave it waiting for an answer that never comes (an open table's first move)."""
    client = app_with("message_rate=3/second")
    gid = create(client).json()["id"]
    with client.websocket_connect(f"/ws/{gid}") as ws:
        hello(ws, None)
        answers: list[str] = []
        for _ in range(12):  # one at a time: each waits for its answer
            ws.send_json({"type": "ping"})
            msg = ws.receive_json()
            while msg["type"] == "seats":  # who is online, told in its own time
                msg = ws.receive_json()
            answers.append(msg.get("code") or msg["type"])
        assert set(answers) == {"pong", "rate_limited"}  # twelve answers, some refusals


def test_a_hello_that_never_comes_closes_the_socket(app_with: Callable[..., TestClient]) -> None:
    client = app_with("hello_timeout=0.3")
    gid = create(client).json()["id"]
    with client.websocket_connect(f"/ws/{gid}") as ws:
        started = time.monotonic()
        assert ws.receive_json()["code"] == "malformed"
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
        assert time.monotonic() - started < 5


# -- presence, memory, start-up --------------------------------------------------------------


def test_presence_changes_are_told_once_for_a_burst_of_joins(tmp_path: Path) -> None:
    """A hundred connections coming and going at once cost each connection one ``seats``
    message, not one per change."""
    from polis.server.live.hub import Hub
    from polis.server.live.presence import Connection
    from polis.server.store.games import Store
    from polis.server.wire.to_client import RematchMessage

    async def scenario() -> dict[int, list[str]]:
        store = Store(f"sqlite:///{tmp_path / 'p.db'}")
        hub = Hub(store, games(), bot_delay=0.0)
        people = [{"name": f"p{i}", "kind": "human"} for i in range(4)]
        room, _tokens = await hub.create("counting", "basic", people)
        got: dict[int, list[str]] = {}

        def conn(number: int, seat: int | None) -> Connection:
            async def send(text: str) -> None:
                got.setdefault(number, []).append(json.loads(text)["type"])

            return Connection(seat, send, queue_limit=1000)

        watcher = conn(-1, None)
        await room.join(watcher)
        joined = [conn(i, i % 4) for i in range(100)]
        for c in joined:
            await room.join(c)
        for c in joined[::2]:
            await room.leave(c)
        # the coalesced announcement has gone out once the watcher has a ``seats`` message;
        # a marker sent to everyone after it arrives behind anything else sent before it
        await eventually_async(lambda: "seats" in got.get(-1, []), "no seats message was sent")
        room.notify(RematchMessage(type="rematch", game_id="marker"))
        staying = [-1, *range(1, 100, 2)]
        await eventually_async(
            lambda: all(got.get(n, [""])[-1] == "rematch" for n in staying),
            "the marker never arrived",
        )
        await hub.close()
        store.close()
        return got

    got = asyncio.run(scenario())
    assert got[-1].count("seats") == 1  # the watcher: four seats came online, one message
    assert all(kinds.count("seats") <= 1 for kinds in got.values())
    assert sum(kinds.count("seats") for kinds in got.values()) <= 101


def test_idle_rooms_leave_memory_and_come_back_intact(
    app_with: Callable[..., TestClient],
) -> None:
    client = app_with(room_idle=0.0, housekeeping_interval=0.05)
    made = create(client).json()
    gid = made["id"]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/{gid}") as ws:
        state = hello(ws, None)
        first = state["current_player"]
    with client.websocket_connect(f"/ws/{gid}") as ws:
        state = hello(ws, made["seats"][first]["token"])
        ws.send_json({"type": "move", "move": "2", "position": 0})
        while state["type"] != "state" or state["position"] < 1:
            state = ws.receive_json()
        assert gid in hub.rooms
    eventually(lambda: gid not in hub.rooms, "the idle room stayed in memory")
    with client.websocket_connect(f"/ws/{gid}") as ws:
        again = hello(ws, made["seats"][1 - first]["token"])
        assert again["position"] == 1 and again["view"]["total"] == 2


def test_a_connection_joins_no_room_that_left_memory(
    app_with: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Housekeeping may run at any await of a connection's greeting: the room it is joining
    stays in memory (a joined room that had left would pass its moves to nobody)."""
    from polis.server.live.room import Room
    from polis.server.live.upkeep import evict_idle

    client = app_with(room_idle=0.0, housekeeping_interval=3600.0)
    gid = create(client).json()["id"]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    join = Room.join
    evicted: list[int] = []

    async def join_after_housekeeping(room: Room, conn: Any) -> None:
        evicted.append(evict_idle(hub))  # as if housekeeping ran just before the join
        await join(room, conn)

    monkeypatch.setattr(Room, "join", join_after_housekeeping)
    with client.websocket_connect(f"/ws/{gid}") as ws:
        hello(ws, None)
        assert evicted == [0]
        assert gid in hub.rooms and len(hub.rooms[gid].presence) == 1


def test_start_up_replays_no_game_before_serving(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from polis.server.live import history

    db = f"sqlite:///{tmp_path / 'many.db'}"
    config = ServerConfig.from_env(bot_delay=0.0, limits=Limits(create_rate="1000/minute"))
    with TestClient(create_app(db, games=games().values(), config=config)) as client:
        for _ in range(30):
            made = create(client).json()
            with client.websocket_connect(f"/ws/{made['id']}") as ws:
                hello(ws, made["seats"][0]["token"])
                ws.send_json({"type": "move", "move": "1", "position": 0})
                ws.receive_json()
    replayed: list[str] = []
    real = history.replay

    def counting(*args: Any, **kwargs: Any) -> Any:
        replayed.append("x")
        return real(*args, **kwargs)

    monkeypatch.setattr("polis.server.live.hub.replay", counting)
    with TestClient(create_app(db, games=games().values(), config=config)) as client:
        assert client.get("/api/meta").status_code == 200
        hub = client.app.state.hub  # type: ignore[attr-defined]
        # the background upkeep's first round (the one that resumes every waiting bot) is over
        eventually(lambda: hub.upkeep_rounds >= 1, "the upkeep never finished a round")
        assert replayed == []  # and it replayed no game of people
        assert len(client.get("/api/games").json()["games"]) == 30


def test_rate_counts_start_no_thread_and_expired_ones_are_swept() -> None:
    """The limiter's counters cost no thread per message (the limits library once started a
    sweeper after each hit); expired counts leave memory at the next sweep."""
    import threading

    from polis.server.config import Limits
    from polis.server.http import limits as guards

    guard = guards.Guards(Limits(message_rate="3/second"))
    now = [1000.0]
    guard._counts.clock = lambda: now[0]  # the windows' time, moved on below (not slept)
    threads = threading.active_count()
    assert [guard.message("10.0.0.1") for _ in range(5)] == [True] * 3 + [False] * 2
    assert all(guard.message(f"10.0.1.{i}") for i in range(50))
    assert threading.active_count() <= threads
    assert any("10.0.1.7" in key for key in guard._counts.storage)
    now[0] += 2.2  # every window of a second is over
    guard._swept -= guards.SWEEP_EVERY  # the sweep is due
    assert guard.message("10.0.0.2")
    kept = {key for key in guard._counts.storage if "10.0." in key}
    assert kept and all("10.0.0.2" in key for key in kept)
