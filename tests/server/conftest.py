"""Shared fixtures: an app on the counting game with a throw-away SQLite file."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from polis.server import create_app

from .fakegame import get_game


def make_app(db_url: str) -> FastAPI:
    return create_app(
        db_url,
        get_game=get_game,
        game_names=("counting", "quadropolis", "metropolys"),
        bot_delay=0.0,
    )


DB_PARAMS = ["sqlite"] + (["postgresql"] if os.environ.get("POLIS_TEST_PG_URL") else [])


@pytest.fixture(params=DB_PARAMS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'polis.db'}"
        return
    url = os.environ["POLIS_TEST_PG_URL"]
    from sqlalchemy import create_engine, text

    from polis.server.store import normalise_url

    yield url
    engine = create_engine(normalise_url(url))
    with engine.begin() as conn:
        conn.execute(text("DROP TABLE IF EXISTS polis_moves, polis_seats, polis_games"))
    engine.dispose()


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(make_app(db_url)) as c:
        yield c


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives a real chromium through Playwright")
