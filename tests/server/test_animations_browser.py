"""Moves that move (static/js/motion.js), in a real browser: after a move the piece it moved
travels on the real element (a Quadropolis tile from the site to a city, the architect to its
spot, the Urbanist; a Metropolys bid rising onto its field, a raise growing out of the bid
it raised, a passed player's badge), the player's own move from where they picked it; none
under ``prefers-reduced-motion: reduce`` nor with the setting "Animations: off"; and the
board takes input while a piece is still moving.

The page's animations are slowed tenfold (the DevTools protocol's ``Animation`` domain) where
a test looks at one in flight, so that a loaded machine still sees it; screenshots of pieces
in flight are saved in the ``shots`` folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .browser_helpers import (
    BROWSER_TESTS,
    FrameLog,
    ServerProcess,
    create_game,
    new_context,
    page_errors,
    position,
    wait_position,
    wait_turn_or_end,
)

pytestmark = BROWSER_TESTS

BOT = {"name": "Robo", "kind": "bot", "level": "easy"}
ADA = {"name": "Ada", "kind": "human"}

#: Every animation motion.js starts, as it starts (a later move finishes the one before at
#: once, so a test could miss it by looking at document.getAnimations() only).
RECORDER = """
window.__motion = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
  const anim = animate.call(this, frames, options);
  if (options && options.id === "motion")
    window.__motion.push({
      key: this.dataset.motion,
      first: JSON.stringify(frames[0]),
      pos: Number(document.querySelector("#log")?.dataset.position ?? -1),
    });
  return anim;
};
"""

#: The page's animations now: motion.js's and the stylesheets' (CSS animations, transitions).
RUNNING = "() => document.getAnimations().map((a) => a.id || a.animationName || 'css')"
#: JavaScript: the keys of the pieces moving now.
MOVING = (
    "document.getAnimations().filter((a) => a.id === 'motion')"
    ".map((a) => a.effect.target.dataset.motion)"
)


def recorded(page: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate("window.__motion")
    return found


def slow_down(context: Any, page: Any) -> None:
    """Every animation of the page at a tenth of its speed (300 ms last 3 s)."""
    cdp = context.new_cdp_session(page)
    cdp.send("Animation.enable")
    cdp.send("Animation.setPlaybackRate", {"playbackRate": 0.1})


def quadropolis_move(page: Any) -> None:
    """A move that builds if it can: the first architect, a spot whose tile goes to the city."""
    page.click("button.architect >> nth=0")
    for i in range(len(page.query_selector_all("g.spot.legal"))):
        page.click(f"g.spot.legal >> nth={i}")  # (the board is drawn anew on each choice)
        if page.query_selector("#my-city g.cell.legal"):
            page.click("#my-city g.cell.legal >> nth=0")
            return
    page.click("#take-nothing, #discard")


def metropolys_bid(page: Any) -> None:
    page.click("g.field.legal .field-disc >> nth=0")
    page.click("button.value >> nth=0")


def test_quadropolis_pieces_travel_and_the_board_takes_input_meanwhile(
    server: ServerProcess, browser: Any, shots: Path
) -> None:
    context = new_context(browser)
    page = context.new_page()
    context.add_init_script(RECORDER)
    errors = page_errors(page)
    frames = FrameLog(page)
    made = create_game(server, "quadropolis", "classic", [ADA, BOT], seed=7)
    page.goto(made["seats"][0]["invite"])
    assert wait_turn_or_end(page)
    assert page.evaluate(RUNNING) == []  # the first drawing moves nothing
    assert page.get_attribute("html", "data-animations") == "auto"
    slow_down(context, page)
    built: list[str] = []  # the tiles the own moves built
    theirs: list[str] = []  # what the bot's moves moved
    taken = 0  # choices made while pieces moved
    before = 0
    for turn in range(6):
        assert wait_turn_or_end(page)
        if turn:
            # the bot's move travels: its architect to its spot, the Urbanist, its tile (a
            # move that ends a round takes the architects away at once)
            theirs += [m["key"] for m in recorded(page) if m["pos"] > before]
            if turn == 1:
                page.screenshot(path=shots / "motion-quadropolis-bot.png")
            # while pieces move, the board takes a choice (drawn at once, anew)
            if page.evaluate(MOVING):
                page.click("button.architect >> nth=0")
                assert page.get_attribute("button.architect >> nth=0", "aria-pressed") == "true"
                assert page.query_selector("g.spot.legal")
                page.click("button#cancel")
                taken += 1
            page.wait_for_function(f"() => {MOVING}.length === 0")
            # every piece is back home (drawn over the page while it moved): the tile the last
            # own move built in the player's city
            assert page.query_selector(".motion-layer") is None
            for tile in built[-1:]:
                assert page.query_selector(f"#my-city [data-motion='{tile}']"), tile
                assert page.query_selector(f"#site [data-motion='{tile}']") is None
        before = position(page)
        quadropolis_move(page)
        wait_position(page, f"> {before}")
        # the own move: the architect comes from the button it was chosen with (a travel:
        # translated and scaled), the Urbanist moves, a tile built travels from the site
        mine = [m for m in recorded(page) if m["pos"] == before]  # (the log is drawn after)
        keys = [m["key"] for m in mine]
        placed = [m for m in mine if m["key"].startswith("arch@")]
        assert placed and "translate" in placed[0]["first"], mine
        assert "urbanist" in keys
        built += [key for key in keys if key.startswith("tile-")]
    assert built, "no tile was built in six moves"
    assert sum(key.startswith("arch@") for key in theirs) >= 3, theirs
    assert theirs.count("urbanist") >= 3, theirs
    assert taken >= 3
    # a move made while a piece moves is taken
    assert wait_turn_or_end(page)
    page.wait_for_function(f"() => {MOVING}.length > 0")
    before = position(page)
    quadropolis_move(page)
    wait_position(page, f"> {before}")
    assert len(frames.moves_sent()) == 7
    assert errors == []


def test_metropolys_bids_rise_and_grow(server: ServerProcess, browser: Any, shots: Path) -> None:
    context = new_context(browser)
    page = context.new_page()
    context.add_init_script(RECORDER)
    errors = page_errors(page)
    made = create_game(server, "metropolys", "family", [ADA, BOT, BOT], seed=3)
    page.goto(made["seats"][0]["invite"])
    assert wait_turn_or_end(page)
    slow_down(context, page)
    for turn in range(5):
        assert wait_turn_or_end(page)
        before = position(page)
        if page.query_selector("g.field.legal"):
            field = page.get_attribute("g.field.legal >> nth=0", "data-field")
            page.click("g.field.legal .field-disc >> nth=0")
            page.click("button.value >> nth=0")
            wait_position(page, f"> {before}")
            # the own bid comes from the value button it was chosen with
            mine = [m for m in recorded(page) if m["key"] == f"piece@{field}"]
            assert mine and "translate" in mine[0]["first"], recorded(page)
        else:
            page.click("#pass")
            wait_position(page, f"> {before}")
            assert any(m["key"] == "passed-0" for m in recorded(page))
        assert wait_turn_or_end(page)
        if turn == 0:
            page.wait_for_function(f"() => {MOVING}.length > 0")
            page.screenshot(path=shots / "motion-metropolys-bot.png")
    keys = {m["key"] for m in recorded(page)}
    # the bots' bids rose or grew out of the bids they raised, and their passes showed
    assert sum(key.startswith("piece@") for key in keys) >= 4, keys
    raised = [
        m for m in recorded(page) if m["key"].startswith("piece@") and "translate" in m["first"]
    ]
    assert raised
    assert errors == []


def test_no_motion_under_reduced_motion(server: ServerProcess, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1366, "height": 900}, reduced_motion="reduce")
    page = context.new_page()
    context.add_init_script(RECORDER)
    errors = page_errors(page)
    made = create_game(server, "quadropolis", "classic", [ADA, BOT], seed=7)
    page.goto(made["seats"][0]["invite"])
    for _ in range(3):
        assert wait_turn_or_end(page)
        assert page.evaluate(RUNNING) == []
        before = position(page)
        quadropolis_move(page)
        wait_position(page, f"> {before}")
        assert page.evaluate(RUNNING) == []
        assert wait_turn_or_end(page)  # (the bot's move, unless the player moves again)
        assert page.evaluate(RUNNING) == []
    assert recorded(page) == []
    assert errors == []


def test_no_motion_with_the_setting_off(server: ServerProcess, browser: Any) -> None:
    context = new_context(browser)
    page = context.new_page()
    context.add_init_script(RECORDER)
    errors = page_errors(page)
    made = create_game(server, "metropolys", "family", [ADA, BOT], seed=3)
    page.goto(made["seats"][0]["invite"])
    assert wait_turn_or_end(page)
    page.click("#settings summary")
    assert page.input_value("#pref-motion") == "auto"
    page.select_option("#pref-motion", "off")
    assert page.get_attribute("html", "data-animations") == "off"
    page.click("#settings summary")
    for _ in range(3):
        assert wait_turn_or_end(page)
        before = position(page)
        if page.query_selector("g.field.legal"):
            metropolys_bid(page)
        else:
            page.click("#pass")
        wait_position(page, f"> {before}")
        assert page.evaluate(RUNNING) == []
        assert wait_turn_or_end(page)  # (the bot's move, unless the player moves again)
        # nor the stylesheets' own (the last field's glow)
        assert page.evaluate(RUNNING) == []
    assert recorded(page) == []
    # kept in this browser
    page.reload()
    page.wait_for_selector("#metro-board")
    assert page.get_attribute("html", "data-animations") == "off"
    assert errors == []
