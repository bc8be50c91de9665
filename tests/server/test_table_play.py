"""Complete games played as people play them: by taps on a phone and a tablet (touch emulation,
a move confirmed before it is sent) and by the keyboard alone. Along the way the page never
scrolls sideways, the action bar stays on screen, the buttons are big enough for a finger, and
no frame the server sends shows another seat's secrets."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .browser_helpers import (
    BROWSER_TESTS,
    FrameLog,
    ServerProcess,
    create_game,
    focused,
    keyboard_metropolys_move,
    keyboard_quadropolis_move,
    log_keys,
    metropolys_move,
    new_context,
    overflow,
    page_errors,
    play_with,
    quadropolis_move,
    small_targets,
    tab_to,
    tap,
)
from .test_server_browser import (
    assert_log_worded,
    assert_no_hidden_quadropolis_facts,
    assert_no_other_metropolys_cards,
)
from .test_table_features import server_file as catalogue

pytestmark = BROWSER_TESTS

SEATS = [{"name": "Ada", "kind": "human"}, {"name": "Robo", "kind": "bot", "level": "easy"}]
MODES = {"quadropolis": "classic", "metropolys": "family"}


def check_screen(page: Any, touch: bool) -> None:
    """On the player's turn: nothing sticks out, the action bar is on screen, and (on a touch
    screen) its buttons are at least 44 px."""
    assert overflow(page) == []
    box = page.locator("#controls").bounding_box()
    height = page.viewport_size["height"]
    assert box is not None and box["y"] < height and box["y"] + min(box["height"], 60) <= height
    if touch:
        assert small_targets(page, "#controls button") == []


def secrets_checked(frames: FrameLog, server: ServerProcess, game: str, gid: str) -> None:
    record = server.api(f"/api/games/{gid}/record")
    if game == "quadropolis":
        assert_no_hidden_quadropolis_facts(frames, record)
    else:
        assert_no_other_metropolys_cards(frames, record, seat=0)
    frames.assert_moves_came_from_choices()


@pytest.mark.parametrize(
    ("game", "width", "height"),
    [
        ("quadropolis", 390, 844),
        ("metropolys", 390, 844),
        ("quadropolis", 820, 1180),
        ("metropolys", 820, 1180),
    ],
)
def test_a_whole_game_by_taps(
    server: ServerProcess, browser: Any, game: str, width: int, height: int
) -> None:
    context = new_context(browser, width, height, touch=True)
    page = context.new_page()
    errors = page_errors(page)
    frames = FrameLog(page)
    made = create_game(server, game, MODES[game], SEATS)
    page.goto(made["seats"][0]["invite"])
    page.wait_for_selector("#site" if game == "quadropolis" else "#metro-board")
    assert page.evaluate("matchMedia('(pointer: coarse)').matches")
    acted: list[str] = []

    def act(selector: str) -> None:
        acted.append(selector)
        tap(page, selector)

    checked = 0
    seen: list[str] = []  # what the table said, to look for the other seat's secrets later

    def move(pg: Any, turn: int) -> None:
        nonlocal checked
        if turn % 4 == 0:
            check_screen(pg, touch=True)
            checked += 1
            seen.append(pg.inner_text("#table"))
        if game == "quadropolis":
            if turn == 0:  # the board's own targets are finger-sized too
                assert small_targets(pg, "#site .spot .hit, #my-city .cell-bg") == []
            quadropolis_move(pg, act)
        else:
            if turn == 0:  # a neighbourhood is as large as the board allows on a phone
                least = 44 if width >= 800 else 30
                assert small_targets(pg, "#metro-board .field.legal .hit", least) == []
            metropolys_move(pg, act, turn)

    turns = play_with(page, move)
    assert turns >= 10 and checked >= 3
    assert acted.count("#confirm-move") == turns  # a touch screen confirms every move
    frames_sent = frames.moves_sent()
    assert len(frames_sent) == turns  # one move per confirmed choice, none lost, none doubled
    gid = made["id"]
    secrets_checked(frames, server, game, gid)
    if game == "metropolys":  # the bot's secret card was never on the screen before the end
        setup = server.api(f"/api/games/{gid}/record")["setup"]
        mine, theirs = setup["area_cards"]
        words = json.loads(catalogue("metropolys", "en"))
        if mine != theirs:
            assert not [text for text in seen if words[f"area.{theirs}"] in text]
    page.wait_for_selector("#winner")
    assert overflow(page) == []
    assert_log_worded(page, "Ada", "Robo")
    assert "game_ended" in log_keys(page)
    assert errors == []
    context.close()


@pytest.mark.parametrize("game", ["quadropolis", "metropolys"])
def test_a_whole_game_by_the_keyboard_alone(server: ServerProcess, browser: Any, game: str) -> None:
    context = new_context(browser)
    page = context.new_page()
    errors = page_errors(page)
    frames = FrameLog(page)
    # the lobby, by keyboard: choose the game, then start it
    page.goto(server.base + "/")
    page.wait_for_selector("#create")
    tab_to(page, "#game")
    for _ in range(4):
        if page.eval_on_selector("#game", "(el) => el.value") == game:
            break
        page.keyboard.press("ArrowDown")
    assert page.eval_on_selector("#game", "(el) => el.value") == game
    tab_to(page, "#create")
    page.keyboard.press("Enter")
    page.wait_for_selector("#site" if game == "quadropolis" else "#metro-board")

    def move(pg: Any, turn: int) -> None:
        if game == "quadropolis":
            if turn == 0:
                # the arrows move between the site's spots and squares; focus is drawn;
                # Escape goes back to the spot offered
                tab_to(pg, "button.architect")
                pg.keyboard.press("Enter")
                pg.wait_for_function("() => document.activeElement?.matches('.spot.legal')")
                first = pg.evaluate("document.activeElement.dataset.spot")
                pg.keyboard.press("ArrowRight")
                assert focused(pg, "#site .sq, #site .spot")
                assert pg.evaluate("document.activeElement.dataset.spot") != first
                ring = pg.evaluate(
                    "getComputedStyle(document.activeElement.querySelector('.focus-ring'))"
                    ".visibility"
                )
                assert ring == "visible"
                pg.keyboard.press("Escape")
                assert pg.evaluate("document.activeElement.dataset.spot") == first
                pg.keyboard.press("Enter")
                pg.wait_for_function(
                    "() => document.activeElement?.matches("
                    "'#my-city .cell.legal, #discard, #take-nothing')"
                )
                pg.keyboard.press("Enter")
                return
            keyboard_quadropolis_move(pg)
        else:
            if turn == 0:
                tab_to(pg, "#metro-board .field.legal")
                first = pg.evaluate("document.activeElement.dataset.field")
                pg.keyboard.press("ArrowDown")
                assert focused(pg, "#metro-board .field")
                assert pg.evaluate("document.activeElement.dataset.field") != first
                pg.keyboard.press("Escape")
                assert pg.evaluate("document.activeElement.dataset.field") == first
            keyboard_metropolys_move(pg, turn)

    turns = play_with(page, move)
    assert turns >= 10
    gid = page.evaluate("location.hash.split('/')[2]")
    secrets_checked(frames, server, game, gid)
    page.wait_for_selector("#winner")
    # the end screen by keyboard: the replay buttons take focus and work
    tab_to(page, "#replay-start")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('#log').dataset.position === '0'")
    assert errors == []
    context.close()
