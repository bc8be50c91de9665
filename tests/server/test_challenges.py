"""Challenges: a player challenged by name accepts (the table is made with both seats bound,
in both accounts' "My games"), declines, or sees the challenge withdrawn; blocks refuse it
both ways with the same words; rated challenges follow the rated rules; one account has a
bounded number of challenges waiting."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from polis.server.accounts.challenges import MAX_OPEN

from .test_accounts import Device, csrf, signup


def challenge(who: Any, to: str, **extra: Any) -> Any:
    body = {"to": to, "game": "counting", "mode": "basic"} | extra
    return who.post("/api/challenges", json=body, headers=csrf(who))


def two(client: TestClient, a: str = "Ann", b: str = "Ben") -> tuple[Any, Device]:
    """Two signed-in browsers: ``a`` on the test's client, ``b`` on another."""
    signup(client, a)
    other = Device(client)
    signup(other, b)
    return client, other


def test_a_challenge_accepted_makes_the_table_with_both_seats_bound(client: TestClient) -> None:
    ann, ben = two(client)
    r = challenge(ann, "ben", clock={"kind": "turn", "per_move": 86400}, stand_in="easy")
    assert r.status_code == 200, r.text
    made = r.json()
    assert made["from"] == "Ann" and made["to"] == "Ben" and made["status"] == "open"
    assert made["players"] == 2 and made["rated"] is False
    assert made["clock"]["kind"] == "turn" and made["stand_in"] == "easy"
    # both see it: incoming for Ben, outgoing for Ann, and in "My games"
    assert [c["id"] for c in ben.get("/api/challenges").json()["incoming"]] == [made["id"]]
    assert [c["id"] for c in ann.get("/api/challenges").json()["outgoing"]] == [made["id"]]
    mine = ben.get("/api/account/games").json()["challenges"]
    assert [c["id"] for c in mine["incoming"]] == [made["id"]] and mine["outgoing"] == []
    # only the challenged accepts
    assert ann.post(f"/api/challenges/{made['id']}/accept", headers=csrf(ann)).status_code == 404
    r = ben.post(f"/api/challenges/{made['id']}/accept", headers=csrf(ben))
    assert r.status_code == 200, r.text
    took = r.json()
    assert took["seat"] == 1 and took["token"] in took["invite"]
    gid = took["game_id"]
    summary = client.get(f"/api/games/{gid}").json()
    assert [(s["name"], s["account"]) for s in summary["seats"]] == [("Ann", "Ann"), ("Ben", "Ben")]
    assert summary["listed"] is False and summary["hints"] is False
    # the table is in both accounts' "My games"; the challenge is answered
    for who in (ann, ben):
        games = who.get("/api/account/games").json()
        assert gid in [g["id"] for g in games["turn"] + games["playing"]]
        assert games["challenges"] == {"incoming": [], "outgoing": []}
    answered = ann.get("/api/challenges").json()["outgoing"][0]
    assert answered["status"] == "accepted" and answered["game_id"] == gid
    # the accepter plays with its token; the challenger opens its seat from My games
    key = ann.post(f"/api/account/games/{gid}/key", headers=csrf(ann)).json()
    assert key["seat"] == 0
    for token, seat in ((took["token"], 1), (key["token"], 0)):
        with client.websocket_connect(f"/ws/{gid}") as ws:
            ws.send_json({"type": "hello", "token": token})
            welcome = ws.receive_json()
            assert welcome["type"] == "welcome" and welcome["seat"] == seat
    # accepted once: no second table
    r = ben.post(f"/api/challenges/{made['id']}/accept", headers=csrf(ben))
    assert r.status_code == 400 and "accepted" in r.json()["error"]["message"]


def test_decline_and_withdraw(client: TestClient) -> None:
    ann, ben = two(client)
    first = challenge(ann, "Ben").json()
    # the challenger cannot decline, the challenged cannot withdraw
    assert ann.post(f"/api/challenges/{first['id']}/decline", headers=csrf(ann)).status_code == 404
    assert ben.post(f"/api/challenges/{first['id']}/withdraw", headers=csrf(ben)).status_code == 404
    r = ben.post(f"/api/challenges/{first['id']}/decline", headers=csrf(ben))
    assert r.status_code == 200 and r.json()["status"] == "declined"
    assert ann.get("/api/challenges").json()["outgoing"][0]["status"] == "declined"
    r = ben.post(f"/api/challenges/{first['id']}/accept", headers=csrf(ben))
    assert r.status_code == 400
    second = challenge(ann, "Ben").json()
    r = ann.post(f"/api/challenges/{second['id']}/withdraw", headers=csrf(ann))
    assert r.status_code == 200 and r.json()["status"] == "withdrawn"
    assert ben.get("/api/account/games").json()["challenges"]["incoming"] == []
    assert ben.post(f"/api/challenges/{second['id']}/accept", headers=csrf(ben)).status_code == 400
    # a stranger sees neither
    carl = Device(client)
    signup(carl, "Carl")
    assert carl.get("/api/challenges").json() == {"incoming": [], "outgoing": []}
    r = carl.post(f"/api/challenges/{second['id']}/decline", headers=csrf(carl))
    assert r.status_code == 404


def test_who_cannot_be_challenged(client: TestClient) -> None:
    ann, _ben = two(client)
    r = challenge(ann, "ANN")
    assert r.status_code == 400 and "yourself" in r.json()["error"]["message"]
    r = challenge(ann, "Nobody")
    assert r.status_code == 404
    r = challenge(ann, "Ben", game="nosuchgame")
    assert r.status_code == 400
    r = challenge(ann, "Ben", mode="nosuchmode")
    assert r.status_code == 400 and "mode" in r.json()["error"]["message"]
    r = challenge(ann, "Ben", players=5)
    assert r.status_code == 422
    r = challenge(ann, "Ben", stand_in="genius")
    assert r.status_code == 400 and "level" in r.json()["error"]["message"]
    # a guest cannot challenge; nor without the CSRF token
    guest = Device(client)
    r = guest.post("/api/challenges", json={"to": "Ben", "game": "counting", "mode": "basic"})
    assert r.status_code == 401
    r = ann.post("/api/challenges", json={"to": "Ben", "game": "counting", "mode": "basic"})
    assert r.status_code == 403


def test_a_block_refuses_challenges_both_ways_with_the_same_words(client: TestClient) -> None:
    ann, ben = two(client)
    waiting = challenge(ben, "Ann").json()
    r = ann.post("/api/account/block", json={"name": "ben", "on": True}, headers=csrf(ann))
    assert r.status_code == 200 and r.json()["blocked"] == ["Ben"]
    # the challenge waiting between them is closed
    assert ann.get("/api/account/games").json()["challenges"]["incoming"] == []
    assert ben.get("/api/challenges").json()["outgoing"][0]["status"] == "declined"
    assert (
        ben.post(f"/api/challenges/{waiting['id']}/withdraw", headers=csrf(ben)).status_code == 400
    )
    blocked = challenge(ben, "Ann")  # the blocked one asks
    blocker = challenge(ann, "Ben")  # the one who blocks asks
    assert blocked.status_code == blocker.status_code == 403
    assert blocked.json() == blocker.json()  # nothing says who blocked whom
    assert "block" not in blocked.json()["error"]["message"]
    # unblocked: challenges go through again
    ann.post("/api/account/block", json={"name": "Ben", "on": False}, headers=csrf(ann))
    assert challenge(ben, "Ann").status_code == 200


def test_a_block_made_after_the_challenge_refuses_accepting(client: TestClient) -> None:
    ann, ben = two(client)
    made = challenge(ann, "Ben").json()
    # a block written behind the server's back (another process): accepting checks again
    from polis.server.store import accounts as rows

    engine = client.app.state.hub.store.engine  # type: ignore[attr-defined]
    found = [rows.by_name(engine, name) for name in ("Ann", "Ben")]
    assert found[0] is not None and found[1] is not None
    rows.set_relation(engine, found[0][0].id, found[1][0].id, "block", True)
    r = ben.post(f"/api/challenges/{made['id']}/accept", headers=csrf(ben))
    assert r.status_code == 403


def test_a_rated_challenge_makes_a_rated_table_for_accounts_only(client: TestClient) -> None:
    ann, ben = two(client)
    made = challenge(ann, "Ben", rated=True, players=3).json()
    assert made["rated"] is True and made["players"] == 3
    took = ben.post(f"/api/challenges/{made['id']}/accept", headers=csrf(ben)).json()
    gid = took["game_id"]
    summary = client.get(f"/api/games/{gid}").json()
    assert summary["rated"] is True and summary["hints"] is False
    assert summary["listed"] is True  # a rated game is public, its open seat waits for takers
    assert [s["vacant"] for s in summary["seats"]] == [False, False, True]
    listed = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}
    assert listed[gid]["rated"] is True  # the lobby marks it (a guest cannot take it)
    # a guest cannot take the open seat of a rated table; a signed-in player can
    guest = Device(client)
    r = guest.post(f"/api/games/{gid}/seats", json={"name": "guest"})
    assert r.status_code == 401
    cleo = Device(client)
    signup(cleo, "Cleo")
    r = cleo.post(f"/api/games/{gid}/seats", json={"name": "Cleo"}, headers=csrf(cleo))
    assert r.status_code == 200, r.text
    seats = client.get(f"/api/games/{gid}").json()["seats"]
    assert [s["account"] for s in seats] == ["Ann", "Ben", "Cleo"]


def test_the_number_of_waiting_challenges_is_capped(client: TestClient) -> None:
    ann, ben = two(client)
    made = [challenge(ann, "Ben") for _ in range(MAX_OPEN)]
    assert all(r.status_code == 200 for r in made)
    r = challenge(ann, "Ben")
    assert r.status_code == 429 and "withdraw" in r.json()["error"]["message"]
    # an answer frees a place
    first = made[0].json()["id"]
    ann.post(f"/api/challenges/{first}/withdraw", headers=csrf(ann))
    assert challenge(ann, "Ben").status_code == 200
    # the other way is counted apart
    assert challenge(ben, "Ann").status_code == 200
