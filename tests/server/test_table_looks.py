"""How the app looks and reads: screenshots of the lobby, a table of each game in play, the
end screens and the rules, in every language and both colour themes, on a phone and a
desktop (and, in English, on a tablet and a phone held sideways), each checked for anything
that sticks out; and an axe-core scan of the lobby, tables in play and end screens with no
serious or critical violation.

Set POLIS_SCREENSHOTS to a folder to keep the pictures (they go to a temporary folder
otherwise)."""

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
    overflow,
    page_errors,
)

pytestmark = BROWSER_TESTS

LANGS = ["en", "de", "pl", "it"]
HUMAN = {"name": "Ada", "kind": "human"}
BOTS = [{"name": n, "kind": "bot", "level": "easy"} for n in ("Robo", "Zed", "Kit")]


@pytest.fixture(scope="module")
def screens(server: ServerProcess) -> dict[str, str]:
    """The addresses shown: the lobby, a table of each game in play (a seat's invite: four
    players, Expert, the most on screen), each game's end (watched: bots only)."""
    out = {"lobby": server.base + "/"}
    for game in ("quadropolis", "metropolys"):
        made = create_game(server, game, "expert", [HUMAN, *BOTS])
        out[game] = made["seats"][0]["invite"]
        mode = "classic" if game == "quadropolis" else "family"
        ended = create_game(server, game, mode, BOTS[:2])
        out[f"{game}-end"] = ended["watch"]
        finished(server, ended["id"])
    return out


def show(page: Any, name: str, url: str) -> None:
    """Open a screen and make its choices visible (a piece chosen on the seat's turn)."""
    page.goto(url)
    if name == "lobby":
        page.wait_for_selector("#create")
        return
    if name.endswith("-end"):
        page.wait_for_selector("#winner")
        return
    page.wait_for_selector("#status.your-turn")
    if name == "quadropolis":
        page.click("button.architect")
        page.click("g.spot.legal")
    else:
        page.click("g.field.legal .field-disc")
        page.wait_for_selector("button.value")
    page.evaluate("window.scrollTo(0, 0)")  # the prompt bar where it lies, not stuck mid-page


def set_language(page: Any, lang: str) -> None:
    page.select_option("#lang", lang)
    page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")


def dark_page(page: Any) -> bool:
    rgb = page.evaluate("getComputedStyle(document.body).backgroundColor")
    r, g, b = (int(x) for x in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3])
    return r + g + b < 200


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
@pytest.mark.parametrize(("width", "height"), [(390, 844), (1366, 900)])
def test_every_language_and_theme_fits_the_screen(
    server: ServerProcess,
    browser: Any,
    screens: dict[str, str],
    shots: Path,
    width: int,
    height: int,
    dark: bool,
) -> None:
    context = new_context(browser, width, height, touch=width < 900, dark=dark)
    page = context.new_page()
    errors = page_errors(page)
    theme = "dark" if dark else "light"
    problems = {}
    for name, url in screens.items():
        show(page, name, url)
        assert dark_page(page) == dark
        for lang in LANGS:
            set_language(page, lang)
            shot = f"{name}-{lang}-{theme}-{width}x{height}"
            page.screenshot(path=shots / f"{shot}.png", full_page=True, animations="disabled")
            problems[shot] = overflow(page)
            if name in ("quadropolis", "metropolys"):
                page.click("#rules-button")
                page.wait_for_selector("dialog[open] li")
                assert len(page.query_selector_all("dialog[open] li")) >= 8
                page.screenshot(path=shots / f"{shot}-rules.png", animations="disabled")
                problems[f"{shot}-rules"] = overflow(page)
                page.keyboard.press("Escape")
                page.wait_for_selector("dialog", state="detached")
        set_language(page, "en")
    assert {k: v for k, v in problems.items() if v} == {}
    assert errors == []
    context.close()


@pytest.mark.parametrize(
    ("width", "height"),
    [(844, 390), (820, 1180), (1180, 820)],
    ids=["phone-sideways", "tablet", "tablet-sideways"],
)
def test_tablets_and_a_phone_held_sideways_fit(
    server: ServerProcess,
    browser: Any,
    screens: dict[str, str],
    shots: Path,
    width: int,
    height: int,
) -> None:
    context = new_context(browser, width, height, touch=True)
    page = context.new_page()
    problems = {}
    for name, url in screens.items():
        show(page, name, url)
        shot = f"{name}-en-light-{width}x{height}"
        page.screenshot(path=shots / f"{shot}.png", full_page=True, animations="disabled")
        problems[shot] = overflow(page)
        if name in ("quadropolis", "metropolys"):
            # the action bar is on screen beside or under the board
            box = page.locator("#controls").bounding_box()
            assert box is not None and box["y"] < height
    assert {k: v for k, v in problems.items() if v} == {}
    context.close()


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_axe_finds_nothing_serious(
    server: ServerProcess, browser: Any, screens: dict[str, str], dark: bool
) -> None:
    context = new_context(browser, dark=dark)
    page = context.new_page()
    found = {}
    for name, url in screens.items():
        show(page, name, url)
        found[name] = axe_problems(page)
        if name in ("quadropolis", "metropolys"):
            for dialog in ("rules", "legend"):
                page.click(f"#{dialog}-button")
                page.wait_for_selector("dialog[open]")
                found[f"{name}-{dialog}"] = axe_problems(page)
                page.keyboard.press("Escape")
                page.wait_for_selector("dialog", state="detached")
    assert {k: v for k, v in found.items() if v} == {}
    context.close()
