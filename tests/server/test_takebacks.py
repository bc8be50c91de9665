"""Take-backs: a player's last move is withdrawn while it revealed nothing and nobody has moved
after it; against bots at once, against people with their consent; the stored entries stay
append-only and the record and replays show the final line of play.

Most tests use the toy "counting" game (only its end reveals anything); the games' own
``reveals`` answers are checked on Quadropolis and Metropolys themselves.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select

from polis.core.parts import REVEALS
from polis.core.registry import games, get_game
from polis.server import create_app
from polis.server.live.bus import LocalBus
from polis.server.live.history import TAKE_BACK, line_of
from polis.server.live.pipeline import Heard
from polis.server.store.games import normalise_url
from polis.server.store.schema import MOVES

from .seat_client import Seat, seated

PEOPLE = [{"name": "Ada", "kind": "human"}, {"name": "Lin", "kind": "human"}]


def first_seat_seed(first: int) -> int:
    """A seed whose toy deal lets seat ``first`` move first."""
    game = get_game("counting")
    return next(
        s for s in range(100) if game.new_game("basic", 2, seed=s).current_player() == first
    )


@pytest.fixture
def slow_bots(db_url: str) -> Iterator[TestClient]:
    """A server whose bots wait a minute before moving: a person's move can be taken back."""
    with TestClient(create_app(db_url, games=games().values(), bot_delay=60.0)) as c:
        yield c


def make(client: TestClient, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    body = {"game": "counting", "mode": "basic", "seats": seats, **extra}
    made = client.post("/api/games", json=body)
    assert made.status_code == 200, made.text
    data: dict[str, Any] = made.json()
    return data


def entries(db_url: str, game_id: str) -> list[str]:
    """The stored entries of a game, read from the database itself."""
    engine = create_engine(normalise_url(db_url))
    with engine.connect() as conn:
        rows = conn.execute(
            select(MOVES.c.text).where(MOVES.c.game_id == game_id).order_by(MOVES.c.idx)
        )
        found = [r[0] for r in rows]
    engine.dispose()
    return found


def test_a_move_against_a_bot_is_taken_back_at_once(slow_bots: TestClient, db_url: str) -> None:
    seats = [{"name": "Ada", "kind": "human"}, {"name": "Bot", "kind": "bot", "level": "easy"}]
    made = make(slow_bots, seats, seed=first_seat_seed(0))
    with seated(slow_bots, made["id"], made["seats"][0]["token"]) as ada:
        assert ada.state["take_back"] == {"seat": None, "request": None}  # no move yet
        ada.move("3")
        after = ada.at(1)
        assert after["take_back"]["seat"] == 0 and after["current_player"] == 1
        ada.take_back()
        back = ada.at(2)
        assert ada.notice("takeback_done")["seat"] == 0
        assert back["current_player"] == 0 and back["view"]["total"] == 0
        assert back["legal"] == ["1", "2", "3"]
        assert [e for e in back["log"] if e["move"] is not None] == []
        ada.move("2")
        assert ada.at(3)["view"]["total"] == 2
    assert entries(db_url, made["id"]) == ["3", TAKE_BACK, "2"]


def test_no_take_back_once_the_bot_has_replied(client: TestClient) -> None:
    seats = [{"name": "Ada", "kind": "human"}, {"name": "Bot", "kind": "bot", "level": "easy"}]
    made = make(client, seats, seed=first_seat_seed(0))
    with seated(client, made["id"], made["seats"][0]["token"]) as ada:
        ada.move("1")
        replied = ada.at(2)  # the bot moves at once on this server
        assert replied["take_back"]["seat"] is None
        ada.take_back()
        error = ada.error()
        assert error["code"] == "no_takeback"
        assert "bot" in error["message"]
        assert ada.state["position"] == 2


def two_people(client: TestClient) -> tuple[dict[str, Any], int]:
    made = make(client, PEOPLE)
    first = client.get(f"/api/games/{made['id']}").json()["current_player"]
    return made, first


@contextlib.contextmanager
def both_seated(client: TestClient) -> Iterator[tuple[dict[str, Any], int, Seat, Seat]]:
    """A new game of two people, both connected: (the game, who moves first, the first
    mover's connection, the other's)."""
    made, first = two_people(client)
    tokens = [s["token"] for s in made["seats"]]
    with (
        seated(client, made["id"], tokens[first]) as mover,
        seated(client, made["id"], tokens[1 - first]) as other,
    ):
        yield made, first, mover, other


def test_no_take_back_after_the_next_move(client: TestClient) -> None:
    with both_seated(client) as (_, first, mover, other):
        mover.move("1")
        other.at(1)
        other.move("1")
        assert mover.at(2)["take_back"]["seat"] == 1 - first
        mover.take_back()
        error = mover.error()
        assert error["code"] == "no_takeback"
        assert "only the player who made the last move" in error["message"]


def test_a_take_back_waits_for_the_other_persons_consent(client: TestClient, db_url: str) -> None:
    with both_seated(client) as (made, first, mover, other):
        mover.move("2")
        other.at(1)
        mover.at(1)
        mover.take_back()
        asked = other.until(lambda s: s["take_back"]["request"] is not None)
        assert asked["take_back"]["request"] == {
            "seat": first,
            "position": 1,
            "waiting": [1 - first],
        }
        # nothing is taken back before the answer
        assert entries(db_url, made["id"]) == ["2"]
        # the mover cannot answer its own request
        mover.answer(True)
        assert mover.error()["code"] == "no_takeback"
        other.answer(False)
        declined = mover.notice("takeback_declined")
        assert declined == {"type": "takeback_declined", "seat": first, "by": 1 - first}
        cleared = mover.until(lambda s: s["take_back"]["request"] is None)
        assert cleared["position"] == 1
        assert entries(db_url, made["id"]) == ["2"]
        # asked again and accepted: taken back
        mover.take_back()
        other.until(lambda s: s["take_back"]["request"] is not None)
        other.answer(True)
        back = mover.at(2)
        assert back["current_player"] == first and back["view"]["total"] == 0
        assert other.at(2)["take_back"] == {"seat": None, "request": None}
    assert entries(db_url, made["id"]) == ["2", TAKE_BACK]


def test_a_request_lapses_when_the_other_person_moves_instead(client: TestClient) -> None:
    with both_seated(client) as (_, first, mover, other):
        mover.move("1")
        mover.at(1)
        mover.take_back()
        other.until(lambda s: s["take_back"]["request"] is not None)
        other.move("3")
        moved = mover.at(2)
        assert moved["take_back"] == {"seat": 1 - first, "request": None}
        other.answer(True)  # too late: nothing waits for it
        assert other.error()["code"] == "no_takeback"


def test_the_record_keeps_every_entry_and_replays_show_the_final_line(
    client: TestClient, db_url: str
) -> None:
    with both_seated(client) as (made, first, a, b):
        gid = made["id"]
        players = {first: a, 1 - first: b}
        a.move("1")
        a.at(1)
        a.take_back()
        b.until(lambda s: s["take_back"]["request"] is not None)
        b.answer(True)
        a.at(2)
        # then play to the end (12 reached): 3 + 3 + 3 + 3
        for _ in range(4):
            state = a.at(a.state["position"])
            mover = players[state["current_player"]]
            mover.at(state["position"])
            mover.move("3")
            a.at(state["position"] + 1)
        assert a.state["finished"]
    stored = entries(db_url, gid)
    assert stored == ["1", TAKE_BACK, "3", "3", "3", "3"]  # append-only: the "1" stays
    record = client.get(f"/api/games/{gid}/record").json()
    assert record["moves"] == ["3", "3", "3", "3"]
    assert record["taken_back"] == [{"move": "1", "at": 0, "entry": 1}]
    last = client.get(f"/api/games/{gid}/replay/4").json()
    assert last["total"] == 4 and last["view"]["total"] == 12 and "result" in last
    one = client.get(f"/api/games/{gid}/replay/1").json()
    assert one["view"]["total"] == 3 and [e["move"] for e in one["log"] if e["move"] is not None]
    assert client.get(f"/api/games/{gid}/replay/5").status_code == 400
    # the game as the server rebuilds it from the store: the same final line
    assert [text for _i, text in line_of(stored)] == record["moves"]


def test_no_take_back_once_the_game_is_over(slow_bots: TestClient) -> None:
    seats = [{"name": "Ada", "kind": "human"}, {"name": "Lin", "kind": "human"}]
    made = make(slow_bots, seats, seed=first_seat_seed(0), hot_seat=True)
    tokens = [s["token"] for s in made["seats"]]
    with (
        seated(slow_bots, made["id"], tokens[0]) as a,
        seated(slow_bots, made["id"], tokens[1]) as b,
    ):
        players = [a, b]
        for position in range(4):
            mover = players[position % 2]
            mover.at(position)
            mover.move("3")
        over = b.at(4)
        assert over["finished"] and over["take_back"]["seat"] is None
        b.take_back()
        error = b.error()
        assert error["code"] == "no_takeback" and "over" in error["message"]


def play_until(state: Any, rng: random.Random, stop: Any) -> tuple[Any, Any]:
    """Random moves until ``stop(before, move)``; the state before that move and the move."""
    while True:
        move = state.random_move(rng)
        if stop(state, move):
            return state, move
        state.apply(move)


def test_quadropolis_moves_reveal_only_when_they_end_a_round_or_the_game() -> None:
    game = get_game("quadropolis")
    reveals = game.plugin(REVEALS)
    state = game.new_game("classic", 2, seed=11)
    rng = random.Random(3)
    seen = {True: 0, False: 0}
    while not state.is_terminal():
        before_round = state.view(None).to_json().get("round")
        move = state.random_move(rng)
        said = reveals(state, move)
        state.apply(move)
        round_changed = state.view(None).to_json().get("round") != before_round
        assert said == (state.is_terminal() or round_changed), move.text
        seen[said] += 1
    assert seen[True] >= 2 and seen[False] > seen[True]


def test_metropolys_moves_reveal_only_at_the_end() -> None:
    game = get_game("metropolys")
    reveals = game.plugin(REVEALS)
    state = game.new_game("family", 3, seed=5)
    rng = random.Random(1)
    before, move = play_until(state, rng, lambda s, m: (c := s.clone()).apply(m) or c.is_terminal())
    assert reveals(before, move)
    early = game.new_game("family", 3, seed=5)
    assert not reveals(early, early.random_move(rng))


def test_a_quadropolis_move_that_ends_a_round_cannot_be_taken_back(client: TestClient) -> None:
    made = client.post(
        "/api/games", json={"game": "quadropolis", "mode": "classic", "seats": PEOPLE}
    ).json()
    tokens = [s["token"] for s in made["seats"]]
    with (
        seated(client, made["id"], tokens[0]) as a,
        seated(client, made["id"], tokens[1]) as b,
    ):
        players = [a, b]
        while True:
            state = a.state
            mover = players[state["current_player"]]
            mover.at(state["position"])
            round_before = mover.state["view"].get("round")
            mover.move()
            after = mover.at(state["position"] + 1)
            if after["view"].get("round") != round_before:
                break
            assert after["take_back"]["seat"] == state["current_player"]
            a.at(state["position"] + 1)
        assert after["take_back"]["seat"] is None
        mover.take_back()
        error = mover.error()
        assert error["code"] == "no_takeback" and "revealed hidden information" in error["message"]


def test_a_take_back_stored_by_another_server_is_applied_there_too(db_url: str) -> None:
    """Two servers on one database: the second applies the first's take-back whether the
    bus tells it (a ``Heard`` change through its pipeline) or it reads the store
    (``catch_up``)."""
    seats = [{"name": "Ada", "kind": "human"}, {"name": "Bot", "kind": "bot", "level": "easy"}]
    with (
        TestClient(create_app(db_url, games=games().values(), bot_delay=60.0)) as one,
        TestClient(create_app(db_url, games=games().values(), bot_delay=60.0)) as two,
    ):
        made = make(one, seats, seed=first_seat_seed(0))
        gid = made["id"]
        with seated(two, gid, None) as watcher, seated(one, gid, made["seats"][0]["token"]) as ada:
            room = two.app.state.hub.rooms[gid]
            ada.move("3")
            ada.at(1)
            two.portal.call(room.catch_up)
            assert watcher.at(1)["view"]["total"] == 3
            ada.take_back()
            ada.at(2)
            two.portal.call(room.commit, Heard("takeback", 1, TAKE_BACK))
            back = watcher.at(2)
            assert back["view"]["total"] == 0 and back["current_player"] == 0
            assert [e for e in back["log"] if e["move"] is not None] == []
            ada.move("1")
            ada.at(3)
            ada.take_back()
            ada.at(4)
            two.portal.call(room.catch_up)
            again = watcher.at(4)
            assert again["view"]["total"] == 0 and room.stored.moves == [
                "3",
                TAKE_BACK,
                "1",
                TAKE_BACK,
            ]


class Relay(LocalBus):
    """Two servers' buses joined directly: what one publishes the other hears, in its own
    event loop (as Redis would deliver it)."""

    shared = True

    def __init__(self, instance: str) -> None:
        super().__init__(instance)
        self.peer: tuple[Any, Any] | None = None  # (TestClient, Hub) of the other server

    def publish(self, message: dict[str, Any]) -> None:
        if self.peer is None:
            return
        client, hub = self.peer

        async def deliver() -> None:
            hub.on_bus({**message, "o": self.instance})

        client.portal.start_task_soon(deliver)


def test_people_on_two_servers_ask_and_accept_a_take_back_through_the_bus(db_url: str) -> None:
    apps = [create_app(db_url, games=games().values(), bot_delay=0.0) for _ in range(2)]
    relays = [Relay("one"), Relay("two")]
    for app, relay in zip(apps, relays, strict=True):
        app.state.hub.bus = relay
    with TestClient(apps[0]) as one, TestClient(apps[1]) as two:
        relays[0].peer = (two, apps[1].state.hub)
        relays[1].peer = (one, apps[0].state.hub)
        made, first = two_people(one)
        tokens = [s["token"] for s in made["seats"]]
        gid = made["id"]
        with (
            seated(one, gid, tokens[first]) as mover,
            seated(two, gid, tokens[1 - first]) as other,
        ):
            mover.move("2")
            other.at(1)
            mover.at(1)
            mover.take_back()  # asked on server one ...
            asked = other.until(lambda s: s["take_back"]["request"] is not None)
            assert asked["take_back"]["request"]["waiting"] == [1 - first]
            other.answer(True)  # ... accepted on server two, which stores it
            back = mover.at(2)
            assert back["view"]["total"] == 0 and back["current_player"] == first
            assert other.at(2)["take_back"] == {"seat": None, "request": None}
    assert entries(db_url, gid) == ["2", TAKE_BACK]


def test_a_take_back_and_a_move_racing_for_one_position_are_not_both_stored(
    client: TestClient, db_url: str
) -> None:
    """The position guard decides between a take-back and a reply (a bot's, or one made
    through another server): two stores on one database, released together."""
    import threading

    from polis.server.store.games import Append, Store

    made, first = two_people(client)
    with seated(client, made["id"], made["seats"][first]["token"]) as mover:
        mover.move("1")
        mover.at(1)
    stores = [Store(db_url), Store(db_url)]
    barrier = threading.Barrier(2)
    won: list[bool] = [False, False]
    items = [Append(made["id"], 1, TAKE_BACK), Append(made["id"], 1, "2")]

    def write(i: int) -> None:
        barrier.wait()
        won[i] = stores[i].append_moves([items[i]])[0]

    threads = [threading.Thread(target=write, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for store in stores:
        store.close()
    assert sorted(won) == [False, True]
    stored = entries(db_url, made["id"])
    assert stored == ["1", items[won.index(True)].text]
