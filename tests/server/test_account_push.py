"""Turn notifications that follow the account: a signed-in browser subscribes once
(``POST /api/account/push``) and is told of the turns of every seat bound to the account,
whichever device took the seat; one push per browser where the seat's own subscription names
the same one; a browser the push service says is gone is forgotten from the table it was
kept in; the endpoint checks are the seat's; ``DELETE`` ends it. The push service and the
browsers are test_push's."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from polis.server.live.hub import Hub
from polis.server.store import chat_push as rows
from polis.server.store.accounts import ACCOUNT_PUSH, PUSH_PER_ACCOUNT
from waiting import eventually

from .test_accounts import PASSWORD, Device, csrf, signup
from .test_push import Browser, PushService, greet, make, move, subscribe

LIN = {"name": "Lin", "kind": "human"}


@pytest.fixture
def service() -> Iterator[PushService]:
    svc = PushService()
    yield svc
    svc.close()


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with make(db_url) as c:
        yield c


def hub_of(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def follow(client: Any, browser: Browser, lang: str = "en", **headers: str) -> Any:
    """This browser subscribes to the turns of the signed-in account."""
    return client.post(
        "/api/account/push",
        json={"subscription": browser.subscription, "lang": lang},
        headers=headers or csrf(client),
    )


def linned_table(client: Any) -> tuple[str, list[str]]:
    """A table of the signed-in account (seat 0, bound) and a guest, Lin, who moves first:
    its id and the seats' tokens."""
    for _ in range(64):  # the deal decides who starts: made until Lin does
        made = client.post(
            "/api/games",
            json={
                "game": "counting",
                "mode": "basic",
                "seats": [{"name": "Ann", "kind": "human"}, LIN],
            },
            headers=csrf(client),
        )
        assert made.status_code == 200, made.text
        data = made.json()
        assert data["seats"][0]["account"] is not None and data["seats"][1]["account"] is None
        if client.get(f"/api/games/{data['id']}").json()["current_player"] == 1:
            return data["id"], [s["token"] for s in data["seats"]]
    raise AssertionError("Lin never started")


def lin_moves(client: TestClient, gid: str, token: str) -> None:
    """Lin plays the first move: the account's seat is to move, away."""
    with client.websocket_connect(f"/ws/{gid}") as ws:
        move(ws, greet(ws, token))


def settled(client: TestClient, count: int) -> None:
    hub = hub_of(client)
    eventually(lambda: hub.push.settled >= count, lambda: f"{hub.push.settled} turn notices")


def kept(client: TestClient) -> int:
    with hub_of(client).store.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(ACCOUNT_PUSH)).scalar() or 0)


def test_a_browser_subscribed_for_the_account_is_told_of_a_seat_taken_elsewhere(
    client: TestClient, service: PushService
) -> None:
    signup(client, "Ann")
    phone = Device(client)  # Ann's phone subscribes; the table is made on her laptop
    phone.post("/api/account/login", json={"name": "Ann", "password": PASSWORD})
    browser = Browser(service, "/push/ann-phone")
    answer = follow(phone, browser, lang="pl")
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"subscribed": True}
    gid, tokens = linned_table(client)
    lin_moves(client, gid, tokens[1])
    service.wait(1)
    path, _headers, body = service.received[0]
    assert path == "/push/ann-phone"
    payload = browser.decrypt(body)
    assert payload == {
        "type": "turn",
        "game_id": gid,
        "game": "counting",
        "title": "Counting",
        "seat": 0,
        "name": "Ann",
        "position": 1,
        "url": f"/#/game/{gid}",
        "lang": "pl",
    }
    assert kept(client) == 1  # it stays for the next turns and tables
    # another account's turns are not told to Ann's phone
    other = Device(client)
    signup(other, "Bea")
    gid2, tokens2 = linned_table(other)
    lin_moves(client, gid2, tokens2[1])
    settled(client, 2)
    assert len(service.received) == 1


def test_one_push_per_browser_where_the_seat_and_the_account_name_it(
    client: TestClient, service: PushService
) -> None:
    signup(client, "Ann")
    laptop, phone = Browser(service, "/push/laptop"), Browser(service, "/push/phone")
    assert follow(client, laptop).status_code == 200
    assert follow(client, phone).status_code == 200
    gid, tokens = linned_table(client)
    assert subscribe(client, gid, tokens[0], laptop).status_code == 200  # the seat's own too
    lin_moves(client, gid, tokens[1])
    settled(client, 1)
    paths = sorted(path for path, _h, _b in service.received)
    assert paths == ["/push/laptop", "/push/phone"]


def test_a_gone_browser_is_forgotten_from_the_table_it_was_kept_in(
    client: TestClient, service: PushService
) -> None:
    signup(client, "Ann")
    gone, stays = Browser(service, "/gone/old-phone"), Browser(service, "/push/laptop")
    seat_gone = Browser(service, "/missing/tablet")
    assert follow(client, gone).status_code == 200
    assert follow(client, stays).status_code == 200
    gid, tokens = linned_table(client)
    assert subscribe(client, gid, tokens[0], seat_gone).status_code == 200
    lin_moves(client, gid, tokens[1])
    settled(client, 1)
    assert len(service.received) == 3
    engine = hub_of(client).store.engine
    with engine.connect() as conn:
        endpoints = [r[0] for r in conn.execute(select(ACCOUNT_PUSH.c.endpoint))]
    assert endpoints == [stays.endpoint]
    assert rows.subscriptions(engine, gid) == []


def test_the_account_subscription_is_checked_like_a_seats_and_ends_on_delete(
    client: TestClient, service: PushService
) -> None:
    browser = Browser(service, "/push/a")
    guest = client.post("/api/account/push", json={"subscription": browser.subscription})
    assert guest.status_code == 401
    signup(client, "Ann")
    no_token = client.post("/api/account/push", json={"subscription": browser.subscription})
    assert no_token.status_code == 403
    evil = Browser(service, "/push/a")
    evil.subscription = {**evil.subscription, "endpoint": "https://169.254.169.254/latest"}
    refused = follow(client, evil)
    assert refused.status_code == 400 and "address" in refused.json()["error"]["message"]
    bad_keys = {**browser.subscription, "keys": {"p256dh": "AAAA", "auth": "AAAA"}}
    refused = client.post(
        "/api/account/push", json={"subscription": bad_keys}, headers=csrf(client)
    )
    assert refused.status_code == 400 and "p256dh" in refused.json()["error"]["message"]
    assert kept(client) == 0
    for i in range(PUSH_PER_ACCOUNT + 2):  # the oldest go
        assert follow(client, Browser(service, f"/push/{i}")).status_code == 200
    assert kept(client) == PUSH_PER_ACCOUNT
    assert follow(client, browser).status_code == 200
    assert follow(client, browser).status_code == 200  # renewed, not doubled
    assert kept(client) == PUSH_PER_ACCOUNT
    ended = client.request(
        "DELETE",
        "/api/account/push",
        json={"subscription": browser.subscription},
        headers=csrf(client),
    )
    assert ended.json() == {"subscribed": False, "removed": True}
    again = client.request(
        "DELETE",
        "/api/account/push",
        json={"endpoint": browser.endpoint},
        headers=csrf(client),
    )
    assert again.json() == {"subscribed": False, "removed": False}
    assert kept(client) == PUSH_PER_ACCOUNT - 1
    both = client.request(
        "DELETE",
        "/api/account/push",
        json={"subscription": browser.subscription, "endpoint": browser.endpoint},
        headers=csrf(client),
    )
    assert both.status_code == 422
    # deleting the account forgets its browsers
    gone = client.post("/api/account/delete", json={"password": PASSWORD}, headers=csrf(client))
    assert gone.status_code == 200
    assert kept(client) == 0
