"""Deals nobody can predict: server games are dealt from 256-bit secrets that no seat is sent
before the end; a chosen seed only where no other person's secrets are at stake, and the
record says so. And the store written by the previous release (31-bit integer seeds) still
serves every one of its games."""

from __future__ import annotations

import json
import secrets
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient

from polis.server.store.games import Store
from waiting import eventually

from .conftest import make_app

PEOPLE = [{"name": "Ada", "kind": "human"}, {"name": "Lin", "kind": "human"}]
SOLO = [{"name": "Ada", "kind": "human"}, {"name": "Bot", "kind": "bot", "level": "easy"}]


def new_game(client: TestClient, seats: list[dict[str, Any]], **extra: Any) -> Any:
    return client.post(
        "/api/games", json={"game": "counting", "mode": "basic", "seats": seats, **extra}
    )


def test_server_games_are_dealt_from_256_bit_secrets_never_31_bit_seeds(
    client: TestClient, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[str] = []
    real = secrets.token_hex

    def spy(nbytes: int) -> str:
        drawn.append(real(nbytes))
        return drawn[-1]

    monkeypatch.setattr("polis.server.table.deals.secrets.token_hex", spy)
    ids = [new_game(client, PEOPLE).json()["id"] for _ in range(12)]
    assert len(drawn) == 12  # every deal came from the operating system's secure source
    store = Store(db_url)
    try:
        seeds = [store.load(gid).seed for gid in ids]  # type: ignore[union-attr]
        states = [store.load(gid) for gid in ids]
    finally:
        store.close()
    assert seeds == drawn
    for seed in seeds:
        assert isinstance(seed, str) and len(seed) == 64
        number = int(seed, 16)
        assert number.bit_length() > 32  # (a 31-bit seed has probability 2**-225 here)
    assert len(set(seeds)) == len(seeds)
    from toygame import GAME

    for stored in states:
        assert stored is not None and not stored.seed_chosen
        # the deal is the one that seed gives: the record replays anywhere
        assert GAME.new_game("basic", 2, seed=stored.seed).setup() == stored.setup


def test_no_seat_is_sent_the_seed_before_the_end(client: TestClient, db_url: str) -> None:
    data = new_game(client, PEOPLE).json()
    gid = data["id"]
    store = Store(db_url)
    seed = store.load(gid).seed  # type: ignore[union-attr]
    store.close()
    assert isinstance(seed, str)
    seen: list[str] = [json.dumps(data), client.get(f"/api/games/{gid}").text]
    seen.append(client.get("/api/games").text)
    tokens = [s["token"] for s in data["seats"]]
    with (
        client.websocket_connect(f"/ws/{gid}") as a,
        client.websocket_connect(f"/ws/{gid}") as b,
        client.websocket_connect(f"/ws/{gid}") as w,
    ):
        socks = [a, b, w]
        for ws, token in zip(socks, [*tokens, None], strict=True):
            ws.send_json({"type": "hello", "token": token})
        states = [_next_state(ws, seen) for ws in socks]
        while not states[0]["finished"]:
            mover = socks[states[0]["current_player"]]
            mover.send_json({"type": "move", "move": "3", "position": states[0]["position"]})
            states = [_next_state(ws, seen) for ws in socks]
    for text in seen:
        assert seed not in text
    record = client.get(f"/api/games/{gid}/record").json()
    assert record["seed"] == seed and record["seed_chosen"] is False


def _next_state(ws: Any, seen: list[str]) -> dict[str, Any]:
    while True:
        text = ws.receive_text()
        seen.append(text)
        msg: dict[str, Any] = json.loads(text)
        if msg["type"] == "state":
            return msg


def test_a_chosen_seed_only_where_no_other_persons_secrets_are_at_stake(
    client: TestClient,
) -> None:
    refused = new_game(client, PEOPLE, seed=7)
    assert refused.status_code == 400
    assert "every other player's secrets" in refused.json()["error"]["message"]
    for seats, extra in [(SOLO, {}), (PEOPLE, {"hot_seat": True}), (SOLO[1:] * 2, {})]:
        made = new_game(client, seats, seed=7, **extra)
        assert made.status_code == 200, made.text
        assert client.get(f"/api/games/{made.json()['id']}").json()["seed_chosen"] is True
    text_seed = new_game(client, SOLO, seed="my favourite deal")
    assert text_seed.status_code == 200
    for bad in [-1, 2**64, True, "", "x" * 65, "a\x00b", [1]]:
        assert new_game(client, SOLO, seed=bad).status_code == 422


OPEN = {"kind": "open"}
CREATOR = {"name": "Creator", "kind": "human"}


def test_a_chosen_seed_is_refused_with_an_open_or_invited_seat_even_for_hot_seat(
    client: TestClient,
) -> None:
    """The audit's attack: a 'hot-seat' table with an open seat, listed, with a chosen seed;
    a stranger takes the seat and the creator computes their secrets from the seed."""
    attack = new_game(client, [CREATOR, OPEN], seed="chosen-by-creator", hot_seat=True, listed=True)
    assert attack.status_code == 400
    assert attack.json()["error"]["code"] == "bad_request"
    assert "open seat" in attack.json()["error"]["message"]
    for seats in ([CREATOR, OPEN], [OPEN, SOLO[1]], [CREATOR, OPEN, SOLO[1]]):
        for extra in ({}, {"hot_seat": True}, {"listed": False}):
            refused = new_game(client, seats, seed=7, **extra)
            assert refused.status_code == 400, (seats, extra)
    invited = new_game(client, PEOPLE, seed=7, hot_seat=False)  # each person their own link
    assert invited.status_code == 400
    assert client.get("/api/tables").json()["tables"] == []  # nothing got listed


def test_a_chosen_seed_table_is_never_listed_nor_joined(client: TestClient) -> None:
    listed = new_game(client, SOLO, seed=7, listed=True)
    assert listed.status_code == 400 and "never listed" in listed.json()["error"]["message"]
    made = new_game(client, PEOPLE, seed=7, hot_seat=True)
    assert made.status_code == 200, made.text
    gid = made.json()["id"]
    summary = client.get(f"/api/games/{gid}").json()
    assert summary["listed"] is False and summary["seed_chosen"] is True
    assert gid not in client.get("/api/games").text
    taken = client.post(f"/api/games/{gid}/seats", json={"name": "Stranger"})
    assert taken.status_code == 403 and taken.json()["error"]["code"] == "forbidden"
    for seat in made.json()["seats"]:  # every seat's table says the deal was chosen
        with client.websocket_connect(f"/ws/{gid}") as ws:
            ws.send_json({"type": "hello", "token": seat["token"]})
            msg = ws.receive_json()
            while msg["type"] != "state":
                msg = ws.receive_json()
            assert msg["seed_chosen"] is True
    secret = new_game(client, PEOPLE).json()["id"]
    with client.websocket_connect(f"/ws/{secret}") as ws:
        ws.send_json({"type": "hello", "token": None})
        msg = ws.receive_json()
        while msg["type"] != "state":
            msg = ws.receive_json()
        assert msg["seed_chosen"] is False


def test_the_record_of_a_chosen_seed_says_so(client: TestClient) -> None:
    made = new_game(client, SOLO, seed=7).json()
    gid, token = made["id"], made["seats"][0]["token"]
    with client.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "hello", "token": token})
        state: dict[str, Any] = {}
        while not state.get("finished"):
            msg = ws.receive_json()
            if msg["type"] != "state":
                continue
            state = msg
            if state["current_player"] == 0 and state["legal"]:
                ws.send_json({"type": "move", "move": "3", "position": state["position"]})
    record = client.get(f"/api/games/{gid}/record").json()
    assert record["seed"] == 7 and record["seed_chosen"] is True


# -- a store written by the previous release -----------------------------------------------------


def previous_release_tables() -> Any:
    """The tables exactly as the previous release created them (31-bit integer seeds)."""
    from sqlalchemy import (
        Column,
        DateTime,
        ForeignKey,
        Integer,
        MetaData,
        String,
        Table,
        Text,
    )

    meta = MetaData()
    games = Table(
        "polis_games",
        meta,
        Column("id", String(32), primary_key=True),
        Column("game", String(32), nullable=False),
        Column("mode", String(16), nullable=False),
        Column("players", Integer, nullable=False),
        Column("seed", Integer, nullable=True),
        Column("setup", Text, nullable=False),
        Column("options", Text, nullable=False),
        Column("position", Integer, nullable=False),
        Column("finished", Integer, nullable=False),
        Column("result", Text, nullable=True),
        Column("rematch_of", String(32), nullable=True),
        Column("rematch_id", String(32), nullable=True),
        Column("created", DateTime(timezone=True), nullable=False),
        Column("updated", DateTime(timezone=True), nullable=False),
    )
    seats = Table(
        "polis_seats",
        meta,
        Column("game_id", String(32), ForeignKey("polis_games.id"), primary_key=True),
        Column("seat", Integer, primary_key=True),
        Column("name", String(64), nullable=False),
        Column("kind", String(8), nullable=False),
        Column("level", String(16), nullable=True),
        Column("token_hash", String(64), nullable=True),
    )
    moves = Table(
        "polis_moves",
        meta,
        Column("game_id", String(32), ForeignKey("polis_games.id"), primary_key=True),
        Column("idx", Integer, primary_key=True),
        Column("text", String(64), nullable=False),
        Column("created", DateTime(timezone=True), nullable=False),
    )
    return meta, games, seats, moves


def write_previous_release_db(url: str) -> dict[str, Any]:
    """A database as the previous release left it: a finished game, a game of two people in
    the middle, and a game whose bot is to move; seeds are 31-bit integers."""
    from sqlalchemy import create_engine

    from polis.server.store.games import normalise_url
    from polis.server.table.seats import hash_token
    from toygame import GAME

    meta, games, seats, moves = previous_release_tables()
    engine = create_engine(normalise_url(url))
    meta.create_all(engine)
    now = datetime.now(UTC)
    plan = {
        "oldDone": (1_234_567_890, ["human", "human"], ["3", "3", "3", "3"]),
        "oldMiddle": (2_000_000_001, ["human", "human"], ["1", "2"]),
        "oldBotTurn": (7, ["human", "bot"], ["2"]),
    }
    with engine.begin() as conn:
        for gid, (seed, kinds, texts) in plan.items():
            state = GAME.new_game("basic", 2, seed=seed)
            for text in texts:
                state.apply_str(text)
            conn.execute(
                games.insert().values(
                    id=gid,
                    game="counting",
                    mode="basic",
                    players=2,
                    seed=seed,
                    setup=json.dumps(state.setup()),
                    options="{}",
                    position=len(texts),
                    finished=int(state.is_terminal()),
                    result=json.dumps(state.result().to_json()) if state.is_terminal() else None,
                    created=now,
                    updated=now,
                )
            )
            for i, kind in enumerate(kinds):
                conn.execute(
                    seats.insert().values(
                        game_id=gid,
                        seat=i,
                        name=f"p{i}" if kind == "human" else "Bot",
                        kind=kind,
                        level="easy" if kind == "bot" else None,
                        token_hash=hash_token(f"token-{gid}-{i}") if kind == "human" else None,
                    )
                )
            for i, text in enumerate(texts):
                conn.execute(moves.insert().values(game_id=gid, idx=i, text=text, created=now))
    engine.dispose()
    return plan


def test_a_store_of_the_previous_release_serves_every_game(empty_db_url: str) -> None:
    plan = write_previous_release_db(empty_db_url)
    with TestClient(make_app(empty_db_url)) as client:
        done = client.get("/api/games/oldDone/record").json()
        assert done["seed"] == 1_234_567_890 and done["moves"] == plan["oldDone"][2]
        assert done["seed_chosen"] is False and "result" in done
        with client.websocket_connect("/ws/oldMiddle") as ws:
            ws.send_json({"type": "hello", "token": "token-oldMiddle-0"})
            state = _first_state(ws)
            assert state["seat"] == 0 and state["position"] == 2 and state["legal"]
            ws.send_json({"type": "move", "move": "3", "position": 2})
            assert _first_state(ws)["position"] == 3
        # the bot that was to move when the old release stopped moves again
        eventually(
            lambda: client.get("/api/games/oldBotTurn").json()["position"] >= 2,
            "the old game's bot never moved",
            timeout=30,
        )
        fresh = new_game(client, PEOPLE).json()["id"]
    store = Store(empty_db_url)
    try:
        assert store.load("oldMiddle").moves == ["1", "2", "3"]  # type: ignore[union-attr]
        assert isinstance(store.load(fresh).seed, str)  # type: ignore[union-attr]
        assert store.load("oldBotTurn").bot_turn is False  # type: ignore[union-attr]
    finally:
        store.close()
    # and opening it again changes nothing more
    Store(empty_db_url).close()


def _first_state(ws: Any) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == "state":
            return msg
