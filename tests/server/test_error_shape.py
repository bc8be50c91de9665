"""One error shape for every status the server answers with: what a client can rely on.

Each refusal, whether polis's own (a rule, a token, a limit) or the framework's (no such path,
a body that is not JSON), is ``{"error": {"type": "error", "code", "message"}}`` with a stable
``code`` for its status, and ``docs/server-api.md`` lists every code.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError
from starlette.exceptions import HTTPException

from polis.core.registry import games
from polis.server import create_app
from polis.server.config import ServerConfig, parse_limits
from polis.server.errors import CODE_OF_STATUS, STATUS

DOCS = Path(__file__).resolve().parents[2] / "docs" / "server-api.md"
PEOPLE = [{"name": "Ada", "kind": "human"}, {"name": "Lin", "kind": "human"}]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    config = ServerConfig.from_env(bot_delay=0.0, limits=parse_limits("create_rate=3/minute"))
    app = create_app(f"sqlite:///{tmp_path / 'shape.db'}", games=games().values(), config=config)

    @app.get("/api/test-only/unauthorized")
    async def unauthorized() -> None:  # no route answers 401 yet: the handler must still
        raise HTTPException(401, "who are you?")

    with TestClient(app) as test_client:
        yield test_client


def new_game(client: TestClient, **extra: Any) -> Any:
    body = {"game": "counting", "mode": "basic", "seats": PEOPLE, **extra}
    return client.post("/api/games", json=body)


def shape_of(answer: Any) -> dict[str, Any]:
    """The error object of ``answer``, checked against the one shape."""
    body = answer.json()
    assert set(body) == {"error"}, body
    error: dict[str, Any] = body["error"]
    assert error["type"] == "error"
    assert set(error) <= {"type", "code", "message", "rule"}
    assert isinstance(error["code"], str) and re.fullmatch(r"[a-z_]+", error["code"])
    assert isinstance(error["message"], str) and error["message"]
    assert STATUS.get(error["code"], 400) == answer.status_code, (error, answer.status_code)
    return error


def test_every_error_status_has_the_one_shape(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = new_game(client).json()
    gid, token = made["id"], made["seats"][0]["token"]
    other = new_game(client).json()
    seen: dict[int, str] = {}

    def check(status: int, answer: Any) -> None:
        assert answer.status_code == status, answer.text
        seen[status] = shape_of(answer)["code"]

    json_header = {"Content-Type": "application/json"}
    check(400, client.post("/api/games", content=b'{"game": "\xff"}', headers=json_header))
    digits = b'{"game": ' + b"9" * 5000 + b"}"
    check(400, client.post("/api/games", content=digits, headers=json_header))
    check(400, new_game(client, seed=7))  # a chosen seed among people: polis's own refusal
    check(401, client.get("/api/test-only/unauthorized"))
    check(403, client.post(f"/api/games/{gid}/resign", json={"token": other["seats"][0]["token"]}))
    check(404, client.get("/api/no-such-thing"))
    check(404, client.get("/api/games/nosuchgame"))
    check(405, client.delete("/api/meta"))
    check(409, client.get(f"/api/games/{gid}/record"))
    check(413, client.post("/api/games", content=b"x" * 70_000, headers=json_header))
    check(422, new_game(client, colour="blue"))
    check(422, client.post(f"/api/games/{gid}/resign", json={}))
    check(429, new_game(client))  # the fourth creation this minute from this address
    assert client.post(f"/api/games/{gid}/resign", json={"token": token}).status_code == 200

    def down(*_args: Any) -> Any:
        raise OperationalError("SELECT", {}, ConnectionRefusedError("the database is down"))

    monkeypatch.setattr(client.app.state.hub.store, "recent", down)  # type: ignore[attr-defined]
    unavailable = client.get("/api/games")
    check(503, unavailable)
    assert unavailable.headers["retry-after"]
    assert sorted(seen) == [400, 401, 403, 404, 405, 409, 413, 422, 429, 503]
    assert seen[404] == "not_found" and seen[405] == "method_not_allowed"
    assert seen[422] == "invalid" and seen[413] == "too_large"


def test_an_unknown_field_is_refused_by_name(client: TestClient) -> None:
    """A misspelt field must not silently give another table than the one asked for."""
    refused = new_game(client, hotseat=True)
    assert refused.status_code == 422
    assert "hotseat" in shape_of(refused)["message"]
    seat = {"name": "Ada", "kind": "human", "colour": "red"}
    nested = client.post(
        "/api/games", json={"game": "counting", "mode": "basic", "seats": [seat, seat]}
    )
    assert nested.status_code == 422 and "colour" in shape_of(nested)["message"]


def codes_in_source() -> set[str]:
    """Every error code the server's code can send (its ``ServerError`` and ``BadMessage``
    calls, and the codes of statuses the framework raises)."""
    source = Path(__file__).resolve().parents[2] / "src" / "polis" / "server"
    pattern = re.compile(r'(?:ServerError|BadMessage)\(\s*"([a-z_]+)"')
    found = {m for path in source.rglob("*.py") for m in pattern.findall(path.read_text())}
    return found | set(STATUS) | set(CODE_OF_STATUS.values())


def test_the_api_documents_every_error_code() -> None:
    text = DOCS.read_text(encoding="utf-8")
    codes = codes_in_source()
    assert {"stale", "stood_in", "seat_taken", "unavailable"} <= codes  # the search works
    missing = sorted(code for code in codes if f"`{code}`" not in text)
    assert missing == [], f"docs/server-api.md does not name these error codes: {missing}"
    assert '{"error": {"type": "error", "code":' in text
