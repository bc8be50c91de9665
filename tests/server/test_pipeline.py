"""Every change to a game goes through the room's one pipeline (``Room.commit``), and a change
made through one server is seen the same way through another.

A spy wraps ``Room.commit`` and the store's writers of changes (the move log's appends, the
conditional updates of who holds a seat): whole games with a seat taken, moves by people and
bots, a take-back with consent, a bot standing in for a person away and for one who left,
and the seat handed back. Every kind must pass through ``commit``, and no write of a change
may happen outside one. With two servers on one PostgreSQL database and one Redis, each
kind made through the first reaches the second as a ``Heard`` change of the same kind, and
both show the same table.
"""

from __future__ import annotations

import contextlib
import json
import threading
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from fastapi.testclient import TestClient

from polis.core.registry import games
from polis.server import create_app
from polis.server.config import ServerConfig
from polis.server.live.pipeline import KINDS
from polis.server.live.room import Room
from polis.server.store import clock_rows
from polis.server.store.games import Store
from polis.server.store.writer import MoveWriter
from waiting import eventually

from .seat_client import Seat, seated
from .services import Postgres, Redis

START = 1_800_000_000.0
RULES = {"away_limit": 30, "stand_in": "easy"}


class Wall:
    """The hubs' wall clock, moved on by the test."""

    def __init__(self) -> None:
        self.t = START

    def __call__(self) -> float:
        return self.t


@dataclass
class Spy:
    """What went through each server's pipeline, and writes of changes made outside it (a
    write is inside when some commit is under way: the tests run one change at a time)."""

    #: (server, "Play"/"TakeBack"/..., kind, what the commit answered or the error's code)
    commits: list[tuple[str, str, str | None, object]] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)
    names: dict[int, str] = field(default_factory=dict)
    depth: dict[int, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def made(self, server: str) -> set[str]:
        """The kinds of change ``server`` made itself (and stored)."""
        return {
            kind
            for name, action, kind, answer in self.commits
            if name == server
            and action != "Heard"
            and answer not in (False, None)
            and isinstance(kind, str)
            and not str(answer).startswith("error:")
        }

    def heard(self, server: str) -> set[str]:
        return {
            kind
            for name, action, kind, answer in self.commits
            if name == server and action == "Heard" and kind is not None
        }


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> Spy:
    found = Spy()
    commit = Room.commit

    async def spied(room: Room, action: Any) -> Any:
        server = found.names.get(id(room.hub), "?")
        with found.lock:
            found.depth[id(room.hub)] = found.depth.get(id(room.hub), 0) + 1
        try:
            answer = await commit(room, action)
        except Exception as exc:
            found.commits.append((server, type(action).__name__, action.kind, f"error:{exc}"))
            raise
        finally:
            with found.lock:
                found.depth[id(room.hub)] -= 1
        found.commits.append((server, type(action).__name__, action.kind, answer))
        return answer

    def guarded(name: str, write: Callable[..., Any]) -> Callable[..., Any]:
        def check(*args: Any, **kwargs: Any) -> Any:
            with found.lock:
                if not any(found.depth.values()):
                    found.outside.append(name)
            return write(*args, **kwargs)

        return check

    monkeypatch.setattr(Room, "commit", spied)
    monkeypatch.setattr(MoveWriter, "append", guarded("append", MoveWriter.append))
    monkeypatch.setattr(Store, "take_vacant", guarded("take_vacant", Store.take_vacant))
    for name in ("take_over", "hand_back"):
        monkeypatch.setattr(clock_rows, name, guarded(name, getattr(clock_rows, name)))
    return found


@contextlib.contextmanager
def servers(
    spy: Spy, wall: Wall, db_url: str, *names: str, redis: str | None = None
) -> Iterator[list[TestClient]]:
    with contextlib.ExitStack() as stack:
        clients = []
        for name in names:
            config = ServerConfig.from_env(bot_delay=0.0, redis_url=redis, instance=name)
            app = create_app(db_url, games=games().values(), config=config)
            app.state.hub.now = wall
            spy.names[id(app.state.hub)] = name
            clients.append(stack.enter_context(TestClient(app)))
        yield clients


class Watch:
    """Nobody watches from elsewhere (one server)."""

    def start(self, game_id: str) -> None:
        pass

    def __call__(self, position: int) -> None:
        pass

    def online(self, connected: list[bool]) -> None:
        """Until the other server shows these seats connected."""


class WatchFrom(Watch):
    """A spectator of the game through another server: each step waits until it shows it."""

    def __init__(self, client: TestClient, stack: contextlib.ExitStack) -> None:
        self.client = client
        self.stack = stack
        self.seat: Seat | None = None

    def start(self, game_id: str) -> None:
        self.seat = self.stack.enter_context(seated(self.client, game_id, None))

    def __call__(self, position: int) -> None:
        assert self.seat is not None
        self.seat.until(lambda s: s["position"] >= position)

    def online(self, connected: list[bool]) -> None:
        assert self.seat is not None
        told = [json.loads(text) for text in self.seat.frames]  # the latest word, read or not
        seats = next((m["seats"] for m in reversed(told) if m["type"] in ("seats", "state")), None)
        for _ in range(200):
            if seats is not None and [s["connected"] for s in seats] == connected:
                return
            message = self.seat.read()
            if message.get("type") in ("seats", "state"):
                seats = message["seats"]
        raise AssertionError(f"the other server never showed {connected}; last: {seats}")


def mover(seats: dict[int, Seat], state: dict[str, Any]) -> Seat:
    return seats[state["current_player"]]


def play_every_kind(made_through: TestClient, wall: Wall, watch: Watch | None = None) -> str:
    """A table made through ``made_through`` sees every kind of change; ``watch`` is told the
    game's id once made, then waits until the other server shows each position. Returns the
    game's id."""
    seats = [{"name": "Ada", "kind": "human"}, {"kind": "open"}]
    made = made_through.post(
        "/api/games", json={"game": "counting", "mode": "basic", "seats": seats, **RULES}
    ).json()
    gid = made["id"]
    watch = watch or Watch()
    watch.start(gid)
    ada = made["seats"][0]["token"]
    taken = made_through.post(f"/api/games/{gid}/seats", json={"name": "Lin"})  # seat
    assert taken.status_code == 200, taken.text
    lin = taken.json()["token"]
    tokens = [ada, lin]
    watch(0)
    with seated(made_through, gid, ada) as a, seated(made_through, gid, lin) as b:
        seats = {0: a, 1: b}
        state = a.until(lambda s: not s["seats"][1]["vacant"])
        first = state["current_player"]
        mover(seats, state).move("1")  # move
        for seat in seats.values():
            seat.at(1)
        seats[first].take_back()  # take-back, with the other person's consent
        other = seats[1 - first]
        other.until(lambda s: s["take_back"]["request"] is not None)
        other.answer(True)
        for seat in seats.values():
            seat.at(2)
        watch(2)
        assert seats[first].state["view"]["total"] == 0
        seats[first].move("2")
        seats[first].at(3)
        watch(3)
    # the person to move (the second) has no connection: past the away limit a bot stands in;
    # the first is back at once (else a bot would stand in for them too when their turn came
    # after the away limit, and the bots could finish the game before the hand-back)
    with seated(made_through, gid, tokens[first]):
        eventually(  # (its time away counts from then)
            lambda: (
                [s["connected"] for s in made_through.get(f"/api/games/{gid}").json()["seats"]]
                == [seat == first for seat in range(2)]
            ),
            "the server never saw the seat leave and the other come back",
        )
        watch.online([seat == first for seat in range(2)])  # nobody else stands in first
        wall.t += 31
        hub = made_through.app.state.hub  # type: ignore[attr-defined]

        async def check() -> bool:
            room = await hub.room(gid)
            done: bool = await room.watch.check()
            return done

        assert made_through.portal.call(check) is True  # type: ignore[union-attr]
        watch(4)  # the bot moved for the seat away
        play_on_after_the_hand_back(made_through, gid, tokens, first)
    return gid


def play_on_after_the_hand_back(
    made_through: TestClient, gid: str, tokens: list[str], first: int
) -> None:
    """The person away comes back (hand-back); the other leaves (a stand-in for good); the
    one back plays to the end."""
    away = 1 - first
    with seated(made_through, gid, tokens[away]) as back:  # hand-back
        state = back.until(lambda s: s["seats"][away]["stand_in"] is None)
        left = made_through.post(f"/api/games/{gid}/resign", json={"token": tokens[first]})
        assert left.status_code == 200  # a stand-in for the one who left (final here)
        while not state["finished"]:
            state = back.until(
                lambda s: s["finished"] or (s["current_player"] == away and s["legal"])
            )
            if not state["finished"]:
                back.move()
                state = back.at(state["position"] + 1)


def test_every_kind_of_change_goes_through_the_pipeline(spy: Spy, db_url: str) -> None:
    wall = Wall()
    with servers(spy, wall, db_url, "one") as (one,):
        gid = play_every_kind(one, wall)
        room = one.app.state.hub.rooms[gid]  # type: ignore[attr-defined]
        stored = list(room.stored.moves)
    assert spy.made("one") == set(KINDS), spy.commits
    assert spy.outside == [], f"changes written outside the pipeline: {spy.outside}"
    entries = [c for c in spy.commits if c[1] in ("Play", "TakeBack") and c[3] is True]
    assert len(entries) == len(stored)  # every stored entry was committed, once


@pytest.fixture
def pg_db(pg: Postgres) -> str:
    return pg.database(f"pipeline_{uuid.uuid4().hex[:8]}")


@pytest.mark.cluster
def test_each_kind_made_through_one_server_is_seen_the_same_through_another(
    spy: Spy, pg_db: str, bus: Redis
) -> None:
    wall = Wall()
    with (
        servers(spy, wall, pg_db, "one", "two", redis=bus.url) as (one, two),
        contextlib.ExitStack() as stack,
    ):
        watch = WatchFrom(two, stack)
        gid = play_every_kind(one, wall, watch)
        assert watch.seat is not None
        there = watch.seat.until(lambda s: s["finished"])
        with seated(one, gid, None) as here:
            mine = here.until(lambda s: s["finished"])
    made = spy.made("one")
    assert made == set(KINDS), spy.commits
    assert made <= spy.heard("two"), (made, spy.heard("two"), spy.commits)
    assert spy.outside == [], f"changes written outside the pipeline: {spy.outside}"
    # the second server changed nothing itself but what either server may do unasked: a bot's
    # move (whoever holds the bots' lease) and a stand-in when a deadline passes (the store
    # lets one of them in)
    own = {
        action
        for name, action, _kind, answer in spy.commits
        if name == "two" and action != "Heard" and answer is True
    }
    assert own <= {"Play", "StandIn"}, spy.commits
    for key in ("position", "view", "authors", "result", "played"):
        assert there[key] == mine[key], key
    hands = [(s["name"], s["stand_in"], s["stand_in_why"]) for s in mine["seats"]]
    assert [(s["name"], s["stand_in"], s["stand_in_why"]) for s in there["seats"]] == hands
