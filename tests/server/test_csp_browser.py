"""The app works under its Content-Security-Policy in a real browser: no inline script or
style is blocked while a game is created, played and its colours drawn (the browser reports
every violation to the page, where the test collects them)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from .browser_helpers import (
    CHROMIUM,
    CHROMIUM_ARGS,
    ServerProcess,
    click_metropolys_move,
    click_quadropolis_move,
    position,
    wait_position,
    wait_turn_or_end,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM),
        reason=f"{CHROMIUM} is not installed (apt-get install chromium)",
    ),
]

#: Collects the page's CSP violations before any of its own scripts run.
REPORT_VIOLATIONS = """
window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.lineNumber}`);
});
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    srv = ServerProcess(f"sqlite:///{tmp_path_factory.mktemp('csp') / 'polis.db'}")
    srv.start()
    yield srv
    srv.kill()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


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
