"""Upgrades lose nothing: a database written by release 0.1.0 (the fixtures in fixtures/, made
by that release's own store) upgrades at start-up with every game, seat and move intact, its
games go on, and the migrations make exactly the tables the code defines.

Runs on SQLite, and on PostgreSQL too when ``POLIS_TEST_PG_URL`` is set (the dump is loaded
into a database of the test's own).
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import shutil
import threading
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, inspect, text

import polis.server
from polis.server.store import migrate
from polis.server.store.games import Store, normalise_url
from polis.server.store.schema import Base
from polis.server.table.seats import token_matches

from .conftest import make_app

FIXTURES = Path(__file__).parent / "fixtures"
MANIFEST: dict[str, Any] = json.loads((FIXTURES / "release-0.1.0.json").read_text("utf-8"))
GAMES = {g["id"]: g for g in MANIFEST["games"]}


def load_dump(url: str, dump: Path) -> None:
    """Load a plain ``pg_dump`` file (psql's backslash commands left out: the dump is ours)."""
    sql = "\n".join(
        line for line in dump.read_text("utf-8").splitlines() if not line.startswith("\\")
    )
    engine = create_engine(normalise_url(url), isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.exec_driver_sql(sql)
    engine.dispose()


@pytest.fixture
def release_db(empty_db_url: str) -> str:
    """An empty database of the test (see conftest) holding what release 0.1.0 wrote."""
    if empty_db_url.startswith("sqlite"):
        shutil.copyfile(FIXTURES / "release-0.1.0.db", empty_db_url.removeprefix("sqlite:///"))
    else:
        load_dump(empty_db_url, FIXTURES / "release-0.1.0.sql")
    return empty_db_url


def revision(url: str) -> str | None:
    engine = create_engine(normalise_url(url))
    with engine.connect() as conn:
        found = migrate.current(conn)
    engine.dispose()
    return found


def test_the_release_fixture_upgrades_with_every_game_seat_and_move_intact(
    release_db: str,
) -> None:
    assert revision(release_db) is None  # written before migrations
    store = Store(release_db)
    try:
        assert revision(release_db) == migrate.head()
        assert store.count_games() == len(GAMES) == 6
        for gid, expected in GAMES.items():
            stored = store.load(gid)
            assert stored is not None, gid
            assert (stored.game, stored.mode, stored.seed) == (
                expected["game"],
                expected["mode"],
                expected["seed"],
            )
            assert stored.moves == expected["moves"], gid
            assert stored.finished == expected["finished"]
            assert stored.rematch_of == expected["rematch_of"]
            assert stored.rematch_id == expected.get("rematch_id")
            assert len(stored.seats) == len(expected["seats"])
            for seat, want in zip(stored.seats, expected["seats"], strict=True):
                assert (seat.name, seat.kind, seat.level) == (
                    want["name"],
                    want["kind"],
                    want["level"],
                )
                if want["token"] is None:
                    assert seat.token_hash is None
                else:
                    assert token_matches(want["token"], seat.token_hash)
        # what the new columns say of the old games: listed as before, no seat open
        assert {g["id"] for g in store.recent(30)} == set(GAMES)
        assert store.open_tables(30) == []
    finally:
        store.close()
    # a second start finds the database at the head and changes nothing
    Store(release_db).close()
    assert revision(release_db) == migrate.head()


def next_state(ws: Any, position: int) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg.get("type") == "state" and msg["position"] >= position:
            return msg
        assert msg.get("type") != "error", msg


def test_games_of_the_release_fixture_go_on_after_the_upgrade(release_db: str) -> None:
    with TestClient(make_app(release_db)) as client:
        # an unfinished game of people (stored the way the first release stored seeds) and
        # one of a person and a bot: the person to move moves, and the move is stored
        for gid in ("fxMetrOld006", "fxMetrOpen04"):
            game = GAMES[gid]
            summary = client.get(f"/api/games/{gid}").json()
            assert summary["position"] == len(game["moves"])
            seat = summary["current_player"]
            token = game["seats"][seat]["token"]
            assert token is not None, "the fixture's game waits for a person"
            with client.websocket_connect(f"/ws/{gid}") as ws:
                ws.send_json({"type": "hello", "token": token})
                state = next_state(ws, 0)
                assert state["seat"] == seat and state["legal"]
                ws.send_json(
                    {"type": "move", "move": state["legal"][0], "position": len(game["moves"])}
                )
                after = next_state(ws, len(game["moves"]) + 1)
            assert after["position"] >= len(game["moves"]) + 1
        # the finished game: its record and replays, and the rematch link
        record = client.get("/api/games/fxQuadDone02/record")
        assert record.status_code == 200
        assert record.json()["moves"] == GAMES["fxQuadDone02"]["moves"]
        assert client.get("/api/games/fxQuadDone02").json()["rematch_id"] == "fxQuadRema03"
        replay = client.get("/api/games/fxMetrDone05/replay/10").json()
        assert replay["position"] == 10 and replay["total"] == 147
        # the rematch's seat the release had not yet given out can still be claimed
        made = client.post(
            "/api/games/fxQuadDone02/rematch",
            json={"tokens": [GAMES["fxQuadDone02"]["seats"][1]["token"]]},
        )
        assert made.status_code == 200, made.text
        assert made.json() == {"id": "fxQuadRema03", "tokens": {"1": made.json()["tokens"]["1"]}}
    store = Store(release_db)
    try:
        for gid in ("fxMetrOld006", "fxMetrOpen04"):
            stored = store.load(gid)
            assert stored is not None
            assert stored.moves[: len(GAMES[gid]["moves"])] == GAMES[gid]["moves"]
            assert len(stored.moves) > len(GAMES[gid]["moves"])
    finally:
        store.close()


FIRST_RELEASE = [
    "CREATE TABLE polis_games (id VARCHAR(32) PRIMARY KEY, game VARCHAR(32) NOT NULL, "
    "mode VARCHAR(16) NOT NULL, players INTEGER NOT NULL, seed INTEGER, setup TEXT NOT NULL, "
    "options TEXT NOT NULL, position INTEGER NOT NULL, finished INTEGER NOT NULL, result TEXT, "
    "rematch_of VARCHAR(32), rematch_id VARCHAR(32), created TIMESTAMP WITH TIME ZONE NOT NULL, "
    "updated TIMESTAMP WITH TIME ZONE NOT NULL)",
    "CREATE TABLE polis_seats (game_id VARCHAR(32) NOT NULL REFERENCES polis_games (id), "
    "seat INTEGER NOT NULL, name VARCHAR(64) NOT NULL, kind VARCHAR(8) NOT NULL, "
    "level VARCHAR(16), token_hash VARCHAR(64), PRIMARY KEY (game_id, seat))",
    "CREATE TABLE polis_moves (game_id VARCHAR(32) NOT NULL REFERENCES polis_games (id), "
    "idx INTEGER NOT NULL, text VARCHAR(64) NOT NULL, created TIMESTAMP WITH TIME ZONE NOT NULL, "
    "PRIMARY KEY (game_id, idx))",
    "INSERT INTO polis_games VALUES ('first', 'counting', 'basic', 2, 7, '{}', '{}', 1, 0, "
    "NULL, NULL, NULL, '2025-01-01 00:00:00+00:00', '2025-01-01 00:00:00+00:00')",
    "INSERT INTO polis_seats VALUES ('first', 0, 'Ada', 'human', NULL, NULL)",
    "INSERT INTO polis_seats VALUES ('first', 1, 'Bot', 'bot', 'easy', NULL)",
    "INSERT INTO polis_moves VALUES ('first', 0, '2', '2025-01-01 00:00:00+00:00')",
]


def test_a_first_release_database_gets_the_columns_later_releases_added(empty_db_url: str) -> None:
    engine = create_engine(normalise_url(empty_db_url))
    with engine.begin() as conn:
        for statement in FIRST_RELEASE:
            conn.execute(text(statement))
    engine.dispose()
    store = Store(empty_db_url)
    try:
        stored = store.load("first")
        assert stored is not None
        assert (stored.seed, stored.moves, stored.seed_chosen, stored.bot_turn) == (
            7,
            ["2"],
            False,
            None,
        )
        columns = {c["name"] for c in inspect(store.engine).get_columns("polis_games")}
        assert {"seed_text", "seed_chosen", "bot_turn", "listed"} <= columns
    finally:
        store.close()
    assert revision(empty_db_url) == migrate.head()


def every_table_class() -> None:
    """Import every server module: the ones keeping tables of their own put them on ``Base``."""
    for info in pkgutil.walk_packages(polis.server.__path__, "polis.server."):
        if ".migrations" not in info.name:
            importlib.import_module(info.name)


def test_migrations_make_exactly_the_schema_tables(empty_db_url: str) -> None:
    every_table_class()
    migrate.upgrade(normalise_url(empty_db_url))
    engine = create_engine(normalise_url(empty_db_url))
    with engine.connect() as conn:
        context = MigrationContext.configure(
            conn, opts={"version_table": migrate.VERSION_TABLE, "compare_type": True}
        )
        differences = compare_metadata(context, Base.metadata)
    engine.dispose()
    assert differences == [], "a table class and the migrations disagree (add a revision)"


def test_every_revision_downgrades_and_upgrades_again(empty_db_url: str) -> None:
    url = normalise_url(empty_db_url)
    migrate.upgrade(url)
    engine = create_engine(url)
    with engine.begin() as conn:
        command.downgrade(migrate.config(conn), "base")
    with engine.connect() as conn:
        assert migrate.current(conn) is None
        assert not {"polis_games", "polis_seats", "polis_moves"} & set(
            inspect(conn).get_table_names()
        )
    engine.dispose()
    migrate.upgrade(url)
    assert revision(empty_db_url) == migrate.head()


def test_servers_starting_at_once_migrate_the_database_once(empty_db_url: str) -> None:
    stores: list[Store] = []
    failures: list[BaseException] = []

    def start() -> None:
        try:
            stores.append(Store(empty_db_url))
        except BaseException as exc:  # reported below
            failures.append(exc)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for store in stores:
        store.close()
    assert failures == []
    engine = create_engine(normalise_url(empty_db_url))
    with engine.connect() as conn:
        rows = conn.execute(text(f"SELECT version_num FROM {migrate.VERSION_TABLE}")).all()
    engine.dispose()
    assert rows == [(migrate.head(),)]


def test_the_schema_check_finds_a_column_no_migration_adds(empty_db_url: str) -> None:
    """The check above can fail: a column on a table class that no revision creates."""
    from sqlalchemy import Column, Integer, MetaData

    every_table_class()
    migrate.upgrade(normalise_url(empty_db_url))
    extended = MetaData()
    for table in Base.metadata.sorted_tables:
        table.to_metadata(extended)
    extended.tables["polis_games"].append_column(Column("forgotten", Integer, nullable=True))
    engine = create_engine(normalise_url(empty_db_url))
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"version_table": migrate.VERSION_TABLE})
        differences = compare_metadata(context, extended)
    engine.dispose()
    assert [d[0] for d in differences] == ["add_column"]
    assert differences[0][3].name == "forgotten"


PRE_ACCOUNTS = json.loads((FIXTURES / "pre-accounts.json").read_text("utf-8"))


def test_a_store_of_the_release_before_accounts_upgrades_with_nothing_lost(
    tmp_path: Path,
) -> None:
    """The last release before accounts (made by fixtures/make_pre_accounts_fixture.py with
    that release's code): every game, seat, token, move, clock and chat line is there after
    the upgrade, and the tables go on with their old links; a seat is then claimed into an
    account's games."""
    path = tmp_path / "pre.db"
    shutil.copyfile(FIXTURES / "pre-accounts.db", path)
    url = f"sqlite:///{path}"
    assert revision(url) == "0005_hints"
    with TestClient(make_app(url)) as client:
        assert revision(url) == migrate.head()
        for game in PRE_ACCOUNTS["games"]:
            summary = client.get(f"/api/games/{game['id']}").json()
            assert [s["name"] for s in summary["seats"]] == game["names"]
            assert summary["position"] == game["position"]
            assert summary["finished"] == game["finished"]
            assert summary["rated"] is False
            assert all(s["account"] is None for s in summary["seats"])
            for seat, token in game["tokens"].items():
                if token is None:
                    continue
                with client.websocket_connect(f"/ws/{game['id']}") as ws:
                    ws.send_json({"type": "hello", "token": token})
                    welcome = ws.receive_json()
                    assert welcome["type"] == "welcome" and welcome["seat"] == int(seat)
        first = PRE_ACCOUNTS["games"][0]
        with client.websocket_connect(f"/ws/{first['id']}") as ws:
            ws.send_json({"type": "hello", "token": first["tokens"]["0"]})
            welcome = ws.receive_json()
            assert [line["text"] for line in welcome["chat"]["lines"]] == [
                "hello from the old release"
            ]
            state = next_state(ws, first["position"])
            ws.send_json({"type": "move", "move": state["legal"][0], "position": state["position"]})
            assert next_state(ws, first["position"] + 1)["position"] > first["position"]
        clocked = PRE_ACCOUNTS["games"][2]
        with client.websocket_connect(f"/ws/{clocked['id']}") as ws:
            ws.send_json({"type": "hello", "token": clocked["tokens"]["0"]})
            state = next_state(ws, 0)
            assert state["clock"]["kind"] == "turn" and state["clock"]["increment"] == 86400
            assert state["rules"]["stand_in"] == "medium"
        # a guest's seat from before is claimed into an account
        r = client.post(
            "/api/account/signup", json={"name": "Oldtimer", "password": "a long secret 1"}
        )
        headers = {"X-CSRF-Token": r.json()["csrf"]}
        r = client.post(
            "/api/account/claim",
            json={"game_id": first["id"], "token": first["tokens"]["0"]},
            headers=headers,
        )
        assert r.status_code == 200
        mine = client.get("/api/account/games").json()
        assert first["id"] in [g["id"] for g in mine["turn"] + mine["playing"]]
