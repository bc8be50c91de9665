"""The server rides through a database restart: moves made meanwhile wait and are accepted
once it is back, bots resume, no acknowledged move is lost, and a client that waited too long
is told plainly (503 / an ``unavailable`` error on an open socket), never a bare 500. An HTTP
request is answered 503 within two seconds, and every socket is told when the store goes away
and when it is back (:mod:`polis.server.store.faults`).

The PostgreSQL server is the test's own (``services.py``), stopped at once (as in a crash)
and started again on the same data.
"""

from __future__ import annotations

import contextlib
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from .clients import PEOPLE, Player, create_game, http
from .services import Postgres, Serve, postgres

#: Real PostgreSQL, Redis or nginx servers of the test's own: not in ``make check``.
pytestmark = pytest.mark.cluster

SOLO = [{"name": "Ada", "kind": "human"}, {"name": "Bot", "kind": "bot", "level": "easy"}]
BOTS = [
    {"name": "B1", "kind": "bot", "level": "easy"},
    {"name": "B2", "kind": "bot", "level": "easy"},
]


#: An HTTP request's answer is due within this during an outage.
HTTP_DUE = 2.0


@pytest.fixture
def pg() -> Iterator[Postgres]:
    with postgres() as server:
        yield server


def move_and_wait(players: list[Player], timeout: float = 30) -> int:
    state = players[0].state
    mover = players[state["current_player"]]
    mover.at_least(state["position"])
    mover.move()
    for p in players:
        p.at_least(state["position"] + 1, timeout=timeout)
    return int(state["position"]) + 1


def test_play_rides_through_a_database_restart(pg: Postgres) -> None:
    db = pg.database(f"faults_{uuid.uuid4().hex[:8]}")
    slow_bots = ("--bot-delay", "0.3")
    with (
        Serve(db, *slow_bots) as srv,
        Serve(db, *slow_bots, env={"POLIS_STORE_PATIENCE": "1"}) as impatient,
    ):
        people = create_game(srv.base, PEOPLE)
        solo = create_game(srv.base, SOLO)
        bots = create_game(srv.base, BOTS)
        table = [Player(srv.base, people["id"], s["token"]) for s in people["seats"]]
        ada = Player(srv.base, solo["id"], solo["seats"][0]["token"])
        watcher = Player(srv.base, bots["id"], None)
        other = create_game(impatient.base, PEOPLE)
        first = Player(impatient.base, other["id"], None).state["current_player"]
        impatient_player = Player(impatient.base, other["id"], other["seats"][first]["token"])
        for _ in range(3):
            move_and_wait(table)
        acknowledged = table[0].state["position"]

        pg.stop("immediate")
        down_at = time.monotonic()
        # a move made while the database is down...
        state = table[0].state
        mover = table[state["current_player"]]
        mover.at_least(state["position"])
        mover.move()
        # ...waits, while an HTTP request is answered at once and plainly, however patient
        # the server is with moves
        for server, path, payload in [
            (srv, "/api/games", _body(PEOPLE)),
            (impatient, "/api/games", None),
        ]:
            started = time.monotonic()
            status, body, headers = http(server.base, path, payload)
            assert time.monotonic() - started < HTTP_DUE, path
            assert status == 503 and body["error"]["code"] == "unavailable"
            assert "try again" in body["error"]["message"] and headers.get("retry-after")
        # the impatient server refuses a socket's move plainly once its patience is spent
        impatient_player.move()
        refusal = impatient_player.until(lambda m: m["type"] == "error", timeout=15)
        assert refusal["code"] == "unavailable"  # and the socket stays open
        time.sleep(max(0.0, 2.5 - (time.monotonic() - down_at)))
        pg.start()

        for p in table:
            p.at_least(state["position"] + 1, timeout=30)
        acknowledged = state["position"] + 1
        assert http(srv.base, "/api/games", _body(PEOPLE))[0] == 200
        for _ in range(3):
            acknowledged = move_and_wait(table)
        # the bot against a person answers again, and the bots alone play to the end
        for _ in range(2):
            ada_state = ada.state
            if ada_state["current_player"] == 0 and not ada_state["finished"]:
                ada.move()
            ada.at_least(ada_state["position"] + 1, timeout=30)
        final = watcher.until(lambda m: m["type"] == "state" and m["finished"], timeout=120)
        assert final["result"]
        impatient_player.ws.send('{"type": "ping"}')
        assert impatient_player.until(lambda m: m["type"] == "pong")["type"] == "pong"
        status, summary, _ = http(srv.base, f"/api/games/{people['id']}")
        assert summary["position"] == acknowledged  # every acknowledged move is stored
        for server in (srv, impatient):
            assert "Traceback" not in server.logged(), server.logged()[-3000:]


def is_store(status: str) -> Any:
    return lambda m: m["type"] == "store" and m["status"] == status


def test_every_socket_is_told_of_the_outage_and_http_answers_within_two_seconds(
    pg: Postgres,
) -> None:
    """The database stops: each HTTP call is answered 503 with Retry-After within two seconds,
    every socket of every room (and one that connects meanwhile) hears ``store unavailable``,
    a move made meanwhile waits; the database returns: every socket hears ``store back``
    and the move is stored and acknowledged."""
    db = pg.database(f"told_{uuid.uuid4().hex[:8]}")
    with Serve(db) as srv:
        people = create_game(srv.base, PEOPLE)
        other = create_game(srv.base, PEOPLE)
        table = [Player(srv.base, people["id"], s["token"]) for s in people["seats"]]
        across = [
            Player(srv.base, other["id"], other["seats"][0]["token"]),
            Player(srv.base, other["id"], None),
        ]
        move_and_wait(table)
        sockets = [*table, *across]

        pg.stop("immediate")
        down_at = time.monotonic()
        timings: dict[str, float] = {}
        for name, method, path, payload in [
            ("list tables", "GET", "/api/tables", None),  # the first finds the outage
            ("a game not in memory", "GET", f"/api/games/{uuid.uuid4().hex[:12]}", None),
            ("create a game", "POST", "/api/games", _body(PEOPLE)),
            ("list games", "GET", "/api/games", None),
        ]:
            started = time.monotonic()
            status, body, headers = http(srv.base, path, payload, method=method)
            timings[name] = time.monotonic() - started
            assert status == 503, (name, status, body)
            assert body["error"]["code"] == "unavailable" and headers.get("retry-after"), name
            assert timings[name] < HTTP_DUE, (name, timings)
        for p in sockets:
            told = p.until(is_store("unavailable"), timeout=10)
            assert isinstance(told["since"], float)
        # a socket that connects meanwhile is told too
        late = Player(srv.base, people["id"], None)
        late.until(is_store("unavailable"), timeout=10)
        sockets.append(late)
        # a move made meanwhile waits for the store (a socket's patience is long)
        state = table[0].state
        mover = table[state["current_player"]]
        mover.move()
        while time.monotonic() - down_at < 3.0:  # an outage longer than an HTTP call's wait
            time.sleep(0.1)
        pg.start()
        up_at = time.monotonic()

        for p in sockets:
            p.until(is_store("back"), timeout=30)
            kinds = [m["status"] for m in p.messages if m["type"] == "store"]
            assert kinds == ["unavailable", "back"], kinds
        heard_back = time.monotonic() - up_at
        for p in table:
            p.at_least(state["position"] + 1, timeout=30)  # the move is stored and acknowledged
        status, summary, _ = http(srv.base, f"/api/games/{people['id']}")
        assert status == 200 and summary["position"] == state["position"] + 1
        assert http(srv.base, "/api/tables")[0] == 200
        assert "Traceback" not in srv.logged(), srv.logged()[-3000:]
        print(f"503 within: {timings}; back heard {heard_back:.1f} s after the restart")


def _body(seats: list[dict[str, Any]]) -> dict[str, Any]:
    return {"game": "quadropolis", "mode": "classic", "seats": seats}


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_no_acknowledged_move_is_lost_when_the_server_is_killed(
    backend: str, tmp_path: Any
) -> None:
    """SIGKILL in the middle of a stream of moves, twice: every move a player was told about
    is there after the restart (SQLite's default NORMAL flushing included)."""
    with contextlib.ExitStack() as stack:
        if backend == "sqlite":
            db = f"sqlite:///{tmp_path}/kill.db"
        else:
            pg = stack.enter_context(postgres())
            db = pg.database("kill")
        srv = Serve(db)
        stack.callback(srv.kill)
        srv.start()
        game = create_game(srv.base, PEOPLE)
        gid, tokens = game["id"], [s["token"] for s in game["seats"]]
        acknowledged: list[str] = []
        for _round in range(2):
            players = [Player(srv.base, gid, t) for t in tokens]
            for _ in range(5):
                move_and_wait(players)
            acknowledged = players[0].state["view"]["moves"]
            # a move sent, and the server killed before (or just after) it is acknowledged
            state = players[0].state
            mover = players[state["current_player"]]
            mover.at_least(state["position"])
            mover.move()
            srv.kill()
            srv.start()
            status, summary, _ = http(srv.base, f"/api/games/{gid}")
            assert status == 200 and summary["position"] >= len(acknowledged)
        players = [Player(srv.base, gid, t) for t in tokens]
        stored = players[0].state["view"]["moves"]
        assert stored[: len(acknowledged)] == acknowledged
