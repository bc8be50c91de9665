"""The app works under its Content-Security-Policy in a real browser: no inline script or
style is blocked while a game is created, played and its colours drawn (the browser reports
every violation to the page, where the test collects them)."""

from __future__ import annotations

from typing import Any

import pytest

from .browser_helpers import (
    BROWSER_TESTS,
    ServerProcess,
    click_metropolys_move,
    click_quadropolis_move,
    position,
    wait_position,
    wait_turn_or_end,
)

pytestmark = BROWSER_TESTS

#: Collects the page's CSP violations before any of its own scripts run.
REPORT_VIOLATIONS = """
window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.lineNumber}`);
});
"""


@pytest.mark.parametrize(("game", "mode"), [("quadropolis", "classic"), ("metropolys", "family")])
def test_a_game_is_played_without_a_single_csp_violation(
    server: ServerProcess, browser: Any, game: str, mode: str
) -> None:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.add_init_script(REPORT_VIOLATIONS)
    console: list[str] = []
    errors: list[str] = []
    page.on("console", lambda msg: console.append(msg.text))
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    response = page.goto(server.base + "/")
    assert response is not None
    csp = response.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    # the game is made through the API and entered by its invite link: the lobby's form is
    # the client's own business, the policy must hold on every page
    seats = [{"name": "Ada", "kind": "human"}, {"name": "Robo", "kind": "bot", "level": "easy"}]
    made = server.api("/api/games", {"game": game, "mode": mode, "seats": seats})
    page.goto(made["seats"][0]["invite"])
    page.wait_for_selector("#site" if game == "quadropolis" else "#metro-board")
    for turn in range(4):
        assert wait_turn_or_end(page)
        before = position(page)
        if game == "quadropolis":
            click_quadropolis_move(page)
        else:
            click_metropolys_move(page, turn)
        wait_position(page, f"> {before}")
    # the players' colours are drawn (set through the CSSOM, which the policy allows)
    coloured = page.evaluate(
        "[...document.querySelectorAll('.dot')].filter((d) => d.style.background).length"
    )
    assert coloured >= 2
    violations = page.evaluate("window.__violations")
    assert violations == []
    assert not [line for line in console if "Content Security Policy" in line], console
    assert errors == []
    context.close()
