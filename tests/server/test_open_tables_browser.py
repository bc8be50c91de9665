"""Open tables and take-backs in a real browser: a host leaves a seat open in the lobby form,
a second browser context (a phone) takes it from the lobby's list, both play, and a move is
taken back with the other player's consent. Screenshots go to ``POLIS_SCREENSHOTS`` if set."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from .browser_helpers import (
    BROWSER_TESTS,
    ServerProcess,
    metropolys_move,
    new_context,
    overflow,
    page_errors,
    shoot,
    wait_position,
)

pytestmark = BROWSER_TESTS

YOUR_TURN = "#status.your-turn"


def axe_in(page: Any, selector: str) -> list[str]:
    """The serious and critical accessibility violations axe-core finds in ``selector``."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, context=selector)
    return [
        f"{v['id']} ({v['impact']}): {v['help']}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def to_move(pages: list[Any]) -> int:
    """Which of ``pages`` is to move (waits until one is)."""
    for _ in range(300):
        for i, page in enumerate(pages):
            if page.query_selector(YOUR_TURN) is not None:
                return i
        pages[0].wait_for_timeout(100)
    raise AssertionError("nobody's turn")


def test_a_second_browser_takes_an_open_seat_from_the_lobby_and_plays(
    server: ServerProcess, browser: Any, shots: Path
) -> None:
    host_context = new_context(browser)
    guest_context = new_context(browser, 390, 844, touch=True)
    host = host_context.new_page()
    guest = guest_context.new_page()
    errors = page_errors(host) + page_errors(guest)
    try:
        host.goto(server.base + "/")
        host.wait_for_selector("#create")
        host.select_option("#game", "metropolys")
        host.select_option("#players", "2")
        host.fill(".seat-row[data-seat='0'] input.name", "Ada")
        host.select_option(".seat-row[data-seat='1'] select.kind", "open")
        assert host.query_selector(".seat-row[data-seat='1'] input.name") is None
        assert host.is_checked("#listed")
        host.click("#create")
        host.wait_for_selector("#vacant")
        match = re.search(r"#/game/([^/]+)", host.url)
        assert match, host.url
        gid = match.group(1)
        assert "Ada" in host.inner_text("#seats")
        shoot(host, shots, "open-table-host-waiting-desktop")

        guest.goto(server.base + "/")
        row = f"#open-tables li[data-game='{gid}']"
        guest.wait_for_selector(row)
        shoot(guest, shots, "open-table-lobby-390")
        assert overflow(guest) == []
        assert axe_in(guest, "#open-tables") == []
        guest.fill(f"{row} input.name", "Zoe")
        guest.tap(f"{row} button.take-seat")
        guest.wait_for_selector("#seats li.mine")
        assert "Zoe" in guest.inner_text("#seats li.mine")
        host.wait_for_function("() => !document.querySelector('#vacant')")
        host.wait_for_function("() => document.querySelector('#seats').innerText.includes('Zoe')")

        pages = [host, guest]
        acts = [host.click, guest.tap]
        first = to_move(pages)
        mover, other = pages[first], pages[1 - first]
        metropolys_move(mover, acts[first], 0)
        wait_position(other, "=== 1")
        shoot(guest, shots, "open-table-playing-390")

        # the mover takes the move back; the other person is asked and accepts
        mover.wait_for_selector("#takeback-button")
        acts[first]("#takeback-button")
        acts[first]("#takeback-ok")
        other.wait_for_selector("#takeback-accept")
        assert axe_in(other, "#takeback") == []
        shoot(other, shots, f"takeback-asked-{'390' if other is guest else 'desktop'}")
        shoot(mover, shots, f"takeback-waiting-{'390' if mover is guest else 'desktop'}")
        acts[1 - first]("#takeback-accept")
        wait_position(mover, "=== 2")
        mover.wait_for_selector(YOUR_TURN)
        assert mover.query_selector("#takeback-button") is None
        wait_position(other, "=== 2")  # the other page hears of it by its own socket
        # and play goes on
        metropolys_move(mover, acts[first], 1)
        wait_position(other, "=== 3")
        shoot(host, shots, "open-table-after-takeback-desktop")
        shoot(guest, shots, "open-table-after-takeback-390")
        assert errors == []
    finally:
        host_context.close()
        guest_context.close()
