"""In a real browser: while the game store (PostgreSQL) is down the table says so in a banner
that every player sees, and the banner goes when the store is back."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest

from .browser_helpers import BROWSER_TESTS, axe_problems, page_errors, shoot
from .clients import PEOPLE, create_game, http
from .services import Serve, postgres

pytestmark = [*BROWSER_TESTS, pytest.mark.cluster]  # a PostgreSQL server of its own


def test_the_table_shows_while_the_store_is_unavailable(browser: Any, shots: Path) -> None:
    with postgres() as pg, Serve(pg.database(f"banner_{uuid.uuid4().hex[:8]}")) as srv:
        made = create_game(srv.base, PEOPLE)
        context = browser.new_context(viewport={"width": 1366, "height": 900})
        page = context.new_page()
        errors = page_errors(page)
        page.goto(made["seats"][0]["invite"])
        page.wait_for_selector("#seats li[data-seat='0'] .conn.on")
        assert page.query_selector("#store-down") is None

        pg.stop("immediate")
        assert http(srv.base, "/api/tables")[0] == 503  # (the server finds out at once)
        banner = page.wait_for_selector("#store-down", timeout=15_000)
        assert banner is not None and "store cannot be reached" in banner.text_content()
        assert banner.get_attribute("role") == "status"
        assert axe_problems(page) == []
        shoot(page, shots, "store-unavailable")

        pg.start()
        page.wait_for_selector("#store-down", state="detached", timeout=30_000)
        assert errors == []
        context.close()
