"""People: a block keeps the blocked player from the blocker's tables (and the blocker from
theirs), mutes are kept on the account, and a chat line reported is kept with its words for
the operator, by someone who may read it only, a few times an hour at most."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from polis.server.accounts.people import REPORTS_PER_HOUR
from polis.server.store import accounts as rows

from .test_accounts import Device, csrf, signup


def open_table(who: Any, chat_spectators: bool = False) -> str:
    """A table of ``who`` (signed in) with one seat open."""
    body = {
        "game": "counting",
        "mode": "basic",
        "seats": [{"name": "host", "kind": "human"}, {"kind": "open"}],
        "chat_spectators": chat_spectators,
    }
    r = who.post("/api/games", json=body, headers=csrf(who))
    assert r.status_code == 200, r.text
    return str(r.json()["id"])


def take(who: Any, gid: str, name: str) -> Any:
    return who.post(f"/api/games/{gid}/seats", json={"name": name}, headers=csrf(who))


def relate(who: Any, what: str, name: str, on: bool = True) -> Any:
    return who.post(f"/api/account/{what}", json={"name": name, "on": on}, headers=csrf(who))


def say(client: TestClient, gid: str, token: str, text: str) -> int:
    """Say ``text`` at the table with ``token``'s seat; the line's id."""
    with client.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "hello", "token": token})
        assert ws.receive_json()["type"] == "welcome"
        ws.send_json({"type": "chat", "text": text})
        while True:
            msg = ws.receive_json()
            if msg["type"] == "chat":
                return int(msg["id"])


def report(who: Any, gid: str, chat_id: int, reason: str = "rude") -> Any:
    body = {"game_id": gid, "chat_id": chat_id, "reason": reason}
    return who.post("/api/reports", json=body, headers=csrf(who))


def test_a_blocked_player_takes_no_seat_at_the_blockers_tables_either_way(
    client: TestClient,
) -> None:
    signup(client, "Ann")
    ben = Device(client)
    signup(ben, "Ben")
    assert relate(client, "block", "BEN").json() == {"blocked": ["Ben"], "muted": []}
    # Ben cannot sit at Ann's table
    gid = open_table(client)
    r = take(ben, gid, "Ben")
    assert r.status_code == 403
    assert client.get(f"/api/games/{gid}").json()["seats"][1]["vacant"] is True
    # nor Ann at Ben's: a block works both ways
    theirs = open_table(ben)
    assert take(client, theirs, "Ann").status_code == 403
    # someone else may sit; unblocked, Ben may too
    cleo = Device(client)
    signup(cleo, "Cleo")
    assert take(cleo, theirs, "Cleo").status_code == 200
    relate(client, "block", "Ben", on=False)
    assert take(ben, gid, "Ben").status_code == 200
    # and the blocked cannot challenge
    relate(client, "block", "Ben")
    r = ben.post(
        "/api/challenges",
        json={"to": "Ann", "game": "counting", "mode": "basic"},
        headers=csrf(ben),
    )
    assert r.status_code == 403


def test_blocks_and_mutes_are_kept_on_the_account(client: TestClient) -> None:
    signup(client, "Ann")
    for name in ("Ben", "Cleo"):
        signup(Device(client), name)
    assert client.get("/api/account/people").json() == {"blocked": [], "muted": []}
    relate(client, "mute", "cleo")
    relate(client, "mute", "Ben")
    relate(client, "block", "Ben")
    # another device of the same account sees the same lists
    laptop = Device(client)
    laptop.post("/api/account/login", json={"name": "Ann", "password": "correct horse battery"})
    assert laptop.get("/api/account/people").json() == {
        "blocked": ["Ben"],
        "muted": ["Ben", "Cleo"],
    }
    relate(laptop, "mute", "Ben", on=False)
    assert client.get("/api/account/people").json()["muted"] == ["Cleo"]
    assert relate(client, "mute", "Nobody").status_code == 404
    assert relate(client, "block", "ann").status_code == 400
    assert Device(client).get("/api/account/people").status_code == 401
    # muting is for the browser: chat lines name a seat, the seat its account
    gid = open_table(client)
    ben = Device(client)
    ben.post("/api/account/login", json={"name": "Ben", "password": "correct horse battery"})
    relate(client, "block", "Ben", on=False)
    take(ben, gid, "Benny")
    seats = client.get(f"/api/games/{gid}").json()["seats"]
    assert [s["account"] for s in seats] == ["Ann", "Ben"]


def test_a_report_keeps_the_lines_words_for_the_operator(client: TestClient) -> None:
    signup(client, "Ann")
    ben = Device(client)
    signup(ben, "Ben")
    gid = open_table(client)
    token = take(ben, gid, "Benny").json()["token"]
    line = say(client, gid, token, "you are a terrible player")
    r = report(client, gid, line, "  insulting  ")
    assert r.status_code == 200, r.text
    first = r.json()["id"]
    # reporting it again answers the same report
    assert report(client, gid, line).json()["id"] == first
    engine = client.app.state.hub.store.engine  # type: ignore[attr-defined]
    kept = rows.reports(engine)
    assert len(kept) == 1
    assert kept[0]["text"] == "you are a terrible player" and kept[0]["name"] == "Benny"
    assert kept[0]["reason"] == "insulting"
    assert kept[0]["reporter"] == "Ann" and kept[0]["account"] == "Ben"
    assert (kept[0]["game_id"], kept[0]["chat_id"]) == (gid, line)
    # one's own line, an unknown line, an empty or long reason: refused
    assert report(ben, gid, line).status_code == 400
    assert report(client, gid, line + 1000).status_code == 404
    assert report(client, gid, line, "   ").status_code == 422
    assert report(client, gid, line, "x" * 501).status_code == 422
    assert (
        Device(client)
        .post("/api/reports", json={"game_id": gid, "chat_id": line, "reason": "x"})
        .status_code
        == 401
    )


def test_a_stranger_cannot_report_a_line_of_a_chat_they_cannot_read(client: TestClient) -> None:
    signup(client, "Ann")
    ben = Device(client)
    signup(ben, "Ben")
    carl = Device(client)
    signup(carl, "Carl")
    gid = open_table(client)
    line = say(client, gid, take(ben, gid, "Ben").json()["token"], "hello")
    r = report(carl, gid, line)
    assert r.status_code == 403
    # the same answer whether the line exists or not: a stranger learns nothing
    assert report(carl, gid, line + 1000).json() == r.json()
    assert rows.reports(client.app.state.hub.store.engine) == []  # type: ignore[attr-defined]
    # where spectators read the chat, anyone signed in may report what they read
    watched = open_table(client, chat_spectators=True)
    line = say(client, watched, take(ben, watched, "Ben").json()["token"], "hello")
    assert report(carl, watched, line).status_code == 200


def test_reports_are_limited_per_account(client: TestClient) -> None:
    signup(client, "Ann")
    ben = Device(client)
    signup(ben, "Ben")
    gid = open_table(client)
    token = take(ben, gid, "Ben").json()["token"]
    lines = [say(client, gid, token, f"line {i}") for i in range(REPORTS_PER_HOUR + 1)]
    codes = [report(client, gid, line).status_code for line in lines]
    assert codes == [200] * REPORTS_PER_HOUR + [429]
