"""Accounts: signing up and in, sessions (server-side, rotated, HttpOnly), CSRF protection,
sign-in limits, password changes, seats bound to accounts and opened on another device,
export and deletion, and that no route hands one account another's data."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from polis.server.accounts import passwords
from polis.server.accounts.sessions import COOKIE, hash_id
from polis.server.store.games import normalise_url

from .conftest import make_app

PASSWORD = "correct horse battery"


class Device:
    """Another browser on the same server: its own cookies, the test's one client (a second
    TestClient would start the app a second time)."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.jar: list[Any] = []
        self.app = client.app

    def plant(self, name: str, value: str) -> None:
        """A cookie this browser holds before it asks anything (set by someone else)."""
        self.request("GET", "/api/meta")
        jar = self.client.cookies.jar
        self.client.cookies.set(name, value)  # in the test's jar a moment, then moved here
        found = [c for c in jar if c.name == name and c.value == value]
        for cookie in found:
            jar.clear(cookie.domain, cookie.path, cookie.name)
        self.jar = [c for c in self.jar if c.name != name] + found

    def request(self, method: str, url: str, **kwargs: Any) -> Any:
        jar = self.client.cookies.jar
        saved = list(jar)
        jar.clear()
        for cookie in self.jar:
            jar.set_cookie(cookie)
        try:
            return self.client.request(method, url, **kwargs)
        finally:
            self.jar = list(jar)
            jar.clear()
            for cookie in saved:
                jar.set_cookie(cookie)

    def get(self, url: str, **kwargs: Any) -> Any:
        return self.request("GET", url, **kwargs)

    def post(self, url: str, **kwargs: Any) -> Any:
        return self.request("POST", url, **kwargs)

    def websocket_connect(self, url: str) -> Any:
        return self.client.websocket_connect(url)


def signup(client: Any, name: str, password: str = PASSWORD) -> dict[str, Any]:
    r = client.post("/api/account/signup", json={"name": name, "password": password})
    assert r.status_code == 200, r.text
    return dict(r.json())


def csrf(client: Any) -> dict[str, str]:
    return {"X-CSRF-Token": client.get("/api/account").json()["csrf"]}


def game_against_bot(client: Any, headers: dict[str, str] | None = None) -> dict[str, Any]:
    body = {
        "game": "counting",
        "mode": "basic",
        "seats": [{"name": "me", "kind": "human"}, {"kind": "bot", "level": "easy"}],
    }
    r = client.post("/api/games", json=body, headers=headers or {})
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_sign_up_signs_in_with_a_server_side_httponly_session(client: TestClient) -> None:
    r = client.post("/api/account/signup", json={"name": "Alice", "password": PASSWORD})
    assert r.status_code == 200
    cookie = r.headers["set-cookie"]
    assert f"{COOKIE}=" in cookie
    assert "HttpOnly" in cookie and "samesite=lax" in cookie.lower()
    assert r.headers["cache-control"] == "no-store"
    me = client.get("/api/account").json()
    assert me["account"] == {"name": "Alice", "bot": False}
    # the store keeps only the SHA-256 of the session id
    session_id = client.cookies[COOKIE]
    engine = create_engine(normalise_url(str(client.app.state.hub.store.url)))  # type: ignore[attr-defined]
    with engine.connect() as conn:
        ids = [row[0] for row in conn.execute(text("SELECT id_hash FROM polis_sessions"))]
        hashes = [row[0] for row in conn.execute(text("SELECT password_hash FROM polis_accounts"))]
    engine.dispose()
    assert ids == [hash_id(session_id)]
    assert hashes[0].startswith("$argon2id$")


def test_the_server_hashes_with_argon2id_at_rfc_9106_low_memory_cost() -> None:
    from argon2 import PasswordHasher, Type, extract_parameters

    # the tests hash cheaply (conftest); the server's parameters are these
    assert passwords.PARAMETERS.type is Type.ID
    assert passwords.PARAMETERS.memory_cost >= 64 * 1024 and passwords.PARAMETERS.time_cost >= 3
    hashed = PasswordHasher.from_parameters(passwords.PARAMETERS).hash("a password to look at")
    assert hashed.startswith("$argon2id$")
    assert extract_parameters(hashed) == passwords.PARAMETERS


@pytest.mark.parametrize(
    ("name", "password", "why"),
    [
        ("Bob", "short", "at least 10"),
        ("Bob", "password123", "attackers try first"),
        ("Bob", "aaaaaaaaaaaa", "too few"),
        ("Bob", "bob-is-the-best", "name"),
        ("b", PASSWORD, "3 to 20"),
        ("admin", PASSWORD, "reserved"),
        ("x y z", PASSWORD, "3 to 20"),
    ],
)
def test_weak_passwords_and_bad_names_are_refused_with_the_reason(
    client: TestClient, name: str, password: str, why: str
) -> None:
    r = client.post("/api/account/signup", json={"name": name, "password": password})
    assert r.status_code == 422
    assert why in r.json()["error"]["message"]
    assert client.get("/api/account").json()["account"] is None


def test_a_name_is_taken_in_any_case(client: TestClient) -> None:
    signup(client, "Carla")
    client.cookies.clear()
    r = client.post("/api/account/signup", json={"name": "CARLA", "password": PASSWORD})
    assert r.status_code == 409 and r.json()["error"]["code"] == "name_taken"


def test_password_hashes_never_leave_the_server(client: TestClient) -> None:
    signup(client, "Dora")
    seen = [
        client.get("/api/account").text,
        client.get("/api/account/export").text,
        client.get("/api/players/Dora").text,
        client.get("/api/account/games").text,
    ]
    for body in seen:
        assert "$argon2" not in body and "password_hash" not in body


def test_login_starts_a_new_session_and_the_old_id_is_dead(client: TestClient) -> None:
    """Session fixation: an id a browser held before signing in never becomes a session."""
    signup(client, "Emil")
    before = client.cookies[COOKIE]
    r = client.post("/api/account/login", json={"name": "emil", "password": PASSWORD})
    assert r.status_code == 200
    after = client.cookies[COOKIE]
    assert after != before
    other = Device(client)
    other.plant(COOKIE, before)
    assert other.get("/api/account").json()["account"] is None
    # an id planted by an attacker is not adopted either
    victim = Device(client)
    victim.plant(COOKIE, "planted-by-attacker")
    r = victim.post("/api/account/login", json={"name": "Emil", "password": PASSWORD})
    assert "planted-by-attacker" not in r.headers["set-cookie"]
    attacker = Device(client)
    attacker.plant(COOKIE, "planted-by-attacker")
    assert attacker.get("/api/account").json()["account"] is None


def test_wrong_password_and_unknown_name_answer_alike(client: TestClient) -> None:
    signup(client, "Fritz")
    client.cookies.clear()
    wrong = client.post("/api/account/login", json={"name": "Fritz", "password": "x" * 12})
    nobody = client.post("/api/account/login", json={"name": "Nobody", "password": "x" * 12})
    assert wrong.status_code == nobody.status_code == 401
    assert wrong.json() == nobody.json()


def test_login_is_rate_limited_per_name_and_per_address(client: TestClient) -> None:
    signup(client, "Greta")
    client.cookies.clear()
    codes = [
        client.post(
            "/api/account/login", json={"name": "Greta", "password": f"wrong-{i:06d}"}
        ).status_code
        for i in range(12)
    ]
    assert codes[:10] == [401] * 10 and codes[10:] == [429, 429]
    # the right password does not get through the name's limit either (no guessing race)
    r = client.post("/api/account/login", json={"name": "Greta", "password": PASSWORD})
    assert r.status_code == 429 and "Retry-After" in r.headers
    # the address's limit: many names tried from one address
    codes = [
        client.post(
            "/api/account/login", json={"name": f"user{i}", "password": "x" * 12}
        ).status_code
        for i in range(12)
    ]
    assert 429 in codes


def test_cross_site_posts_with_the_cookie_are_refused(client: TestClient) -> None:
    me = signup(client, "Hanna")
    # no CSRF token: refused where the account is required
    r = client.post("/api/account/password", json={"old": PASSWORD, "new": "another long one 1"})
    assert r.status_code == 403 and "CSRF" in r.json()["error"]["message"]
    # the right token but another site's Origin: refused
    r = client.post(
        "/api/account/password",
        json={"old": PASSWORD, "new": "another long one 1"},
        headers={"X-CSRF-Token": me["csrf"], "Origin": "https://evil.example"},
    )
    assert r.status_code == 403
    r = client.post(
        "/api/account/password",
        json={"old": PASSWORD, "new": "another long one 1"},
        headers={"X-CSRF-Token": me["csrf"], "Sec-Fetch-Site": "cross-site"},
    )
    assert r.status_code == 403
    # a table made without the token is a guest's: the cookie does not bind it
    game = game_against_bot(client)
    assert client.get("/api/account/games").json()["playing"] == []
    assert game["seats"][0].get("account") is None
    # with the token, from this site: accepted
    r = client.post(
        "/api/account/password",
        json={"old": PASSWORD, "new": "another long one 1"},
        headers={"X-CSRF-Token": me["csrf"], "Origin": "http://testserver"},
    )
    assert r.status_code == 200


def test_a_password_change_signs_out_other_sessions(client: TestClient) -> None:
    signup(client, "Ines")
    phone = Device(client)
    phone.post("/api/account/login", json={"name": "Ines", "password": PASSWORD})
    assert phone.get("/api/account").json()["account"]["name"] == "Ines"
    r = client.post(
        "/api/account/password",
        json={"old": PASSWORD, "new": "a brand new secret"},
        headers=csrf(client),
    )
    assert r.status_code == 200
    assert phone.get("/api/account").json()["account"] is None
    assert client.get("/api/account").json()["account"]["name"] == "Ines"
    client.cookies.clear()
    old = client.post("/api/account/login", json={"name": "Ines", "password": PASSWORD})
    assert old.status_code == 401
    new = client.post("/api/account/login", json={"name": "Ines", "password": "a brand new secret"})
    assert new.status_code == 200


def test_my_games_on_a_second_device_and_the_seat_opens_there(client: TestClient) -> None:
    signup(client, "Jonas")
    game = game_against_bot(client, csrf(client))
    assert game["seats"][0]["account"] == "Jonas"
    laptop = Device(client)
    laptop.post("/api/account/login", json={"name": "Jonas", "password": PASSWORD})
    mine = laptop.get("/api/account/games").json()
    listed = mine["turn"] + mine["playing"]
    assert [g["id"] for g in listed] == [game["id"]]
    assert listed[0]["seats"] == [0]
    key = laptop.post(f"/api/account/games/{game['id']}/key", headers=csrf(laptop)).json()
    assert key["seat"] == 0 and key["token"] != game["seats"][0]["token"]
    with laptop.websocket_connect(f"/ws/{game['id']}") as ws:
        ws.send_json({"type": "hello", "token": key["token"]})
        welcome = ws.receive_json()
        assert welcome["type"] == "welcome" and welcome["seat"] == 0
    # the key dies with the session
    laptop.post("/api/account/logout", headers=csrf(laptop))
    with laptop.websocket_connect(f"/ws/{game['id']}") as ws:
        ws.send_json({"type": "hello", "token": key["token"]})
        assert ws.receive_json()["type"] == "error"


def test_another_accounts_games_and_data_are_unreachable(client: TestClient) -> None:
    signup(client, "Karl")
    game = game_against_bot(client, csrf(client))
    mallory = Device(client)
    signup(mallory, "Mallory")
    theirs = mallory.get("/api/account/games").json()
    assert isinstance(theirs.pop("now"), float)
    assert theirs == {
        "turn": [],
        "playing": [],
        "finished": [],
        "challenges": {"incoming": [], "outgoing": []},
    }
    r = mallory.post(f"/api/account/games/{game['id']}/key", headers=csrf(mallory))
    assert r.status_code == 404
    export = mallory.get("/api/account/export").json()
    assert export["games"] == [] and export["account"]["name"] == "Mallory"
    # claiming a seat needs its token
    r = mallory.post(
        "/api/account/claim",
        json={"game_id": game["id"], "token": "not-the-token"},
        headers=csrf(mallory),
    )
    assert r.status_code == 403


def test_a_seat_held_by_link_is_claimed_into_my_games(client: TestClient) -> None:
    game = game_against_bot(client)  # as a guest
    signup(client, "Lena")
    r = client.post(
        "/api/account/claim",
        json={"game_id": game["id"], "token": game["seats"][0]["token"]},
        headers=csrf(client),
    )
    assert r.status_code == 200 and r.json()["seat"] == 0
    mine = client.get("/api/account/games").json()
    assert [g["id"] for g in mine["turn"] + mine["playing"]] == [game["id"]]
    assert client.get(f"/api/games/{game['id']}").json()["seats"][0]["account"] == "Lena"


def test_export_holds_the_games_and_deletion_keeps_them_as_deleted_player(
    client: TestClient,
) -> None:
    signup(client, "Mona")
    game = game_against_bot(client, csrf(client))
    data = client.get("/api/account/export")
    assert "attachment" in data.headers["content-disposition"]
    assert [g["id"] for g in data.json()["games"]] == [game["id"]]
    r = client.post(
        "/api/account/delete", json={"password": "wrong password"}, headers=csrf(client)
    )
    assert r.status_code == 401
    r = client.post("/api/account/delete", json={"password": PASSWORD}, headers=csrf(client))
    assert r.status_code == 200
    assert client.get("/api/account").json()["account"] is None
    seats = client.get(f"/api/games/{game['id']}").json()["seats"]
    assert seats[0]["name"] == "deleted player" and seats[0]["account"] is None
    r = client.post("/api/account/login", json={"name": "Mona", "password": PASSWORD})
    assert r.status_code == 401
    assert client.get("/api/players/Mona").status_code == 404
    # the name is free again
    signup(client, "Mona")


def test_meta_says_accounts_are_served(client: TestClient) -> None:
    assert client.get("/api/meta").json()["accounts"] is True


def test_a_common_password_list_is_built_in() -> None:
    assert "password123" in passwords.common_passwords()
    assert passwords.password_problem("Quadropolis123", "ann") is not None  # a game's name
    assert passwords.password_problem("Password123", "x") is not None
    assert passwords.password_problem("tulip-orbit-canyon", "ann") is None


def test_the_cookie_is_secure_where_people_reach_the_server_over_https(db_url: str) -> None:
    from dataclasses import replace

    from polis.core.registry import games
    from polis.server.config import ServerConfig
    from polis.server.http.app import create_app

    config = replace(ServerConfig.from_env(), public_url="https://polis.example")
    app = create_app(db_url, games=games().values(), bot_delay=0.0, config=config)
    with TestClient(app) as c:
        r = c.post("/api/account/signup", json={"name": "Secure", "password": PASSWORD})
        assert "Secure" in r.headers["set-cookie"].split(";", 1)[1]
    with TestClient(make_app(db_url)) as c:  # plain http (no public address): not Secure
        r = c.post("/api/account/login", json={"name": "Secure", "password": PASSWORD})
        assert "secure" not in r.headers["set-cookie"].lower().split(";", 1)[1]


def test_sessions_past_their_idle_time_are_forgotten_by_the_upkeep(client: TestClient) -> None:
    """A browser that never comes back never reads its session again to end it: the upkeep
    forgets it, and the seat keys it was given with it."""
    from polis.server.live.upkeep import forget_stale_sessions

    signup(client, "Stale")
    game = game_against_bot(client, csrf(client))
    client.post(f"/api/account/games/{game['id']}/key", headers=csrf(client))
    hub = client.app.state.hub  # type: ignore[attr-defined]
    assert client.portal.call(forget_stale_sessions, hub) == 0  # a fresh one stays
    with hub.store.engine.begin() as conn:
        conn.execute(text("UPDATE polis_sessions SET seen = seen - 15 * 24 * 3600"))
    assert client.portal.call(forget_stale_sessions, hub) == 1
    with hub.store.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM polis_sessions")).scalar() == 0
        assert conn.execute(text("SELECT count(*) FROM polis_seat_keys")).scalar() == 0
    assert client.get("/api/account").json()["account"] is None
