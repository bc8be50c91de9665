"""In a real browser: a person who closes their page at a table with a short away limit is
replaced by a bot, and the other player sees the bot play on for them and the game go on."""

from __future__ import annotations

from typing import Any

from .browser_helpers import (
    BROWSER_TESTS,
    ServerProcess,
    axe_problems,
    click_quadropolis_move,
    page_errors,
    position,
    wait_position,
    wait_turn_or_end,
)

pytestmark = BROWSER_TESTS


def test_an_abandoned_seat_is_taken_over_and_the_game_goes_on(
    server: ServerProcess, browser: Any
) -> None:
    people = [{"name": "Ada", "kind": "human"}, {"name": "Lin", "kind": "human"}]
    made = server.api(
        "/api/games",
        {
            "game": "quadropolis",
            "mode": "classic",
            "seats": people,
            "away_limit": 2,
            "stand_in": "easy",
        },
    )
    gid = made["id"]
    first = server.api(f"/api/games/{gid}")["current_player"]
    leaver, stayer = first, 1 - first
    pages = {}
    for seat in (leaver, stayer):
        context = browser.new_context(viewport={"width": 1366, "height": 900})
        page = context.new_page()
        pages[seat] = (context, page, page_errors(page))
        page.goto(made["seats"][seat]["invite"])
        page.wait_for_selector(f"#seats li[data-seat='{seat}'] .conn.on")
    context, page, errors = pages[stayer]
    assert position(page) == 0 and page.query_selector(".banner.stand-in") is None
    pages[leaver][0].close()  # the leaver closes their page on their turn
    # the other player sees a bot take the seat over and play for it
    banner = page.wait_for_selector(f"#stand-in-{leaver}", timeout=30_000)
    assert banner is not None
    assert people[leaver]["name"] in banner.text_content()
    assert "away" in banner.text_content()
    wait_position(page, "> 0")
    badge = page.wait_for_selector(f"#seats li[data-seat='{leaver}'] .badge.stand-in")
    assert badge is not None and "easy" in badge.text_content()
    assert "bot (easy)" in page.text_content("#log li.move-start[data-move='0']")
    assert axe_problems(page) == []  # the banner, the badge and the log's note read well
    # ... and the game goes on: the other player moves, the bot answers
    assert wait_turn_or_end(page)
    before = position(page)
    click_quadropolis_move(page)
    wait_position(page, f"> {before + 1}")
    # the leaver comes back through their link: the seat is theirs again
    back = browser.new_context(viewport={"width": 1366, "height": 900})
    again = back.new_page()
    again_errors = page_errors(again)
    again.goto(made["seats"][leaver]["invite"])
    page.wait_for_selector(f"#stand-in-{leaver}", state="detached")
    # ... then leaves with the button: at a table of two people without hints that is final,
    # and the dialog says so before the person confirms
    again.click("#resign-button")
    assert "cannot come back" in again.text_content("#resign-ask")
    assert again.text_content("#resign-ok") == "Leave for good"
    again.click("#resign-ok")
    page.wait_for_selector(f"#stand-in-{leaver}")
    mine = again.wait_for_selector(f"#stand-in-{leaver}")
    assert mine is not None and "until the end" in mine.text_content()
    assert again.query_selector(f"#stand-in-{leaver} button.reclaim") is None
    assert again.query_selector("#resign-button") is None  # nothing left to leave
    again.reload()  # the link again: the seat stays with its stand-in
    again.wait_for_selector(f"#stand-in-{leaver}")
    assert again.query_selector(f"#stand-in-{leaver} button.reclaim") is None
    assert not errors and not again_errors, errors + again_errors
    back.close()
    context.close()
