"""Open tables: seats left for anyone, listed in the lobby (or not: invite-only), taken with a
name for that seat's token; the game starts when the last one is taken; of two people taking
the last seat at once exactly one gets it, through one server or several sharing a database.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from polis.server.live.hub import Hub
from polis.server.store.games import Store

from .conftest import make_app
from .seat_client import seated

OPEN = {"kind": "open"}
ADA = {"name": "Ada", "kind": "human"}


def make(client: TestClient, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    body = {"game": "counting", "mode": "basic", "seats": seats, **extra}
    made = client.post("/api/games", json=body)
    assert made.status_code == 200, made.text
    data: dict[str, Any] = made.json()
    return data


def take(client: TestClient, game_id: str, **body: Any) -> Any:
    return client.post(f"/api/games/{game_id}/seats", json=body)


def test_an_open_seat_is_listed_taken_with_a_name_and_then_the_game_starts(
    client: TestClient,
) -> None:
    made = make(client, [ADA, OPEN])
    gid = made["id"]
    ada, open_seat = made["seats"]
    assert "token" in ada and not ada["vacant"]
    assert open_seat["vacant"] and "token" not in open_seat and open_seat["name"] == ""
    listed = client.get("/api/tables").json()["tables"]
    assert [(t["id"], t["vacant"], t["names"][0]) for t in listed] == [(gid, [1], "Ada")]
    with seated(client, gid, ada["token"]) as first, seated(client, gid, None) as watcher:
        assert first.state["seats"][1]["vacant"]
        assert first.state["legal"] == []  # nobody is offered a move before the table is full
        if first.state["current_player"] == 0:
            first.move("1")
            refused = first.error()
            assert refused["code"] == "waiting" and "waits for 1 more player" in refused["message"]
        taken = take(client, gid, name="  Zoe ")
        assert taken.status_code == 200, taken.text
        zoe = taken.json()
        assert zoe["seat"] == 1 and zoe["invite"].endswith(f"/#/game/{gid}/{zoe['token']}")
        # everyone is told who sits there now
        seen = watcher.until(lambda s: not s["seats"][1]["vacant"])
        assert seen["seats"][1]["name"] == "Zoe" and seen["seat"] is None and seen["legal"] == []
        first.until(lambda s: s["seats"][1]["name"] == "Zoe")
        with seated(client, gid, zoe["token"]) as second:
            assert second.state["seat"] == 1
            players = {0: first, 1: second}
            mover = players[second.state["current_player"]]
            mover.until(lambda s: s["seat"] == s["current_player"] and s["legal"])
            mover.move("2")
            assert watcher.at(1)["view"]["total"] == 2
    # the table is full: no longer listed as open, still listed to watch
    assert client.get("/api/tables").json()["tables"] == []
    assert gid in [g["id"] for g in client.get("/api/games").json()["games"]]
    again = take(client, gid, name="Late")
    assert again.status_code == 409
    assert again.json()["error"] == {
        "type": "error",
        "code": "seat_taken",
        "message": "every seat of this table is taken",
    }


def test_an_invite_only_table_is_listed_nowhere_but_its_link_works(client: TestClient) -> None:
    made = make(client, [ADA, OPEN], listed=False)
    assert client.get("/api/tables").json()["tables"] == []
    assert made["id"] not in [g["id"] for g in client.get("/api/games").json()["games"]]
    assert client.get(f"/api/games/{made['id']}").json()["listed"] is False
    taken = take(client, made["id"], name="Zoe", seat=1)
    assert taken.status_code == 200 and taken.json()["seat"] == 1


def test_a_table_waits_for_its_seats_before_a_bot_moves(client: TestClient) -> None:
    hub: Hub = client.app.state.hub
    for _ in range(64):  # a table with an open seat is dealt secretly: made until the bot is first
        made = make(client, [{"name": "Bot", "kind": "bot", "level": "easy"}, OPEN])
        room = hub.rooms[made["id"]]
        if room.state.current_player() == 0:
            break
    assert room.state.current_player() == 0
    assert room.vacant == [1] and not room.bots.thinking  # the bot waits
    with seated(client, made["id"], None) as watcher:
        assert watcher.state["position"] == 0
        assert take(client, made["id"], name="Zoe").status_code == 200
        # the table is full: the bot, first to move, plays at once
        assert watcher.at(1)["current_player"] == 1


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"name": ""}, 422),
        ({"name": "   "}, 422),
        ({"name": "x" * 41}, 422),
        ({"name": "Zoe\u202e"}, 422),
        ({"name": "Zo\x00e"}, 422),
        ({"name": "Zoe", "seat": 9}, 422),
        ({"name": "Zoe", "seat": 0}, 409),
        ({"name": "Zoe", "seat": 2}, 400),
        ({"name": "Zoe", "token": "x"}, 422),  # a field the server does not know
        ({"name": "A\u200b\u200b"}, 422),  # zero-width spaces: "A" twice, seen alike
        ({"name": "Zo\u2060e"}, 422),  # word joiner (format)
        ({"name": "Zoe\ue000"}, 422),  # private use
        ({"name": "Zoe\U000e0001"}, 422),  # language tag (format)
        ({"name": "Zoe\u0378"}, 422),  # unassigned
        ({"name": "Zo\u2028e"}, 422),  # line separator
        ({"name": " Zoé "}, 200),
    ],
)
def test_taking_a_seat_checks_what_is_sent(
    client: TestClient, body: dict[str, Any], status: int
) -> None:
    made = make(client, [ADA, OPEN])
    answer = take(client, made["id"], **body)
    assert answer.status_code == status, answer.text


def test_a_name_is_kept_trimmed_and_in_nfc(client: TestClient) -> None:
    made = make(client, [ADA, OPEN])
    assert take(client, made["id"], name="  Zoe\u0301  ").status_code == 200  # e + combining
    names = [s["name"] for s in client.get(f"/api/games/{made['id']}").json()["seats"]]
    assert names == ["Ada", "Zo\u00e9"]


def test_taking_a_seat_counts_against_the_creation_limit(db_url: str) -> None:
    from polis.server import create_app
    from polis.server.config import Limits, ServerConfig

    config = ServerConfig.from_env(limits=Limits(create_rate="3/minute"))
    with TestClient(create_app(db_url, config=config, bot_delay=0.0)) as client:
        made = make(client, [ADA, OPEN, OPEN])
        assert take(client, made["id"], name="Zoe").status_code == 200
        assert take(client, made["id"], name="Max").status_code == 200
        refused = take(client, made["id"], name="Eve")
        assert refused.status_code == 429


def race(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run ``calls`` in threads released together; their results in order."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        results[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_two_people_taking_the_last_seat_at_once_one_gets_it(client: TestClient) -> None:
    made = make(client, [ADA, OPEN])
    gid = made["id"]
    answers = race([lambda n=n: take(client, gid, name=n) for n in ("Zoe", "Max")])
    assert sorted(a.status_code for a in answers) == [200, 409]
    loser = next(a for a in answers if a.status_code == 409).json()["error"]
    assert loser["code"] == "seat_taken"
    assert loser["message"] in (
        "someone else took the last free seat a moment ago",  # both found it vacant
        "every seat of this table is taken",  # the other had it already
    )
    winner = next(a for a in answers if a.status_code == 200).json()
    seat = client.get(f"/api/games/{made['id']}").json()["seats"][1]
    assert seat["name"] in ("Zoe", "Max") and not seat["vacant"]
    with seated(client, made["id"], winner["token"]) as won:
        assert won.state["seat"] == 1


def test_two_servers_on_one_database_give_the_last_seat_once(db_url: str) -> None:
    with TestClient(make_app(db_url)) as one, TestClient(make_app(db_url)) as two:
        made = make(one, [ADA, OPEN])
        assert two.get(f"/api/games/{made['id']}").status_code == 200  # loaded there too
        for _ in range(3):  # each round a new table, the same race
            made = make(one, [ADA, OPEN])
            two.get(f"/api/games/{made['id']}")
            gid = made["id"]
            answers = race(
                [
                    lambda gid=gid: take(one, gid, name="Zoe"),
                    lambda gid=gid: take(two, gid, name="Max"),
                ]
            )
            assert sorted(a.status_code for a in answers) == [200, 409]


def test_the_store_gives_a_vacant_seat_to_exactly_one_of_many_takers(db_url: str) -> None:
    with TestClient(make_app(db_url)) as client:
        made = make(client, [ADA, OPEN])
    stores = [Store(db_url) for _ in range(4)]
    try:
        won = race(
            [
                lambda s=s, i=i: s.take_vacant(made["id"], 1, f"p{i}", f"{i:064d}")
                for i, s in enumerate(stores)
            ]
        )
        assert sorted(won) == [False, False, False, True]
        seat = stores[0].seats(made["id"])[1]
        winner = won.index(True)
        assert (seat.name, seat.token_hash, seat.vacant) == (f"p{winner}", f"{winner:064d}", False)
    finally:
        for store in stores:
            store.close()
