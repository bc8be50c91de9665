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
    small_targets,
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
  if (doc.scrollWidth > doc.clientWidth) {
    out.push(`the page scrolls: ${doc.scrollWidth} > ${doc.clientWidth}`);
  }
  const end = document.querySelector('#end');
  for (const el of [end, ...end.querySelectorAll('*')]) {
    if (el.closest('.visually-hidden')) continue;
    const name = `${el.tagName}.${el.getAttribute('class') ?? ''}`;
    const cs = getComputedStyle(el);
    const scrolls = ['auto', 'scroll', 'hidden'].includes(cs.overflowX);
    if (scrolls && el.scrollWidth > el.clientWidth + 1) {
      out.push(`${name} scrolls: ${el.scrollWidth} > ${el.clientWidth}`);
    }
    const r = el.getBoundingClientRect();
    if (r.width && (r.right > doc.clientWidth + 1 || r.left < -1)) {
      out.push(`${name} sticks out: ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
  }
  const pad = document.querySelector('#scorepad').closest('.scroll-x');
  if (pad.scrollWidth > pad.clientWidth) {
    out.push(`the pad scrolls: ${pad.scrollWidth} > ${pad.clientWidth}`);
  }
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
        said[lang] = page.inner_text("#prompt-bar #prompt")
        page.locator("#confirm-cancel").tap()
        page.locator("#cancel").tap()
    assert all(text.count("#1") == 1 for text in said.values()), said
    assert {lang: text for lang, text in said.items() if TWICE.search(text)} == {}
    assert errors == []
    context.close()


# -- Metropolys's map: labels, markers, built fields, touch ---------------------------------------

#: JavaScript: every district name and field number of the board that another piece covers (a
#: field's disc, a building, a token, a type badge, a marker, a lake, a statue, another label),
#: or that the board's edge cuts off.
LABEL_PROBLEMS = r"""() => {
  const svg = document.querySelector('#metro-board');
  const box = svg.getBoundingClientRect();
  const scale = box.width / svg.viewBox.baseVal.width;
  const rect = (e) => e.getBoundingClientRect();
  const name = (e) => {
    const what = e.textContent || e.closest('[data-field]')?.dataset.field || '';
    return `${e.getAttribute('class')} ${what}`.trim();
  };
  // round things as ellipses (a field's disc with its ring's outer half), the rest as boxes
  const all = (sel) => [...svg.querySelectorAll(sel)];
  const round = all('.field-disc, .lake, .field-kind circle, .token > circle').map((e) => {
    const r = rect(e), edge = (parseFloat(getComputedStyle(e).strokeWidth) || 0) * scale / 2;
    return { x: r.x + r.width / 2, y: r.y + r.height / 2, rx: r.width / 2 + edge,
      ry: r.height / 2 + edge, what: name(e) };
  });
  const boxes = (sel) => all(sel).map((e) => ({ r: rect(e), what: name(e) }));
  const square = boxes('.statue, .piece-body, .seat-marker');
  const labels = boxes('.district-name, .field-id');
  const out = [];
  const meets = (a, b) => a.left < b.right - 0.5 && a.right > b.left + 0.5
    && a.top < b.bottom - 0.5 && a.bottom > b.top + 0.5;
  for (const [i, l] of labels.entries()) {
    const r = l.r;
    const within = r.left >= box.left - 0.5 && r.right <= box.right + 0.5
      && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5;
    if (!within) {
      out.push(`${l.what} is cut off by the board's edge`);
    }
    for (const o of round) {
      const dx = (Math.max(r.left, Math.min(o.x, r.right)) - o.x) / o.rx;
      const dy = (Math.max(r.top, Math.min(o.y, r.bottom)) - o.y) / o.ry;
      if (dx * dx + dy * dy < 0.98) out.push(`${l.what} lies on ${o.what}`);
    }
    for (const o of square) if (meets(r, o.r)) out.push(`${l.what} lies on ${o.what}`);
    for (const other of labels.slice(i + 1)) {
      if (meets(r, other.r)) out.push(`${l.what} lies on ${other.what}`);
    }
  }
  return out;
}"""


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["1366x900", "390x844"])
def test_no_map_label_lies_under_a_field_a_lake_or_the_edge(
    browser: Any, ended: dict[str, str], shots: Path, size: tuple[int, int]
) -> None:
    """The labels once hidden ("Center" behind field 9, "East" behind 30, 21 on a lake, "21" and
    "North" cut off on a phone) now lie where nothing else is drawn, in every language."""
    context = open_context(browser, size)
    page = context.new_page()
    page.goto(ended["metropolys"])
    page.wait_for_selector("#metro-board .field-id", timeout=60_000)
    found = {}
    for lang in LANGS:
        set_language(page, lang)
        page.wait_for_selector("#metro-board .district-name")
        found[lang] = page.evaluate(LABEL_PROBLEMS)
    page.locator("#metro-board").screenshot(path=shots / f"metro-labels-{size[0]}x{size[1]}.png")
    assert {lang: problems for lang, problems in found.items() if problems} == {}
    context.close()


#: JavaScript: each seat's marker as drawn on the board and in the seat list, by its outline
#: ("polygon 12", "rect", "circle"), and the statues' outline.
MARKER_SHAPES = r"""() => {
  const outline = (e) => e.tagName === 'polygon' ? `polygon ${e.points.numberOfItems}` : e.tagName;
  const board = {};
  for (const m of document.querySelectorAll('#metro-board .piece .seat-marker')) {
    const seat = m.closest('[data-field]') && m.getAttribute('data-shape');
    board[seat] = outline(m);
  }
  const list = [...document.querySelectorAll('#seats li .dot')].map((d) => {
    const clip = getComputedStyle(d).clipPath;
    if (clip.startsWith('polygon')) return `polygon ${clip.split(',').length}`;
    return `box ${getComputedStyle(d).borderRadius}`;
  });
  const statues = [...document.querySelectorAll('#metro-board .statue')].map(outline);
  return { board, list, statues: [...new Set(statues)] };
}"""


def test_no_metropolys_marker_has_the_statues_shape(browser: Any, ended: dict[str, str]) -> None:
    """Seat 3's marker was a triangle beside the statues' triangles: every seat's marker has
    an outline of its own that no statue has, on the board and in the seat list."""
    context = open_context(browser, LAPTOP)
    page = context.new_page()
    page.goto(ended["metropolys"])
    page.wait_for_selector("#metro-board .piece .seat-marker", timeout=60_000)
    shapes = page.evaluate(MARKER_SHAPES)
    assert shapes["statues"] == ["polygon 3"]
    assert len(set(shapes["board"].values())) == 4, shapes
    assert "polygon 3" not in shapes["board"].values(), shapes
    assert len(set(shapes["list"])) == 4 and "polygon 3" not in shapes["list"], shapes
    context.close()


#: JavaScript: per type of neighbourhood, the outline of the badge drawn on each built-on field
#: of that type, without its colours (what is left under any colour blindness).
KIND_GLYPHS = r"""() => {
  const out = { built: 0, missing: [], glyphs: {} };
  for (const field of document.querySelectorAll('#metro-board .field')) {
    if (!field.querySelector('.piece.built')) continue;
    out.built += 1;
    const badge = field.querySelector('.field-kind');
    if (!badge) { out.missing.push(field.dataset.field); continue; }
    const icon = badge.querySelector('g').cloneNode(true);
    for (const el of [icon, ...icon.querySelectorAll('*')]) {
      for (const attr of ['fill', 'stroke', 'transform']) el.removeAttribute(attr);
    }
    (out.glyphs[badge.dataset.kind] ??= []).push(icon.innerHTML);
  }
  return out;
}"""


def test_a_built_on_field_tells_its_type_by_more_than_colour(
    browser: Any, ended: dict[str, str], shots: Path
) -> None:
    """Under deuteranopia malls, lodgings and parks all turned olive: a building hid its
    field's icon, so the ring's colour was all that told the type. Now each built-on field has
    a badge whose drawing, colours aside, is its type's own."""
    context = open_context(browser, LAPTOP)
    page = context.new_page()
    page.goto(ended["metropolys"])
    page.wait_for_selector("#metro-board .piece.built", timeout=60_000)
    found = page.evaluate(KIND_GLYPHS)
    assert found["built"] > 10 and found["missing"] == [], found
    glyphs = {kind: set(drawn) for kind, drawn in found["glyphs"].items()}
    assert len(glyphs) >= 4, glyphs.keys()
    assert all(len(drawn) == 1 for drawn in glyphs.values()), glyphs  # one drawing per type
    assert len({next(iter(drawn)) for drawn in glyphs.values()}) == len(glyphs)  # all differ
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setEmulatedVisionDeficiency", {"type": "deuteranopia"})
    page.locator("#metro-board").screenshot(path=shots / "metro-deuteranopia-1366x900.png")
    context.close()


def test_metropolys_touch_targets_are_44_px_on_a_phone(
    server: ServerProcess, browser: Any, shots: Path
) -> None:
    """Fields were 35x40 px on a phone, the language menu 35 px tall: at 390x844 every field,
    value, button and the header's menus are at least 44 x 44 CSS px (the board pans sideways
    in its box when that makes it wider than the screen)."""
    seats = [{"name": "Ada", "kind": "human"}, *BOTS4[:3]]
    made = create_game(server, "metropolys", "family", seats, seed=6)
    context = open_context(browser, PHONE)
    page = context.new_page()
    errors = page_errors(page)
    page.goto(made["seats"][0]["invite"])
    page.wait_for_selector("#status.your-turn", timeout=60_000)
    header = "#lang, #settings > summary, header .header-link"
    assert page.locator("#metro-board .field.legal .hit").count() > 0
    assert small_targets(page, "#metro-board .field .hit") == []
    assert small_targets(page, f"{header}, #controls button") == []
    page.locator("#metro-board .field.legal .field-disc").first.tap()
    page.wait_for_selector("button.value")
    assert small_targets(page, "#controls button") == []
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    page.screenshot(path=shots / "metro-touch-390x844.png")
    assert axe_problems(page) == []
    assert errors == []
    context.close()


# -- hot-seat secrets ------------------------------------------------------------------------------

#: JavaScript: make the shown seat's move by clicks (a bid on the first field offered, else a
#: pass) and say, in the same moment, what of its secrets is still on the screen.
MOVE_AND_LOOK = """() => {
  const field = document.querySelector('#metro-board .field.legal');
  if (field) {
    field.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    document.querySelector('button.value').click();
  } else {
    document.querySelector('#pass').click();
  }
  return {
    cards: !!document.querySelector('#my-cards'),
    log: document.querySelectorAll('#log li').length,
    covered: !!document.querySelector('#handover-wait, #handover'),
  };
}"""


def test_a_hot_seat_players_secrets_leave_the_screen_with_their_move(
    server: ServerProcess, browser: Any
) -> None:
    """Two people on one device and a bot: the cards of the person who just moved stayed on
    screen while the bot thought, until the next person's cover came. Now they go with the
    move, before the server has even answered."""
    seats = [{"name": "Ada", "kind": "human"}, {"name": "Lin", "kind": "human"}, BOTS4[0]]
    made = create_game(server, "metropolys", "family", seats)
    context = open_context(browser, LAPTOP)
    page = context.new_page()
    errors = page_errors(page)
    for seat in (0, 1):  # both seats held on this device
        page.goto(made["seats"][seat]["invite"])
        page.wait_for_selector(f"#seats li[data-seat='{seat}'] .badge")
    for _ in range(3):
        page.wait_for_selector("#handover-ok", timeout=60_000)
        page.click("#handover-ok")
        page.wait_for_selector("#my-cards")
        before = int(page.evaluate("Number(document.querySelector('#log').dataset.position)"))
        seen = page.evaluate(MOVE_AND_LOOK)
        assert seen == {"cards": False, "log": 0, "covered": True}
        assert axe_problems(page) == []  # the cover, whichever is up now
        page.wait_for_function(
            f"() => Number(document.querySelector('#log').dataset.position) > {before}"
        )
        assert page.query_selector("#my-cards") is None  # nor once the move is made
    assert errors == []
    context.close()


# -- stand-ins explained ------------------------------------------------------------------------


def log_notes(page: Any) -> list[tuple[str, str]]:
    """The log's stand-in notes: (their key, their text)."""
    notes: list[list[str]] = page.evaluate(
        "[...document.querySelectorAll('#log li.stand-in-note')]"
        ".map((li) => [li.dataset.key, li.textContent])"
    )
    return [(key, text) for key, text in notes]


def test_away_leaving_and_coming_back_are_counted_down_told_and_logged(
    server: ServerProcess, browser: Any
) -> None:
    """A person away on their turn: the others see the time left before a bot plays for them;
    the bot's taking over, the person's return and their leaving are in the log; and the
    person, opening the table again, is told what the bot did meanwhile."""
    people = [{"name": "Ada", "kind": "human"}, {"name": "Lin", "kind": "human"}]
    body = {"game": "quadropolis", "mode": "classic", "seats": people}
    made = server.api("/api/games", {**body, "away_limit": 6, "stand_in": "easy"})
    gid = made["id"]
    away = server.api(f"/api/games/{gid}")["current_player"]
    stays = 1 - away
    name = people[away]["name"]
    context = open_context(browser, LAPTOP)
    page = context.new_page()
    errors = page_errors(page)
    page.goto(made["seats"][stays]["invite"])
    # the seat to move has nobody at it: its countdown
    banner = page.wait_for_selector(f"#away-{away}", timeout=30_000)
    assert banner is not None
    text = banner.text_content() or ""
    assert name in text and "bot (easy)" in text and "at most" in text, text
    left = re.search(r"(\d+):(\d\d)", text)
    assert left and 0 < int(left.group(1)) * 60 + int(left.group(2)) <= 6, text
    assert page.get_attribute(f"#away-{away} .away-time", "role") == "timer"
    assert axe_problems(page) == []
    # ... a bot takes over and plays: the log says why, before the bot's move
    page.wait_for_selector(f"#stand-in-{away}", timeout=30_000)
    page.wait_for_selector("#log li.stand-in-note[data-key='stand_in'] + li.move-start")
    assert page.query_selector(f"#away-{away}") is None
    notes = log_notes(page)
    assert notes[0][0] == "stand_in" and f"{name} is away too long" in notes[0][1], notes
    # ... the person comes back through their link: told what the bot did for them
    back_context = open_context(browser, LAPTOP)
    back = back_context.new_page()
    back_errors = page_errors(back)
    back.goto(made["seats"][away]["invite"])
    told = back.wait_for_selector(f"#while-away-{away}", timeout=30_000)
    assert told is not None
    assert "made 1 move for you" in (told.text_content() or ""), told.text_content()
    assert axe_problems(back) == []
    back.click(f"#while-away-{away} button.seen")
    assert back.query_selector(f"#while-away-{away}") is None
    # ... the others' log says they are back
    page.wait_for_selector("#log li.stand-in-note[data-key='seat_back']")
    assert f"{name} is back" in log_notes(page)[-1][1]
    # ... then leaves for good: the log says so
    back.click("#resign-button")
    back.click("#resign-ok")
    page.wait_for_function(
        "() => [...document.querySelectorAll('#log li.stand-in-note')]"
        f".some((li) => li.textContent.includes('{name} leaves the game'))"
    )
    assert errors == [] and back_errors == []
    back_context.close()
    context.close()


# -- Quadropolis: face-down tiles, the rematch's address ---------------------------------------


def test_face_down_tiles_are_not_labelled_like_architects(
    server: ServerProcess, browser: Any, shots: Path
) -> None:
    """A face-down tile showed its back's "#1", the notation of Architect #1: it is drawn
    hatched, named "face-down" to screen readers and tooltips, with no number (legend too)."""
    seats = [{"name": "Ada", "kind": "human"}, BOTS4[0]]
    made = create_game(server, "quadropolis", "classic", seats, seed=7)
    context = open_context(browser, LAPTOP)
    page = context.new_page()
    page.goto(made["seats"][0]["invite"])
    page.wait_for_selector("#site .sq")
    down = page.locator("#site .sq[aria-label*='face-down']")
    assert down.count() > 0  # two players: some of the site is face down
    for i in range(down.count()):
        square = down.nth(i)
        assert not re.search(r"#\d", square.text_content() or ""), square.text_content()
        assert square.locator(".face-down-tile line").count() > 2  # hatched
    assert not re.search(r"#\d", page.text_content("#site") or "")
    page.locator("#site").screenshot(path=shots / "quadropolis-face-down-1366x900.png")
    page.click("#legend-button")
    legend = page.wait_for_selector("#dialog-legend .legend-item:has(.face-down-tile)")
    assert legend is not None and not re.search(r"#\d", legend.text_content() or "")
    context.close()


def game_in_address(page: Any) -> str:
    match = re.search(r"#/game/([^/]+)", page.url)
    assert match, page.url
    return match.group(1)


def test_a_rematch_has_its_own_address_for_who_asks_and_who_joins(
    server: ServerProcess, browser: Any
) -> None:
    """After a rematch the address bar kept the old game's id: the one who asks for it and the
    one who joins it both come to the new game's address, and its links name it."""
    people = [{"name": "Ada", "kind": "human"}, {"name": "Lin", "kind": "human"}]
    made = create_game(server, "metropolys", "family", people)
    gid = made["id"]
    pages = []
    for seat in (0, 1):
        context = open_context(browser, LAPTOP)
        page = context.new_page()
        page.goto(made["seats"][seat]["invite"])
        page.wait_for_selector(f"#seats li[data-seat='{seat}'] .badge")
        pages.append((context, page, page_errors(page)))
    for seat in (0, 1):  # both leave: bots finish the game for them
        token = made["seats"][seat]["invite"].rsplit("/", 1)[-1]
        server.api(f"/api/games/{gid}/resign", {"token": token})
    finished(server, gid)
    (_, ada, ada_errors), (_, lin, lin_errors) = pages
    for page in (ada, lin):
        page.wait_for_selector("#rematch", timeout=60_000)
    ada.click("#rematch")
    ada.wait_for_function(f"() => !location.hash.includes('{gid}')")
    new = game_in_address(ada)
    lin.wait_for_selector("#rematch:has-text('Join')")
    lin.click("#rematch")
    lin.wait_for_function(f"() => !location.hash.includes('{gid}')")
    assert game_in_address(lin) == new != gid
    for page in (ada, lin):
        # the old table stays on screen while the new one loads: wait for the new one's links
        page.wait_for_function(
            "(want) => document.querySelector('#links .watch-link')?.value.endsWith(want)",
            arg=f"#/game/{new}",
            timeout=30_000,
        )
        page.wait_for_selector("#metro-board")
        assert page.locator("#links .watch-link").count() == 1
    assert ada_errors == [] and lin_errors == []
    for context, _, _ in pages:
        context.close()
