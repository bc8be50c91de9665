"""Learn to play in the browser: each game's tutorial completed to its end by keyboard only at
1366x900 and by touch (taps) at 390x844, in each of the four languages, light and dark; a
move the step does not ask for is refused with its rule in words and the step stays; axe-core
finds no serious or critical violation on any chapter; a table's Rules dialog leads to the
tutorial and back; #/learn lists the games.

Set POLIS_SCREENSHOTS to a folder to keep the pictures (both sizes, both themes)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from polis.core.registry import get_game
from polis.server.http.routes.learn import tutorial_of

from .browser_helpers import (
    BROWSER_TESTS,
    ServerProcess,
    axe_problems,
    create_game,
    focused,
    new_context,
    page_errors,
    shoot,
    tab_to,
    tap,
)

pytestmark = BROWSER_TESTS

#: (language, way, dark): every language by keyboard and by touch, in both themes.
RUNS = [
    ("en", "keyboard", False),
    ("en", "touch", True),
    ("de", "keyboard", True),
    ("de", "touch", False),
    ("pl", "keyboard", False),
    ("pl", "touch", True),
    ("it", "keyboard", True),
    ("it", "touch", False),
]
GAMES = [name for name in ("quadropolis", "metropolys") if tutorial_of(get_game(name))]

#: JavaScript: the arrow key that moves focus towards ``selector`` on the board.
TOWARDS = """(sel) => {
  const a = document.activeElement.getBoundingClientRect();
  const b = document.querySelector(sel).getBoundingClientRect();
  const dx = b.left + b.width / 2 - (a.left + a.width / 2);
  const dy = b.top + b.height / 2 - (a.top + a.height / 2);
  if (Math.abs(dx) >= Math.abs(dy)) return dx > 0 ? 'ArrowRight' : 'ArrowLeft';
  return dy > 0 ? 'ArrowDown' : 'ArrowUp';
}"""


def steer(page: Any, selector: str, limit: int = 40) -> None:
    """Move the focus with the arrow keys (towards it) until it is on ``selector``."""
    for _ in range(limit):
        if focused(page, selector):
            return
        page.keyboard.press(page.evaluate(TOWARDS, selector))
    raise AssertionError(f"the arrows never reached {selector}")


def step_label(page: Any) -> str:
    return str(page.inner_text("#learn-step"))


def quadropolis_by_keyboard(page: Any) -> None:
    tab_to(page, "button.architect.hinted")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement?.matches('#site .spot.legal')")
    steer(page, "#site .spot.hinted")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement?.matches('#my-city .cell.legal')")
    steer(page, "#my-city .cell.learn-mark")
    page.keyboard.press("Enter")


def quadropolis_by_touch(page: Any) -> None:
    tap(page, "button.architect.hinted")
    tap(page, "#site .spot.hinted")
    tap(page, "#my-city .cell.learn-mark")


def quadropolis_refused(page: Any, act: Any) -> None:
    """A legal move the step does not ask for: another Architect, spot and square."""
    act("button.architect:not(.hinted)")
    act("#site .spot.legal")
    act("#my-city .cell.legal:not(.learn-mark)")


def metropolys_by_keyboard(page: Any) -> None:
    if page.query_selector("#pass.learn-mark") is not None:
        tab_to(page, "#pass")
        page.keyboard.press("Enter")
        return
    tab_to(page, "#metro-board .field.legal")
    steer(page, "#metro-board .field.learn-mark")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement?.matches('button.value')")
    tab_to(page, "button.value.learn-mark")
    page.keyboard.press("Enter")


def metropolys_by_touch(page: Any) -> None:
    if page.query_selector("#pass.learn-mark") is not None:
        tap(page, "#pass")
        return
    tap(page, "#metro-board .field.learn-mark .field-disc")
    tap(page, "button.value.learn-mark")


def metropolys_refused(page: Any, act: Any) -> None:
    """A legal bid the step does not ask for: another neighborhood."""
    act("#metro-board .field.legal:not(.learn-mark) .field-disc")
    act("button.value")


MOVES = {
    "quadropolis": {"keyboard": quadropolis_by_keyboard, "touch": quadropolis_by_touch},
    "metropolys": {"keyboard": metropolys_by_keyboard, "touch": metropolys_by_touch},
}
REFUSED = {"quadropolis": quadropolis_refused, "metropolys": metropolys_refused}


def complete(page: Any, game: str, way: str, shots: Path, tag: str) -> int:
    """Play the tutorial to its end, the way given; returns the steps taken. At each chapter's
    first step axe-core runs and a picture is taken."""
    act = (lambda sel: tap(page, sel)) if way == "touch" else None
    steps = 0
    seen_chapters: set[str] = set()
    refused = False
    while page.query_selector("#learn-play") is None:
        steps += 1
        assert steps < 60, "the tutorial never ends"
        chapter = page.get_attribute(".learn-chapter.current", "data-chapter") or ""
        if chapter not in seen_chapters:
            seen_chapters.add(chapter)
            assert axe_problems(page) == [], f"{chapter}: axe"
            shoot(page, shots, f"{tag}-{chapter}")
        before = step_label(page)
        if page.query_selector("#learn-next") is not None:
            if way == "touch":
                tap(page, "#learn-next")
            else:
                tab_to(page, "#learn-next")
                page.keyboard.press("Enter")
        else:
            if not refused and act is not None and game in REFUSED:
                # another move is refused, naming the rule; the step stays
                refused = True
                REFUSED[game](page, act)
                page.wait_for_selector("#learn-feedback.refused")
                assert step_label(page) == before
                shoot(page, shots, f"{tag}-refused")
            MOVES[game][way](page)
            page.wait_for_selector("#learn-feedback.done")
        page.wait_for_function(
            "(before) => document.querySelector('#learn-step')?.innerText !== before", arg=before
        )
    shoot(page, shots, f"{tag}-end")
    assert axe_problems(page) == []
    return steps


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(("lang", "way", "dark"), RUNS)
def test_the_tutorial_is_completed(
    server: ServerProcess, browser: Any, shots: Path, game: str, lang: str, way: str, dark: bool
) -> None:
    touch = way == "touch"
    width, height = (390, 844) if touch else (1366, 900)
    context = new_context(browser, width, height, touch=touch, dark=dark)
    page = context.new_page()
    errors = page_errors(page)
    page.goto(f"{server.base}/#/learn/{game}")
    page.wait_for_selector("#learn-panel")  # (a choice before the start: test_lobby_welcome)
    page.select_option("#lang", lang)
    page.wait_for_function("(code) => document.documentElement.lang === code", arg=lang)
    if lang != "en":  # the tutorial itself speaks it, not only the page around it
        page.wait_for_function(
            "() => !document.querySelector('#learn-panel').innerText.includes('step 1 of')"
        )
    tutorial = tutorial_of(get_game(game))
    assert tutorial is not None
    expected = sum(len(c["steps"]) for c in tutorial["chapters"])
    tag = f"learn-{game}-{lang}-{way}-{width}-{'dark' if dark else 'light'}"
    assert complete(page, game, way, shots, tag) == expected
    # the page speaks the language chosen: no catalogue key is shown as it is
    assert "tutorial." not in page.inner_text("body")
    assert errors == []
    context.close()


def test_a_table_rules_lead_to_the_tutorial_and_back(server: ServerProcess, browser: Any) -> None:
    made = create_game(
        server,
        "quadropolis",
        "classic",
        [{"name": "Ada", "kind": "human"}, {"name": "Bot", "kind": "bot", "level": "easy"}],
    )
    context = new_context(browser)
    page = context.new_page()
    errors = page_errors(page)
    page.goto(made["seats"][0]["invite"])
    page.click("#rules-button")
    page.click("#learn-link")
    page.wait_for_selector("#learn-panel")
    assert page.url.endswith("#/learn/quadropolis/classic")
    page.click("#learn-back-table")
    page.wait_for_selector("#board svg")
    assert f"#/game/{made['id']}" in page.url
    # without a game: the games that have a tutorial
    page.goto(f"{server.base}/#/learn")
    page.wait_for_selector("#learn-pick a[href='#/learn/quadropolis']")
    assert axe_problems(page) == []
    assert errors == []
    context.close()
