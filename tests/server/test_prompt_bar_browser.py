"""The prompt bar (issue 40, item 4): one bar at the top of the table with the status, what to
do now and the buttons of the step, on a phone (390x844, by taps) and a laptop (1366x900), in
both games, for a hot-seat device, a spectator and a replay.

At every step of a few moves of each game: the status, the instruction and every button of the
step are inside the bar and nowhere else; the bar is on the screen without scrolling, above the
board (it covers none of it before the page scrolls) and stuck to the top once the page
scrolls; the page never scrolls sideways. The keyboard reaches the bar's buttons and the board
between them, a focused piece never hides under the bar, screen readers hear the new status and
instruction once, and axe-core finds nothing serious.

Set POLIS_SCREENSHOTS to a folder to keep the pictures (and look at them)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .browser_helpers import (
    BROWSER_TESTS,
    ServerProcess,
    axe_problems,
    create_game,
    finished,
    metropolys_move,
    new_context,
    page_errors,
    position,
    quadropolis_move,
    tab_to,
    tap,
    wait_position,
    wait_turn_or_end,
)

pytestmark = BROWSER_TESTS

PHONE = (390, 844)
LAPTOP = (1366, 900)
SEATS = [{"name": "Ada", "kind": "human"}, {"name": "Robo", "kind": "bot", "level": "easy"}]
MODES = {"quadropolis": "classic", "metropolys": "family"}
#: Every button of a step the games and the table draw (choices, pass, discard, cancel,
#: confirm, the hot-seat cover's).
STEP_BUTTONS = (
    "button.architect, button.value, button.field-choice, #pass, #cancel, #discard,"
    " #take-nothing, #confirm-move, #confirm-cancel, #handover-ok"
)

#: JavaScript: where the bar is and what it holds, and what of its parts is elsewhere.
BAR = """(buttons) => {
  const bar = document.querySelector('#prompt-bar');
  const r = bar.getBoundingClientRect();
  const board = document.querySelector('#board').getBoundingClientRect();
  const status = document.querySelector('#status');
  const prompt = document.querySelector('#prompt');
  const all = [...document.querySelectorAll(buttons)];
  const main = document.querySelector('#main').innerText;
  return {
    top: r.top, bottom: r.bottom, height: r.height, vh: innerHeight, vw: innerWidth,
    boardTop: board.top, scrolled: scrollY,
    status: status.textContent, statusInBar: bar.contains(status),
    statusTimes: main.split(status.textContent).length - 1,
    prompt: prompt && !prompt.hidden ? prompt.textContent : '',
    promptInBar: !!prompt && bar.contains(prompt),
    instructions: document.querySelectorAll('#prompt, .step').length,
    buttons: all.filter((el) => bar.contains(el)).length,
    outside: all.filter((el) => !bar.contains(el)).map((el) => el.id || el.className),
    sideways: document.documentElement.scrollWidth > document.documentElement.clientWidth,
    live: !!bar.closest('[aria-live], [role=status], [role=alert], [role=log]')
      || !!bar.querySelector('[aria-live], [role=status], [role=alert], [role=log]'),
  };
}"""


def bar_state(page: Any) -> dict[str, Any]:
    state: dict[str, Any] = page.evaluate(BAR, STEP_BUTTONS)
    return state


def check_bar(page: Any, where: str) -> dict[str, Any]:
    """The bar as it must be at every step (``where`` names the step in a failure)."""
    bar = bar_state(page)
    assert bar["statusInBar"] and bar["promptInBar"], (where, bar)
    assert bar["status"], (where, bar)
    assert bar["statusTimes"] == 1, (where, bar)  # the status is said in one place
    assert bar["instructions"] == 1, (where, bar)  # one instruction, the bar's
    assert bar["outside"] == [], (where, bar)  # every button of the step is in the bar
    assert not bar["sideways"], (where, bar)
    assert not bar["live"], (where, bar)  # heard through the page's live region, once
    # visible without scrolling, whole, and no taller than half the screen
    assert bar["top"] >= -1 and bar["bottom"] <= bar["vh"] + 1, (where, bar)
    assert bar["height"] <= bar["vh"] / 2, (where, bar)
    if bar["vw"] < 600:  # stuck to the top of a phone: at most a third of its screen
        assert bar["height"] <= bar["vh"] / 3, (where, bar)
    return bar


def check_top(page: Any, where: str) -> None:
    """At the top of the page the bar lies above the board: it covers none of it."""
    page.evaluate("window.scrollTo(0, 0)")
    bar = check_bar(page, where)
    assert bar["bottom"] <= bar["boardTop"] + 1, (where, bar)


def check_stuck(page: Any, where: str) -> None:
    """Scrolled down, the bar stays at the top of the screen."""
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    bar = check_bar(page, where)
    assert bar["scrolled"] > 0 and abs(bar["top"]) <= 1, (where, bar)
    page.evaluate("window.scrollTo(0, 0)")


def open_table(browser: Any, size: tuple[int, int], url: str, *, dark: bool = False) -> Any:
    width, height = size
    context = new_context(browser, width, height, touch=width < 600, dark=dark)
    page = context.new_page()
    page.goto(url)
    return page


# -- every step of a few moves, by clicks and taps ----------------------------------------------


@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["phone", "laptop"])
@pytest.mark.parametrize("game", ["quadropolis", "metropolys"])
def test_the_bar_holds_the_status_the_instruction_and_the_buttons_at_every_step(
    server: ServerProcess, browser: Any, shots: Path, game: str, size: tuple[int, int]
) -> None:
    made = create_game(server, game, MODES[game], SEATS, seed=11)
    page = open_table(browser, size, made["seats"][0]["invite"])
    context = page.context
    errors = page_errors(page)
    name = f"{game}-{size[0]}x{size[1]}"
    touch = size[0] < 600
    steps = 0
    acted: list[str] = []

    def act(selector: str) -> None:
        nonlocal steps
        acted.append(selector)
        if touch:
            tap(page, selector)
        else:
            page.locator(selector).first.click()
        steps += 1
        check_bar(page, f"after {selector}")
        if steps == 1:  # a step under way: what the screen shows, in both themes
            for theme in ("light", "dark"):
                page.emulate_media(color_scheme=theme)
                page.screenshot(path=shots / f"prompt-bar-{name}-{theme}.png")
                page.evaluate("window.scrollTo(0, 0)")
                page.screenshot(path=shots / f"prompt-bar-{name}-{theme}-top.png")
            page.emulate_media(color_scheme="light")
            assert axe_problems(page) == []

    for turn in range(3):
        assert wait_turn_or_end(page)
        check_top(page, f"turn {turn}")
        bar = check_bar(page, f"turn {turn}")
        assert bar["prompt"] and bar["status"] in ("Your turn.", "Your turn")
        if turn == 0:
            check_stuck(page, "turn 0, scrolled")
        before = position(page)
        if game == "quadropolis":
            quadropolis_move(page, act)
        else:
            metropolys_move(page, act, turn)
        wait_position(page, f"> {before}")
    assert steps >= 4  # a move of a few steps at least
    if touch:  # a touch screen confirms each move (in the bar, as act checked)
        assert acted.count("#confirm-move") == 3
    assert errors == []
    context.close()


# -- the keyboard --------------------------------------------------------------------------------

#: JavaScript: the focused element is on the screen and not under the bar.
CLEAR_OF_BAR = """() => {
  const el = document.activeElement;
  const bar = document.querySelector('#prompt-bar');
  if (!el || el === document.body) return 'no focus';
  if (bar.contains(el)) return 'in the bar';
  const r = el.getBoundingClientRect(), b = bar.getBoundingClientRect();
  if (r.bottom > innerHeight + 1 || r.top < -1) return `off the screen: ${r.top}..${r.bottom}`;
  if (r.top < b.bottom - 1 && r.bottom > b.top + 1) return `under the bar: ${r.top} < ${b.bottom}`;
  return 'clear';
}"""


def press(page: Any, key: str, then: str) -> None:
    """Press ``key`` and wait until the focus matches ``then``."""
    page.keyboard.press(key)
    page.wait_for_function(f"() => !!document.activeElement?.matches({then!r})")


def in_bar(page: Any) -> bool:
    return bool(
        page.evaluate("document.querySelector('#prompt-bar').contains(document.activeElement)")
    )


@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["narrow", "laptop"])
@pytest.mark.parametrize("game", ["quadropolis", "metropolys"])
def test_the_keyboard_reaches_the_bars_buttons_and_pieces_stay_clear_of_it(
    server: ServerProcess, browser: Any, game: str, size: tuple[int, int]
) -> None:
    made = create_game(server, game, MODES[game], SEATS, seed=12)
    context = new_context(browser, *size)  # a keyboard, no touch
    page = context.new_page()
    page.add_init_script("localStorage.setItem('polis:prefs', JSON.stringify({confirm: true}))")
    errors = page_errors(page)
    page.goto(made["seats"][0]["invite"])
    for turn in range(2):
        assert wait_turn_or_end(page)
        before = position(page)
        if turn:  # the turn comes back: the focus is in the bar (its first button, if any)
            page.wait_for_function(
                "() => document.querySelector('#prompt-bar').contains(document.activeElement)"
            )
        if game == "quadropolis":
            tab_to(page, "button.architect")
            assert in_bar(page)
            press(page, "Enter", "#site .spot.legal")
            assert page.evaluate(CLEAR_OF_BAR) == "clear"
            press(page, "Enter", "#my-city .cell.legal, #discard, #take-nothing")
            assert page.evaluate(CLEAR_OF_BAR) in ("clear", "in the bar")
        else:
            can_bid = page.query_selector("g.field.legal") is not None
            if can_bid and (turn == 0 or page.query_selector("#pass") is None):
                tab_to(page, "#metro-board .field.legal")
                assert page.evaluate(CLEAR_OF_BAR) == "clear"
                press(page, "Enter", "button.value")
                assert in_bar(page)
            else:
                tab_to(page, "#pass")
                assert in_bar(page)
        press(page, "Enter", "#confirm-move")  # the move to confirm, in the bar
        assert in_bar(page)
        bar = bar_state(page)
        assert bar["buttons"] == 2 and bar["prompt"].startswith("Your move: ")
        press(page, "Enter", "#prompt-bar *")  # sent: the focus waits in the bar
        assert in_bar(page)
        wait_position(page, f"> {before}")
    assert errors == []
    context.close()


# -- what screen readers hear --------------------------------------------------------------------


def test_screen_readers_hear_the_new_status_and_instruction_once(
    server: ServerProcess, browser: Any
) -> None:
    made = create_game(server, "quadropolis", "classic", SEATS, seed=13)
    page = open_table(browser, LAPTOP, made["seats"][0]["invite"])
    assert wait_turn_or_end(page)
    before = position(page)
    page.click("button.architect")
    prompt = page.inner_text("#prompt")
    page.wait_for_function(
        "(text) => document.querySelector('#announce').textContent.includes(text)", arg=prompt
    )
    assert page.inner_text("#announce").count(prompt) == 1  # the new instruction, once
    page.click("g.spot.legal")
    page.click("#my-city g.cell.legal, #take-nothing, #discard")
    wait_position(page, f"> {before + 1}")  # the bot has answered
    page.wait_for_function("() => document.querySelector('#announce').textContent.includes('Robo')")
    page.wait_for_function(
        "() => document.querySelector('#announce').textContent.includes('Your turn.')"
    )
    said = page.inner_text("#announce")
    assert said.count("Your turn.") == 1
    assert said.count("Choose an Architect.") == 1
    assert said.index("Robo") < said.index("Your turn.")  # what happened, then the new turn
    page.context.close()


# -- a hot-seat device, a spectator, a replay ----------------------------------------------------


def test_a_hot_seat_cover_a_spectator_and_a_replay_have_the_bar_too(
    server: ServerProcess, browser: Any, shots: Path
) -> None:
    # two people on one device, with secrets: the bar asks to pass the device on
    seats = [{"name": "Ada", "kind": "human"}, {"name": "Lin", "kind": "human"}]
    made = create_game(server, "metropolys", "family", seats)
    context = new_context(browser, *PHONE, touch=True)
    page = context.new_page()
    errors = page_errors(page)
    for seat in (0, 1):  # both seats held on this device
        page.goto(made["seats"][seat]["invite"])
        page.wait_for_selector(f"#seats li[data-seat='{seat}'] .badge")
    page.wait_for_selector("#handover")
    bar = check_bar(page, "the hot-seat cover")
    assert bar["prompt"].startswith("Pass the device to ")
    assert page.query_selector("#prompt-bar #handover-ok") is not None
    who = bar["prompt"].removeprefix("Pass the device to ").rstrip(".")
    assert page.query_selector("#board #handover") is not None
    assert "Pass the device" not in page.inner_text("#handover")  # said once: in the bar
    page.screenshot(path=shots / "prompt-bar-hot-seat-390x844.png")
    assert axe_problems(page) == []
    tap(page, "#handover-ok")
    page.wait_for_selector("#my-cards")
    bar = check_bar(page, "the hot-seat turn")
    assert bar["status"] == f"Your turn as {who}."
    context.close()

    # a spectator: whom the table waits for, nothing to press
    watched = create_game(server, "quadropolis", "classic", SEATS, seed=14)
    page = open_table(browser, LAPTOP, watched["watch"])
    context = page.context
    watching = page_errors(page)
    page.wait_for_function(
        "() => document.querySelector('#status')?.textContent === 'Waiting for Ada…'"
    )
    bar = check_bar(page, "a spectator")
    assert bar["status"] == "Waiting for Ada…" and bar["prompt"] == "" and bar["buttons"] == 0
    assert axe_problems(page) == []

    # a finished game's replay: the bar says where the replay is
    bots = [{"name": n, "kind": "bot", "level": "easy"} for n in ("Robo", "Zed")]
    ended = create_game(server, "metropolys", "family", bots)
    finished(server, ended["id"])
    page.goto(ended["watch"])
    page.wait_for_selector("#winner")
    assert check_bar(page, "the end")["status"] == "The game is over."
    page.click("#replay-start")
    page.wait_for_function("() => document.querySelector('#log').dataset.position === '0'")
    bar = check_bar(page, "the replay")
    assert bar["status"].startswith("Replay: move 0 of ") and bar["buttons"] == 0
    page.click("#replay-next")
    page.wait_for_function(
        "() => document.querySelector('#status').textContent.startsWith('Replay: move 1 of ')"
    )
    page.screenshot(path=shots / "prompt-bar-replay-1366x900.png")
    assert axe_problems(page) == []
    assert errors == [] and watching == []
    context.close()
