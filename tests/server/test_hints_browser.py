"""In a real browser: "Suggest a move" at a table against a bot shows the suggested move with
why, and the review of a finished game opens from its end screen, by keyboard, and lists
every move; both pass axe-core and fit a phone."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser_helpers import (
    BROWSER_TESTS,
    ServerProcess,
    axe_problems,
    finished,
    new_context,
    page_errors,
    shoot,
    tab_to,
)

pytestmark = BROWSER_TESTS

#: Small budgets: a hint and a reviewed move take a fraction of a second.
SMALL = {
    "POLIS_HINT_AGENT": "mcts:16i",
    "POLIS_HINT_SAMPLES": "4",
    "POLIS_REVIEW_AGENT": "mcts:8i",
    "POLIS_REVIEW_SAMPLES": "3",
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A real ``polis serve`` with small hint and review budgets."""
    folder = tmp_path_factory.mktemp("hints")
    srv = ServerProcess(f"sqlite:///{folder / 'polis.db'}", env=SMALL)
    srv.start()
    yield srv
    srv.kill()


@pytest.mark.parametrize("size", [(390, 844), (1366, 900)])
def test_suggest_a_move_against_a_bot(
    server: ServerProcess, browser: Any, shots: Path, size: tuple[int, int]
) -> None:
    seats = [{"name": "Ada", "kind": "human"}, {"name": "Bot", "kind": "bot", "level": "easy"}]
    made = server.api("/api/games", {"game": "metropolys", "mode": "family", "seats": seats})
    assert server.api(f"/api/games/{made['id']}")["hints"] is True
    context = new_context(browser, *size)
    page = context.new_page()
    errors = page_errors(page)
    page.goto(made["seats"][0]["invite"])
    page.wait_for_selector("#status.your-turn", timeout=60_000)
    assert page.text_content("#hints-state") == "Hints on"
    with page.expect_response(lambda r: r.url.endswith("/hint")) as answered:
        page.click("#hint-button")
    hint = answered.value.json()
    assert answered.value.status == 200, hint
    shown = page.wait_for_selector("#hint-answer[role='status']:not([aria-busy])")
    assert shown is not None
    words = shown.text_content() or ""
    assert words.startswith(f"Suggestion: {hint['move']}.") and "games played out" in words
    assert page.query_selector("#hint-button") is None  # one hint per position
    fields = hint["choice"]["fields"]  # the game's choice of the move: highlighted on the board
    hinted = page.query_selector_all("#metro-board .field.hinted")
    assert [h.get_attribute("data-field") for h in hinted] == [str(f["field"]) for f in fields]
    assert axe_problems(page) == []
    shoot(page, shots, f"hint-{size[0]}x{size[1]}")
    assert not errors, errors
    context.close()


def test_the_review_of_a_finished_game_opens_from_its_end(
    server: ServerProcess, browser: Any, shots: Path
) -> None:
    bots = [{"name": n, "kind": "bot", "level": "easy"} for n in ("Ann", "Bea")]
    made = server.api("/api/games", {"game": "metropolys", "mode": "family", "seats": bots})
    gid = made["id"]
    finished(server, gid)
    moves = len(server.api(f"/api/games/{gid}/record")["moves"])
    context = new_context(browser, 390, 844)
    page = context.new_page()
    errors = page_errors(page)
    page.goto(f"{server.base}/#/game/{gid}")
    page.wait_for_selector("#scorepad")
    tab_to(page, "#review-link", limit=200)  # by keyboard from the end screen
    page.keyboard.press("Enter")
    page.wait_for_selector("#review-table", timeout=120_000)
    rows = page.query_selector_all("#review-table tbody tr")
    assert len(rows) == moves
    assert "Biggest mistakes" in page.text_content("#review")
    worst = page.text_content("#review .review-worst") or ""
    if "at move" in worst:  # a bot is named with its level, brackets never nested
        assert re.search(r"\((Ann|Bea), easy\)", worst) and "))" not in worst, worst
    assert axe_problems(page) == []
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the review is {width} px wide on a 390 px phone"
    shoot(page, shots, "review-390x844")
    page.set_viewport_size({"width": 1366, "height": 900})
    shoot(page, shots, "review-1366x900")
    page.click("#review-back")
    page.wait_for_selector("#scorepad")
    assert not errors, errors
    context.close()


def test_the_lobby_offers_hints_as_each_table_would_have_them(
    server: ServerProcess, browser: Any
) -> None:
    """On against bots and at a hot-seat table, off once another person plays elsewhere; what
    the box shows is what the table gets."""
    context = new_context(browser, 390, 844)
    page = context.new_page()
    page.goto(server.base)
    page.wait_for_selector("#hints")
    assert page.is_checked("#hints")  # one person and a bot
    page.select_option(".seat-row[data-seat='1'] select.kind", "human")
    assert page.is_checked("#hints")  # both seats played here: hot-seat
    page.uncheck(".seat-row[data-seat='1'] input.here")
    assert not page.is_checked("#hints")  # another person, with an invite
    page.click("#create")
    page.wait_for_selector(".invite-link")
    link = page.get_attribute(".invite-link", "value") or ""
    game_id = link.split("/game/")[1].split("/")[0]
    assert server.api(f"/api/games/{game_id}")["hints"] is False
    context.close()
