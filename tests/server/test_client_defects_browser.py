"""The table's defects found by the player audit of issue 40, each checked in a real browser:
the 4-player end screen fits a phone and a laptop, no city is drawn larger than another, the
confirm sheet says its verb once, Metropolys's markers, built fields and labels read without
colour and without overlaps, touch targets are large enough, a hot-seat player's secrets go
away at once, stand-ins are explained, face-down tiles are not named like architects, and a
rematch's address is its own.

Set POLIS_SCREENSHOTS to a folder to keep the pictures (and look at them)."""

from __future__ import annotations

import re
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
)

pytestmark = BROWSER_TESTS

LANGS = ["en", "de", "pl", "it"]
PHONE = (390, 844)
LAPTOP = (1366, 900)
BOTS4 = [{"name": f"Bot {i + 1}", "kind": "bot", "level": "easy"} for i in range(4)]


def set_language(page: Any, lang: str) -> None:
    page.select_option("#lang", lang)
    page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")


def open_context(browser: Any, size: tuple[int, int]) -> Any:
    width, height = size
    return new_context(browser, width, height, touch=width < 600)


# -- the end screen of four players -----------------------------------------------------------


@pytest.fixture(scope="module")
def ended(server: ServerProcess) -> dict[str, str]:
    """A finished 4-player game of each game (bots only): its watch link."""
    games = {
        "quadropolis": create_game(server, "quadropolis", "expert", BOTS4, seed=3),
        "metropolys": create_game(server, "metropolys", "expert", BOTS4, seed=3),
    }
    for made in games.values():
        finished(server, made["id"], timeout=240)
    return {name: made["watch"] for name, made in games.items()}


#: JavaScript: what of the end screen scrolls or sticks out sideways, and every category of the
#: score pad whose word is broken across two lines ("Factorie/s").
END_PROBLEMS = r"""() => {
  const out = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth) out.push(`the page scrolls: ${doc.scrollWidth} > ${doc.clientWidth}`);
  const end = document.querySelector('#end');
  for (const el of [end, ...end.querySelectorAll('*')]) {
    if (el.closest('.visually-hidden')) continue;
    const name = `${el.tagName}.${el.getAttribute('class') ?? ''}`;
    const cs = getComputedStyle(el);
    if (['auto', 'scroll', 'hidden'].includes(cs.overflowX) && el.scrollWidth > el.clientWidth + 1) {
      out.push(`${name} scrolls: ${el.scrollWidth} > ${el.clientWidth}`);
    }
    const r = el.getBoundingClientRect();
    if (r.width && (r.right > doc.clientWidth + 1 || r.left < -1)) {
      out.push(`${name} sticks out: ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
  }
  const pad = document.querySelector('#scorepad').closest('.scroll-x');
  if (pad.scrollWidth > pad.clientWidth) out.push(`the pad scrolls: ${pad.scrollWidth} > ${pad.clientWidth}`);
  for (const th of document.querySelectorAll('#scorepad th[scope=row]')) {
    const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      // (a line may break after a hyphen: "tie-" / "break")
      for (const m of node.textContent.matchAll(/[^\s-]+-?/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (tops.size > 1) out.push(`"${m[0]}" is broken across lines`);
      }
    }
  }
  return out;
}"""


@pytest.mark.parametrize("game", ["quadropolis", "metropolys"])
@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["1366x900", "390x844"])
def test_the_4_player_end_screen_fits_without_scrolling_sideways(
    browser: Any, ended: dict[str, str], shots: Path, game: str, size: tuple[int, int]
) -> None:
    context = open_context(browser, size)
    page = context.new_page()
    errors = page_errors(page)
    page.goto(ended[game])
    page.wait_for_selector("#scorepad", timeout=60_000)
    assert page.locator("#scorepad th[scope=col]").count() == 5  # the categories, 4 players
    found = {}
    for lang in LANGS:
        set_language(page, lang)
        found[lang] = page.evaluate(END_PROBLEMS)
        page.screenshot(path=shots / f"end-{game}-{lang}-{size[0]}x{size[1]}.png", full_page=True)
    assert {lang: problems for lang, problems in found.items() if problems} == {}
    assert axe_problems(page) == []
    assert errors == []
    context.close()


#: JavaScript: the drawn widths of the cities other than the own one.
CITY_WIDTHS = """() => [...document.querySelectorAll('.city:not(.mine) svg.city-grid')]
  .map((svg) => Math.round(svg.getBoundingClientRect().width))"""


def test_every_other_quadropolis_city_is_drawn_alike_at_1366(
    server: ServerProcess, browser: Any, ended: dict[str, str]
) -> None:
    """A seat at a 4-player table sees its own city first and the three others at one size
    (the 4th, alone on its row, was drawn larger); at the end every city is drawn alike."""
    seats = [{"name": "Ada", "kind": "human"}, *BOTS4[:3]]
    made = create_game(server, "quadropolis", "classic", seats, seed=4)
    context = open_context(browser, LAPTOP)
    page = context.new_page()
    page.goto(made["seats"][0]["invite"])
    page.wait_for_selector("#my-city")
    widths = page.evaluate(CITY_WIDTHS)
    assert len(widths) == 3 and max(widths) - min(widths) <= 1, widths
    page.goto(ended["quadropolis"])
    page.wait_for_selector("#scorepad", timeout=60_000)
    widths = page.evaluate(CITY_WIDTHS)
    assert len(widths) == 4 and max(widths) - min(widths) <= 1, widths
    context.close()


# -- the confirm sheet ---------------------------------------------------------------------------

#: A word or two said twice in a row ("takes the takes the", "nimmt nimmt").
TWICE = re.compile(r"\b(\w+(?:\s+\w+)?)\s+\1\b", re.UNICODE)


def test_the_confirm_sheet_says_its_verb_once_in_every_language(
    server: ServerProcess, browser: Any
) -> None:
    """A touch screen confirms each move: "Architect #1 left of row 1 takes the Tower Block
    ...", never "takes the takes the" (nor "nimmt nimmt", "bierze bierze", "prende prende")."""
    seats = [{"name": "Ada", "kind": "human"}, BOTS4[0]]
    made = create_game(server, "quadropolis", "classic", seats, seed=5)
    context = open_context(browser, PHONE)
    page = context.new_page()
    errors = page_errors(page)
    page.goto(made["seats"][0]["invite"])
    page.wait_for_selector("#status.your-turn", timeout=60_000)
    said = {}
    for lang in LANGS:
        set_language(page, lang)
        page.locator("button.architect").first.tap()
        page.locator("g.spot.legal").first.tap()
        page.locator("#my-city g.cell.legal").first.tap()
        said[lang] = page.inner_text("#confirm .step")
        page.locator("#confirm-cancel").tap()
        page.locator("#cancel").tap()
    assert all(text.count("#1") == 1 for text in said.values()), said
    assert {lang: text for lang, text in said.items() if TWICE.search(text)} == {}
    assert errors == []
    context.close()
