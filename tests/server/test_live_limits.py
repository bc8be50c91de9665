"""Limits that only a real server shows (``polis serve`` in a subprocess, real sockets): the
time allowed for a request's headers, a huge declared body, a spectator that never reads, and
the forwarded headers of a trusted proxy."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import time
from collections.abc import Iterator

import pytest

from waiting import eventually

from .clients import PEOPLE, Player, create_game, http
from .services import Serve

#: A polis serve process and real sockets: not in ``make check``.
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Serve]:
    db = tmp_path_factory.mktemp("live") / "polis.db"
    # a message rate no client here reaches: the stalled spectator must be dropped for not
    # reading, never closed first for flooding (that limit has its own tests in test_abuse)
    env = {"POLIS_LIMITS": "header_timeout=1,send_queue=8,message_rate=100000/second"}
    with Serve(f"sqlite:///{db}", env=env) as srv:
        yield srv


def closed_within(sock: socket.socket, seconds: float) -> float:
    """Seconds until the server closed ``sock`` (reading what it sends); fails past ``seconds``."""
    started = time.monotonic()
    sock.settimeout(seconds)
    try:
        while sock.recv(65536):
            pass
    except (ConnectionResetError, TimeoutError):
        pass
    took = time.monotonic() - started
    assert took < seconds, "the server kept the connection open"
    return took


def test_a_client_that_sends_no_headers_is_cut_off(server: Serve) -> None:
    with socket.create_connection(("127.0.0.1", server.port)) as idle:
        assert closed_within(idle, 5) >= 0.5
    with socket.create_connection(("127.0.0.1", server.port)) as slow:
        slow.sendall(b"GET /api/meta HTTP/1.1\r\n")
        started = time.monotonic()
        with contextlib.suppress(OSError):
            for _ in range(20):  # a header byte every 0.2 s: slower than the limit allows
                slow.sendall(b"X")
                time.sleep(0.2)
        assert time.monotonic() - started < 3
    status, _, _ = http(server.base, "/api/meta")
    assert status == 200  # and others are served meanwhile


def test_a_huge_declared_body_is_refused_without_reading_it(server: Serve) -> None:
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 500000000\r\n\r\n{"
        )
        sock.settimeout(5)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
        answer = answer.decode()
    assert answer.startswith("HTTP/1.1 413") and "too_large" in answer


def test_a_spectator_that_never_reads_is_dropped_and_holds_up_no_one(server: Serve) -> None:
    game = create_game(server.base, PEOPLE)
    gid = game["id"]
    players = [Player(server.base, gid, s["token"]) for s in game["seats"]]
    stalled = socket.socket()
    stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stalled.bind(("127.0.0.2", 0))  # someone else than the players
    stalled.connect(("127.0.0.1", server.port))
    stalled.sendall(
        f"GET /ws/{gid} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    stalled.settimeout(30)
    answer = b""
    while b"\r\n\r\n" not in answer:  # the server's answer to the upgrade (then no more reads)
        chunk = stalled.recv(1)
        assert chunk, "the server closed the upgrade"
        answer += chunk
    assert answer.startswith(b"HTTP/1.1 101"), answer
    stalled.sendall(frame(json.dumps({"type": "hello", "token": None})))
    cut_after = None
    started = time.monotonic()
    try:
        stalled.settimeout(5)
        for _ in range(2000):  # each answered with an error and a whole state
            stalled.sendall(frame(json.dumps({"type": "move", "move": "x", "position": 0})))
    except OSError:
        cut_after = time.monotonic() - started
    # meanwhile the table plays on, each move answered at once
    worst = 0.0
    for _ in range(6):
        state = players[0].state
        mover = players[state["current_player"]]
        mover.at_least(state["position"])
        sent = time.monotonic()
        mover.move()
        mover.at_least(state["position"] + 1, timeout=10)
        worst = max(worst, time.monotonic() - sent)
        for p in players:
            p.at_least(state["position"] + 1, timeout=10)
    assert worst < 1.0
    # the server drops it once it has answered enough (on a busy machine it may still be
    # reading the 2,000 moves when the table's six moves are done): wait for its word
    eventually(
        lambda: "does not read its messages" in server.logged(),
        "the stalled spectator was never dropped",
        timeout=max(1.0, 30 - (time.monotonic() - started)),
        interval=0.2,
    )
    if cut_after is None:  # and the socket is gone: a knock or two fails
        stalled.settimeout(10)

        def knock_fails() -> bool:
            try:
                stalled.sendall(frame('{"type": "ping"}'))
            except OSError:
                return True
            return False

        eventually(knock_fails, "the stalled spectator's socket stayed open", interval=0.2)
        cut_after = time.monotonic() - started
    assert cut_after is not None and cut_after < 30
    stalled.close()
    for p in players:
        p.close()


def frame(text: str) -> bytes:
    """One masked client text frame."""
    data = text.encode()
    mask = os.urandom(4)
    head = bytes([0x81, 0x80 | len(data)]) if len(data) < 126 else bytes([0x81, 0xFE])
    if len(data) >= 126:
        head += len(data).to_bytes(2, "big")
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def test_invites_come_from_the_address_served_even_behind_a_trusted_proxy(
    server: Serve,
) -> None:
    forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "evil.example"}
    # the test talks from 127.0.0.1: the default trusted proxy, as the shipped nginx does
    game = create_game(server.base, PEOPLE, **{})
    assert game["seats"][0]["invite"].startswith(f"http://127.0.0.1:{server.port}/#/game/")
    status, data, _ = http(
        server.base,
        "/api/games",
        {"game": "quadropolis", "mode": "classic", "seats": PEOPLE},
        headers={**forwarded, "Host": "evil.example"},
    )
    assert status == 200 and "evil" not in json.dumps(data)
    assert data["watch"].startswith(f"http://127.0.0.1:{server.port}/#/game/")
    status, data, _ = http(
        server.base,
        "/api/games",
        {"game": "quadropolis", "mode": "classic", "seats": PEOPLE},
        headers={"Host": "evil.example"},
    )
    assert status == 200 and "evil" not in json.dumps(data)


def test_forwarded_headers_from_an_untrusted_peer_are_ignored(tmp_path: object) -> None:
    from pathlib import Path

    db = Path(str(tmp_path)) / "untrusted.db"
    with Serve(f"sqlite:///{db}", "--trusted-proxy", "10.9.9.9") as srv:
        status, data, _ = http(
            srv.base,
            "/api/games",
            {"game": "quadropolis", "mode": "classic", "seats": PEOPLE},
            headers={"X-Forwarded-Proto": "https", "X-Forwarded-Host": "polis.example.org"},
        )
    assert status == 200 and data["watch"].startswith(f"http://127.0.0.1:{srv.port}/")
