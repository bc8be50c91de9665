"""The lobby welcomes (issue 40, item 8): above the form, a card per game with a picture drawn
from the game's own pieces, a line on what it is, how many play and how long it takes, "Learn
to play" (the tutorial's address) and "New table" (the form set to that game), in every
language, on a phone (cards stacked) and a laptop (side by side), light and dark, by keyboard,
with no serious accessibility violation.

Set POLIS_SCREENSHOTS to a folder to keep the pictures (and look at them)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .browser_helpers import BROWSER_TESTS, ServerProcess, axe_problems, new_context, page_errors

pytestmark = BROWSER_TESTS

GAMES = ["quadropolis", "metropolys"]
LANGS = ["en", "de", "pl", "it"]
PHONE = (390, 844)
LAPTOP = (1366, 900)

#: JavaScript: each card's parts as drawn (picture size and pieces, words, links, boxes).
CARDS = r"""() => [...document.querySelectorAll('#game-cards .game-card')].map((card) => {
  const pic = card.querySelector('.game-art svg.game-picture');
  const box = pic ? pic.getBoundingClientRect() : null;
  const r = card.getBoundingClientRect();
  return {
    game: card.dataset.game,
    picture: box ? { width: box.width, height: box.height } : null,
    pieces: pic ? pic.querySelectorAll('rect, circle, path, polygon, ellipse').length : 0,
    title: card.querySelector('h3')?.textContent ?? '',
    line: card.querySelector('.game-line')?.textContent ?? '',
    players: card.querySelector('.game-players')?.textContent ?? '',
    length: card.querySelector('.game-length')?.textContent ?? '',
    learn: card.querySelector('a.learn')?.getAttribute('href') ?? null,
    learnText: card.querySelector('a.learn')?.textContent ?? '',
    newText: card.querySelector('button.new-table')?.textContent ?? '',
    top: r.top, left: r.left, right: r.right, bottom: r.bottom,
  };
})"""

#: JavaScript: the page scrolls sideways, or a card's part sticks out of the card.
OVERFLOW = r"""() => {
  const out = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth) out.push(`page ${doc.scrollWidth} > ${doc.clientWidth}`);
  for (const card of document.querySelectorAll('#game-cards .game-card')) {
    const c = card.getBoundingClientRect();
    for (const el of card.querySelectorAll('svg, h3, p, li, a, button')) {
      const r = el.getBoundingClientRect();
      if (r.right > c.right + 1 || r.left < c.left - 1) out.push(`${el.tagName} of ${card.id}`);
    }
  }
  return out;
}"""


#: JavaScript: the focused element's card and class.
FOCUSED = (
    "document.activeElement.closest('.game-card')?.id + ' ' + document.activeElement.className"
)


def open_lobby(browser: Any, server: ServerProcess, size: tuple[int, int], dark: bool) -> Any:
    width, height = size
    context = new_context(browser, width, height, touch=width < 600, dark=dark)
    page = context.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("#game-cards .game-card svg.game-picture")
    page.wait_for_selector("#create")
    return page


def set_language(page: Any, lang: str) -> None:
    page.select_option("#lang", lang)
    page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")


def check_cards(cards: list[dict[str, Any]], lang: str) -> None:
    by_game = {c["game"]: c for c in cards}
    assert set(GAMES) <= set(by_game), cards
    for game in GAMES:
        card = by_game[game]
        where = f"{game} ({lang})"
        assert card["picture"] and card["picture"]["width"] > 100, where
        assert card["picture"]["height"] > 60, where
        assert card["pieces"] >= 10, where  # tiles / fields, pieces: drawn, not an empty box
        assert card["title"].lower() == game, where
        assert len(card["line"]) > 40, where
        assert "2" in card["players"] and "4" in card["players"], where
        assert any(ch.isdigit() for ch in card["length"]), where
        assert card["learn"] == f"#/learn/{game}", where
        assert card["learnText"] and card["newText"], where
        for text in (card["line"], card["players"], card["length"], card["learnText"]):
            assert "lobby." not in text and "about." not in text and "{" not in text, where


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["1366x900", "390x844"])
def test_each_game_has_a_card_with_picture_words_and_buttons(
    browser: Any, server: ServerProcess, shots: Path, size: tuple[int, int], dark: bool
) -> None:
    page = open_lobby(browser, server, size, dark)
    errors = page_errors(page)
    for lang in LANGS:
        set_language(page, lang)
        cards = page.evaluate(CARDS)
        check_cards(cards, lang)
        assert page.evaluate(OVERFLOW) == [], lang
        first, second = cards[:2]  # in the page's order
        if size == PHONE:  # stacked
            assert second["top"] >= first["bottom"] - 1, (first, second)
        else:  # side by side
            assert abs(second["top"] - first["top"]) < 2 and second["left"] >= first["right"]
        # the cards come before the form
        form_top = page.locator("#new-game").bounding_box()["y"]
        assert form_top >= max(c["bottom"] for c in cards) - 1
        theme = "dark" if dark else "light"
        page.screenshot(
            path=str(shots / f"lobby-cards-{lang}-{size[0]}x{size[1]}-{theme}.png"), full_page=True
        )
    assert axe_problems(page) == []
    assert errors == []
    page.context.close()


def test_new_table_sets_the_form_and_learn_to_play_goes_to_the_tutorial(
    browser: Any, server: ServerProcess
) -> None:
    page = open_lobby(browser, server, LAPTOP, False)
    errors = page_errors(page)
    for game in [*reversed(GAMES), *GAMES]:  # from the default game to another and back
        page.click(f"#game-card-{game} button.new-table")
        assert page.input_value("#game") == game
        assert page.evaluate("document.activeElement.id") == "game"
        # the form is drawn for that game: its modes are the game's
        modes = page.eval_on_selector_all("#mode option", "els => els.map(e => e.value)")
        assert modes, game
    # by touch, on a phone
    phone = open_lobby(browser, server, PHONE, False)
    phone.tap("#game-card-metropolys button.new-table")
    assert phone.input_value("#game") == "metropolys"
    phone.context.close()
    page.click("#game-card-quadropolis a.learn")
    page.wait_for_function("() => location.hash.startsWith('#/learn/quadropolis')")
    assert errors == []
    page.context.close()


def test_the_cards_by_keyboard(browser: Any, server: ServerProcess) -> None:
    page = open_lobby(browser, server, LAPTOP, False)
    first, second = page.eval_on_selector_all(
        "#game-cards .game-card", "els => els.map(e => e.dataset.game)"
    )[:2]
    page.focus(f"#game-card-{first} a.learn")
    order = [page.evaluate(FOCUSED)]
    for _ in range(3):
        page.keyboard.press("Tab")
        order.append(page.evaluate(FOCUSED))
    assert order == [
        f"game-card-{first} button learn",
        f"game-card-{first} primary new-table",
        f"game-card-{second} button learn",
        f"game-card-{second} primary new-table",
    ]
    page.keyboard.press("Enter")  # New table of the second game, by keyboard
    assert page.input_value("#game") == second
    assert page.evaluate("document.activeElement.id") == "game"
    # the next stop after the cards is the form
    page.focus(f"#game-card-{second} button.new-table")
    page.keyboard.press("Tab")
    assert page.evaluate("!!document.activeElement.closest('#new-game')")
    page.context.close()


def test_a_language_chosen_while_the_page_starts_is_kept(
    server: ServerProcess, browser: Any
) -> None:
    """The language list is there before the page's script has started: a reader who picks
    from it at once must not see the page go back to its first language."""
    context = new_context(browser, 390, 844)
    page = context.new_page()
    errors = page_errors(page)
    page.goto(f"{server.base}/#/learn/metropolys", wait_until="commit")
    page.wait_for_selector("#lang", state="attached")
    page.select_option("#lang", "de")
    page.wait_for_selector("#learn-panel")
    page.wait_for_function("() => document.documentElement.lang === 'de'")
    page.wait_for_function(
        "() => document.querySelector('#learn-panel').innerText.includes('Schritt 1 von')"
    )
    assert page.input_value("#lang") == "de"
    assert errors == []
    context.close()
