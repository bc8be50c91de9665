"""Rated games end to end over the API: two accounts at a rated table (the creator and an open
seat taken by the second) play to the end, and both ratings move (the winner's up, the
loser's down) on their profiles and the leaderboard; results are written once however often
and wherever the game is settled, and by the upkeep of a later process when the one that
stored the last move stopped first. A rated table refuses guests, bots, hot-seat, a chosen
seed, hints and take-backs; a seat that resigns loses though a bot finishes for it, and its
person cannot take it back. Unrated games between accounts count in the profiles only."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from polis.core.registry import games
from polis.server import create_app
from polis.server.config import ServerConfig, parse_limits
from polis.server.live import upkeep
from polis.server.live.hub import Hub
from polis.server.store import standings
from waiting import eventually

from .seat_client import Seat, seated
from .test_accounts import Device, csrf, signup

ALICE = {"name": "Alice", "kind": "human"}
OPEN = {"kind": "open"}


def make(db_url: str) -> TestClient:
    """A server taking moves as fast as the test sends them (the test's connections share
    one address and its message rate)."""
    config = ServerConfig.from_env(bot_delay=0.0, limits=parse_limits("message_rate=10000/second"))
    return TestClient(create_app(db_url, games=games().values(), config=config))


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with make(db_url) as c:
        yield c


def hub_of(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def people(client: TestClient) -> tuple[TestClient, Device]:
    """Alice (this browser) and Bob (another), both signed up."""
    signup(client, "Alice")
    bob = Device(client)
    signup(bob, "Bob")
    return client, bob


def table(
    alice: Any,
    bob: Any,
    game: str = "counting",
    mode: str = "basic",
    rated: bool = True,
    **extra: Any,
) -> tuple[str, dict[int, str]]:
    """A table Alice makes (seat 0) whose open seat Bob takes: its id, each seat's token."""
    body = {"game": game, "mode": mode, "seats": [ALICE, OPEN], "rated": rated, **extra}
    made = alice.post("/api/games", json=body, headers=csrf(alice))
    assert made.status_code == 200, made.text
    gid = made.json()["id"]
    assert made.json()["seats"][0]["account"] == "Alice"
    taken = bob.post(f"/api/games/{gid}/seats", json={"name": "Bob"}, headers=csrf(bob))
    assert taken.status_code == 200, taken.text
    assert taken.json()["seat"] == 1
    return gid, {0: made.json()["seats"][0]["token"], 1: taken.json()["token"]}


def play(
    client: TestClient, gid: str, tokens: dict[int, str], plan: dict[int, str | None]
) -> dict[str, Any]:
    """Play ``gid`` to the end: each seat of ``tokens`` connected, each seat of ``plan``
    playing its move there (None: the first legal one) on its turn, the others (a bot
    standing in) waited for. The last state."""
    with ExitStack() as stack:
        seats: dict[int, Seat] = {
            s: stack.enter_context(seated(client, gid, t)) for s, t in tokens.items()
        }
        first = next(iter(seats.values()))
        while not first.state["finished"]:
            state = first.state
            mover = state["current_player"]
            if mover in plan and state["seats"][mover]["stand_in"] is None:
                seats[mover].at(state["position"])
                seats[mover].move(plan[mover])
            for seat in seats.values():
                seat.at(state["position"] + 1)
        return first.state


def profile(client: Any, name: str) -> dict[str, Any]:
    found = client.get(f"/api/players/{name}")
    assert found.status_code == 200, found.text
    data: dict[str, Any] = found.json()
    return data


def rating(client: Any, name: str, game: str = "counting", mode: str = "basic") -> int | None:
    for r in profile(client, name)["ratings"]:
        if (r["game"], r["mode"]) == (game, mode):
            return int(r["rating"])
    return None


def results(client: TestClient, gid: str) -> int:
    engine = hub_of(client).store.engine
    with engine.connect() as conn:
        found = conn.execute(
            select(func.count()).where(standings.RESULTS.c.game_id == gid)
        ).scalar()
    return int(found or 0)


def settled(client: TestClient, gid: str, rows: int = 2) -> None:
    eventually(lambda: results(client, gid) == rows, f"game {gid} was not settled")


def test_a_rated_game_moves_both_ratings_on_the_profiles_and_the_leaderboard(
    client: TestClient,
) -> None:
    alice, bob = people(client)
    gid, tokens = table(alice, bob)
    assert client.get(f"/api/games/{gid}").json()["rated"] is True
    # Alice adds 3 each turn, Bob 1: Alice scores at least 9, Bob at most 6
    end = play(client, gid, tokens, {0: "3", 1: "1"})
    assert end["view"]["revealed"]
    settled(client, gid)
    up, down = rating(alice, "Alice"), rating(bob, "Bob")
    assert up is not None and down is not None
    assert up > 1500 > down
    mine = profile(bob, "alice")  # any case, by anyone
    assert mine["name"] == "Alice" and mine["bot"] is False
    assert mine["ratings"][0] | {"mu": 0, "sigma": 0} == {
        "game": "counting",
        "mode": "basic",
        "rating": up,
        "mu": 0,
        "sigma": 0,
        "games": 1,
        "provisional": True,
    }
    assert mine["stats"] == [
        {
            "game": "counting",
            "mode": "basic",
            "played": 1,
            "win_share": 1.0,
            "mean_rank": 1.0,
            "best_score": mine["recent"][0]["score"],
            "mean_score": mine["recent"][0]["score"],
        }
    ]
    (game,) = mine["recent"]
    assert game["id"] == gid and game["rank"] == 1 and game["rated"] is True
    assert game["seat"] == 0 and game["forfeited"] is False and game["players"] == 2
    assert [s["account"] for s in game["seats"]] == ["Alice", "Bob"]
    assert [(h["game_id"], h["rating"]) for h in mine["history"]] == [(gid, up)]
    theirs = profile(alice, "Bob")
    assert theirs["recent"][0]["rank"] == 2 and theirs["stats"][0]["win_share"] == 0.0
    board = client.get("/api/leaderboard", params={"game": "counting", "mode": "basic"}).json()
    assert board == {
        "game": "counting",
        "mode": "basic",
        "players": [
            {
                "rank": 1,
                "name": "Alice",
                "bot": False,
                "rating": up,
                "games": 1,
                "provisional": True,
            },
            {
                "rank": 2,
                "name": "Bob",
                "bot": False,
                "rating": down,
                "games": 1,
                "provisional": True,
            },
        ],
    }
    # the signed-in account sees its ratings too
    assert alice.get("/api/account").json()["ratings"][0]["rating"] == up
    # nothing private on a profile
    text = client.get("/api/players/Alice").text
    assert not any(t in text for t in tokens.values())
    assert "csrf" not in text and "password" not in text and "SECRET" not in text


def test_results_are_written_once_however_often_and_wherever_it_is_settled(
    client: TestClient, db_url: str
) -> None:
    alice, bob = people(client)
    gid, tokens = table(alice, bob)
    play(client, gid, tokens, {0: "3", 1: "1"})
    settled(client, gid)
    before = (rating(alice, "Alice"), rating(bob, "Bob"))
    hub = hub_of(client)
    room = client.portal.call(hub.room, gid)  # type: ignore[union-attr]
    assert client.portal.call(hub.accounts.settle, room) is False  # type: ignore[union-attr]
    with make(db_url) as other:  # a second process on the same store
        there = hub_of(other)
        again = other.portal.call(there.room, gid)  # type: ignore[union-attr]
        assert again.finished
        assert other.portal.call(there.accounts.settle, again) is False  # type: ignore[union-attr]
        assert other.portal.call(upkeep.settle_missed, there, 0.0) == 0  # type: ignore[union-attr]
    assert results(client, gid) == 2
    assert (rating(alice, "Alice"), rating(bob, "Bob")) == before
    assert profile(client, "Alice")["ratings"][0]["games"] == 1


def test_a_game_its_process_left_unsettled_is_settled_by_the_next_ones_upkeep(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with make(db_url) as client:
        alice, bob = people(client)
        gid, tokens = table(alice, bob)
        hub = hub_of(client)

        async def stops_first(room: Any) -> bool:  # the process dies after the last move
            return False

        monkeypatch.setattr(hub.accounts, "settle", stops_first)
        play(client, gid, tokens, {0: "3", 1: "1"})
        engine = hub.store.engine
        assert standings.unsettled(engine, standings.settle_cutoff(0.0), 10) == [gid]
        assert standings.unsettled(engine, standings.settle_cutoff(3600.0), 10) == []
        assert results(client, gid) == 0 and rating(client, "Alice") is None
    monkeypatch.setattr(upkeep, "SETTLE_GRACE", 0.0)
    with make(db_url) as later:  # its first upkeep round settles what was left
        settled(later, gid)
        assert rating(later, "Alice") > 1500 > rating(later, "Bob")  # type: ignore[operator]
        there = hub_of(later)
        assert later.portal.call(upkeep.settle_missed, there, 0.0) == 0  # type: ignore[union-attr]
        assert standings.unsettled(there.store.engine, standings.settle_cutoff(0.0), 10) == []


@pytest.mark.parametrize(
    ("seats", "extra", "why"),
    [
        ([ALICE, {"kind": "bot", "level": "easy"}], {}, "no bot seats"),
        ([ALICE, {"name": "Bo", "kind": "human"}], {"hot_seat": True}, "hot-seat"),
        ([ALICE, OPEN], {"seed": 7}, "seed"),
        ([ALICE, OPEN], {"hints": True}, "no hints"),
        ([ALICE, {"name": "Bo", "kind": "human"}], {}, "seats left open"),
    ],
)
def test_a_rated_table_refuses_bots_hot_seat_a_chosen_seed_and_hints(
    client: TestClient, seats: list[dict[str, Any]], extra: dict[str, Any], why: str
) -> None:
    signup(client, "Alice")
    body = {"game": "counting", "mode": "basic", "seats": seats, "rated": True, **extra}
    refused = client.post("/api/games", json=body, headers=csrf(client))
    assert refused.status_code == 400, refused.text
    assert why in refused.json()["error"]["message"]


def test_a_rated_table_refuses_guests_and_a_second_seat_for_one_account(
    client: TestClient,
) -> None:
    body = {"game": "counting", "mode": "basic", "seats": [ALICE, OPEN], "rated": True}
    guest = client.post("/api/games", json=body)
    assert guest.status_code == 400 and "sign in" in guest.json()["error"]["message"]
    signup(client, "Alice")
    without_token = client.post("/api/games", json=body)  # the cookie alone is a guest's
    assert without_token.status_code == 400
    made = client.post("/api/games", json=body, headers=csrf(client))
    assert made.status_code == 200
    gid = made.json()["id"]
    twice = client.post(f"/api/games/{gid}/seats", json={"name": "Al"}, headers=csrf(client))
    assert twice.status_code == 403
    stranger = Device(client)
    taken = stranger.post(f"/api/games/{gid}/seats", json={"name": "Guest"})
    assert taken.status_code == 401 and taken.json()["error"]["code"] == "unauthorized"
    assert client.get(f"/api/games/{gid}").json()["seats"][1]["vacant"] is True


def test_a_rated_game_allows_no_take_back_and_no_hint(client: TestClient) -> None:
    alice, bob = people(client)
    gid, tokens = table(alice, bob)
    with seated(client, gid, tokens[0]) as a, seated(client, gid, tokens[1]) as b:
        players = {0: a, 1: b}
        mover = a.state["current_player"]
        hint = client.post(
            f"/api/games/{gid}/hint",
            json={"token": tokens[mover], "position": a.state["position"]},
        )
        assert hint.status_code == 409 and hint.json()["error"]["code"] == "no_hint"
        players[mover].move("2")
        players[mover].at(1)
        assert players[mover].state["take_back"]["seat"] is None
        players[mover].take_back()
        refused = players[mover].error()
        assert refused["code"] == "no_takeback"
        assert "rated game" in refused["message"]
        assert client.get(f"/api/games/{gid}").json()["position"] == 1


def test_a_seat_that_resigns_a_rated_game_loses_and_cannot_take_it_back(
    client: TestClient,
) -> None:
    alice, bob = people(client)
    gid, tokens = table(alice, bob, stand_in="easy")
    left = client.post(f"/api/games/{gid}/resign", json={"token": tokens[1]})
    assert left.status_code == 200 and left.json()["why"] == "left"
    # Alice plays 1s (a bot plays Bob's seat and may well outscore her): Bob still loses
    with seated(client, gid, tokens[1]) as back:  # Bob comes back: the bot keeps the seat
        assert back.state["seats"][1]["stand_in"] is not None
        if back.state["current_player"] == 1:
            back.move("3")
            assert back.error()["code"] in ("stood_in", "stale", "not_your_turn")
    end = play(client, gid, {0: tokens[0], 1: tokens[1]}, {0: "1"})
    assert end["seats"][1]["stand_in"] is not None
    settled(client, gid)
    assert rating(alice, "Alice") > 1500 > rating(bob, "Bob")  # type: ignore[operator]
    (lost,) = profile(client, "Bob")["recent"]
    assert lost["rank"] == 2 and lost["forfeited"] is True
    assert profile(client, "Alice")["recent"][0]["rank"] == 1


def test_unrated_games_between_accounts_count_in_profiles_not_ratings(
    client: TestClient,
) -> None:
    alice, bob = people(client)
    gid, tokens = table(alice, bob, rated=False)
    play(client, gid, tokens, {0: "3", 1: "1"})
    settled(client, gid)
    mine = profile(client, "Alice")
    assert mine["ratings"] == [] and mine["history"] == []
    assert mine["stats"][0]["played"] == 1 and mine["stats"][0]["win_share"] == 1.0
    assert mine["recent"][0]["rated"] is False and mine["recent"][0]["id"] == gid
    assert profile(client, "Bob")["stats"][0]["mean_rank"] == 2.0
    board = client.get("/api/leaderboard?game=counting&mode=basic").json()
    assert board["players"] == []


def test_a_rated_quadropolis_game_between_two_accounts(client: TestClient) -> None:
    alice, bob = people(client)
    gid, tokens = table(alice, bob, game="quadropolis", mode="classic")
    play(client, gid, tokens, {0: None, 1: None})
    settled(client, gid)
    ranks = {0: profile(client, "Alice")["recent"][0]["rank"], 1: None}
    ranks[1] = profile(client, "Bob")["recent"][0]["rank"]
    shown = {0: rating(alice, "Alice", *QC), 1: rating(bob, "Bob", *QC)}
    assert None not in shown.values()
    if ranks[0] != ranks[1]:  # a winner and a loser
        winner = 0 if ranks[0] == 1 else 1
        assert shown[winner] > 1500 > shown[1 - winner]  # type: ignore[operator]
    else:  # a tie: both move alike (their uncertainty shrinks)
        assert shown[0] == shown[1]
    board = client.get("/api/leaderboard", params={"game": "quadropolis", "mode": "classic"})
    assert sorted(p["name"] for p in board.json()["players"]) == ["Alice", "Bob"]


QC = ("quadropolis", "classic")
