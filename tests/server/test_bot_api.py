"""The bot API: bot accounts and their tokens (hashed, revocable, limited), moves made the one
way a person's are, the two NDJSON streams (a seat's state messages and nothing more, the
events of a bot), seats at tables that let bots in, rated games between people and bots, and a
bot client that plays whole games through restarts of the server.

The plain routes are tested with Starlette's TestClient; the streams (which never end by
themselves) against a real server in a thread of this process (``botplay.ThreadServer``),
which serves the toy game where the behaviour does not depend on the game.
"""

from __future__ import annotations

import hashlib
import json
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from botplay import CHECK, Pause, RecordingClient, ThreadServer, bot_account, play_person
from botplay import Person as LivePerson
from polis.client import AgentMaker, ApiError, BotRunner
from polis.core.registry import get_game
from polis.server.accounts import bots
from polis.server.live import bot_streams
from polis.server.live.room import Room
from polis.server.store.games import normalise_url
from waiting import eventually

from .browsers import Browser

TOY = {"game": "counting", "mode": "basic"}


# -- helpers for the TestClient ------------------------------------------------------------------
def make_bot(client: TestClient, name: str = "Robo") -> tuple[Browser, str]:
    owner = Browser(client, name)
    assert owner.post("/api/account/bot").status_code == 200
    r = owner.post("/api/account/tokens", {"label": "laptop"})
    assert r.status_code == 200, r.text
    return owner, r.json()["token"]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def accepted_game(client: TestClient, person: Browser, bot: str, token: str, **extra: Any) -> str:
    """``person`` challenges ``bot``, which accepts through the bot API; the table's id."""
    r = person.post("/api/challenges", {"to": bot, **TOY, **extra})
    assert r.status_code == 200, r.text
    r = client.post(f"/api/bot/challenges/{r.json()['id']}/accept", headers=bearer(token))
    assert r.status_code == 200, r.text
    assert r.json()["seat"] == 1 and set(r.json()) == {"game_id", "seat"}  # no seat token
    return str(r.json()["game_id"])


# -- bot accounts and tokens ---------------------------------------------------------------------
def test_an_account_becomes_a_bot_only_before_its_first_game_and_shows_it(
    client: TestClient,
) -> None:
    person = Browser(client, "Ada")
    table = {**TOY, "seats": [{"name": "Ada", "kind": "human"}, {"kind": "open"}]}
    assert person.post("/api/games", table).status_code == 200  # a seat bound: it plays
    r = person.post("/api/account/bot")
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
    assert person.get("/api/account").json()["account"]["bot"] is False
    fresh = Browser(client, "Robo")
    assert fresh.post("/api/account/bot", csrf=False).status_code == 403  # CSRF, like the rest
    r = fresh.post("/api/account/bot")
    assert r.status_code == 200 and r.json() == {"account": {"name": "Robo", "bot": True}}
    assert fresh.post("/api/account/bot").status_code == 200  # again: nothing changes
    assert fresh.get("/api/account").json()["account"]["bot"] is True
    assert fresh.get("/api/players/Robo").json()["bot"] is True
    # a bot account plays through the bot API only: no table of its own from the browser
    r = fresh.post("/api/games", table)
    assert r.status_code == 403 and "bot API" in r.json()["error"]["message"]


def test_tokens_are_bot_only_shown_once_kept_hashed_and_revoked_with_the_session(
    client: TestClient, db_url: str
) -> None:
    person = Browser(client, "Ada")
    r = person.post("/api/account/tokens", {"label": "mine"})
    assert r.status_code == 403 and "bot account" in r.json()["error"]["message"]
    owner, token = make_bot(client)
    assert token.startswith("polis_bot_") and len(token) >= 40
    listed = owner.get("/api/account/tokens").json()["tokens"]
    assert len(listed) == 1 and listed[0]["label"] == "laptop" and listed[0]["revoked"] is None
    assert token not in json.dumps(listed)  # shown once, when made
    assert client.get("/api/bot/account", headers=bearer(token)).json() == {
        "name": "Robo",
        "bot": True,
    }
    # the store keeps the SHA-256 only: the secret is nowhere in the database
    digest = hashlib.sha256(token.encode()).hexdigest()
    engine = create_engine(normalise_url(db_url))
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT token_hash FROM polis_api_tokens")).scalars().all()
        dumped = "\n".join(
            str(row)
            for table in ("polis_api_tokens",)
            for row in conn.execute(text(f"SELECT * FROM {table}"))
        )
    engine.dispose()
    assert rows == [digest] and token not in dumped
    if db_url.startswith("sqlite:///"):
        assert token.encode() not in Path(db_url.removeprefix("sqlite:///")).read_bytes()
    # revoking needs the session and its CSRF token; then the token is refused at once
    token_id = listed[0]["id"]
    assert owner.post(f"/api/account/tokens/{token_id}/revoke", csrf=False).status_code == 403
    assert person.post(f"/api/account/tokens/{token_id}/revoke").status_code == 404  # not hers
    r = owner.post(f"/api/account/tokens/{token_id}/revoke")
    assert r.status_code == 200 and r.json()["revoked"] is not None
    r = client.get("/api/bot/account", headers=bearer(token))
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
    assert owner.post(f"/api/account/tokens/{token_id}/revoke").status_code == 404  # once


@pytest.mark.parametrize(
    "header",
    [None, "Basic abc", "Bearer", "Bearer polis_bot_nothing", "Bearer " + "x" * 200, "Bearer a b"],
)
def test_the_bot_api_needs_a_live_bearer_token(client: TestClient, header: str | None) -> None:
    headers = {} if header is None else {"Authorization": header}
    for method, path in [
        ("GET", "/api/bot/account"),
        ("GET", "/api/bot/stream"),
        ("GET", "/api/bot/games/abc/stream"),
        ("POST", "/api/bot/games/abc/move"),
        ("POST", "/api/bot/challenges/abc/accept"),
        ("GET", "/api/bot/tables"),
    ]:
        body = {"move": "1", "position": 0} if path.endswith("move") else None
        r = client.request(method, path, headers=headers, json=body)
        assert r.status_code == 401, (path, r.text)
        assert r.json()["error"]["code"] == "unauthorized"


def test_a_session_is_no_token_and_a_token_is_no_session(client: TestClient) -> None:
    owner, token = make_bot(client)
    assert owner.get("/api/bot/account").status_code == 401  # the cookie opens no bot route
    r = client.get("/api/account/tokens", headers=bearer(token))  # nor the token an account's
    assert r.status_code == 401


def test_a_suspended_bot_is_refused(client: TestClient, db_url: str) -> None:
    _owner, token = make_bot(client)
    engine = create_engine(normalise_url(db_url))
    with engine.begin() as conn:
        conn.execute(text("UPDATE polis_accounts SET suspended = 1 WHERE name = 'Robo'"))
    engine.dispose()
    r = client.get("/api/bot/account", headers=bearer(token))
    assert r.status_code in (401, 403)


def test_deleting_a_bot_account_deletes_its_tokens_refused_by_every_bot_route(
    client: TestClient, db_url: str
) -> None:
    from .browsers import PASSWORD

    owner, token = make_bot(client)
    assert owner.post("/api/account/tokens", {"label": "spare"}).status_code == 200
    ada = Browser(client, "Ada")
    made = ada.post("/api/events", {"name": "Cup", **TOY, "rounds": 1})
    assert made.status_code == 200, made.text
    eid = made.json()["id"]
    assert client.post(f"/api/events/{eid}/join", headers=bearer(token)).status_code == 200
    assert owner.post("/api/account/delete", {"password": PASSWORD}).status_code == 200
    engine = create_engine(normalise_url(db_url))
    with engine.connect() as conn:
        left = conn.execute(text("SELECT count(*) FROM polis_api_tokens")).scalar()
    engine.dispose()
    assert left == 0  # gone with the account, revoked ones too
    paths = client.app.openapi()["paths"]  # type: ignore[attr-defined]
    routes = [
        (method.upper(), path)
        for path, methods in paths.items()
        if path.startswith("/api/bot/")
        for method in methods
    ]
    assert len(routes) >= 8, routes
    bodies = {"move": {"move": "1", "position": 0}, "seats": {"seat": None}}
    for method, path in routes:
        url = path.replace("{game_id}", "abc").replace("{challenge_id}", "abc")
        url = url.replace("{event_id}", eid)
        body = bodies.get(url.rsplit("/", 1)[-1])
        r = client.request(method, url, headers=bearer(token), json=body)
        assert r.status_code == 401, (method, path, r.text)
        assert r.json()["error"]["code"] == "unauthorized"
    # nor does it enter or leave events, nor see one as a bot
    for method, url in [
        ("POST", f"/api/events/{eid}/join"),
        ("POST", f"/api/events/{eid}/leave"),
        ("GET", f"/api/events/{eid}"),
    ]:
        assert client.request(method, url, headers=bearer(token)).status_code == 401, url


# -- playing through the API -----------------------------------------------------------------
def test_a_bot_moves_by_notation_or_action_id_through_the_rooms_one_pipeline(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    person = Browser(client, "Ada")
    _owner, token = make_bot(client)
    gid = accepted_game(client, person, "Robo", token)
    committed: list[Any] = []
    real = Room.commit

    async def spy(self: Room, action: Any) -> Any:
        committed.append(action)
        return await real(self, action)

    monkeypatch.setattr(Room, "commit", spy)
    room = client.app.state.hub.rooms[gid]
    first = room.state.current_player()
    person_token = person.post(f"/api/account/games/{gid}/key").json()["token"]
    position = 0
    if first == 0:  # the person moves first, over the WebSocket
        with person.client.websocket_connect(f"/ws/{gid}") as ws:
            ws.send_json({"type": "hello", "token": person_token})
            ws.send_json({"type": "move", "move": "1", "position": 0})
            while (m := ws.receive_json())["type"] != "state" or m["position"] != 1:
                pass
        position = 1
    url = f"/api/bot/games/{gid}/move"
    r = client.post(url, json={"move": "2", "position": position + 5}, headers=bearer(token))
    assert r.status_code == 400 and r.json()["error"]["code"] == "stale"
    r = client.post(url, json={"move": "7", "position": position}, headers=bearer(token))
    assert r.status_code == 400 and r.json()["error"]["code"] == "illegal"
    r = client.post(url, json={"move": 9, "position": position}, headers=bearer(token))
    assert r.status_code == 400 and r.json()["error"]["code"] == "illegal"  # no such action
    r = client.post(url, json={"move": 1, "position": position}, headers=bearer(token))  # "2"
    assert r.status_code == 200 and r.json() == {"game_id": gid, "position": position + 1}
    assert room.stored.moves[-1] == "2"
    r = client.post(url, json={"move": "1", "position": position + 1}, headers=bearer(token))
    assert r.status_code == 400 and r.json()["error"]["code"] == "not_your_turn"
    plays = [a for a in committed if type(a).__name__ == "Play"]
    # stale, illegal, the move, not its turn: each as a person's (an unknown action id never
    # reaches the pipeline: it names no move)
    assert [(a.seat, a.bot) for a in plays][-4:] == [(1, False)] * 4
    if first == 0:
        assert plays[0].seat == 0 and plays[0].move == "1"
    for body in ({"move": True, "position": 0}, {"move": "1"}, {"move": "1", "position": "0"}):
        r = client.post(url, json=body, headers=bearer(token))
        assert r.status_code == 422, body


def test_a_bot_moves_only_at_its_own_tables(client: TestClient) -> None:
    person = Browser(client, "Ada")
    _owner, token = make_bot(client)
    table = {**TOY, "seats": [{"name": "Ada", "kind": "human"}, {"name": "Lin", "kind": "human"}]}
    gid = person.post("/api/games", table).json()["id"]
    r = client.post(
        f"/api/bot/games/{gid}/move", json={"move": "1", "position": 0}, headers=bearer(token)
    )
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
    r = client.get(f"/api/bot/games/{gid}/stream", headers=bearer(token))
    assert r.status_code == 403


def test_a_bot_accounts_seat_is_refused_on_the_websocket(client: TestClient) -> None:
    person = Browser(client, "Ada")
    owner, token = make_bot(client)
    gid = accepted_game(client, person, "Robo", token)
    key = owner.post(f"/api/account/games/{gid}/key")  # its session can mint a seat key ...
    assert key.status_code == 200
    with owner.client.websocket_connect(f"/ws/{gid}") as ws:  # ... which opens no socket
        ws.send_json({"type": "hello", "token": key.json()["token"]})
        refusal = ws.receive_json()
        assert refusal["type"] == "error" and refusal["code"] == "forbidden"
        assert "bot API" in refusal["message"]


def test_moves_are_limited_per_token(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bots, "MOVE_RATE", bots.parse_rate("2/minute"))
    person = Browser(client, "Ada")
    _owner, token = make_bot(client)
    gid = accepted_game(client, person, "Robo", token)
    url = f"/api/bot/games/{gid}/move"
    codes = [
        client.post(url, json={"move": "1", "position": 99}, headers=bearer(token)).status_code
        for _ in range(3)
    ]
    assert codes == [400, 400, 429]


def test_challenges_are_accepted_or_declined_by_the_challenged_bot_only(
    client: TestClient,
) -> None:
    person = Browser(client, "Ada")
    _owner, token = make_bot(client)
    _other, other_token = make_bot(client, "Tin")
    challenge = person.post("/api/challenges", {"to": "Robo", **TOY}).json()["id"]
    url = f"/api/bot/challenges/{challenge}"
    assert client.post(f"{url}/accept", headers=bearer(other_token)).status_code == 404
    r = client.post(f"{url}/decline", headers=bearer(token))
    assert r.status_code == 200 and r.json()["status"] == "declined" and r.json()["from"] == "Ada"
    assert client.post(f"{url}/accept", headers=bearer(token)).status_code == 400
    assert client.post("/api/bot/challenges/%2E%2E/accept", headers=bearer(token)).status_code in (
        404,
        400,
    )


def test_bots_take_open_seats_only_at_tables_that_let_them(client: TestClient) -> None:
    person = Browser(client, "Ada")
    _owner, token = make_bot(client)
    closed = {**TOY, "seats": [{"name": "Ada", "kind": "human"}, {"kind": "open"}]}
    shut = person.post("/api/games", closed).json()["id"]
    r = client.post(f"/api/bot/games/{shut}/seats", json={}, headers=bearer(token))
    assert r.status_code == 403 and '"bots"' in r.json()["error"]["message"]
    assert client.get(f"/api/games/{shut}").json()["bots"] is False
    r = person.post("/api/games", {**closed, "seats": [closed["seats"][0]] * 2, "bots": True})
    assert r.status_code == 400  # no open seat to give
    made = person.post("/api/games", {**closed, "bots": True}).json()
    gid = made["id"]
    assert client.get(f"/api/games/{gid}").json()["bots"] is True
    listed = client.get("/api/bot/tables", headers=bearer(token)).json()["tables"]
    assert [t["id"] for t in listed] == [gid] and listed[0]["vacant"] == [1]
    assert [t["bots"] for t in client.get("/api/tables").json()["tables"]] == [True, False]
    r = client.post(f"/api/bot/games/{gid}/seats", json={"seat": None}, headers=bearer(token))
    assert r.status_code == 200 and r.json() == {"game_id": gid, "seat": 1}
    summary = client.get(f"/api/games/{gid}").json()
    assert summary["seats"][1]["account"] == "Robo" and summary["seats"][1]["vacant"] is False
    r = client.post(f"/api/bot/games/{gid}/seats", json={}, headers=bearer(token))
    assert r.status_code == 403  # one seat per bot
    assert client.get("/api/bot/tables", headers=bearer(token)).json()["tables"] == []
    assert client.get("/api/meta").json()["bot_api"] is True


def test_a_rated_game_between_a_person_and_a_bot_rates_both_and_marks_the_bot(
    client: TestClient,
) -> None:
    person = Browser(client, "Ada")
    _owner, token = make_bot(client)
    gid = accepted_game(client, person, "Robo", token, rated=True)
    hub = client.app.state.hub
    room = hub.rooms[gid]
    person_token = person.post(f"/api/account/games/{gid}/key").json()["token"]
    with person.client.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "hello", "token": person_token})
        while not room.finished:
            mover = room.state.current_player()
            position = room.position
            if mover == 1:
                r = client.post(
                    f"/api/bot/games/{gid}/move",
                    json={"move": "3", "position": position},
                    headers=bearer(token),
                )
                assert r.status_code == 200, r.text
            else:
                ws.send_json({"type": "move", "move": "1", "position": position})
                while not (
                    (m := ws.receive_json())["type"] == "state" and m["position"] > position
                ):
                    pass
    eventually(lambda: hub.accounts.settled >= 1, "the game was not settled")
    robo = client.get("/api/players/Robo").json()
    assert robo["bot"] is True and robo["ratings"][0]["games"] == 1
    board = client.get("/api/leaderboard?game=counting&mode=basic").json()["players"]
    assert {(p["name"], p["bot"]) for p in board} == {("Ada", False), ("Robo", True)}
    people = client.get("/api/leaderboard?game=counting&mode=basic&bots=false").json()
    assert [p["name"] for p in people["players"]] == ["Ada"]


# -- the streams, on a real server ---------------------------------------------------------------
@pytest.fixture
def live(tmp_path: Path) -> Iterator[ThreadServer]:
    with ThreadServer(f"sqlite:///{tmp_path / 'bots.db'}") as server:
        yield server


def lines_of(response: httpx.Response, until: Any, timeout: float = 20) -> list[str]:
    """The lines of a stream (keep-alives as empty strings) until ``until(lines)``."""
    got: list[str] = []
    deadline = time.monotonic() + timeout
    for line in response.iter_lines():
        got.append(line)
        if until(got):
            return got
        assert time.monotonic() < deadline, got
    return got


def test_the_event_stream_tells_challenges_games_and_their_end_and_keeps_alive(
    live: ThreadServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bot_streams, "KEEP_ALIVE", 0.3)
    ada = LivePerson(live.base, "Ada")
    _owner, token = bot_account(live.base, "Robo")
    challenge = ada.challenge("Robo", **TOY)
    client = RecordingClient(live.base, token)
    seen: list[Any] = []
    game: dict[str, Any] = {}
    with (
        httpx.Client(base_url=live.base, headers=bearer(token), timeout=20) as raw,
        raw.stream("GET", "/api/bot/stream") as response,
    ):
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("application/x-ndjson")
        for line in response.iter_lines():
            if not line:  # a keep-alive: two while idle, then the challenge is accepted
                seen.append("")
                if seen.count("") == 2 and not game:
                    game["id"], game["seat"] = client.accept(challenge)
                continue
            CHECK.bot_event(line)
            event = json.loads(line)
            seen.append(event)
            if event["type"] == "game_start":
                assert event["game"] == {
                    "id": game["id"],
                    "game": "counting",
                    "mode": "basic",
                    "players": 2,
                    "seat": game["seat"],
                    "rated": False,
                }
                threading.Thread(target=play_out, args=(live, ada, client, game["id"])).start()
            if event["type"] == "game_finish":
                break
    assert seen[0]["type"] == "challenge" and seen[0]["challenge"]["from"] == "Ada"
    kinds = [e["type"] for e in seen if e]
    assert kinds == ["challenge", "game_start", "game_finish"]
    assert seen[-1]["result"]["game"] == "counting"


def play_out(live: ThreadServer, ada: Any, client: RecordingClient, game_id: str) -> None:
    """Both sides play a toy game to its end: the person over the WebSocket, the bot by
    posting the first legal move of each state of its stream."""
    person = threading.Thread(
        target=play_person, args=(live.base, game_id, ada.seat_token(game_id), random.Random(1))
    )
    person.start()
    for state in client.game_states(game_id):
        if state["legal"] and state["current_player"] == state["seat"]:
            try:
                client.move(game_id, state["legal"][0], state["position"])
            except ApiError as exc:
                assert exc.code in ("stale", "not_your_turn")
    person.join(60)


def secrets_of(live: ThreadServer, game_id: str) -> list[str]:
    room = live.hub.rooms[game_id]
    return [str(s) for s in room.state.setup()["secrets"]]


def test_a_bot_plays_a_whole_game_sees_only_its_seats_state_and_goes_on_after_a_restart(
    live: ThreadServer,
) -> None:
    """polis bot connect's runner against a person; the server restarts mid-game; every
    line the bot got is its seat's state as the seat's own view gives it, and no other
    seat's secret is in any line before the game is over."""
    ada = LivePerson(live.base, "Ada")
    _owner, token = bot_account(live.base, "Robo")
    ada.challenge("Robo", **TOY)
    client = RecordingClient(live.base, token)
    said: list[str] = []
    runner = BotRunner(client, AgentMaker("random"), games=1, say=said.append)
    bot = threading.Thread(target=runner.run)
    bot.start()
    gid = ada.first_game()
    secrets = secrets_of(live, gid)
    person_token = ada.seat_token(gid)
    first: dict[str, Any] = {}
    pause = Pause(2)  # mid-game: the bot has moved

    def person() -> None:
        first["state"] = play_person(live.base, gid, person_token, random.Random(7), pause=pause)

    human = threading.Thread(target=person)
    human.start()
    assert pause.reached.wait(30), said
    live.restart()  # every connection is cut; both sides come back
    pause.go.set()
    human.join(120)
    bot.join(60)
    assert not bot.is_alive() and runner.finished == 1, said
    assert any("connecting again" in line for line in said), said
    states = client.states(gid)
    assert states[-1]["finished"] is True and states[-1]["result"] == first["state"]["result"]
    toy = get_game("counting")
    record = httpx.get(f"{live.base}/api/games/{gid}/record").json()
    moves = record["moves"]
    for state in states:
        assert set(state) >= {"view", "legal", "choices", "position", "seat"}
        assert state["type"] == "state" and state["seat"] == 1
        position = state["position"]
        at = toy.new_game("basic", 2, setup=record["setup"])
        for move in moves[:position]:
            at.apply_str(move)
        assert state["view"] == at.view(1).to_json()  # exactly the seat's view
        if not state["finished"]:
            assert secrets[0] not in json.dumps(state)  # never the other seat's secret
    assert states[0]["view"]["secret"] == secrets[1]  # its own, from the first state on
    lines = [line for path, line in client.lines if "/games/" in path]
    assert all(json.loads(line)["type"] == "state" for line in lines)  # nothing but states


@pytest.mark.parametrize(("game", "mode"), [("quadropolis", "classic"), ("metropolys", "family")])
def test_a_bots_stream_holds_its_seats_view_and_never_a_hidden_fact(
    live: ThreadServer, game: str, mode: str
) -> None:
    """Each state the bot was sent is the seat's view as the game gives it, replayed from the
    finished game's record (every secret known then): no face-down tile's face, no other
    player's card; the agent (easy) decided from the view read back from that JSON."""
    ada = LivePerson(live.base, "Ada")
    _owner, token = bot_account(live.base, "Robo")
    ada.challenge("Robo", game, mode)
    client = RecordingClient(live.base, token)
    said: list[str] = []
    runner = BotRunner(client, AgentMaker("easy"), games=1, say=said.append)
    bot = threading.Thread(target=runner.run)
    bot.start()
    gid = ada.first_game()
    play_person(live.base, gid, ada.seat_token(gid), random.Random(11), timeout=300)
    bot.join(60)
    assert runner.finished == 1, said
    record = httpx.get(f"{live.base}/api/games/{gid}/record").json()
    rules = get_game(game)
    states = client.states(gid)
    assert len(states) > 5 and states[-1]["finished"]
    for state in states:
        at = rules.new_game(mode, 2, setup=record["setup"], options=record.get("options"))
        for move in record["moves"][: state["position"]]:
            at.apply_str(move)
        assert state["view"] == at.view(1).to_json(), state["position"]
        if game == "metropolys" and not state["finished"]:
            assert "cards" not in state["view"]
            assert state["view"]["area_card"] == record["setup"]["area_cards"][1]


def test_a_revoked_token_closes_its_open_streams_at_once(live: ThreadServer) -> None:
    ada = LivePerson(live.base, "Ada")
    owner, token = bot_account(live.base, "Robo")
    challenge = ada.challenge("Robo", **TOY)
    client = RecordingClient(live.base, token)
    game_id, _seat = client.accept(challenge)
    ended: dict[str, float] = {}

    def read(path: str) -> None:
        with (
            httpx.Client(base_url=live.base, headers=bearer(token), timeout=30) as raw,
            raw.stream("GET", path) as response,
        ):
            assert response.status_code == 200
            for _line in response.iter_lines():
                pass
        ended[path] = time.monotonic()

    paths = ["/api/bot/stream", f"/api/bot/games/{game_id}/stream"]
    readers = [threading.Thread(target=read, args=(p,)) for p in paths]
    for reader in readers:
        reader.start()
    token_id = owner.get("/api/account/tokens").json()["tokens"][0]["id"]
    api = bots.bot_api_of(live.app)
    eventually(lambda: api.open_streams(token_id) == 2, "the streams did not open")
    eventually(lambda: live.hub.rooms[game_id].presence.count(1) == 1, "no game stream")
    revoked = time.monotonic()
    assert owner.post(f"/api/account/tokens/{token_id}/revoke").status_code == 200
    for reader in readers:
        reader.join(10)
    assert set(ended) == set(paths)
    assert max(ended.values()) - revoked < 3  # within a tick, not the store's next look
    with pytest.raises(ApiError) as refused:
        client.account()
    assert refused.value.status == 401
    eventually(lambda: live.hub.rooms[game_id].presence.count(1) == 0, "the seat stays online")


def test_deleting_the_account_closes_its_open_streams_at_once(live: ThreadServer) -> None:
    owner, token = bot_account(live.base, "Robo")
    ended: list[float] = []

    def read() -> None:
        with (
            httpx.Client(base_url=live.base, headers=bearer(token), timeout=30) as raw,
            raw.stream("GET", "/api/bot/stream") as response,
        ):
            assert response.status_code == 200
            for _line in response.iter_lines():
                pass
        ended.append(time.monotonic())

    reader = threading.Thread(target=read)
    reader.start()
    token_id = owner.get("/api/account/tokens").json()["tokens"][0]["id"]
    api = bots.bot_api_of(live.app)
    eventually(lambda: api.open_streams(token_id) == 1, "the stream did not open")
    deleted = time.monotonic()
    r = owner.post("/api/account/delete", {"password": "correct horse battery"})
    assert r.status_code == 200, r.text
    reader.join(10)
    assert ended and ended[0] - deleted < 3  # within a tick, not the store's next look
    r = httpx.get(f"{live.base}/api/bot/account", headers=bearer(token))
    assert r.status_code == 401


def test_streams_are_limited_per_token(live: ThreadServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bots, "OPEN_STREAMS", 1)
    _owner, token = bot_account(live.base, "Robo")
    with (
        httpx.Client(base_url=live.base, headers=bearer(token), timeout=30) as raw,
        raw.stream("GET", "/api/bot/stream") as first,
    ):
        assert first.status_code == 200
        api = bots.bot_api_of(live.app)
        eventually(lambda: api.open_streams(token_of(api)) == 1, "the stream never opened")
        second = raw.get("/api/bot/stream")
        assert second.status_code == 429 and second.json()["error"]["code"] == "rate_limited"


def token_of(api: bots.BotApi) -> str:
    found = api.open_tokens()
    assert len(found) == 1
    return found[0]


def test_a_stream_of_a_game_over_sends_its_last_state_and_ends(live: ThreadServer) -> None:
    ada = LivePerson(live.base, "Ada")
    _owner, token = bot_account(live.base, "Robo")
    client = RecordingClient(live.base, token)
    game_id, _seat = client.accept(ada.challenge("Robo", **TOY))
    play_out(live, ada, client, game_id)
    states = list(client.game_states(game_id))  # the game is over: one state, then the end
    assert len(states) == 1 and states[0]["finished"] is True


# -- two server processes ------------------------------------------------------------------------
@pytest.mark.cluster
def test_a_bot_on_one_process_plays_a_person_on_another(pg: Any, bus: Any) -> None:
    """The bot's streams on process B, the person's socket on process A: B's room hears
    A's moves from the bus (its game stream goes on), A's the bot's; one game, to its end."""
    import os
    import subprocess
    import sys
    import uuid

    from .browser_helpers import ROOT
    from .services import Serve

    db = pg.database(f"bots_{uuid.uuid4().hex[:8]}")
    with Serve(db, "--redis", bus.url) as a, Serve(db, "--redis", bus.url) as b:
        ada = LivePerson(a.base, "Ada")
        _owner, token = bot_account(a.base, "Robo")
        ada.challenge("Robo", "quadropolis", "classic")
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "POLIS_BOT_TOKEN": token}
        command = [sys.executable, "-m", "polis.cli.main", "bot", "connect", "--server", b.base]
        bot = subprocess.Popen(
            [*command, "--agent", "easy", "--games", "1"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            gid = ada.first_game(timeout=60)
            last = play_person(a.base, gid, ada.seat_token(gid), random.Random(4), timeout=300)
            out, _ = bot.communicate(timeout=120)
        finally:
            if bot.poll() is None:
                bot.kill()
                bot.wait(10)
        assert bot.returncode == 0 and "1 game(s) played to the end" in out, out
        assert last["finished"] and last["seats"][1]["account"] == "Robo"
