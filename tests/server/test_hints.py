"""Hints and post-game reviews over the API: who may ask and when, answers from the seat's
view only (the same whatever it cannot see), one answer per position, and a review of every
move once the game is over (the same as ``polis review`` gives for the record).

The toy "counting" game: each player's lucky number (doubling that addition) is hidden from
the others, so a hint or review that peeked at it would give other numbers.
"""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from polis.bots.review import review_moves
from polis.core.registry import games, get_game
from polis.server import create_app
from polis.server.bots.pool import BotFailed, process_pool
from polis.server.config import ServerConfig
from polis.server.live.hub import Hub
from polis.server.table.hints import default_hints
from polis.server.table.reviews import SEED
from waiting import eventually

from .seat_client import seated

AGENT, SAMPLES = "mcts:16i", 6
CONFIG = ServerConfig.from_env(
    hint_agent=AGENT, hint_samples=SAMPLES, review_agent=AGENT, review_samples=SAMPLES
)
ADA = {"name": "Ada", "kind": "human"}
LIN = {"name": "Lin", "kind": "human"}
BOT = {"name": "Bot", "kind": "bot", "level": "easy"}


@pytest.fixture
def slow(db_url: str) -> Iterator[TestClient]:
    """Bots that wait a minute before moving: the person's turn lasts."""
    app = create_app(db_url, games=games().values(), bot_delay=60.0, config=CONFIG)
    with TestClient(app) as c:
        yield c


@pytest.fixture
def quick(db_url: str) -> Iterator[TestClient]:
    app = create_app(db_url, games=games().values(), bot_delay=0.0, config=CONFIG)
    with TestClient(app) as c:
        yield c


def first_seat_seed(first: int, skip: int = 0) -> int:
    """A seed whose toy deal lets seat ``first`` move first (the ``skip``-th such seed)."""
    game = get_game("counting")
    found = (s for s in range(200) if game.new_game("basic", 2, seed=s).current_player() == first)
    for _ in range(skip):
        next(found)
    return next(found)


def make(client: TestClient, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    made = client.post(
        "/api/games", json={"game": "counting", "mode": "basic", "seats": seats, **extra}
    )
    assert made.status_code == 200, made.text
    data: dict[str, Any] = made.json()
    return data


def hub_of(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def ask(client: TestClient, game_id: str, token: str, position: int) -> Any:
    return client.post(f"/api/games/{game_id}/hint", json={"token": token, "position": position})


def test_hints_are_on_against_bots_and_off_when_several_people_play(slow: TestClient) -> None:
    assert default_hints(["human", "bot"]) and default_hints(["bot", "bot"])
    assert not default_hints(["human", "human"]) and default_hints(["human", "human"], True)
    assert not default_hints(["human", "open"], True)  # "hot-seat" with a seat for anyone
    cases = [
        ([ADA, BOT], {}, True),
        ([ADA, LIN], {}, False),
        ([ADA, LIN], {"hot_seat": True}, True),
        ([ADA, {"kind": "open"}], {"hot_seat": True}, False),
        ([ADA, BOT], {"hints": False}, False),
        ([ADA, LIN], {"hot_seat": True, "hints": False}, False),
    ]
    for seats, extra, on in cases:
        made = make(slow, seats, **extra)
        assert slow.get(f"/api/games/{made['id']}").json()["hints"] is on
        for seat in made["seats"]:  # every seat sees the setting
            if "token" in seat:
                with seated(slow, made["id"], seat["token"]) as conn:
                    assert conn.state["hints"] is on


def test_hints_cannot_be_switched_on_where_another_person_sits(slow: TestClient) -> None:
    for seats, extra in [
        ([ADA, LIN], {}),
        ([ADA, {"kind": "open"}], {"hot_seat": True}),
        ([ADA, {"kind": "open"}, BOT], {}),
    ]:
        refused = slow.post(
            "/api/games",
            json={"game": "counting", "mode": "basic", "seats": seats, "hints": True, **extra},
        )
        assert refused.status_code == 400, refused.text
        assert "no other person sits" in refused.json()["error"]["message"]


def test_a_hint_names_a_legal_move_with_its_reason(slow: TestClient) -> None:
    made = make(slow, [ADA, BOT], seed=first_seat_seed(0))
    token = made["seats"][0]["token"]
    with seated(slow, made["id"], token) as ada:
        legal = ada.state["legal"]
    answer = ask(slow, made["id"], token, 0)
    assert answer.status_code == 200, answer.text
    hint = answer.json()
    assert hint["move"] in legal and hint["seat"] == 0 and hint["position"] == 0
    assert hint["choice"] == {"amounts": [{"amount": int(hint["move"]), "move": hint["move"]}]}
    reason = hint["reason"]
    assert reason["key"] in ("hint.only", "hint.equal", "hint.gain")
    assert reason["params"]["move"] == hint["move"]
    assert 0 <= reason["params"]["win"] <= 100 and reason["params"]["games"] == SAMPLES
    # asking again is answered from the position's answer: no second computation
    pool = hub_of(slow).pool
    calls = []
    compute = pool.compute

    async def counted(*args: Any) -> Any:
        calls.append(args)
        return await compute(*args)

    pool.compute = counted  # type: ignore[method-assign,assignment]
    assert ask(slow, made["id"], token, 0).json() == hint
    assert calls == []


def test_a_hint_is_refused_when_off_out_of_turn_stale_or_with_a_wrong_token(
    slow: TestClient,
) -> None:
    off = make(slow, [ADA, LIN])
    mover = slow.get(f"/api/games/{off['id']}").json()["current_player"]
    refused = ask(slow, off["id"], off["seats"][mover]["token"], 0)
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "no_hint"
    on = make(slow, [ADA, LIN], hot_seat=True)
    mover = slow.get(f"/api/games/{on['id']}").json()["current_player"]
    other = ask(slow, on["id"], on["seats"][1 - mover]["token"], 0)
    assert other.status_code == 400 and other.json()["error"]["code"] == "not_your_turn"
    stale = ask(slow, on["id"], on["seats"][mover]["token"], 3)
    assert stale.json()["error"]["code"] == "stale"
    wrong = ask(slow, on["id"], off["seats"][mover]["token"], 0)  # another game's token
    assert wrong.status_code == 403 and wrong.json()["error"]["code"] == "bad_token"
    malformed = ask(slow, on["id"], "not a token!", 0)
    assert malformed.status_code in (400, 422)
    assert ask(slow, on["id"], on["seats"][mover]["token"], 0).status_code == 200


def test_a_hint_is_the_same_whatever_the_seat_cannot_see(slow: TestClient) -> None:
    """Two tables where seat 0 sees the very same thing but the bot's lucky number differs."""
    game = get_game("counting")
    one = make(slow, [ADA, BOT], seed=first_seat_seed(0))
    two = make(slow, [ADA, BOT], seed=first_seat_seed(0, skip=1))
    hub = hub_of(slow)
    first, second = hub.rooms[one["id"]], hub.rooms[two["id"]]
    view = first.state.view(0)
    for attempt in range(50):
        other = game.determinize(view, random.Random(attempt))
        if other.view(1) != first.state.view(1):
            break
    else:
        pytest.fail("no other deal consistent with seat 0's view was found")
    second.state = other  # the second table: the first one with other hidden facts
    assert second.state.view(0) == view
    mine = ask(slow, one["id"], one["seats"][0]["token"], 0)
    theirs = ask(slow, two["id"], two["seats"][0]["token"], 0)
    assert mine.status_code == theirs.status_code == 200
    assert mine.json() == theirs.json()


def finished_game(client: TestClient) -> str:
    """A game of two bots, played to its end."""
    made = make(client, [BOT, {**BOT, "name": "Bee"}])
    eventually(
        lambda: client.get(f"/api/games/{made['id']}").json()["finished"],
        "the bots did not finish",
        timeout=60,
    )
    game_id: str = made["id"]
    return game_id


def reviewed(client: TestClient, game_id: str) -> dict[str, Any]:
    def ready() -> dict[str, Any] | None:
        answer = client.get(f"/api/games/{game_id}/review")
        assert answer.status_code == 200, answer.text
        data: dict[str, Any] = answer.json()
        if data["status"] == "ready":
            return data
        if not (data["status"] == "preparing" and 0 <= data["done"] <= data["total"]):
            raise ValueError(f"not a review under way: {data}")  # fails at once
        return None

    return eventually(ready, "the review never got ready", timeout=60)


def test_a_review_waits_for_the_end(quick: TestClient) -> None:
    made = make(quick, [ADA, BOT], seed=first_seat_seed(0))
    early = quick.get(f"/api/games/{made['id']}/review")
    assert early.status_code == 409 and early.json()["error"]["code"] == "not_finished"


def test_a_review_weighs_every_move_as_polis_review_does(quick: TestClient) -> None:
    game_id = finished_game(quick)
    data = reviewed(quick, game_id)
    record = quick.get(f"/api/games/{game_id}/record").json()
    assert [m["index"] for m in data["moves"]] == list(range(len(record["moves"])))
    assert [m["played"] for m in data["moves"]] == record["moves"]
    assert data["agent"] == AGENT and data["samples"] == SAMPLES and data["seed"] == SEED
    game = get_game("counting")
    final = game.from_record(record)
    opening = {k: v for k, v in record.items() if k not in ("result", "authors", "taken_back")}
    start = game.from_record({**opening, "moves": []})
    expected = review_moves(
        game, start, list(final.history), agent=AGENT, samples=SAMPLES, seed=SEED
    )
    assert [(m["best"], m["forced"], m["mark"]) for m in data["moves"]] == [
        (str(r.best), r.forced, r.mark) for r in expected
    ]
    assert [m["win_share_loss"] for m in data["moves"]] == [
        round(r.win_share_loss, 4) for r in expected
    ]
    # the second looks too (more samples where a mark wanted them): the same moves, figures
    assert [(m["best_estimate"] or {}).get("samples") for m in data["moves"]] == [
        r.best_estimate.samples if r.best_estimate else None for r in expected
    ]
    assert [m["points_loss"] for m in data["moves"]] == [round(r.points_loss, 2) for r in expected]
    for m in data["moves"]:
        legal = m["forced"] or m["best_estimate"] is not None
        assert legal and (m["best"] != m["played"] or m["win_share_loss"] == 0)
    # asked again: the review kept, the same
    assert reviewed(quick, game_id) == data


def test_hints_and_reviews_think_in_a_worker_process() -> None:
    """The pool's calls run in another process; a call that fails is reported, and the
    worker answers the next one."""

    async def run() -> None:
        pool = process_pool(1, 0)
        try:
            assert await pool.compute(os.getpid, (), 30.0) != os.getpid()
            with pytest.raises(BotFailed, match="ValueError"):
                await pool.compute(int, ("not a number",), 30.0)
            assert await pool.compute(int, ("12",), 30.0) == 12
        finally:
            await pool.close()

    asyncio.run(run())
