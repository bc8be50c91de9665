"""Turn notifications never hold up a table: the round trip of a move that makes it an away
player's turn, with no subscription, with pushes a local push service takes at once, and
with pushes to a service that hangs (each push given up after ``push_timeout``).

The app runs in this process (Starlette's test client, SQLite in a temporary folder) on the
toy counting game of tests/toygame.py. Seat A stays connected; seat B is away whenever A
moves (it connects only to answer, then leaves, and A waits until the server knows). The
round trip is from A sending its move to A receiving the state that includes it. Prints
p50 / p95 / max per case and each case's p50 as a ratio of the first case's.

Usage: python benchmarks/push_latency.py [--games 6] [--hang 3] [--endpoints 5]
"""

from __future__ import annotations

import base64
import importlib
import os
import statistics
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any

import bench_args

if TYPE_CHECKING:  # the server's modules are imported in main, so that -h answers at once
    from fastapi.testclient import TestClient

HUMANS = [{"name": "A", "kind": "human"}, {"name": "B", "kind": "human"}]


def service(hang: float) -> tuple[ThreadingHTTPServer, str]:
    """A push service on 127.0.0.1 that answers 201 after ``hang`` seconds."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length", "0")))
            time.sleep(hang)
            self.send_response(201)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *_args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def subscription(base: str, n: int) -> dict[str, Any]:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    point = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    b64 = base64.urlsafe_b64encode
    return {
        "endpoint": f"{base}/push/{n}",
        "keys": {"p256dh": b64(point).rstrip(b"=").decode(), "auth": b64(os.urandom(16)).decode()},
    }


def state_at(ws: Any, position: int) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == "state" and msg["position"] >= position:
            return msg


def b_away(client: TestClient, gid: str) -> None:
    """Until the server knows B left (asked over HTTP: joins and leaves within a moment are
    told to the table as one ``seats`` message, or none)."""
    while client.get(f"/api/games/{gid}").json()["seats"][1]["connected"]:
        time.sleep(0.005)


def play(client: TestClient, endpoints: list[str]) -> list[float]:
    """One game; the round trips (seconds) of A's moves."""
    made = client.post("/api/games", json={"game": "counting", "mode": "basic", "seats": HUMANS})
    gid = made.json()["id"]
    tokens = [s["token"] for s in made.json()["seats"]]
    for n, base in enumerate(endpoints):
        sub = subscription(base, n)
        client.post(f"/api/games/{gid}/push", json={"token": tokens[1], "subscription": sub})
    times = []
    with client.websocket_connect(f"/ws/{gid}") as a:
        a.send_json({"type": "hello", "token": tokens[0]})
        state = state_at(a, 0)
        while not state["finished"]:
            if state["current_player"] == 0:
                sent = time.perf_counter()
                a.send_json({"type": "move", "move": "1", "position": state["position"]})
                state = state_at(a, state["position"] + 1)
                times.append(time.perf_counter() - sent)
                continue
            with client.websocket_connect(f"/ws/{gid}") as b:
                b.send_json({"type": "hello", "token": tokens[1]})
                mine = state_at(b, state["position"])
                b.send_json({"type": "move", "move": "1", "position": mine["position"]})
                state_at(b, mine["position"] + 1)
            state = state_at(a, mine["position"] + 1)
            b_away(client, gid)
    return times


def main() -> None:
    parser = bench_args.parser(
        __doc__,
        "about 30 seconds with the defaults (a game of each case takes one to a few seconds; "
        "the hanging service's moves are as quick as the others, only its pushes wait).",
    )
    parser.add_argument("--games", type=int, default=6, help="games of each case")
    parser.add_argument(
        "--hang", type=float, default=3.0, help="seconds the slow service takes to answer"
    )
    parser.add_argument(
        "--endpoints", type=int, default=5, help="subscriptions to the slow service"
    )
    args = parser.parse_args()
    from fastapi.testclient import TestClient

    from polis.core.registry import register_game
    from polis.server import create_app
    from polis.server.config import Limits, ServerConfig

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    register_game(importlib.import_module("toygame").GAME)  # tests/toygame.py
    quick, quick_base = service(0.0)
    slow, slow_base = service(args.hang)
    cases = {
        "no subscription": [],
        "1 push, answered at once": [quick_base],
        f"{args.endpoints} pushes, service hangs {args.hang:g} s": [slow_base] * args.endpoints,
    }
    # one address plays both seats flat out: the per-address limits would slow it down
    limits = Limits(
        message_rate="100000/second", connect_rate="100000/second", create_rate="100000/second"
    )
    config = ServerConfig(push_services=("http://127.0.0.1",), push_timeout=1.0, limits=limits)
    first = None
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(f"sqlite:///{folder}/bench.db", bot_delay=0.0, config=config)
        with TestClient(app) as client:
            for name, endpoints in cases.items():
                times = [t for _ in range(args.games) for t in play(client, endpoints)]
                ms = sorted(t * 1000 for t in times)
                p50 = statistics.median(ms)
                first = first or p50
                p95 = ms[int(0.95 * (len(ms) - 1))]
                print(
                    f"{name:34} moves {len(ms):3}  p50 {p50:6.2f} ms  p95 {p95:6.2f} ms  "
                    f"max {ms[-1]:7.2f} ms  p50 x{p50 / first:.2f}"
                )
            print(f"pushes accepted by the services: {app.state.hub.push.sent}")
    quick.shutdown()
    slow.shutdown()


if __name__ == "__main__":
    main()
