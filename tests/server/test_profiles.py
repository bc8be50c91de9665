"""Profiles and leaderboards: what ``GET /api/players/{name}`` and ``GET /api/leaderboard``
count from the standings (a shared win counts 1/k, mean place, best and mean score per game
and mode, the last 20 games newest first, the rating history oldest first), that they hold
nothing private, and who is left out (deleted and suspended accounts; bots on request)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from polis.server.live.hub import Hub
from polis.server.store import accounts as rows
from polis.server.store import standings

from .test_accounts import csrf, game_against_bot, signup


def hub_of(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def account_id(client: TestClient, name: str) -> int:
    found = rows.by_name(hub_of(client).store.engine, name)
    assert found is not None
    return found[0].id


def placed(
    client: TestClient,
    name: str,
    rank: int,
    score: float,
    tied: int = 1,
    mode: str = "basic",
    rated: bool = False,
) -> str:
    """A game the account played against a bot, with its result written as a settlement
    would (the place, score and ties chosen by the test); its id."""
    game = game_against_bot(client, csrf(client))
    engine = hub_of(client).store.engine
    with engine.begin() as conn:
        standings.add_results(
            conn,
            game["id"],
            "counting",
            mode,
            2,
            rated,
            [standings.Placed(0, account_id(client, name), rank, score, False, tied)],
        )
    return str(game["id"])


def rate(client: TestClient, name: str, mu: float, sigma: float, games: int, game_id: str) -> None:
    engine = hub_of(client).store.engine
    with engine.begin() as conn:
        standings.save_rating(
            conn, account_id(client, name), "counting", "basic", game_id, mu, sigma, games
        )


def test_a_profile_counts_shared_wins_places_and_scores_per_game_and_mode(
    client: TestClient,
) -> None:
    signup(client, "Alice")
    won = placed(client, "Alice", rank=1, score=30)
    shared = placed(client, "Alice", rank=1, score=20, tied=2)
    lost = placed(client, "Alice", rank=2, score=10.5)
    other_mode = placed(client, "Alice", rank=3, score=4, mode="expert")
    rate(client, "Alice", 27.0, 7.0, 1, won)
    rate(client, "Alice", 28.0, 6.5, 2, shared)
    found = client.get("/api/players/ALICE")
    assert found.status_code == 200
    profile = found.json()
    assert set(profile) == {"name", "bot", "created", "ratings", "stats", "recent", "history"}
    assert profile["name"] == "Alice" and profile["bot"] is False
    assert profile["created"].endswith("+00:00")
    assert profile["stats"] == [
        {
            "game": "counting",
            "mode": "basic",
            "played": 3,
            "win_share": 0.5,  # (1 + 1/2 + 0) / 3
            "mean_rank": 1.333,
            "best_score": 30,
            "mean_score": 20.17,
        },
        {
            "game": "counting",
            "mode": "expert",
            "played": 1,
            "win_share": 0.0,
            "mean_rank": 3.0,
            "best_score": 4,
            "mean_score": 4.0,
        },
    ]
    assert [g["id"] for g in profile["recent"]] == [other_mode, lost, shared, won]
    last = profile["recent"][1]
    assert last == {
        "id": lost,
        "game": "counting",
        "mode": "basic",
        "players": 2,
        "seat": 0,
        "seats": [
            {"name": "me", "account": "Alice"},
            {"name": last["seats"][1]["name"], "account": None},
        ],
        "rank": 2,
        "score": 10.5,
        "rated": False,
        "forfeited": False,
        "finished": last["finished"],
    }
    assert profile["ratings"] == [
        {
            "game": "counting",
            "mode": "basic",
            "rating": round(1500 + 40 * (28.0 - 3 * 6.5)),
            "mu": 28.0,
            "sigma": 6.5,
            "games": 2,
            "provisional": True,
        }
    ]
    history = [(h["game_id"], h["rating"]) for h in profile["history"]]
    assert history == [(won, 1740), (shared, 1840)]


def test_a_profile_holds_nothing_private(client: TestClient) -> None:
    signup(client, "Alice")
    game = game_against_bot(client, csrf(client))
    token = game["seats"][0]["token"]
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        ws.send_json({"type": "hello", "token": token})
        ws.send_json({"type": "chat", "text": "a private word"})
        while ws.receive_json()["type"] != "chat":
            pass
    placed(client, "Alice", rank=1, score=3)
    session = client.get("/api/account").json()["csrf"]
    text = client.get("/api/players/Alice").text
    for secret in (token, session, "a private word", "$argon2", "csrf", "token", "blocked"):
        assert secret not in text


def test_unknown_deleted_and_suspended_players_have_no_profile(client: TestClient) -> None:
    assert client.get("/api/players/nobody").status_code == 404
    assert client.get("/api/players/" + "x" * 300).status_code == 404
    signup(client, "Dora")
    assert client.get("/api/players/Dora").status_code == 200
    rows.set_suspended(hub_of(client).store.engine, "Dora", True)
    missing = client.get("/api/players/Dora")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    rows.set_suspended(hub_of(client).store.engine, "Dora", False)
    assert client.get("/api/players/Dora").status_code == 200


def board(client: TestClient, **params: Any) -> dict[str, Any]:
    found = client.get("/api/leaderboard", params=params)
    assert found.status_code == 200, found.text
    data: dict[str, Any] = found.json()
    return data


def test_the_leaderboard_ranks_by_the_rating_shown_and_leaves_bots_out_on_request(
    client: TestClient,
) -> None:
    engine = hub_of(client).store.engine
    for name in ("Ann", "Ben", "Cid", "Dee"):
        signup(client, name)
        client.cookies.clear()
    bot = rows.create_account(engine, "Robo", "x", bot=True)
    assert bot is not None
    game = game_against_bot(client)["id"]
    rate(client, "Ann", 30.0, 4.0, 12, game)  # 1500 + 40 * 18 = 2220
    rate(client, "Ben", 28.0, 5.0, 3, game)  # 2020, provisional
    rate(client, "Cid", 28.0, 5.0, 7, game)  # 2020 too: the same place
    rate(client, "Dee", 40.0, 1.0, 30, game)  # suspended: left out
    rate(client, "Robo", 29.0, 4.0, 50, game)  # 2180, a bot
    rows.set_suspended(engine, "Dee", True)
    everyone = board(client, game="counting", mode="basic")
    assert everyone["game"] == "counting" and everyone["mode"] == "basic"
    assert [(p["rank"], p["name"], p["rating"], p["bot"]) for p in everyone["players"]] == [
        (1, "Ann", 2220, False),
        (2, "Robo", 2180, True),
        (3, "Cid", 2020, False),
        (3, "Ben", 2020, False),
    ]
    assert [p["provisional"] for p in everyone["players"]] == [False, False, False, True]
    assert everyone["players"][0] == {
        "rank": 1,
        "name": "Ann",
        "bot": False,
        "rating": 2220,
        "games": 12,
        "provisional": False,
    }
    people = board(client, game="counting", mode="basic", bots="false")
    assert [(p["rank"], p["name"]) for p in people["players"]] == [
        (1, "Ann"),
        (2, "Cid"),
        (2, "Ben"),
    ]
    assert client.get("/api/leaderboard?game=chess").status_code == 404
    assert client.get("/api/leaderboard?game=counting&mode=blitz").status_code == 404
    default = board(client)  # the first game served, in its first mode
    assert default["mode"] in client.get("/api/meta").json()["games"][default["game"]]["modes"]
