"""Real traffic against the committed JSON Schema of the wire contract
(``docs/server-api.schema.json``), read by a JSON Schema validator that knows nothing of
polis: whole games of both games and of the toy game, every kind of message a client gets
(welcome, state, seats, chat, error, store, take-backs done and declined, rematch, pong),
every message the clients sent, the bus messages the server published and its HTTP error
bodies.

Everywhere else the tests check traffic with the types themselves (pydantic, fast: every
server under test and every test client, ``contract.py``); this test is the one that holds
the schema file to the traffic (``test_wire.py`` holds it to the types). The toy game is in
no committed schema: its messages are checked against the schema generated with it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from jsonschema import Draft202012Validator
from sqlalchemy.exc import OperationalError

from polis.core.registry import games
from polis.server import create_app
from polis.server.config import ServerConfig, parse_limits
from polis.server.wire.schema import contract_schema

from .seat_client import Seat, seated

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = json.loads((ROOT / "docs" / "server-api.schema.json").read_text(encoding="utf-8"))
#: The contract generated for every registered game, the toy one included.
WITH_TOY = contract_schema(games().values())
PEOPLE = [{"name": "Ada", "kind": "human"}, {"name": "Lin", "kind": "human"}]


def validator(schema: dict[str, Any], root: str) -> Draft202012Validator:
    return Draft202012Validator({"$defs": schema["$defs"], "$ref": f"#/$defs/{root}"})


COMMITTED_TO_CLIENT = validator(COMMITTED, "ToClient")
TOY_TO_CLIENT = validator(WITH_TOY, "ToClient")
FROM_CLIENT = validator(COMMITTED, "FromClient")
BUS = validator(COMMITTED, "BusMessage")
ERROR_BODY = validator(COMMITTED, "ErrorBody")


def problems(check: Draft202012Validator, value: Any) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in check.iter_errors(value)]


def to_client_problems(text: str) -> list[str]:
    message = json.loads(text)
    toy = message.get("type") == "state" and message.get("game") == "counting"
    return problems(TOY_TO_CLIENT if toy else COMMITTED_TO_CLIENT, message)


def new_table(client: TestClient, game: str, mode: str) -> dict[str, Any]:
    made = client.post("/api/games", json={"game": game, "mode": mode, "seats": PEOPLE})
    assert made.status_code == 200, made.text
    data: dict[str, Any] = made.json()
    return data


def read_until(seat: Seat, wanted: Callable[[dict[str, Any]], bool], limit: int = 200) -> None:
    for _ in range(limit):
        if wanted(seat.read()):
            return
    raise AssertionError("the message wanted never came")


def play_out(client: TestClient, game_id: str, people: list[Seat], watchers: list[Seat]) -> None:
    """The seat to move plays its first legal move until the game is over; everyone reads
    every state."""
    by_seat = {p.state["seat"]: p for p in people}
    position = client.get(f"/api/games/{game_id}").json()["position"]
    for each in [*people, *watchers]:
        each.at(position)
    while not people[0].state["finished"]:
        state = people[0].state
        by_seat[state["current_player"]].move()
        for each in [*people, *watchers]:
            each.at(state["position"] + 1)


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    """A server taking moves as fast as the test sends them (every connection of the test
    client shares one address and its message rate)."""
    config = ServerConfig.from_env(bot_delay=0.0, limits=parse_limits("message_rate=10000/second"))
    with TestClient(create_app(db_url, games=games().values(), config=config)) as made:
        yield made


@pytest.fixture
def table(client: TestClient) -> Iterator[Callable[[str, str], tuple[dict[str, Any], list[Seat]]]]:
    """Seats at new tables of two people, and a spectator at each: (the game made, [the seat
    of Ada, of Lin, the spectator])."""
    with ExitStack() as stack:

        def sit(game: str, mode: str) -> tuple[dict[str, Any], list[Seat]]:
            made = new_table(client, game, mode)
            tokens = [seat["token"] for seat in made["seats"]]
            seats = [stack.enter_context(seated(client, made["id"], t)) for t in [*tokens, None]]
            return made, seats

        yield sit


@pytest.mark.slow  # whole games through a server
def test_whole_games_and_every_message_fit_the_committed_schema(
    client: TestClient, table: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    published: list[dict[str, Any]] = []
    publish = hub.bus.publish
    monkeypatch.setattr(hub.bus, "publish", lambda m: (published.append(m), publish(m)))
    everyone: list[Seat] = []
    errors: list[Any] = []

    # the toy game: chat, ping, take-backs declined and done, a refused move, an outage of
    # the store, the end and a rematch
    made, (ada, lin, watcher) = table("counting", "basic")
    everyone += [ada, lin, watcher]
    first = ada.state["current_player"]
    mover, other = (ada, lin) if first == 0 else (lin, ada)
    mover.send({"type": "ping"})
    read_until(mover, lambda m: m["type"] == "pong")
    mover.send({"type": "chat", "text": "good luck"})
    read_until(other, lambda m: m["type"] == "chat")
    mover.move("1")
    other.at(1)
    mover.at(1)
    for accept in (False, True):
        mover.take_back()
        other.until(lambda s: s["take_back"]["request"] is not None)
        other.send(
            {"type": "takeback_answer", "position": other.state["position"], "accept": accept}
        )
        kind = "takeback_done" if accept else "takeback_declined"
        read_until(mover, lambda m, kind=kind: m["type"] == kind)
    other.send({"type": "move", "move": "2", "position": 0})  # stale
    assert other.error()["code"] in ("stale", "not_your_turn")
    down = OperationalError("SELECT 1", {}, ConnectionRefusedError("the database is down"))
    client.portal.call(hub.health.failed, down)  # type: ignore[union-attr]
    for status in ("unavailable", "back"):  # the probe finds it back within a second or two
        read_until(watcher, lambda m, s=status: m["type"] == "store" and m["status"] == s)
    play_out(client, made["id"], [ada, lin], [watcher])
    tokens = [seat["token"] for seat in made["seats"]]
    again = client.post(f"/api/games/{made['id']}/rematch", json={"tokens": tokens})
    assert again.status_code == 200, again.text
    read_until(watcher, lambda m: m["type"] == "rematch")

    # the two games, played to the end
    for game, mode in (("quadropolis", "classic"), ("metropolys", "expert")):
        played, seats = table(game, mode)
        everyone += seats
        play_out(client, played["id"], seats[:2], seats[2:])
        assert all(s.state["finished"] and "result" in s.state["view"] for s in seats)

    # HTTP refusals
    errors.append(client.get("/api/games/nosuchgame").json())
    errors.append(client.post("/api/games", json={"game": "counting", "colour": "blue"}).json())
    errors.append(client.get(f"/api/games/{played['id']}/replay/9999").json())

    frames = [text for seat in everyone for text in seat.frames]
    kinds = {(m["type"], m.get("status")) for m in map(json.loads, frames)}
    assert kinds >= {
        ("welcome", None),
        ("state", None),
        ("seats", None),
        ("chat", None),
        ("error", None),
        ("store", "unavailable"),
        ("store", "back"),
        ("takeback_done", None),
        ("takeback_declined", None),
        ("rematch", None),
        ("pong", None),
    }, kinds
    games_seen = {m["game"] for m in map(json.loads, frames) if m["type"] == "state"}
    assert games_seen == {"counting", "quadropolis", "metropolys"}
    broken = {}
    for text in dict.fromkeys(frames):  # each text once (a state goes to every connection)
        found = to_client_problems(text)
        if found:
            broken[text[:300]] = found
    sent = [text for seat in everyone for text in seat.sent]
    assert {json.loads(t)["type"] for t in sent} >= {"hello", "move", "takeback", "chat", "ping"}
    broken |= {text: problems(FROM_CLIENT, json.loads(text)) for text in sent}
    bus_kinds = {m["t"] for m in published}
    assert bus_kinds >= {"change", "seats", "takeback", "chat", "rematch"}, bus_kinds
    broken |= {json.dumps(m): problems(BUS, m) for m in published}
    broken |= {json.dumps(e): problems(ERROR_BODY, e) for e in errors}
    assert not {text: found for text, found in broken.items() if found}


def test_the_schema_refuses_what_the_contract_does_not_allow() -> None:
    """The committed schema is closed and strict, as the types are: an extra or a missing
    key, or a value of another type, is refused."""
    pong = {"type": "pong"}
    assert problems(COMMITTED_TO_CLIENT, pong) == []
    assert problems(COMMITTED_TO_CLIENT, {**pong, "extra": 1})
    done = {"type": "takeback_done", "seat": 1}
    assert problems(COMMITTED_TO_CLIENT, done) == []
    assert problems(COMMITTED_TO_CLIENT, {"type": "takeback_done"})
    assert problems(COMMITTED_TO_CLIENT, {**done, "seat": "1"})
    assert problems(COMMITTED_TO_CLIENT, {**done, "seat": True})
    move = {"type": "move", "move": "pass", "position": 3}
    assert problems(FROM_CLIENT, move) == []
    assert problems(FROM_CLIENT, {**move, "position": -1})
    assert problems(FROM_CLIENT, {**move, "move": "x" * 65})
    change = {"t": "change", "g": "abc", "k": "move", "i": 3, "m": "pass", "a": "person"}
    assert problems(BUS, change) == []
    assert problems(BUS, {**change, "k": "teleport"})
    body = {"error": {"type": "error", "code": "stale", "message": "moved on"}}
    assert problems(ERROR_BODY, body) == []
    assert problems(ERROR_BODY, {"error": {**body["error"], "code": "oops"}})
