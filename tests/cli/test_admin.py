"""``polis admin``: the operator lists reported chat lines and marks them handled, suspends
an account (signed out everywhere at once, no sign-in, off the leaderboards, its games kept)
and lifts the suspension; a wrong name or id, a missing extra or a store that is not polis's
is one line and exit 2."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from polis.cli.main import app

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from polis.core.registry import games
from polis.server import create_app

runner = CliRunner()
PASSWORD = "correct horse battery"


class Browser:
    """One browser's cookies on the test's one server."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.cookies: dict[str, str] = {}

    def request(self, method: str, url: str, **kwargs: Any) -> Any:
        self.client.cookies.clear()
        for name, value in self.cookies.items():
            self.client.cookies.set(name, value)
        if method != "GET" and "csrf" in self.cookies:
            kwargs.setdefault("headers", {})["X-CSRF-Token"] = self.cookies["csrf"]
        r = self.client.request(method, url, **kwargs)
        self.cookies.update({k: v for k, v in self.client.cookies.items()})
        return r

    def sign(self, how: str, name: str) -> Any:
        r = self.request("POST", f"/api/account/{how}", json={"name": name, "password": PASSWORD})
        if r.status_code == 200:
            self.cookies["csrf"] = r.json()["csrf"]
        return r

    def me(self) -> Any:
        return self.request("GET", "/api/account").json()["account"]


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'polis.db'}"


@pytest.fixture
def server(db: str) -> Iterator[TestClient]:
    with TestClient(create_app(db, games=games().values(), bot_delay=0.0)) as client:
        yield client


def admin(db: str, *args: str) -> Any:
    return runner.invoke(app, ["admin", *args, "--db", db])


def reported_line(server: TestClient) -> tuple[Browser, Browser, str]:
    """Ann's table where Ben (seated) said a line, which Ann reported."""
    ann, ben = Browser(server), Browser(server)
    ann.sign("signup", "Ann")
    ben.sign("signup", "Ben")
    body = {
        "game": "counting",
        "mode": "basic",
        "seats": [{"name": "Ann", "kind": "human"}, {"kind": "open"}],
    }
    gid = ann.request("POST", "/api/games", json=body).json()["id"]
    token = ben.request("POST", f"/api/games/{gid}/seats", json={"name": "Benny"}).json()["token"]
    with server.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "hello", "token": token})
        assert ws.receive_json()["type"] == "welcome"
        ws.send_json({"type": "chat", "text": "you play like a potato"})
        while (msg := ws.receive_json())["type"] != "chat":
            pass
    r = ann.request(
        "POST", "/api/reports", json={"game_id": gid, "chat_id": msg["id"], "reason": "rude"}
    )
    assert r.status_code == 200, r.text
    return ann, ben, gid


def test_reports_are_listed_and_marked_handled(server: TestClient, db: str) -> None:
    assert admin(db, "reports").stdout.strip() == "no open reports"
    _ann, _ben, gid = reported_line(server)
    result = admin(db, "reports")
    assert result.exit_code == 0, result.output
    text = result.stdout
    for words in ("Ann", "Ben", gid, "Benny: you play like a potato", "rude"):
        assert words in text
    header = text.splitlines()[0].split()
    assert header == ["id", "when", "reporter", "account", "game", "line", "reason"]
    report_id = text.splitlines()[1].split()[0]
    result = admin(db, "handled", report_id)
    assert result.exit_code == 0 and f"report {report_id} handled" in result.stdout
    assert admin(db, "reports").stdout.strip() == "no open reports"
    everything = admin(db, "reports", "--all").stdout
    assert "potato" in everything and "yes" in everything
    missing = admin(db, "handled", "999")
    assert missing.exit_code == 2 and missing.stderr.strip() == "error: no report has the id 999"


def test_suspend_signs_out_and_blocks_login_and_lift_restores(server: TestClient, db: str) -> None:
    from polis.server.store import accounts as rows
    from polis.server.store import standings

    _ann, ben, gid = reported_line(server)
    engine = server.app.state.hub.store.engine  # type: ignore[attr-defined]
    found = rows.by_name(engine, "Ben")
    assert found is not None
    with engine.begin() as conn:  # a rating, as a rated game would leave
        standings.save_rating(conn, found[0].id, "counting", "basic", gid, 30.0, 2.0, 9)
    assert [r["name"] for r in standings.board(engine, "counting", "basic")] == ["Ben"]
    phone = Browser(server)
    phone.sign("login", "Ben")
    assert ben.me()["name"] == phone.me()["name"] == "Ben"

    result = admin(db, "suspend", "BEN")
    assert result.exit_code == 0, result.output
    assert "Ben: suspended" in result.stdout
    assert ben.me() is None and phone.me() is None  # signed out everywhere
    assert Browser(server).sign("login", "Ben").status_code == 403
    assert standings.board(engine, "counting", "basic") == []
    # its games stay
    seats = server.get(f"/api/games/{gid}").json()["seats"]
    assert seats[1]["name"] == "Benny"

    result = admin(db, "suspend", "Ben", "--lift")
    assert result.exit_code == 0 and "lifted" in result.stdout
    assert Browser(server).sign("login", "Ben").status_code == 200
    assert [r["name"] for r in standings.board(engine, "counting", "basic")] == ["Ben"]


def test_a_suspended_account_cannot_be_challenged_and_its_challenges_close(
    server: TestClient, db: str
) -> None:
    ann, ben = Browser(server), Browser(server)
    ann.sign("signup", "Ann")
    ben.sign("signup", "Ben")
    made = ben.request(
        "POST", "/api/challenges", json={"to": "Ann", "game": "counting", "mode": "basic"}
    )
    assert made.status_code == 200
    assert admin(db, "suspend", "Ben").exit_code == 0
    assert ann.request("GET", "/api/challenges").json()["incoming"][0]["status"] == "withdrawn"
    r = ann.request(
        "POST", "/api/challenges", json={"to": "Ben", "game": "counting", "mode": "basic"}
    )
    assert r.status_code == 404


def test_an_unknown_name_is_one_line_and_exit_2(server: TestClient, db: str) -> None:
    result = admin(db, "suspend", "Nobody")
    assert result.exit_code == 2
    assert result.stderr.strip() == "error: no account is called 'Nobody'"


def test_a_database_polis_did_not_make_is_refused_unchanged(tmp_path: Path) -> None:
    missing = tmp_path / "none.db"
    result = admin(f"sqlite:///{missing}", "reports")
    assert result.exit_code == 2 and "no such file" in result.stderr
    assert not missing.exists()
    import sqlite3

    other = tmp_path / "other.db"
    sqlite3.connect(other).close()
    other.write_bytes(b"")
    result = admin(f"sqlite:///{other}", "reports")
    assert result.exit_code == 2 and "holds no polis games" in result.stderr


def test_without_the_server_extra_it_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, db: str
) -> None:
    monkeypatch.setitem(sys.modules, "fastapi", None)
    result = admin(db, "reports")
    assert result.exit_code == 2
    assert "polis admin needs the 'server' extra of polis (fastapi missing)" in result.stderr
