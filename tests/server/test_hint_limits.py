"""Hints and reviews do not starve the bots: a bot replies in its usual time while one
address asks a hint in each of sixteen games; hints and reviews in flight are capped per
address, per seat and per server (HTTP 429 past a cap); and a line of play reached again by
a take-back is answered from the hint already given.

The searches are stand-ins (:mod:`tests.server.fake_advice`): a hint that sleeps as long as
a real one, or one that waits for a file the test creates, so what a hint costs is known.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from polis.core.registry import games, get_game
from polis.server import create_app
from polis.server.config import Limits, ServerConfig
from polis.server.live.hub import Hub
from polis.server.table import hints, reviews
from polis.server.table.thinking import HINTS_PER_ADDRESS, REVIEWS_PER_ADDRESS
from waiting import eventually

from . import fake_advice
from .seat_client import seated

ADA = {"name": "Ada", "kind": "human"}
LIN = {"name": "Lin", "kind": "human"}
BOT = {"name": "Bot", "kind": "bot", "level": "easy"}
#: What the stand-in hint takes in the worker (a real one: 1.6-2.0 s).
HINT_SECONDS = 2.0
#: Many games are made from the test client's one address.
LIMITS = Limits(create_rate="1000/minute")


def config(**changes: Any) -> ServerConfig:
    return ServerConfig.from_env(bot_workers=2, limits=LIMITS, **changes)


@pytest.fixture
def serve(db_url: str) -> Iterator[Callable[..., TestClient]]:
    """A server on the test's database with the given config changes (started once)."""
    opened: list[TestClient] = []

    def make(**changes: Any) -> TestClient:
        app = create_app(db_url, games=games().values(), config=config(**changes))
        client = TestClient(app)
        client.__enter__()
        opened.append(client)
        return client

    yield make
    for client in opened:
        client.__exit__(None, None, None)


@pytest.fixture
def release(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Hints and reviews' moves are given once this file exists."""
    gate = tmp_path / "release"
    monkeypatch.setattr(hints, "suggest", partial(fake_advice.gated_suggest, gate))
    monkeypatch.setattr(reviews, "weigh", partial(fake_advice.gated_weigh, gate))
    return gate


def hub_of(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def first_seat_seed() -> int:
    """A seed whose toy deal lets seat 0 move first."""
    game = get_game("counting")
    return next(s for s in range(200) if game.new_game("basic", 2, seed=s).current_player() == 0)


def make(client: TestClient, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    body = {"game": "counting", "mode": "basic", "seats": seats, **extra}
    made = client.post("/api/games", json=body)
    assert made.status_code == 200, made.text
    data: dict[str, Any] = made.json()
    return data


def against_bot(client: TestClient) -> tuple[str, str]:
    """A game of Ada (to move) against a bot: its id and Ada's token."""
    made = make(client, [ADA, BOT], seed=first_seat_seed())
    return made["id"], made["seats"][0]["token"]


def ask(client: TestClient, game_id: str, token: str, position: int) -> httpx.Response:
    answer: httpx.Response = client.post(
        f"/api/games/{game_id}/hint", json={"token": token, "position": position}
    )
    return answer


def count_computations(client: TestClient) -> list[Any]:
    """The calls of the pool's ``compute`` from now on (a hint's or a review move's search)."""
    pool = hub_of(client).pool
    calls: list[Any] = []
    compute = pool.compute

    async def counted(*args: Any) -> Any:
        calls.append(args)
        return await compute(*args)

    pool.compute = counted  # type: ignore[method-assign,assignment]
    return calls


def bot_reply(client: TestClient) -> float:
    """Seconds from Ada's first move in a new game against a bot to the bot's reply."""
    game_id, token = against_bot(client)
    with seated(client, game_id, token) as ada:
        started = time.monotonic()
        ada.move("1")
        ada.at(2)
        return time.monotonic() - started


def refused(answer: httpx.Response, words: str) -> None:
    assert answer.status_code == 429, answer.text
    error = answer.json()["error"]
    assert error["code"] == "rate_limited" and words in error["message"], error
    assert "Retry-After" in answer.headers


# -- bots first ------------------------------------------------------------------------------


def test_a_bot_replies_in_its_usual_time_while_one_address_asks_sixteen_hints(
    serve: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hints, "suggest", partial(fake_advice.slow_suggest, HINT_SECONDS))
    client = serve(bot_delay=0.0)
    for _worker in range(2):
        bot_reply(client)  # (each worker started: a new bot's home is the least used one)
    usual = max(bot_reply(client) for _ in range(3))
    tables = [against_bot(client) for _ in range(16)]
    calls = count_computations(client)
    with ThreadPoolExecutor(len(tables)) as threads:
        asked: list[Future[httpx.Response]] = [
            threads.submit(ask, client, game_id, token, 0) for game_id, token in tables
        ]

        def all_asked() -> bool:
            answered = sum(f.done() and f.result().status_code == 429 for f in asked)
            return len(calls) + answered == len(asked)

        eventually(all_asked, "the sixteen hints were never asked", timeout=60)
        loaded = bot_reply(client)  # while the hints are being worked out
        answers = [f.result() for f in asked]
    assert loaded < usual + 1.0, f"the bot took {loaded:.2f} s, {usual:.2f} s without hints"
    assert {a.status_code for a in answers} <= {200, 429}
    assert any(a.status_code == 200 for a in answers)


# -- caps ----------------------------------------------------------------------------------


def test_hints_past_the_address_cap_are_refused(
    serve: Callable[..., TestClient], release: Path
) -> None:
    client = serve(bot_delay=0.0)
    tables = [against_bot(client) for _ in range(HINTS_PER_ADDRESS + 1)]
    calls = count_computations(client)
    with ThreadPoolExecutor(len(tables)) as threads:
        first = [threads.submit(ask, client, g, t, 0) for g, t in tables[:-1]]
        eventually(
            lambda: len(calls) == len(first), "the first hints were never started", timeout=60
        )
        game_id, token = tables[-1]
        refused(ask(client, game_id, token, 0), "for your address")
        release.touch()
        assert [f.result().status_code for f in first] == [200] * len(first)
    assert ask(client, game_id, token, 0).status_code == 200  # the others are given


def test_a_seat_has_one_hint_worked_out_at_a_time(
    serve: Callable[..., TestClient], release: Path
) -> None:
    """Hot-seat: a seat that asked, then moved on (both seats played), may not start another
    hint before its first one is given."""
    client = serve(bot_delay=0.0)
    made = make(client, [ADA, LIN], hot_seat=True, seed=first_seat_seed())
    game_id, tokens = made["id"], [seat["token"] for seat in made["seats"]]
    calls = count_computations(client)
    with ThreadPoolExecutor(1) as threads:
        first = threads.submit(ask, client, game_id, tokens[0], 0)
        eventually(lambda: len(calls) == 1, "the first hint was never started", timeout=60)
        with seated(client, game_id, tokens[0]) as ada, seated(client, game_id, tokens[1]) as lin:
            ada.move("1")
            lin.at(1)
            lin.move("1")
            ada.at(2)
        refused(ask(client, game_id, tokens[0], 2), "your previous hint is still being worked")
        release.touch()
        assert first.result().status_code == 200
    again = ask(client, game_id, tokens[0], 2)
    assert again.status_code == 200 and again.json()["position"] == 2


def test_hints_past_the_server_cap_are_refused(
    serve: Callable[..., TestClient], release: Path
) -> None:
    client = serve(bot_delay=0.0)
    caps = hub_of(client).thinking.hints
    caps.per_address, caps.per_server = 100, 2  # (one address stands for many here)
    tables = [against_bot(client) for _ in range(3)]
    calls = count_computations(client)
    with ThreadPoolExecutor(2) as threads:
        first = [threads.submit(ask, client, g, t, 0) for g, t in tables[:2]]
        eventually(lambda: len(calls) == 2, "the first hints were never started", timeout=60)
        refused(ask(client, *tables[2], 0), "the server is busy working out other hints")
        release.touch()
        assert [f.result().status_code for f in first] == [200, 200]
    assert ask(client, *tables[2], 0).status_code == 200


def finished_game(client: TestClient) -> str:
    """A game of two bots, played to its end."""
    made = make(client, [BOT, {**BOT, "name": "Bee"}])
    eventually(
        lambda: bool(client.get(f"/api/games/{made['id']}").json()["finished"]),
        "the bots did not finish",
        timeout=60,
    )
    game_id: str = made["id"]
    return game_id


def review(client: TestClient, game_id: str) -> httpx.Response:
    answer: httpx.Response = client.get(f"/api/games/{game_id}/review")
    return answer


def ready(client: TestClient, game_id: str) -> bool:
    return bool(review(client, game_id).json()["status"] == "ready")


def test_reviews_past_the_address_and_server_caps_are_refused(
    serve: Callable[..., TestClient], release: Path
) -> None:
    client = serve(bot_delay=0.0)
    finished = [finished_game(client) for _ in range(REVIEWS_PER_ADDRESS + 1)]
    for game_id in finished[:-1]:
        assert review(client, game_id).json()["status"] == "preparing"
    refused(review(client, finished[-1]), "too many reviews are being worked out for your")
    caps = hub_of(client).thinking.reviews
    caps.per_address, caps.per_server = 100, REVIEWS_PER_ADDRESS  # (as if from elsewhere)
    refused(review(client, finished[-1]), "the server is busy working out other reviews")
    assert review(client, finished[0]).status_code == 200  # one under way: asked again freely
    release.touch()
    for game_id in finished[:-1]:
        eventually(partial(ready, client, game_id), "the review never got ready", timeout=60)
    assert review(client, finished[-1]).json()["status"] in ("preparing", "ready")


# -- take-backs ------------------------------------------------------------------------------


def test_a_line_reached_again_by_a_take_back_is_answered_without_a_new_search(
    serve: Callable[..., TestClient], release: Path
) -> None:
    release.touch()  # hints at once
    client = serve(bot_delay=60.0)  # the bot waits: Ada's move can be taken back
    game_id, token = against_bot(client)
    calls = count_computations(client)
    given = ask(client, game_id, token, 0).json()
    assert given["position"] == 0 and len(calls) == 1
    with seated(client, game_id, token) as ada:
        for position in (2, 4):  # a move and its take-back: two entries, the same line
            ada.move(ada.state["legal"][position // 2])
            ada.at(position - 1)
            ada.take_back()
            ada.at(position)
            again = ask(client, game_id, token, position)
            assert again.status_code == 200, again.text
            assert again.json() == {**given, "position": position}
    assert len(calls) == 1
