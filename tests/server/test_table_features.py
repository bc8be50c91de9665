"""What the table shows before and after each choice, in a real browser: the tile an architect
would take, the hand-over screen of a hot-seat game with secrets, a page for a bad invite
link, spectators told so, copies confirmed, whose turn in the lobby, the title and a
notification on your turn in a hidden tab, tooltips by hover and long press, moves read out,
and a page that never redraws the board when someone comes online."""

from __future__ import annotations

import json
from typing import Any

from .browser_helpers import (
    BROWSER_TESTS,
    FrameLog,
    ServerProcess,
    create_game,
    new_context,
    page_errors,
    position,
    tab_to,
    wait_position,
    wait_turn_or_end,
)

pytestmark = BROWSER_TESTS

BOT = {"name": "Robo", "kind": "bot", "level": "easy"}


def last_state(frames: FrameLog) -> dict[str, Any]:
    states = [m for m in frames.messages() if m.get("type") == "state"]
    return states[-1]


def test_the_tile_marked_on_the_site_is_the_one_the_move_takes(
    server: ServerProcess, browser: Any
) -> None:
    context = new_context(browser)
    page = context.new_page()
    errors = page_errors(page)
    frames = FrameLog(page)
    made = create_game(server, "quadropolis", "classic", [{"name": "Ada", "kind": "human"}, BOT])
    page.goto(made["seats"][0]["invite"])
    built = 0
    for _ in range(5):
        assert wait_turn_or_end(page)
        state = last_state(frames)
        assert state["choices"] is not None
        architect = state["choices"]["architects"][0]
        k = architect["architect"]
        page.click(f"button.architect[data-architect='{k}']")
        # every spot the architect may use marks the square (and tile) its move takes
        for entry in architect["spots"]:
            page.hover(f"g.spot.legal[data-spot='{entry['spot']}']")
            marked = page.eval_on_selector(
                "#site .sq.marked",
                "(el) => ({square: el.dataset.square, tile: el.dataset.tile,"
                " takes: el.classList.contains('takes')})",
            )
            assert marked["square"] == entry["square"], entry
            assert marked["takes"] == (entry["site"] == "face-up")
            assert (marked["tile"] or None) == entry["tile"]
            label = page.get_attribute(f"g.spot[data-spot='{entry['spot']}']", "aria-label")
            row, col = entry["square"][1], entry["square"][3]
            assert label and f"row {row}, column {col}" in label  # the square, in words
            previewed = page.eval_on_selector_all(
                "#my-city .cell.preview", "(els) => els.map((el) => el.dataset.target)"
            )
            assert sorted(previewed) == sorted(entry["targets"])
            assert page.inner_text("#takes-note")
        page.mouse.move(0, 0)
        assert page.query_selector("#site .sq.marked") is None  # the mark follows the pointer
        buildable = [e for e in architect["spots"] if e["targets"]]
        before = position(page)
        if not buildable:
            page.click("button#cancel")
            page.click("button.architect")
            page.click("g.spot.legal")
            page.click("#take-nothing, #discard")
            wait_position(page, f"> {before}")
            continue
        entry = buildable[-1]
        page.click(f"g.spot.legal[data-spot='{entry['spot']}']")
        chosen = page.eval_on_selector("#site .sq.marked.takes", "(el) => el.dataset.tile")
        target = sorted(entry["targets"])[0]
        page.click(f"#my-city g.cell.legal[data-target='{target}']")
        wait_position(page, f"> {before}")
        events = [e for e in last_state(frames)["log"] if e["move"] == before]
        done = next(e for e in events if e["key"] == "building_built")
        assert done["params"]["tile"] == chosen
        assert done["params"]["square"] == entry["square"]
        assert done["params"]["city_square"] == target
        built += 1
    assert built >= 2
    assert errors == []
    context.close()


def test_a_hot_seat_game_with_secrets_hands_the_device_over(
    server: ServerProcess, browser: Any
) -> None:
    context = new_context(browser)
    page = context.new_page()
    errors = page_errors(page)
    frames = FrameLog(page)
    page.goto(server.base + "/")
    page.wait_for_selector("#create")
    page.select_option("#game", "metropolys")
    page.select_option(".seat-row[data-seat='1'] select.kind", "human")
    page.fill(".seat-row[data-seat='0'] input.name", "Ada")
    page.fill(".seat-row[data-seat='1'] input.name", "Lin")
    page.click("#create")
    english = json.loads(server_file("metropolys", "en"))
    seen = set()
    for _ in range(4):
        page.wait_for_selector("#handover")
        # nothing secret on the screen: no cards, no board, no log of the seat to come
        assert page.query_selector("#my-cards") is None
        assert page.query_selector("#metro-board") is None
        assert page.query_selector("#log li") is None
        name = page.inner_text("#handover-ok").split(":")[0].split()[-1]
        assert name in ("Ada", "Lin")
        page.click("#handover-ok")
        page.wait_for_selector("#my-cards")
        seat = 0 if name == "Ada" else 1
        states = [m for m in frames.messages() if m.get("type") == "state"]
        card = [m for m in states if m["seat"] == seat][-1]["view"]["area_card"]
        other = [m for m in states if m["seat"] == 1 - seat][-1]["view"]["area_card"]
        seen.add(seat)
        # the seat's own card is shown, the other seat's is not on the table
        assert english[f"area.{card}"] in page.inner_text("#my-cards")
        if other != card:
            assert english[f"area.{other}"] not in page.inner_text("#table")
        assert page.inner_text("#status").endswith(f"{name}.")
        before = position(page)
        if page.query_selector("g.field.legal") is not None:
            page.click("g.field.legal .field-disc")
            page.click("button.value")
        else:
            page.click("#pass")
        wait_position(page, f"> {before}")
    assert seen == {0, 1}
    assert errors == []
    context.close()


def test_a_bad_invite_link_explains_and_offers_to_watch_or_forget(
    server: ServerProcess, browser: Any
) -> None:
    made = create_game(server, "quadropolis", "classic", [{"name": "Ada", "kind": "human"}, BOT])
    gid = made["id"]
    token = made["seats"][0]["token"]
    context = new_context(browser)
    page = context.new_page()
    errors = page_errors(page)
    # a link cut short: the page says so, and watching works
    page.goto(f"{server.base}/#/game/{gid}/{token[: len(token) // 2]}")
    page.wait_for_selector("#message-page")
    assert "invite link" in page.inner_text("#message-page h2").lower()
    page.click("#watch-instead")
    page.wait_for_selector("#spectator")
    page.wait_for_selector("#site")
    stored = page.evaluate(f"localStorage.getItem('polis:tokens:{gid}')")
    assert stored is None
    page.reload()  # the plain address shows the game, never a blank page
    page.wait_for_selector("#spectator")
    assert "spectator" in page.inner_text("#spectator").lower()
    # a stale link can be forgotten instead
    page.goto(f"{server.base}/#/game/{gid}/not-a-seat-token")
    page.wait_for_selector("#forget-link")
    page.click("#forget-link")
    page.wait_for_selector("#create")
    assert page.evaluate(f"localStorage.getItem('polis:tokens:{gid}')") is None
    # no such game
    page.goto(f"{server.base}/#/game/nosuchgame/{token}")
    page.wait_for_selector("#message-page")
    assert "does not exist" in page.inner_text("#message-page")
    assert errors == [] or all("404" in e for e in errors)
    context.close()


def test_links_are_copied_with_a_word_and_the_lobby_says_whose_turn(
    server: ServerProcess, browser: Any
) -> None:
    context = new_context(browser)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    errors = page_errors(page)
    page.goto(server.base + "/")
    page.wait_for_selector("#create")
    page.select_option("#game", "quadropolis")
    page.select_option(".seat-row[data-seat='1'] select.kind", "human")
    page.fill(".seat-row[data-seat='0'] input.name", "Ada")
    page.fill(".seat-row[data-seat='1'] input.name", "Lin")
    page.uncheck(".seat-row[data-seat='1'] input.here")
    page.click("#create")
    page.wait_for_selector("input.invite-link")
    invite = page.input_value("input.invite-link")
    page.click("#new-game button.copy")
    page.wait_for_function(
        "() => document.querySelector('#new-game button.copy').textContent.includes('Copied')"
    )
    assert page.evaluate("navigator.clipboard.readText()") == invite
    assert page.is_visible("#toast")
    page.click("#enter")
    page.wait_for_selector("#site")
    gid = page.evaluate("location.hash.split('/')[2]")
    # the seat's own link, for another device, is offered and copied too
    page.click("#links summary")
    seat_link = page.input_value("#links input.seat-link")
    assert gid in seat_link and seat_link != invite
    # the lobby tells whose turn it is in this game
    ada_first = page.query_selector("#status.your-turn") is not None
    page.goto(server.base + "/")
    note = page.locator(f"#recent li[data-game='{gid}'] .turn-note")
    note.wait_for()
    assert ("your turn" in note.inner_text()) == ada_first
    assert ("Lin" in note.inner_text()) == (not ada_first)
    assert errors == []
    context.close()


#: Before the page's scripts: a hidden tab, notifications granted and recorded, sounds counted.
HIDDEN_TAB = """
Object.defineProperty(document, 'hidden', { get: () => window.__hidden ?? true });
window.__notes = [];
window.Notification = class { constructor(title, o) { window.__notes.push([title, o.body]); }
  close() {} };
window.Notification.permission = 'granted';
window.__chimes = 0;
window.AudioContext = class { constructor() { this.currentTime = 0; this.destination = {}; }
  createOscillator() { window.__chimes++; return { frequency: {}, connect: (g) => g,
    start() {}, stop() {} }; }
  createGain() { return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} },
    connect: (d) => d }; } };
localStorage.setItem('polis:prefs', JSON.stringify({ notify: true, sound: true }));
"""


def test_your_turn_in_a_hidden_tab_flags_the_title_notifies_and_chimes(
    server: ServerProcess, browser: Any
) -> None:
    context = new_context(browser)
    page = context.new_page()
    page.add_init_script(HIDDEN_TAB)
    errors = page_errors(page)
    made = create_game(server, "quadropolis", "classic", [{"name": "Ada", "kind": "human"}, BOT])
    page.goto(made["seats"][0]["invite"])
    assert wait_turn_or_end(page)
    page.wait_for_function("() => document.title.startsWith('●')")
    assert "Your turn" in page.title()
    notes = page.evaluate("window.__notes")
    assert notes and notes[0][0] == "Your turn"
    assert page.evaluate("window.__chimes") > 0
    # the tab comes back: the title is plain again
    page.evaluate("window.__hidden = false; document.dispatchEvent(new Event('visibilitychange'))")
    assert not page.title().startswith("●")
    # a move made, the bot answers: the new turn is read out through the live region
    page.evaluate("window.__hidden = true")
    before = position(page)
    page.click("button.architect")
    page.click("g.spot.legal")
    page.click("#my-city g.cell.legal, #take-nothing, #discard")
    page.wait_for_function(
        f"() => Number(document.querySelector('#log').dataset.position) > {before + 1}"
    )
    page.wait_for_function("() => document.querySelector('#announce').textContent.includes('Robo')")
    assert "Your turn" in page.inner_text("#announce")
    page.wait_for_function("() => window.__notes.length >= 2")
    assert errors == []
    context.close()


def test_tooltips_on_hover_and_long_press_in_the_chosen_language(
    server: ServerProcess, browser: Any
) -> None:
    made = create_game(server, "quadropolis", "classic", [{"name": "Ada", "kind": "human"}, BOT])
    desk = new_context(browser)
    page = desk.new_page()
    page.goto(made["seats"][0]["invite"])
    page.wait_for_selector("#site .sq .tile")
    tile = page.locator("#site .sq:has(.tile)").first
    kind = tile.evaluate("(el) => el.querySelector('.tile').classList[1]")
    tile.hover()
    page.wait_for_selector("#tip:not([hidden])")
    english = json.loads(server_file("quadropolis", "en"))
    assert english[f"type.{kind}"] in page.inner_text("#tip") or kind == "park"
    desk.close()
    # a phone, in German: a long press shows the tip and does not play the piece
    phone = new_context(browser, 390, 844, touch=True)
    page = phone.new_page()
    page.add_init_script("localStorage.setItem('polis:lang', 'de')")
    page.goto(server.base + f"/#/game/{made['id']}")
    page.wait_for_selector("#site .sq .tile")
    tile = page.locator("#site .sq:has(.tile)").first
    kind = tile.evaluate("(el) => el.querySelector('.tile').classList[1]")
    tile.scroll_into_view_if_needed()
    box = tile.bounding_box()
    assert box is not None
    cdp = phone.new_cdp_session(page)
    point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    page.wait_for_timeout(700)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_selector("#tip:not([hidden])")
    german = json.loads(server_file("quadropolis", "de"))
    assert german[f"type.{kind}"] in page.inner_text("#tip") or kind == "park"
    phone.close()


def test_a_board_redrawn_under_a_resting_mouse_leaves_the_keyboard_tip(
    server: ServerProcess, browser: Any
) -> None:
    """A piece focused by keyboard keeps its tip when the board is redrawn under a mouse
    that rests on another piece: the browser says the pointer came over the new piece
    (without moving), and that used to put the other piece's tip up instead."""
    made = create_game(server, "quadropolis", "classic", [{"name": "Ada", "kind": "human"}, BOT])
    context = new_context(browser)
    page = context.new_page()
    page.goto(made["seats"][0]["invite"])
    assert wait_turn_or_end(page)
    tile = page.locator("#site .sq:has(.tile)").first
    tile.hover()
    page.wait_for_selector("#tip:not([hidden])")
    hovered = page.inner_text("#tip")
    tab_to(page, "button.architect")
    focused = page.evaluate("document.activeElement.dataset.tip")
    assert focused and focused != hovered
    tip_is = "(want) => document.getElementById('tip').textContent === want"
    page.wait_for_function(tip_is, arg=focused)
    # the board redrawn: the tile under the resting mouse is a new element
    tile.evaluate("(el) => el.replaceWith(el.cloneNode(true))")
    page.wait_for_timeout(800)  # longer than a hover's delay (350 ms)
    assert page.inner_text("#tip") == focused
    # a mouse that really moves onto a piece still shows that piece's tip
    page.mouse.move(1, 1)
    page.locator("#site .sq:has(.tile)").first.hover()
    page.wait_for_function(tip_is, arg=hovered)
    context.close()


def server_file(game: str, lang: str) -> str:
    from polis.core.registry import get_game
    from polis.server.http.webfiles import game_client

    client = game_client(get_game(game))
    assert client is not None
    return client.read(f"i18n/{lang}.json")


def test_someone_coming_online_redraws_neither_board_nor_choice(
    server: ServerProcess, browser: Any
) -> None:
    made = create_game(
        server,
        "quadropolis",
        "classic",
        [{"name": "Ada", "kind": "human"}, {"name": "Lin", "kind": "human"}],
    )
    ctx_a = new_context(browser)
    page_a = ctx_a.new_page()
    errors = page_errors(page_a)
    page_a.goto(made["seats"][0]["invite"])
    page_a.wait_for_selector("#site")
    page_a.wait_for_selector("#status")
    mine = page_a.query_selector("#status.your-turn") is not None
    if mine:
        page_a.click("button.architect")
        page_a.click("g.spot.legal")
    page_a.evaluate("document.querySelector('#site').dataset.keep = 'yes'")
    assert "off" in page_a.get_attribute(".seat-list li[data-seat='1'] .conn", "class")
    ctx_b = new_context(browser)
    page_b = ctx_b.new_page()
    page_b.goto(made["seats"][1]["invite"])
    page_b.wait_for_selector("#site")
    page_a.wait_for_selector(".seat-list li[data-seat='1'] .conn.on")
    assert page_a.get_attribute("#site", "data-keep") == "yes"  # the same board, not redrawn
    if mine:
        assert page_a.query_selector("g.spot.chosen") is not None
        assert page_a.query_selector("button.architect.chosen") is not None
    ctx_b.close()
    page_a.wait_for_selector(".seat-list li[data-seat='1'] .conn.off")
    assert page_a.get_attribute("#site", "data-keep") == "yes"
    assert errors == []
    ctx_a.close()
