"""A game's summary says whose turn it is: the lobby's list of recent games shows it."""

from __future__ import annotations

from fastapi.testclient import TestClient


def test_the_summary_names_the_seat_to_move_until_the_end(client: TestClient) -> None:
    seats = [{"name": "Ada", "kind": "human"}, {"name": "Lin", "kind": "human"}]
    made = client.post("/api/games", json={"game": "counting", "mode": "basic", "seats": seats})
    assert made.status_code == 200, made.text
    gid = made.json()["id"]
    summary = client.get(f"/api/games/{gid}").json()
    first = summary["current_player"]
    assert first in (0, 1) and not summary["finished"]
    token = made.json()["seats"][first]["token"]
    with client.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "hello", "token": token})
        state = next(m for m in iter(ws.receive_json, None) if m.get("type") == "state")
        ws.send_json({"type": "move", "move": state["legal"][0], "position": 0})
        while True:
            msg = ws.receive_json()
            if msg.get("type") == "state" and msg["position"] == 1:
                break
    after = client.get(f"/api/games/{gid}").json()
    assert after["current_player"] == msg["current_player"] != first
