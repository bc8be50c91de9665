"""Two people chat at a table in real browsers (one on a desktop, one on a phone): lines
arrive on the other screen, markup in a line is shown as text and never run, the phone's
player writes by keyboard alone, a spectator of a table that keeps its chat private reads
nothing, and the chat is labelled for screen readers.

Set ``POLIS_SCREENSHOTS`` to a folder to keep the screenshots (desktop and 390x844).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .browser_helpers import (
    BROWSER_TESTS,
    ServerProcess,
    axe_problems,
    create_game,
    new_context,
    overflow,
    page_errors,
    shoot,
    tab_to,
)

pytestmark = BROWSER_TESTS

PEOPLE = [{"name": "Ada <i>", "kind": "human"}, {"name": "Lin", "kind": "human"}]
#: Markup that would run, load or style something if it were ever taken as HTML.
HOSTILE = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script><b>bold</b> & co'
#: Collects the page's CSP violations before any of its own scripts run.
REPORT_VIOLATIONS = """
window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`);
});
"""
CHAT_TEXTS = "[...document.querySelectorAll('#chat-log .chat-text')].map((el) => el.textContent)"


def open_table(context: Any, link: str) -> Any:
    page = context.new_page()
    page.add_init_script(REPORT_VIOLATIONS)
    page.goto(link)
    page.wait_for_selector("#metro-board")
    page.wait_for_selector("#chat-form:not([hidden])")
    return page


def wait_lines(page: Any, count: int) -> list[str]:
    page.wait_for_function(f"() => {CHAT_TEXTS}.length >= {count}")
    texts: list[str] = page.evaluate(CHAT_TEXTS)
    return texts


def test_two_players_chat_and_markup_stays_text(
    server: ServerProcess, browser: Any, shots: Path
) -> None:
    made = create_game(server, "metropolys", "family", PEOPLE)
    desk = new_context(browser)
    phone = new_context(browser, 390, 844, touch=True)
    try:
        ada = open_table(desk, made["seats"][0]["invite"])
        lin = open_table(phone, made["seats"][1]["invite"])
        errors = page_errors(ada) + page_errors(lin)
        assert ada.is_visible("#push-toggle")  # a seat may ask for turn notifications
        # the chat is a labelled log region, its line has a label
        assert ada.get_attribute("#chat-log", "role") == "log"
        # read out as lines come, once the lines said before are in
        ada.wait_for_function("document.querySelector('#chat-log').ariaLive === 'polite'")
        assert ada.locator("#chat-input").get_attribute("aria-describedby") == "chat-error"
        assert ada.evaluate("document.querySelector('label[for=chat-input]').textContent")

        ada.fill("#chat-input", HOSTILE)
        ada.press("#chat-input", "Enter")
        assert wait_lines(lin, 1) == [HOSTILE]
        assert wait_lines(ada, 1) == [HOSTILE]
        assert ada.input_value("#chat-input") == ""
        for page in (ada, lin):
            # shown as text: no element came out of it, nothing ran, the policy was not tested
            found = page.evaluate(
                "document.querySelectorAll('#chat-log img, #chat-log script, #chat-log b').length"
            )
            assert found == 0
            assert page.evaluate("window.__xss") is None
            assert page.evaluate("window.__violations") == []
        names = lin.evaluate(
            "[...document.querySelectorAll('#chat-log .chat-name')].map((el) => el.textContent)"
        )
        assert names == ["Ada <i>"]

        # the phone's chat is below the board: the button at the top says a line is new and,
        # by keyboard alone, takes the player to the chat's line to answer
        lin.wait_for_selector("#chat-jump .badge")
        assert "1" in lin.text_content("#chat-jump .badge")
        lin.click("#status")
        tab_to(lin, "#chat-jump")
        lin.keyboard.press("Enter")
        lin.wait_for_function("() => document.activeElement?.id === 'chat-input'")
        lin.wait_for_selector("#chat-jump .badge", state="detached")  # seen now
        lin.keyboard.type("gg, your move")
        lin.keyboard.press("Enter")
        assert wait_lines(ada, 2) == [HOSTILE, "gg, your move"]
        assert wait_lines(lin, 2)[1] == "gg, your move"
        assert [p for p in overflow(lin) if "chat" in p or "push" in p] == []
        shoot(lin, shots, "chat-phone-390x844")
        shoot(ada, shots, "chat-desktop")
        # the service worker registers from the site's root under the page's policy; asking
        # for notices where the browser gives no push service ends in a message, not an error
        active = ada.evaluate(
            "navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.ready)"
            ".then((r) => !!r.active && r.scope)"
        )
        assert active == server.base + "/"
        ada.click("#push-toggle")
        ada.wait_for_function("() => document.querySelector('#push-status').textContent")
        assert ada.evaluate("window.__violations") == []
        bad = [p for p in axe_problems(lin) if "chat" in p or "push" in p]
        assert bad == []
        assert errors == []
    finally:
        desk.close()
        phone.close()


def test_a_private_chat_is_not_shown_to_spectators(
    server: ServerProcess, browser: Any, shots: Path
) -> None:
    made = create_game(server, "metropolys", "family", PEOPLE)
    players = new_context(browser)
    watcher = new_context(browser, 390, 844, touch=True)
    try:
        ada = open_table(players, made["seats"][0]["invite"])
        ada.fill("#chat-input", "only for players")
        ada.press("#chat-input", "Enter")
        wait_lines(ada, 1)
        page = watcher.new_page()
        page.goto(made["watch"])
        page.wait_for_selector("#chat-note")
        page.wait_for_function("() => document.querySelector('#chat-note').textContent")
        assert page.is_hidden("#chat-form") and page.is_hidden("#chat-log")
        assert page.is_hidden("#push")  # turn notifications are for seats
        assert page.evaluate(CHAT_TEXTS) == []
        assert "only" in page.text_content("#chat-note").lower()
        shoot(page, shots, "chat-spectator-390x844")
    finally:
        players.close()
        watcher.close()


def test_a_real_time_table_offers_no_turn_notifications(
    server: ServerProcess, browser: Any
) -> None:
    made = server.api(
        "/api/games",
        {
            "game": "metropolys",
            "mode": "family",
            "seats": PEOPLE,
            "clock": {"kind": "realtime", "bank": 600, "increment": 10},
        },
    )
    context = new_context(browser)
    try:
        page = open_table(context, made["seats"][0]["invite"])
        assert page.is_hidden("#push")
    finally:
        context.close()
