"""Several ``polis serve`` processes on one PostgreSQL database, fanning moves out through
Redis: a table can be played through any of them, the store's position guard lets exactly
one of two racing moves in, a process catches up from the store when Redis is down or
absent, and another process takes over the bots of one that died.

Real servers: a PostgreSQL cluster and a redis-server of the test's own (``services.py``).
"""

from __future__ import annotations

import contextlib
import threading
import uuid
from typing import Any

import pytest

from waiting import eventually

from .clients import PEOPLE, Player, create_game, http
from .services import Postgres, Redis, Serve

#: Real PostgreSQL, Redis or nginx servers of the test's own: not in ``make check``.
pytestmark = pytest.mark.cluster

BOTS = [
    {"name": "B1", "kind": "bot", "level": "easy"},
    {"name": "B2", "kind": "bot", "level": "easy"},
]


@pytest.fixture
def db(pg: Postgres) -> str:
    return pg.database(f"cluster_{uuid.uuid4().hex[:8]}")


def play_round(players: list[Player], watchers: list[Player], timeout: float = 10) -> int:
    """The player to move moves; everyone must see it (within ``timeout`` seconds).
    Returns the new position."""
    state = players[0].state
    position = state["position"]
    mover = players[state["current_player"]]
    mover.at_least(position)
    mover.move()
    for p in [*players, *watchers]:
        p.at_least(position + 1, timeout=timeout)
    return position + 1


def refusals(*players: Player) -> int:
    """The errors these sockets have been sent so far, reading what has arrived meanwhile."""
    for p in players:
        with contextlib.suppress(TimeoutError):
            while True:
                p.next(timeout=0.01)
    return sum(m["type"] == "error" for p in players for m in p.messages)


def refused_after(first: Player, second: Player, before: int) -> int:
    """The errors sent to ``first`` and ``second``, once there are more than ``before``."""
    return eventually(
        lambda: (count := refusals(first, second)) > before and count,
        "neither of two moves at one position was refused",
        timeout=15,
    )


def test_a_table_plays_across_two_processes(db: str, bus: Redis) -> None:
    with Serve(db, "--redis", bus.url) as a, Serve(db, "--redis", bus.url) as b:
        game = create_game(a.base, PEOPLE)
        gid = game["id"]
        ada = Player(a.base, gid, game["seats"][0]["token"])
        lin = Player(b.base, gid, game["seats"][1]["token"])
        watch_a = Player(a.base, gid, None)
        watch_b = Player(b.base, gid, None)
        for _ in range(8):
            play_round([ada, lin], [watch_a, watch_b])
        texts = {p.state["view"]["moves"].__repr__() for p in [ada, lin, watch_a, watch_b]}
        assert len(texts) == 1  # everyone has the same game
        # each process knows both seats are online, though each holds one of them
        eventually(
            lambda: all(s["connected"] for s in http(a.base, f"/api/games/{gid}")[1]["seats"]),
            "process A never learnt Lin is online",
        )
        for p in [ada, lin, watch_a, watch_b]:
            p.close()


def test_two_processes_never_both_accept_a_move_at_one_position(db: str, bus: Redis) -> None:
    with Serve(db, "--redis", bus.url) as a, Serve(db, "--redis", bus.url) as b:
        game = create_game(a.base, PEOPLE)
        gid = game["id"]
        tokens = [s["token"] for s in game["seats"]]
        # each seat is held twice, once through each process
        through = {0: Player(a.base, gid, tokens[0]), 1: Player(a.base, gid, tokens[1])}
        other = {0: Player(b.base, gid, tokens[0]), 1: Player(b.base, gid, tokens[1])}
        accepted = 0
        for _ in range(12):
            position = through[0].at_least(0)["position"]
            seat = through[0].state["current_player"]
            first, second = through[seat], other[seat]
            first.at_least(position)
            second.at_least(position)
            legal = first.state["legal"]
            refused_before = refusals(first, second)
            go = threading.Barrier(2)

            def send(player: Player, move: str, go: threading.Barrier = go) -> None:
                go.wait()
                player.move(move)

            moves = [legal[0], legal[-1] if len(legal) > 1 else legal[0]]
            threads = [
                threading.Thread(target=send, args=(first, moves[0])),
                threading.Thread(target=send, args=(second, moves[1])),
            ]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            for p in [*through.values(), *other.values()]:
                p.at_least(position + 1, timeout=15)
            # every move sent is answered: one was accepted (everyone is at the next
            # position), so the other must be refused. Once its refusal is here no second
            # acceptance can come (a guard letting both in never sends one).
            assert refused_after(first, second, refused_before) == refused_before + 1
            positions = {p.state["position"] for p in [*through.values(), *other.values()]}
            assert positions == {position + 1}, positions
            accepted += 1
        status, summary, _ = http(a.base, f"/api/games/{gid}")
        assert status == 200 and summary["position"] == accepted
        refused = [
            m["code"]
            for p in [*through.values(), *other.values()]
            for m in p.messages
            if m["type"] == "error"
        ]
        assert len(refused) == 12 and set(refused) <= {"stale", "not_your_turn"}


def test_a_process_without_redis_catches_up_from_the_store(db: str) -> None:
    env = {"POLIS_SYNC_INTERVAL": "0.5"}
    with Serve(db, env=env) as a, Serve(db, env=env) as b:
        game = create_game(a.base, PEOPLE)
        gid = game["id"]
        ada = Player(a.base, gid, game["seats"][0]["token"])
        lin = Player(b.base, gid, game["seats"][1]["token"])
        watch_b = Player(b.base, gid, None)
        for _ in range(6):
            play_round([ada, lin], [watch_b])


def test_a_redis_outage_loses_no_move(db: str, bus: Redis) -> None:
    with Serve(db, "--redis", bus.url) as a, Serve(db, "--redis", bus.url) as b:
        game = create_game(a.base, PEOPLE)
        gid = game["id"]
        ada = Player(a.base, gid, game["seats"][0]["token"])
        lin = Player(b.base, gid, game["seats"][1]["token"])
        play_round([ada, lin], [])
        bus.kill()
        # Polls and reconnections (after pauses of up to 5 s) are slow on a loaded machine:
        # what matters is that every move arrives, so these rounds may take longer.
        try:
            for _ in range(4):  # the processes poll the store meanwhile
                play_round([ada, lin], [], timeout=30)
        finally:
            bus.start()
        for _ in range(4):
            play_round([ada, lin], [], timeout=30)
        _status, summary, _ = http(b.base, f"/api/games/{gid}")
        assert summary["position"] == 9
        for server in (a, b):
            assert "Traceback" not in server.logged()


def test_another_process_takes_over_the_bots_of_one_that_died(db: str, bus: Redis) -> None:
    slow = ("--bot-delay", "0.2")
    a = Serve(db, "--redis", bus.url, *slow).start()
    try:
        with Serve(db, "--redis", bus.url, *slow) as b:
            game = create_game(a.base, BOTS)
            gid = game["id"]
            watcher = Player(b.base, gid, None)
            watcher.at_least(4, timeout=30)
            a.kill()  # the process playing the bots dies mid-game
            died_at = watcher.state["position"]
            final: dict[str, Any] = watcher.until(
                lambda m: m["type"] == "state" and m["finished"], timeout=120
            )
            assert final["position"] > died_at and final["result"]
            status, record, _ = http(b.base, f"/api/games/{gid}/record")
            assert status == 200 and len(record["moves"]) == final["position"]
    finally:
        a.kill()
