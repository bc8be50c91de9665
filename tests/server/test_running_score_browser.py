"""The running score at the table (issue 40, item 2): each player's score as it stands beside
their name, in a whole game of each game played by clicks against three bots on a phone's
screen (390x844). In play, every score shown is the view's ``running_score`` the server sent,
fits the screen (nothing scrolls sideways), tells its breakdown on keyboard focus (the tooltip
and the accessible description), and the setting hides it (and still does after a reload);
at the last move it equals the end screen's score pad.

Screenshots in play at 390x844 and 1366x900, light and dark (POLIS_SCREENSHOTS keeps them)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .browser_helpers import (
    BROWSER_TESTS,
    LOG_POSITION,
    FrameLog,
    ServerProcess,
    click_metropolys_move,
    click_quadropolis_move,
    create_game,
    new_context,
    page_errors,
    position,
    tab_to,
    wait_turn_or_end,
)

pytestmark = BROWSER_TESTS

HUMAN = {"name": "Ada", "kind": "human"}
BOTS = [{"name": n, "kind": "bot", "level": "easy"} for n in ("Robo", "Zed", "Kim")]
#: Each game's words for a score category on the tooltip (English), one per game.
CATEGORY = {"quadropolis": "Tower Blocks", "metropolys": "Trendy neighborhoods"}
#: The mode played: Quadropolis Expert (the larger city), Metropolys Expert (highest buildings).
MODES = {"quadropolis": "expert", "metropolys": "expert"}

#: JavaScript: the running scores shown, by seat (the visible ones only).
SHOWN = """() => Object.fromEntries([...document.querySelectorAll('.running-score .total')]
  .filter((el) => el.getClientRects().length)
  .map((el) => [el.dataset.seat, el.textContent.trim()]))"""
#: JavaScript: the score pad's total row, by column.
PAD_TOTALS = """() => [...document.querySelectorAll('#scorepad tr.total td')]
  .map((td) => td.textContent.trim())"""
#: JavaScript: what is wider than the screen (the page, or a running score past its edge).
TOO_WIDE = """() => {
  const out = [];
  const W = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > W + 1) {
    out.push(`page ${document.documentElement.scrollWidth} > ${W}`);
  }
  for (const el of document.querySelectorAll('.running-score .total')) {
    const r = el.getBoundingClientRect();
    if (r.width && (r.right > W + 1 || r.left < -1)) out.push(`score ${r.left}..${r.right}`);
    if (el.scrollWidth > el.clientWidth + 2) out.push(`score text cut: ${el.textContent}`);
  }
  return out;
}"""


def last_view(frames: FrameLog) -> dict[str, Any]:
    """The view of the last state message the page was sent."""
    states = [m for m in frames.messages() if m.get("type") == "state"]
    view: dict[str, Any] = states[-1]["view"]
    return view


def expected_text(game: str, score: dict[str, Any], finished: bool) -> str:
    """The words a score shows in English (catalogues: score.vp, running.short)."""
    if game == "quadropolis":
        return f"{score['total']} VP"
    return str(score["total"]) if finished else f"{score['total']} + ?"


def shown_now(page: Any) -> dict[str, str]:
    shown: dict[str, str] = page.evaluate(SHOWN)
    return shown


def settle(page: Any, frames: FrameLog) -> dict[str, Any]:
    """Wait until the page shows the position of the last state message; its view."""
    view = last_view(frames)
    page.wait_for_function(f"() => {LOG_POSITION} === {len(view['moves'])}")
    return last_view(frames)


def check_shown(page: Any, game: str, view: dict[str, Any]) -> None:
    finished = bool(view.get("finished", view.get("terminal")))
    want = {str(p): expected_text(game, s, finished) for p, s in enumerate(view["running_score"])}
    page.wait_for_function(
        f"(want) => JSON.stringify(({SHOWN})()) === JSON.stringify(want)", arg=want
    )


def check_focus_breakdown(page: Any, game: str) -> None:
    """Tab to a running score: its tooltip shows its breakdown, its description too."""
    tab_to(page, ".running-score .total", limit=200)
    # The score's own tip, once its delay is over (a board redrawn under the mouse resting
    # where the test last clicked put a tile's tip up instead: a CI failure at 390x844).
    page.wait_for_function(
        "() => { const t = document.getElementById('tip');"
        " return t && !t.hidden && t.textContent.includes('so far'); }"
    )
    tip = page.inner_text("#tip")
    assert CATEGORY[game] in tip, tip
    assert "so far" in tip, tip
    if game == "metropolys":
        assert "without the secret objectives" in tip and "Secret objectives" in tip, tip
    described = page.evaluate(
        "() => document.getElementById(document.activeElement.getAttribute('aria-describedby'))"
        "?.textContent ?? ''"
    )
    assert CATEGORY[game] in described
    page.keyboard.press("Escape")


def toggle_setting(page: Any, on: bool) -> None:
    if not page.is_visible("#pref-runningScore"):
        page.click("#settings > summary")
    box = page.locator("#pref-runningScore")
    if box.is_checked() != on:
        box.click()
    page.click("#settings > summary")  # closed again


def check_setting_hides(page: Any, game: str) -> None:
    assert len(shown_now(page)) == 4
    toggle_setting(page, False)
    page.wait_for_function(f"() => Object.keys(({SHOWN})()).length === 0")
    page.reload()
    wait_turn_or_end(page)
    page.wait_for_selector(".running-score", state="attached")
    assert shown_now(page) == {}, "the setting did not last a reload"
    toggle_setting(page, True)
    page.wait_for_function(f"() => Object.keys(({SHOWN})()).length === 4")


def screenshots(browser: Any, url: str, game: str, shots: Path) -> None:
    for width, height in ((390, 844), (1366, 900)):
        for dark in (False, True):
            context = new_context(browser, width, height, dark=dark)
            page = context.new_page()
            page.goto(url)
            page.wait_for_selector(".running-score .total")
            tab_to(page, ".running-score .total", limit=200)
            page.wait_for_selector("#tip:not([hidden])")
            theme = "dark" if dark else "light"
            page.screenshot(path=str(shots / f"running-{game}-{width}-{theme}.png"))
            page.locator(".running-score .total").first.scroll_into_view_if_needed()
            page.screenshot(
                path=str(shots / f"running-{game}-{width}-{theme}-full.png"), full_page=True
            )
            context.close()


@pytest.mark.parametrize("game", ["quadropolis", "metropolys"])
def test_the_running_score_in_a_whole_game(
    server: ServerProcess, browser: Any, shots: Path, game: str
) -> None:
    made = create_game(server, game, MODES[game], [HUMAN, *BOTS], seed=7)
    url = made["seats"][0]["invite"]
    context = new_context(browser, 390, 844)
    page = context.new_page()
    errors = page_errors(page)
    frames = FrameLog(page)
    page.goto(url)
    turns = 0
    checked = False
    while wait_turn_or_end(page):
        view = settle(page, frames)
        check_shown(page, game, view)
        if turns == 6 and not checked:
            assert not page.evaluate(TOO_WIDE), page.evaluate(TOO_WIDE)
            assert any(s["total"] for s in view["running_score"]), "nothing scores yet"
            check_focus_breakdown(page, game)
            check_setting_hides(page, game)
            screenshots(browser, url, game, shots)
            checked = True
            continue
        before = position(page)
        if game == "quadropolis":
            click_quadropolis_move(page)
        else:
            click_metropolys_move(page, turns)
        turns += 1
        assert turns < 400
        page.wait_for_function(
            f"() => {LOG_POSITION} > {before} || document.querySelector('#scorepad')"
        )
    assert checked
    # the last move: the score shown is the end screen's
    view = settle(page, frames)
    assert view["result"]
    check_shown(page, game, view)
    totals = [str(s["total"]) for s in view["running_score"]]
    assert page.evaluate(PAD_TOTALS) == totals
    shown = shown_now(page)
    assert [shown[str(p)] for p in range(4)] == [
        expected_text(game, s, True) for s in view["running_score"]
    ]
    # hidden in play, the final score still shows beside each name
    toggle_setting(page, False)
    assert len(shown_now(page)) == 4
    toggle_setting(page, True)
    assert not errors, errors
    context.close()
