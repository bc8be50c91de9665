"""HTTP API and WebSocket behaviour of the server, on the counting game (engine-independent)."""

from __future__ import annotations

import contextlib
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from waiting import eventually

from .conftest import make_app

HUMANS2 = [{"name": "Ada", "kind": "human"}, {"name": "Lin", "kind": "human"}]


def create(client: TestClient, seats: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    resp = client.post(
        "/api/games",
        # the test holds every seat: a hot-seat game, where a chosen seed is allowed
        json={
            "game": "counting",
            "mode": "basic",
            "seats": seats or HUMANS2,
            "seed": 5,
            "hot_seat": True,
        },
    )
    assert resp.status_code == 200, resp.text
    return resp.json()


def hello(ws: Any, token: str | None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token})
    welcome = ws.receive_json()
    assert welcome["type"] == "welcome"
    state = ws.receive_json()
    assert state["type"] == "state"
    return state


def refused(ws: Any) -> dict[str, Any]:
    """The error answering a refused move, and the unchanged state sent after it."""
    err = next_of(ws, "error")
    state = ws.receive_json()
    assert state["type"] == "state"
    err["state"] = state
    return err


def next_of(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        msg = ws.receive_json()
        if msg["type"] == kind:
            return msg


def test_create_returns_one_invite_per_human_seat(client: TestClient) -> None:
    data = create(
        client, [{"name": "Ada", "kind": "human"}, {"name": "Bot", "kind": "bot", "level": "easy"}]
    )
    assert "token" in data["seats"][0] and data["seats"][0]["invite"].endswith(
        f"#/game/{data['id']}/{data['seats'][0]['token']}"
    )
    assert "token" not in data["seats"][1]
    summary = client.get(f"/api/games/{data['id']}").json()
    assert "token" not in json.dumps(summary)
    assert summary["seats"][1]["kind"] == "bot"


@pytest.mark.parametrize(
    "body",
    [
        {"game": "chess", "mode": "basic", "seats": HUMANS2},
        {"game": "counting", "mode": "nope", "seats": HUMANS2},
        {"game": "counting", "mode": "basic", "seats": HUMANS2[:1]},
        {"game": "counting", "mode": "basic", "seats": [{"name": "x", "kind": "alien"}] * 2},
        {"game": "counting", "mode": "basic", "seats": [{"name": "x" * 500, "kind": "human"}] * 2},
    ],
)
def test_bad_game_requests_are_refused(client: TestClient, body: dict[str, Any]) -> None:
    resp = client.post("/api/games", json=body)
    assert resp.status_code in (400, 422)


def test_each_seat_sees_only_its_secret_and_moves_are_checked(client: TestClient) -> None:
    data = create(client)
    gid = data["id"]
    t0, t1 = data["seats"][0]["token"], data["seats"][1]["token"]
    with client.websocket_connect(f"/ws/{gid}") as a, client.websocket_connect(f"/ws/{gid}") as b:
        sa = hello(a, t0)
        sb = hello(b, t1)
        secret0, secret1 = sa["view"]["secret"], sb["view"]["secret"]
        assert secret0 != secret1
        assert sa["legal"] == ["1", "2", "3"] and sb["legal"] == []
        received_b: list[str] = []
        # out of turn
        b.send_json({"type": "move", "move": "1", "position": 0})
        err = refused(b)
        assert err["code"] == "not_your_turn" and err["state"]["position"] == 0
        received_b.append(json.dumps(err))
        # illegal move, message names the rule
        a.send_json({"type": "move", "move": "4", "position": 0})
        err = refused(a)
        assert err["code"] == "illegal" and "1, 2 or 3" in err["message"]
        # stale position
        a.send_json({"type": "move", "move": "2", "position": 3})
        assert refused(a)["code"] == "stale"
        # a good move reaches both, each with their own view
        a.send_json({"type": "move", "move": "2", "position": 0})
        after_a = next_of(a, "state")
        assert after_a["position"] == 1 and after_a["view"]["total"] == 2
        after_b = next_of(b, "state")
        received_b.append(json.dumps(after_b))
        assert after_b["legal"] == ["1", "2", "3"]
        for text in received_b:
            assert secret0 not in text
        # the earlier refusals changed nothing
        assert after_a["view"]["moves"] == ["2"]


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("not json", "malformed"),
        ("[1, 2]", "malformed"),
        ('{"type": "dance"}', "malformed"),
        ('{"type": "move", "move": 3, "position": 0}', "malformed"),
        ('{"type": "move", "move": "1", "position": "zero"}', "malformed"),
        ('{"type": "move", "move": "1", "position": 0, "seat": 1}', "malformed"),
        ('{"type": "move", "move": "' + "1" * 5000 + '", "position": 0}', "too_large"),
    ],
)
def test_malformed_messages_get_an_error_and_leave_the_game_alone(
    client: TestClient, raw: str, code: str
) -> None:
    data = create(client)
    with client.websocket_connect(f"/ws/{data['id']}") as ws:
        hello(ws, data["seats"][0]["token"])
        ws.send_text(raw)
        err = next_of(ws, "error")  # (the seats' presence may be announced first)
        assert err["code"] == code
        ws.send_json({"type": "ping"})
        assert next_of(ws, "pong")
    assert client.get(f"/api/games/{data['id']}").json()["position"] == 0


def test_wrong_token_is_refused_and_spectators_cannot_move(client: TestClient) -> None:
    data = create(client)
    gid = data["id"]
    with client.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "hello", "token": "not-a-real-token"})
        err = ws.receive_json()
        assert err["code"] == "bad_token"
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
    with client.websocket_connect(f"/ws/{gid}") as ws:
        state = hello(ws, None)
        assert state["seat"] is None and state["view"]["secret"] is None and state["legal"] == []
        ws.send_json({"type": "move", "move": "1", "position": 0})
        assert next_of(ws, "error")["code"] == "spectator"
    with client.websocket_connect("/ws/nosuchgame") as ws:
        assert ws.receive_json()["code"] == "not_found"


def test_first_message_must_be_hello(client: TestClient) -> None:
    data = create(client)
    with client.websocket_connect(f"/ws/{data['id']}") as ws:
        ws.send_json({"type": "move", "move": "1", "position": 0})
        assert ws.receive_json()["code"] == "malformed"
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()


def play_out(ws: Any, state: dict[str, Any], token_seat: int) -> dict[str, Any]:
    while not state["finished"]:
        if state["current_player"] == token_seat and state["legal"]:
            ws.send_json({"type": "move", "move": "3", "position": state["position"]})
        state = next_of(ws, "state")
    return state


def test_game_against_a_bot_finishes_and_record_replay_rematch_work(client: TestClient) -> None:
    data = create(
        client, [{"name": "Ada", "kind": "human"}, {"name": "Bot", "kind": "bot", "level": "easy"}]
    )
    gid, token = data["id"], data["seats"][0]["token"]
    assert client.get(f"/api/games/{gid}/record").status_code == 409  # secrets until the end
    with client.websocket_connect(f"/ws/{gid}") as ws:
        state = play_out(ws, hello(ws, token), 0)
    assert state["result"]["scores"] and state["view"]["total"] >= 12
    record = client.get(f"/api/games/{gid}/record").json()
    assert record["game"] == "counting" and record["moves"] == state["view"]["moves"]
    assert record["names"] == ["Ada", "bot:easy"] and "result" in record
    start = client.get(f"/api/games/{gid}/replay/0").json()
    assert start["view"]["total"] == 0 and start["total"] == len(record["moves"])
    assert start["view"]["secret"] is None
    end = client.get(f"/api/games/{gid}/replay/{start['total']}").json()
    assert end["result"] == state["result"]
    assert client.get(f"/api/games/{gid}/replay/999").status_code == 400
    assert client.post(f"/api/games/{gid}/rematch", json={"tokens": ["bad"]}).status_code == 403
    again = client.post(f"/api/games/{gid}/rematch", json={"tokens": [token]}).json()
    assert again["id"] != gid and set(again["tokens"]) == {"0"}
    same = client.post(f"/api/games/{gid}/rematch", json={"tokens": [token]}).json()
    assert same["id"] == again["id"] and same["tokens"] == {}  # seat already claimed
    with client.websocket_connect(f"/ws/{again['id']}") as ws:
        assert hello(ws, again["tokens"]["0"])["seat"] == 0


def test_bots_alone_play_to_the_end(client: TestClient) -> None:
    data = create(
        client,
        [
            {"name": "B1", "kind": "bot", "level": "easy"},
            {"name": "B2", "kind": "bot", "level": "easy"},
        ],
    )
    with client.websocket_connect(f"/ws/{data['id']}") as ws:
        state = hello(ws, None)
        while not state["finished"]:
            state = next_of(ws, "state")
    assert state["view"]["total"] >= 12


def test_games_survive_a_restart(db_url: str) -> None:
    with TestClient(make_app(db_url)) as client:
        data = create(client)
        gid, t0 = data["id"], data["seats"][0]["token"]
        with client.websocket_connect(f"/ws/{gid}") as ws:
            hello(ws, t0)
            ws.send_json({"type": "move", "move": "3", "position": 0})
            assert next_of(ws, "state")["position"] == 1
    with TestClient(make_app(db_url)) as client:
        t1 = data["seats"][1]["token"]
        with client.websocket_connect(f"/ws/{gid}") as ws:
            state = hello(ws, t1)
            assert state["position"] == 1 and state["view"]["moves"] == ["3"]
            ws.send_json({"type": "move", "move": "2", "position": 1})
            assert next_of(ws, "state")["view"]["total"] == 5


def test_bot_game_resumes_after_restart(db_url: str) -> None:
    """A bot to move when the server stopped moves again once it is back."""
    with TestClient(make_app(db_url)) as client:
        data = create(
            client,
            [{"name": "Ada", "kind": "human"}, {"name": "Bot", "kind": "bot", "level": "easy"}],
        )
        gid, t0 = data["id"], data["seats"][0]["token"]
        app = client.app
        assert app is not None
    # move for Ada directly in the store, as if the server died before the bot moved
    from polis.server.store.games import Store

    store = Store(db_url)
    store.append_move(gid, 0, "1", None)
    store.close()
    # the bot is woken by the upkeep's next round: every 0.1 s here, not every 10 s
    from polis.core.registry import games
    from polis.server import create_app
    from polis.server.config import ServerConfig

    config = ServerConfig.from_env(bot_delay=0.0, housekeeping_interval=0.1)
    again = create_app(db_url, games=games().values(), config=config)
    with TestClient(again) as client, client.websocket_connect(f"/ws/{gid}") as ws:
        state = hello(ws, t0)
        while state["position"] < 2:
            state = next_of(ws, "state")
        assert state["current_player"] == 0 and state["legal"]


def test_a_thinking_bot_does_not_block_other_games(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    """While one game's bot is stuck thinking (in its worker process), another game plays on."""
    from polis.bots import Budget
    from polis.server.bots import driver as bot_driver

    from .agents import GateAgent

    release = tmp_path / "release"
    thinking = tmp_path / "thinking"
    monkeypatch.setattr(
        bot_driver,
        "make_agent",
        lambda spec, seed: (GateAgent(thinking, release), Budget(iterations=1)),
    )
    slow = create(
        client, [{"name": "Bot", "kind": "bot", "level": "hard"}, {"name": "Ada", "kind": "human"}]
    )
    eventually(thinking.exists, "the bot never started thinking", timeout=30)
    other = create(client)
    try:
        with client.websocket_connect(f"/ws/{other['id']}") as ws:
            hello(ws, other["seats"][0]["token"])
            ws.send_json({"type": "move", "move": "2", "position": 0})
            assert next_of(ws, "state")["position"] == 1
        assert client.get(f"/api/games/{slow['id']}").json()["position"] == 0
    finally:
        release.touch()
    with client.websocket_connect(f"/ws/{slow['id']}") as ws:
        state = hello(ws, slow["seats"][1]["token"])
        while state["position"] < 1:
            state = next_of(ws, "state")
        assert state["legal"]


# -- the redesign: structured choices, per-seat event logs, one view per information set ----------


def test_the_seat_to_move_gets_structured_choices_whose_moves_play(client: TestClient) -> None:
    data = create(client)
    gid = data["id"]
    t0, t1 = data["seats"][0]["token"], data["seats"][1]["token"]
    with (
        client.websocket_connect(f"/ws/{gid}") as a,
        client.websocket_connect(f"/ws/{gid}") as b,
        client.websocket_connect(f"/ws/{gid}") as watcher,
    ):
        sa, sb, sw = hello(a, t0), hello(b, t1), hello(watcher, None)
        mover, waiting = (a, b) if sa["current_player"] == 0 else (b, a)
        to_move, other = (sa, sb) if mover is a else (sb, sa)
        assert to_move["choices"] == {"amounts": [{"amount": n, "move": str(n)} for n in (1, 2, 3)]}
        assert [leaf["move"] for leaf in to_move["choices"]["amounts"]] == to_move["legal"]
        assert other["choices"] is None and sw["choices"] is None
        leaf = to_move["choices"]["amounts"][1]
        mover.send_json({"type": "move", "move": leaf["move"], "position": 0})
        after = next_of(mover, "state")
        assert after["view"]["total"] == leaf["amount"] and after["choices"] is None
        assert next_of(waiting, "state")["choices"] is not None
        assert next_of(watcher, "state")["choices"] is None


def test_each_seat_log_holds_the_events_it_may_see_and_no_other(client: TestClient) -> None:
    from toygame import GAME

    data = create(client)
    gid = data["id"]
    tokens = [s["token"] for s in data["seats"]]
    frames: dict[int | None, list[str]] = {0: [], 1: [], None: []}
    with (
        client.websocket_connect(f"/ws/{gid}") as a,
        client.websocket_connect(f"/ws/{gid}") as b,
        client.websocket_connect(f"/ws/{gid}") as w,
    ):
        socks = {0: a, 1: b, None: w}
        states = {
            seat: hello(ws, None if seat is None else tokens[seat]) for seat, ws in socks.items()
        }
        secrets = {seat: states[seat]["view"]["secret"] for seat in (0, 1)}
        for seat in (0, 1, None):
            log = states[seat]["log"]
            dealt = [e for e in log if e["key"] == "secret_dealt"]
            assert dealt == (
                []
                if seat is None
                else [
                    {
                        "move": None,
                        "key": "secret_dealt",
                        "params": {"player": seat, "secret": secrets[seat]},
                    }
                ]
            )
        while not states[0]["finished"]:
            current = states[0]["current_player"]
            socks[current].send_json(
                {"type": "move", "move": "2", "position": states[0]["position"]}
            )
            for seat, ws in socks.items():
                raw = ws.receive_text()
                while json.loads(raw)["type"] != "state":
                    frames[seat].append(raw)
                    raw = ws.receive_text()
                frames[seat].append(raw)
                states[seat] = json.loads(raw)
        record = client.get(f"/api/games/{gid}/record").json()
    finished = GAME.from_record(record)
    from polis.core.events import event_log

    for seat in (0, 1, None):
        log = states[seat]["log"]
        assert [{k: e[k] for k in ("key", "params")} for e in log] == [
            e.to_json() for e in event_log(finished, seat)
        ]
        moves = [e["move"] for e in log if e["key"] == "added"]
        assert moves == list(range(len(record["moves"])))
        # until the end reveals them, no frame to this seat holds another seat's secret
        before_end = [raw for raw in frames[seat] if not json.loads(raw).get("finished")]
        assert len(before_end) > 3
        for raw in before_end:
            for other in (0, 1):
                if other != seat:
                    assert secrets[other] not in raw


def test_one_view_is_built_per_seat_per_move_however_many_connections(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from toygame import CountingState

    built: list[int | None] = []
    original = CountingState.view

    def counted(self: CountingState, player: int | None) -> Any:
        built.append(player)
        return original(self, player)

    monkeypatch.setattr(CountingState, "view", counted)
    data = create(client)
    gid = data["id"]
    t0, t1 = data["seats"][0]["token"], data["seats"][1]["token"]
    seats = [t0, t0, t0, t1, t1, None, None]
    with contextlib.ExitStack() as stack:
        socks = [stack.enter_context(client.websocket_connect(f"/ws/{gid}")) for _ in seats]
        first = [hello(ws, token) for ws, token in zip(socks, seats, strict=True)]
        assert sorted(built, key=str) == sorted([0, 1, None], key=str)  # joining shares too
        built.clear()
        mover = 0 if first[0]["current_player"] == 0 else 3
        socks[mover].send_json({"type": "move", "move": "1", "position": 0})
        texts = [next_state_text(ws) for ws in socks]
        assert sorted(built, key=str) == sorted([0, 1, None], key=str)
        assert len(set(texts[0:3])) == 1 and len(set(texts[3:5])) == 1 and texts[5] == texts[6]
        assert len({texts[0], texts[3], texts[5]}) == 3
        assert all(json.loads(t)["position"] == 1 for t in texts)


def next_state_text(ws: Any) -> str:
    """The next state message, exactly as sent (other messages skipped)."""
    while True:
        text: str = ws.receive_text()
        if json.loads(text)["type"] == "state":
            return text


def test_a_refused_move_is_answered_with_the_same_prebuilt_state(client: TestClient) -> None:
    data = create(client)
    with client.websocket_connect(f"/ws/{data['id']}") as ws:
        state = hello(ws, data["seats"][0]["token"])
        ws.send_json({"type": "move", "move": "1", "position": 7})
        assert refused(ws)["state"] == state


def test_bots_are_seeded_from_the_game_id_and_seat(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from polis.core.match import derive_seed
    from polis.server.bots import driver as bot_driver

    made: list[tuple[str, int]] = []
    real = bot_driver.make_agent

    def recording(spec: str, seed: int) -> Any:
        made.append((spec, seed))
        return real(spec, seed)

    monkeypatch.setattr(bot_driver, "make_agent", recording)
    data = create(
        client,
        [{"name": "B1", "kind": "bot", "level": "easy"}, {"name": "B2", "kind": "bot"}],
    )
    with client.websocket_connect(f"/ws/{data['id']}") as ws:
        state = hello(ws, None)
        while not state["finished"]:
            state = next_of(ws, "state")
    gid = data["id"]
    assert sorted(made) == sorted(
        [("easy", derive_seed(gid, "bot", 0)), ("medium", derive_seed(gid, "bot", 1))]
    )


def test_replays_carry_the_public_log(client: TestClient) -> None:
    data = create(
        client, [{"name": "Ada", "kind": "human"}, {"name": "Bot", "kind": "bot", "level": "easy"}]
    )
    gid, token = data["id"], data["seats"][0]["token"]
    with client.websocket_connect(f"/ws/{gid}") as ws:
        play_out(ws, hello(ws, token), 0)
    start = client.get(f"/api/games/{gid}/replay/0").json()
    assert start["log"] == []  # the secrets dealt are private, the spectator sees none
    one = client.get(f"/api/games/{gid}/replay/1").json()
    assert [e["key"] for e in one["log"]] == ["added"] and one["log"][0]["move"] == 0
    assert "SECRET" not in json.dumps(one)


def test_unknown_bot_levels_are_refused(client: TestClient) -> None:
    seats = [{"name": "Ada", "kind": "human"}, {"name": "B", "kind": "bot", "level": "godlike"}]
    resp = client.post("/api/games", json={"game": "counting", "mode": "basic", "seats": seats})
    assert resp.status_code == 400


def test_the_event_log_keeps_private_events_to_their_seats_as_the_game_goes() -> None:
    """Private events after the set-up too (the toy deals secrets only at the start)."""
    from polis.core.events import Event
    from polis.server.live.history import EventLog

    log = EventLog()
    log.extend(None, [Event("dealt", {"card": "A"}, to=(0,)), Event("begun")])
    before = {seat: json.loads(log.json_for(seat)) for seat in (0, 1, None)}
    assert [e["key"] for e in before[0]] == ["dealt", "begun"]
    assert [e["key"] for e in before[1]] == [e["key"] for e in before[None]] == ["begun"]
    log.extend(0, [Event("drew", {"card": "B"}, to=(1,)), Event("moved", {"n": 1})])
    log.extend(1, [Event("shown", {"card": "C"}, to=(0, 1))])
    keys = {seat: [e["key"] for e in json.loads(log.json_for(seat))] for seat in (0, 1, None)}
    assert keys == {
        0: ["dealt", "begun", "moved", "shown"],
        1: ["begun", "drew", "moved", "shown"],
        None: ["begun", "moved"],
    }
    assert json.loads(log.json_for(1))[1] == {"move": 0, "key": "drew", "params": {"card": "B"}}
    for seat in (0, 1, None):  # the kept texts agree with a fresh filter
        assert json.loads(log.json_for(seat)) == log.for_seat(seat)
