"""The wire contract (polis.server.wire): the committed documents are what the generator
writes from the types, the checks catch a message that breaks a type (an extra or a missing
key, a value of another type), a server that checks its traffic fails loudly on one, the
parser and the types accept the same client messages, and the error codes are one list."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_args

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from polis.core.registry import games
from polis.server import create_app
from polis.server.config import ServerConfig
from polis.server.wire import check, docs
from polis.server.wire.check import WireCheck, WireError
from polis.server.wire.from_client import BadMessage, parse_client_message
from polis.server.wire.schema import contract_schema, from_client_adapter
from polis.server.wire.to_client import ErrorCode

from .clients import Player, create_game
from .seat_client import seated
from .services import Serve
from .test_error_shape import codes_in_source

ROOT = Path(__file__).resolve().parents[2]
PEOPLE = [{"name": "Ada", "kind": "human"}, {"name": "Lin", "kind": "human"}]


class Caught:
    """The mismatches the checks found since the test began."""

    def __init__(self) -> None:
        self.before = len(check.VIOLATIONS)

    def __len__(self) -> int:
        return len(check.VIOLATIONS) - self.before

    def __getitem__(self, index: int) -> str:
        return check.VIOLATIONS[self.before :][index]


@pytest.fixture
def caught() -> Iterator[Caught]:
    """The mismatches the checks find meanwhile, taken out of VIOLATIONS at the end (these
    tests break the contract on purpose)."""
    found = Caught()
    yield found
    del check.VIOLATIONS[found.before :]


def test_the_committed_documents_are_what_the_generator_writes() -> None:
    stale = docs.stale(ROOT)
    assert not stale, (
        f"{', '.join(str(p.relative_to(ROOT)) for p in stale)} differ from what the types and "
        f"docs/server-api.in.md give: run `{docs.COMMAND}` "
        "(python -m polis.server.wire.docs) and commit the result"
    )


def test_the_generator_refuses_an_unknown_marker() -> None:
    with pytest.raises(ValueError, match="Nonsense"):
        docs.markdown("<!-- wire: Nonsense -->\n", contract_schema())


def test_the_schema_names_every_message_and_only_installed_games() -> None:
    schema = contract_schema()
    defs = schema["$defs"]
    sent = {d["$ref"].rsplit("/", 1)[-1] for d in defs["ToClient"]["oneOf"] if "$ref" in d}
    assert {"WelcomeMessage", "StateMessage", "SeatsMessage", "ChatMessage", "ErrorMessage"} <= sent
    assert {"TakebackDoneMessage", "TakebackDeclinedMessage", "RematchMessage"} <= sent
    views = defs["StateMessage"]["properties"]["view"]["discriminator"]["mapping"]
    assert set(views) == {"quadropolis", "metropolys"}  # never the tests' toy game
    assert "POST /api/games" in schema["x-http-requests"]
    for name, definition in defs.items():  # every object of the contract is closed
        if definition.get("type") == "object" and "properties" in definition:
            assert definition.get("additionalProperties") is False, name


def test_the_error_codes_are_one_list() -> None:
    """Every code the server's code raises is in the contract's ErrorCode, and no other."""
    assert set(get_args(ErrorCode)) == codes_in_source()


# -- the checks catch what breaks a type ------------------------------------------------------
@pytest.fixture
def state_text(client: TestClient) -> str:
    """A real state message of a real game, as a seat got it."""
    made = client.post(
        "/api/games", json={"game": "quadropolis", "mode": "classic", "seats": PEOPLE}
    ).json()
    with seated(client, made["id"], made["seats"][0]["token"]) as ada:
        return next(f for f in ada.frames if json.loads(f)["type"] == "state")


def mutated(text: str, change: Any) -> str:
    message = json.loads(text)
    change(message)
    return json.dumps(message)


@pytest.mark.parametrize(
    ("why", "change"),
    [
        ("an extra key", lambda m: m.update(extra=1)),
        ("an extra key in the view", lambda m: m["view"].update(extra=1)),
        ("an extra key in a seat", lambda m: m["seats"][0].update(token="secret")),
        ("a missing key", lambda m: m.pop("position")),
        ("a missing key in the view", lambda m: m["view"].pop("mayor")),
        ("a number as text", lambda m: m.update(position="0")),
        ("a number as a boolean", lambda m: m.update(players=True)),
        ("a boolean as a number", lambda m: m.update(finished=0)),
        ("null where none may be", lambda m: m["view"].update(site=None)),
        ("another game's view", lambda m: m["view"].update(game="metropolys")),
        ("an unknown type", lambda m: m.update(type="status")),
    ],
)
def test_a_message_to_a_client_that_breaks_its_type_is_caught(
    state_text: str, caught: Caught, why: str, change: Any
) -> None:
    checks = WireCheck(games())
    checks.to_client(state_text)  # the message as sent fits
    with pytest.raises(WireError, match=check.MARK):
        checks.to_client(mutated(state_text, change))
    assert len(caught) == 1 and check.MARK in caught[0], why


@pytest.mark.parametrize(
    ("message", "fits"),
    [
        ({"t": "change", "g": "abc", "k": "move", "i": 4, "m": "pass", "a": "person"}, True),
        ({"t": "change", "g": "abc", "k": "stand_in", "s": 1, "o": "p1"}, True),
        ({"t": "change", "g": "abc", "k": "stand_in", "s": "1"}, False),
        ({"t": "change", "g": "abc", "k": "teleport"}, False),
        ({"t": "change", "g": "abc"}, False),
        ({"t": "seats", "g": "abc", "s": [0, 2]}, True),
        ({"t": "seats", "g": "abc", "s": [0, 2], "x": 1}, False),
        ({"t": "takeback", "g": "abc", "k": "maybe", "s": 0, "p": 3}, False),
        ({"t": "bye", "g": "", "o": "p1"}, True),
        ({"t": "bye", "g": "abc", "o": "p1"}, False),
    ],
)
def test_a_bus_message_that_breaks_its_type_is_caught(
    caught: Caught, message: dict[str, Any], fits: bool
) -> None:
    checks = WireCheck(games())
    if fits:
        checks.bus(message)
        checks.bus(message, heard=True)
    else:
        with pytest.raises(WireError):
            checks.bus(message)
    assert len(caught) == (0 if fits else 1)


def test_a_client_message_an_error_body_and_a_push_that_break_their_types_are_caught(
    caught: Caught,
) -> None:
    checks = WireCheck(games())
    checks.from_client('{"type": "takeback_answer", "position": 3, "accept": true}')
    with pytest.raises(WireError):
        checks.from_client('{"type": "takeback_answer", "position": 3, "accept": "yes"}')
    error = {"type": "error", "code": "stale", "message": "the game moved on"}
    checks.http_error({"error": error})
    with pytest.raises(WireError):
        checks.http_error({"error": {**error, "code": "no_such_code"}})
    with pytest.raises(WireError):
        checks.http_error(error)  # the message without its envelope
    push = {
        "type": "turn",
        "game_id": "abc",
        "game": "counting",
        "title": "Counting",
        "seat": 1,
        "name": "Lin",
        "position": 4,
        "url": "/#/game/abc",
        "lang": "en",
    }
    checks.push(push)
    with pytest.raises(WireError):
        checks.push({k: v for k, v in push.items() if k != "lang"})
    assert len(caught) == 4


# -- a server that checks fails loudly; one that does not costs nothing -------------------------
def test_a_checking_server_refuses_to_send_a_message_that_breaks_the_contract(
    db_url: str, caught: Caught, monkeypatch: pytest.MonkeyPatch
) -> None:
    from polis.server.live import presence

    original = presence.seats_public

    def leaky(*args: Any) -> Any:  # a bug: a seat's token hash in every client's list
        return [{**seat, "token_hash": "secret"} for seat in original(*args)]

    config = ServerConfig.from_env(bot_delay=0.0, check_wire=True)
    with TestClient(create_app(db_url, games=games().values(), config=config)) as client:
        assert client.app.state.hub.wire is not None  # type: ignore[attr-defined]
        made = client.post(
            "/api/games", json={"game": "counting", "mode": "basic", "seats": PEOPLE}
        )
        gid, token = made.json()["id"], made.json()["seats"][0]["token"]
        monkeypatch.setattr("polis.server.live.snapshots.seats_public", leaky)
        with (
            pytest.raises(WireError, match="token_hash"),  # the server's handler fails
            client.websocket_connect(f"/ws/{gid}") as ws,
        ):
            ws.send_json({"type": "hello", "token": token})
            assert ws.receive_json()["type"] == "welcome"
            with contextlib.suppress(WebSocketDisconnect):
                ws.receive_json()  # the state message never leaves
    assert caught and "token_hash" in caught[0] and "a message to a client" in caught[0]


def test_checks_are_off_unless_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(check.ENV, raising=False)
    assert ServerConfig().check_wire is False
    assert not check.enabled({})
    assert check.enabled({check.ENV: "1"})
    monkeypatch.setenv(check.ENV, "1")
    assert ServerConfig().check_wire is True


def test_a_server_without_checks_has_none(db_url: str) -> None:
    config = ServerConfig.from_env(bot_delay=0.0, check_wire=False)
    with TestClient(create_app(db_url, games=games().values(), config=config)) as client:
        assert client.app.state.hub.wire is None  # type: ignore[attr-defined]


# -- the parser and the types accept the same client messages ------------------------------
SAMPLES = [
    '{"type": "hello", "token": null}',
    '{"type": "hello"}',
    '{"type": "hello", "token": "abc-DEF_123"}',
    '{"type": "hello", "token": "not a token!"}',
    '{"type": "hello", "token": 7}',
    '{"type": "hello", "token": "abc", "seat": 1}',
    '{"type": "move", "move": "pass", "position": 3}',
    '{"type": "move", "move": "", "position": 3}',
    '{"type": "move", "move": "pass", "position": -1}',
    '{"type": "move", "move": "pass", "position": true}',
    '{"type": "move", "move": "pass", "position": 3.0}',
    '{"type": "move", "move": "pass"}',
    '{"type": "move", "move": "pass", "position": 3, "seat": 0}',
    '{"type": "takeback", "position": 2}',
    '{"type": "takeback", "position": "2"}',
    '{"type": "takeback_answer", "position": 2, "accept": false}',
    '{"type": "takeback_answer", "position": 2, "accept": 1}',
    '{"type": "takeback_answer", "position": 2}',
    '{"type": "chat", "text": "gg"}',
    '{"type": "chat", "text": 5}',
    '{"type": "chat"}',
    '{"type": "ping"}',
    '{"type": "ping", "at": 12}',
    '{"type": "resign"}',
    "[1, 2]",
    '"ping"',
]


@pytest.mark.parametrize("raw", SAMPLES)
def test_the_parser_and_the_types_accept_the_same_messages(raw: str) -> None:
    try:
        parse_client_message(raw)
        parsed = True
    except BadMessage:
        parsed = False
    try:
        from_client_adapter().validate_json(raw)
        typed = True
    except ValueError:
        typed = False
    assert parsed == typed


@pytest.mark.slow  # a polis serve process
def test_a_served_process_that_breaks_the_contract_fails_the_test(tmp_path: Path) -> None:
    """``polis serve`` under test checks its traffic too (Serve sets POLIS_CHECK_WIRE=1):
    a server made to leak a key into its state messages logs the mark, and stopping it fails
    the test."""
    patch = tmp_path / "patch"
    patch.mkdir()
    (patch / "sitecustomize.py").write_text(
        "import polis.server.live.snapshots as s\n"
        "real = s.seats_public\n"
        "s.seats_public = lambda *a: [{**seat, 'leak': 1} for seat in real(*a)]\n",
        encoding="utf-8",
    )
    env = {"PYTHONPATH": f"{patch}{os.pathsep}{ROOT / 'src'}"}
    server = Serve(f"sqlite:///{tmp_path / 'served.db'}", env=env).start()
    try:
        made = create_game(server.base, PEOPLE)
        with contextlib.suppress(Exception):  # the server gives the connection up
            Player(server.base, made["id"], made["seats"][0]["token"])
        with pytest.raises(AssertionError, match="broke the wire contract"):
            server.stop()
        assert "leak" in server.logged()
    finally:
        if server.proc is not None and server.proc.poll() is None:
            server.proc.kill()
        server.log.unlink(missing_ok=True)
