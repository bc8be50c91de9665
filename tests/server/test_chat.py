"""The chat of a table: lines stored with the game and sent to newcomers, read by the seats
and by spectators only where the table allows it, written by seats only, and refused with a
clear error (the connection stays open) when too long, not text, or too fast."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from polis.core.registry import games
from polis.server import create_app
from polis.server.config import Limits, ServerConfig

HUMANS2 = [{"name": "Ada", "kind": "human"}, {"name": "Lin", "kind": "human"}]
#: A line a careless client would turn into markup: it must come back exactly as said.
HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)> & <b>bold</b>'


def make(db_url: str, **limits: Any) -> TestClient:
    config = ServerConfig.from_env(limits=Limits(**limits)) if limits else ServerConfig.from_env()
    return TestClient(create_app(db_url, games=games().values(), bot_delay=0.0, config=config))


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with make(db_url) as c:
        yield c


def table(client: TestClient, chat_spectators: bool = False) -> tuple[str, list[str]]:
    resp = client.post(
        "/api/games",
        json={
            "game": "counting",
            "mode": "basic",
            "seats": HUMANS2,
            "chat_spectators": chat_spectators,
        },
    )
    assert resp.status_code == 200, resp.text
    data = resp.json()
    return data["id"], [s["token"] for s in data["seats"]]


def greet(ws: Any, token: str | None) -> dict[str, Any]:
    """Say hello; the welcome (with its ``chat``), once the state has come too."""
    ws.send_json({"type": "hello", "token": token})
    welcome = ws.receive_json()
    assert welcome["type"] == "welcome"
    assert ws.receive_json()["type"] == "state"
    chat: dict[str, Any] = welcome["chat"]
    return chat


@contextlib.contextmanager
def both_players(client: TestClient) -> Iterator[tuple[Any, Any]]:
    """A new table's two people, connected and greeted: (Ada's socket, Lin's)."""
    gid, tokens = table(client)
    with (
        client.websocket_connect(f"/ws/{gid}") as ada,
        client.websocket_connect(f"/ws/{gid}") as lin,
    ):
        greet(ada, tokens[0])
        greet(lin, tokens[1])
        yield ada, lin


def say(ws: Any, text: str) -> None:
    ws.send_json({"type": "chat", "text": text})


def next_of(ws: Any, *kinds: str) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] in kinds:
            return msg


def until_pong(ws: Any) -> list[dict[str, Any]]:
    """Everything but presence the connection is sent before the answer to a ping (it is
    still open). Who is online (``seats``) comes through the hub whenever it gets there, on
    a loaded machine after later chat lines too, so it is left out."""
    ws.send_json({"type": "ping"})
    seen = []
    while True:
        msg = ws.receive_json()
        if msg["type"] == "pong":
            return seen
        if msg["type"] != "seats":
            seen.append(msg)


def test_lines_reach_the_other_seat_and_newcomers_get_them_from_the_store(db_url: str) -> None:
    with make(db_url) as client:
        gid, tokens = table(client)
        with (
            client.websocket_connect(f"/ws/{gid}") as ada,
            client.websocket_connect(f"/ws/{gid}") as lin,
        ):
            assert greet(ada, tokens[0]) == {"read": True, "write": True, "lines": []}
            greet(lin, tokens[1])
            for text in ["hello", HOSTILE, "gg 🙂"]:
                say(ada, text)
                mine = next_of(ada, "chat")
                theirs = next_of(lin, "chat")
                assert mine == theirs
                assert (theirs["seat"], theirs["name"], theirs["text"]) == (0, "Ada", text)
            say(lin, "thanks")
            assert next_of(ada, "chat")["name"] == "Lin"
    # another server on the same database: the lines are the game's, kept in the store
    with make(db_url) as client, client.websocket_connect(f"/ws/{gid}") as late:
        chat = greet(late, tokens[1])
        said = [(line["seat"], line["text"]) for line in chat["lines"]]
        assert said == [(0, "hello"), (0, HOSTILE), (0, "gg 🙂"), (1, "thanks")]
        ids = [line["id"] for line in chat["lines"]]
        assert ids == sorted(ids)
        assert all(line["at"].endswith("Z") for line in chat["lines"])


@pytest.mark.parametrize("allowed", [True, False])
def test_spectators_read_only_where_the_table_allows_it(client: TestClient, allowed: bool) -> None:
    gid, tokens = table(client, chat_spectators=allowed)
    assert client.get(f"/api/games/{gid}").json()["chat_spectators"] is allowed
    with client.websocket_connect(f"/ws/{gid}") as ada:
        greet(ada, tokens[0])
        say(ada, "before anyone watched")
        next_of(ada, "chat")
        with client.websocket_connect(f"/ws/{gid}") as watcher:
            chat = greet(watcher, None)
            assert chat["read"] is allowed and chat["write"] is False
            assert [line["text"] for line in chat["lines"]] == (
                ["before anyone watched"] if allowed else []
            )
            say(ada, "while watched")
            next_of(ada, "chat")  # handed to every reader at once, the watcher included
            got = [m for m in until_pong(watcher) if m["type"] == "chat"]
            assert [m["text"] for m in got] == (["while watched"] if allowed else [])


def test_spectators_never_write(client: TestClient) -> None:
    gid, tokens = table(client, chat_spectators=True)
    with client.websocket_connect(f"/ws/{gid}") as watcher:
        greet(watcher, None)
        say(watcher, "let me in")
        err = next_of(watcher, "error", "chat")
        assert err["type"] == "error" and err["code"] == "chat_forbidden"
        assert "spectators" in err["message"]
        assert until_pong(watcher) == []  # still connected, and nothing was said
    with client.websocket_connect(f"/ws/{gid}") as ada:
        assert greet(ada, tokens[0])["lines"] == []


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("x" * 301, "at most 300 characters"),
        ("   ", "cannot be empty"),
        ("bell \x07", "control character U+0007"),
        ("line\nbreak", "control character U+000A"),
        ("flip \u202e", "direction control"),
        ("half \ud800 a pair", "unpaired surrogate"),
    ],
)
def test_a_bad_line_is_refused_with_a_reason_and_the_connection_stays(
    client: TestClient, text: str, why: str
) -> None:
    gid, tokens = table(client)
    with client.websocket_connect(f"/ws/{gid}") as ada:
        greet(ada, tokens[0])
        # sent as JSON with escapes: a lone surrogate gets through the JSON layer this way
        ada.send_text('{"type": "chat", "text": ' + _escaped(text) + "}")
        err = next_of(ada, "error", "chat")
        assert err["type"] == "error" and err["code"] == "chat_invalid", err
        assert why in err["message"]
        say(ada, "x" * 300)  # the longest line there may be
        assert next_of(ada, "chat")["text"] == "x" * 300
        assert until_pong(ada) == []


def _escaped(text: str) -> str:
    """``text`` as a JSON string, every non-ASCII character escaped."""
    out = ['"']
    for ch in text:
        if ch in '"\\' or not 32 <= ord(ch) < 127:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def test_a_connection_saying_too_much_is_slowed_not_cut(db_url: str) -> None:
    with (
        make(db_url, chat_rate="3/hour", chat_address_rate="100/hour") as client,
        both_players(client) as (ada, lin),
    ):
        for i in range(3):
            say(ada, f"line {i}")
            assert next_of(ada, "chat")["text"] == f"line {i}"
        say(ada, "one too many")
        err = next_of(ada, "error", "chat")
        assert err["code"] == "chat_rate_limited"
        assert "too many chat lines" in err["message"] and "3/hour" in err["message"]
        assert until_pong(ada) == []  # still open
        # the limit is the connection's: the other seat still talks
        say(lin, "my turn to talk")
        assert next_of(ada, "chat")["text"] == "my turn to talk"
        texts = [m["text"] for m in until_pong(lin) if m["type"] == "chat"]
        assert "one too many" not in texts


def test_an_address_saying_too_much_is_slowed_on_all_its_connections(db_url: str) -> None:
    with (
        make(db_url, chat_rate="100/hour", chat_address_rate="4/hour") as client,
        both_players(client) as (ada, lin),
    ):
        for i in range(4):
            ws = ada if i % 2 else lin
            say(ws, f"line {i}")
            next_of(ws, "chat")
        say(ada, "fifth")
        err = next_of(ada, "error")
        assert err["code"] == "chat_rate_limited" and "your address" in err["message"]


def test_the_chat_choice_is_refused_when_not_a_boolean(client: TestClient) -> None:
    resp = client.post(
        "/api/games",
        json={"game": "counting", "mode": "basic", "seats": HUMANS2, "chat_spectators": "lots"},
    )
    assert resp.status_code == 422
