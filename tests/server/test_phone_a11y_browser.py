"""Accessibility on a phone as on a desktop: axe-core on the lobby (its settings open too),
a table of each game against a bot and the end of a game, at 390x844 and 1366x900 in two
languages, with no serious or critical violation and nothing wider than the screen; and, on
a phone, the keyboard: Tab round the lobby and a table, the arrows round both boards, where
every stop's focus is on screen, not under the action bar, outlined at 3:1 against what is
around it, and never makes the page scroll sideways.

Why: the header's labels are hidden on narrow screens, which once took the language menu's
and the settings' only names with them; the other axe scans run at desktop width.

Set POLIS_SCREENSHOTS to a folder to keep the pictures."""

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
    new_context,
    page_errors,
    tab_to,
    wait_turn_or_end,
)

pytestmark = BROWSER_TESTS

SIZES = [(390, 844), (1366, 900)]
HUMAN = {"name": "Ada", "kind": "human"}
BOTS = [{"name": n, "kind": "bot", "level": "easy"} for n in ("Robo", "Zed")]

#: JavaScript: the page is no wider than the window (no sideways scrolling).
PAGE_WIDTH = "[document.documentElement.scrollWidth, window.innerWidth]"

#: JavaScript: why the focused element's focus cannot be seen ("" when it can): it must be
#: on screen and drawn with an outline that stands out from what is around it (3:1), a
#: shadow or a board's focus ring.
FOCUS_SEEN = r"""() => {
  const el = document.activeElement;
  if (!el || el === document.body) return 'nothing focused';
  const name = `${el.tagName}#${el.id}.${el.getAttribute('class')}`;
  const r = el.getBoundingClientRect();
  if (!r.width || !r.height) return `${name} has no size`;
  if (r.bottom < 0 || r.top > innerHeight || r.right < 0 || r.left > innerWidth) {
    return `${name} is off screen`;
  }
  // not hidden under something else, such as the action bar that sticks to a phone's foot
  const cx = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1);
  const cy = Math.min(Math.max(r.top + r.height / 2, 0), innerHeight - 1);
  const top = document.elementFromPoint(cx, cy);
  if (top && !el.contains(top) && !top.contains(el) && !top.closest('label')?.contains(el)) {
    return `${name} is under ${top.tagName}#${top.id}.${top.getAttribute('class')}`;
  }
  if (el instanceof SVGElement) {
    const ring = el.querySelector('.focus-ring');
    if (ring && getComputedStyle(ring).visibility === 'visible') return '';
    return `${name} shows no focus ring`;
  }
  const cs = getComputedStyle(el);
  if (cs.boxShadow !== 'none' && cs.outlineStyle === 'none') return '';
  if (cs.outlineStyle === 'none' || parseFloat(cs.outlineWidth) < 2) {
    return `${name} shows no outline`;
  }
  // the outline against what is around it (WCAG 1.4.11: 3 to 1)
  const rgb = (c) => c.match(/[\d.]+/g).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }).reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  // what lies under the outline: below the element's box (its parent past the page's end)
  const y = Math.min(r.bottom + parseFloat(cs.outlineOffset) + 1, innerHeight - 1);
  const hits = document.elementsFromPoint(r.left + r.width / 2, y);
  let under = hits.find((e) => !el.contains(e)) ?? el.parentElement;
  while (under && rgb(getComputedStyle(under).backgroundColor)[3] === 0) {
    under = under.parentElement;
  }
  const back = under ? getComputedStyle(under).backgroundColor : 'rgb(255, 255, 255)';
  const [a, b] = [lum(rgb(cs.outlineColor)), lum(rgb(back))];
  const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  if (ratio < 3) return `${name}: outline ${cs.outlineColor} on ${back} is ${ratio.toFixed(2)}:1`;
  return '';
}"""
#: JavaScript: the focused element, named.
FOCUSED = "(() => { const e = document.activeElement; return `${e.tagName}#${e.id}`; })()"


@pytest.fixture(scope="module")
def screens(server: ServerProcess) -> dict[str, str]:
    """The lobby, a seat at a table of each game against a bot, and a finished game (bots
    only, watched)."""
    live = create_game(server, "metropolys", "family", [HUMAN, BOTS[0]])
    # a fixed deal: the keyboard test builds with the first architect on the first spot
    city = create_game(server, "quadropolis", "classic", [HUMAN, BOTS[0]], seed=1)
    ended = create_game(server, "metropolys", "family", BOTS)
    finished(server, ended["id"])
    return {
        "lobby": server.base + "/",
        "table": live["seats"][0]["invite"],
        "city": city["seats"][0]["invite"],
        "end": ended["watch"],
    }


def show(page: Any, name: str, url: str) -> None:
    page.goto(url)
    ready = {"lobby": "#create", "end": "#scorepad"}.get(name, "#status")
    page.wait_for_selector(ready, timeout=60_000)
    if ready == "#status":  # the table is drawn before its first messages: wait for them
        page.wait_for_function(
            "() => document.querySelector('#status').textContent !== ''", timeout=60_000
        )


def set_language(page: Any, lang: str) -> None:
    page.select_option("#lang", lang)
    page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")


def too_wide(page: Any) -> str:
    """How far the page scrolls sideways ("" when it does not)."""
    width, window = page.evaluate(PAGE_WIDTH)
    return f"{width} > {window}" if width > window else ""


@pytest.mark.parametrize(("width", "height"), SIZES)
@pytest.mark.parametrize("lang", ["en", "de"])
def test_axe_finds_nothing_serious_on_a_phone_or_a_desktop(
    browser: Any, screens: dict[str, str], shots: Path, width: int, height: int, lang: str
) -> None:
    context = new_context(browser, width, height, touch=width < 600)
    page = context.new_page()
    errors = page_errors(page)
    found: dict[str, list[str]] = {}
    wide: dict[str, str] = {}
    for name, url in screens.items():
        show(page, name, url)
        set_language(page, lang)
        shot = f"a11y-{name}-{lang}-{width}x{height}"
        page.screenshot(path=shots / f"{shot}.png", full_page=True, animations="disabled")
        found[shot] = axe_problems(page)
        wide[shot] = too_wide(page)
        if name == "lobby":  # the header's settings, open
            page.click("#settings > summary")
            page.wait_for_selector("#settings-panel label")
            page.screenshot(path=shots / f"{shot}-settings.png", animations="disabled")
            found[f"{shot}-settings"] = axe_problems(page)
            wide[f"{shot}-settings"] = too_wide(page)
            page.keyboard.press("Escape")
    assert {k: v for k, v in found.items() if v} == {}
    assert {k: v for k, v in wide.items() if v} == {}
    assert errors == []
    context.close()


#: JavaScript: the focused element, marked as the walk's start when none is; true when it
#: is the start again (null when the browser itself holds the focus, past the page's end).
AT_START = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  if (!document.querySelector('[data-walk-start]')) el.dataset.walkStart = '';
  else if (el.matches('[data-walk-start]')) return true;
  return false;
}"""


def focus_problems(page: Any) -> list[str]:
    """What hides the focus at this stop, and how far the page now scrolls sideways."""
    problems = []
    seen = page.evaluate(FOCUS_SEEN)
    if seen:
        problems.append(seen)
    wide = too_wide(page)
    if wide:
        problems.append(f"{page.evaluate(FOCUSED)}: page {wide}")
    return problems


def tab_through(page: Any, limit: int = 250) -> list[str]:
    """Press Tab round the page once, checking every stop. Fails if the walk does not come
    back to where it started."""
    problems: list[str] = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        back = page.evaluate(AT_START)
        if back:
            return problems
        if back is not None:
            problems += focus_problems(page)
    raise AssertionError(f"Tab did not come round in {limit} stops")


#: Arrow keys round a board: down its length, across, up and back (a piece at the foot of a
#: board ends up where the action bar sticks on a phone).
ARROWS = ["ArrowDown"] * 12 + ["ArrowRight"] * 6 + ["ArrowUp"] * 12 + ["ArrowLeft"] * 6


def arrow_round(page: Any) -> list[str]:
    """Move round the focused board with the arrow keys, checking every piece reached."""
    problems: list[str] = []
    for key in ARROWS:
        page.keyboard.press(key)
        problems += focus_problems(page)
    return problems


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_the_keyboard_focus_shows_and_nothing_scrolls_sideways_on_a_phone(
    browser: Any, screens: dict[str, str], shots: Path, dark: bool
) -> None:
    """Tab round the lobby and a table; arrows round a board (a field to bid on, a square of
    one's city to build on)."""
    context = new_context(browser, 390, 844, dark=dark)
    page = context.new_page()
    errors = page_errors(page)
    theme = "dark" if dark else "light"
    show(page, "lobby", screens["lobby"])
    found = {"lobby": tab_through(page)}
    show(page, "table", screens["table"])
    assert wait_turn_or_end(page), "the bot's table ended before the seat moved"
    found["table"] = tab_through(page)
    tab_to(page, "#metro-board .field")
    found["table-board"] = arrow_round(page)
    page.screenshot(path=shots / f"a11y-table-keyboard-{theme}-390x844.png", animations="disabled")
    show(page, "city", screens["city"])
    assert wait_turn_or_end(page), "the bot's table ended before the seat moved"
    tab_to(page, "button.architect")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement?.matches('#site .spot.legal')")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement?.matches('#my-city .cell')")
    found["city"] = focus_problems(page) + arrow_round(page)
    page.screenshot(path=shots / f"a11y-city-keyboard-{theme}-390x844.png", animations="disabled")
    assert {k: v for k, v in found.items() if v} == {}
    assert errors == []
    context.close()
