"""The web app in a real browser: Playwright driving Debian's chromium against `polis serve`."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from .browser_helpers import (
    BROWSER_TESTS,
    FrameLog,
    ServerProcess,
    click_metropolys_move,
    click_quadropolis_move,
    log_keys,
    log_lines,
    play_until_end,
    position,
    wait_position,
    wait_turn_or_end,
)

pytestmark = BROWSER_TESTS


def new_page(browser: Any) -> tuple[Any, Any, list[str], FrameLog]:
    """A fresh browser context and page; its errors, and every frame the server sends it
    (the page itself gets state messages without ``legal``: see FrameLog)."""
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return context, page, errors, FrameLog(page)


def start_game(page: Any, base: str, game: str, mode: str, seats: list[dict[str, Any]]) -> None:
    """Fill the lobby form: seats as {kind, name, level, here}."""
    page.goto(base + "/")
    page.wait_for_selector("#create")
    page.select_option("#game", game)
    page.select_option("#mode", mode)
    page.select_option("#players", str(len(seats)))
    for i, seat in enumerate(seats):
        row = f".seat-row[data-seat='{i}']"
        page.select_option(f"{row} select.kind", seat["kind"])
        page.fill(f"{row} input.name", seat["name"])
        if seat["kind"] == "bot":
            page.select_option(f"{row} select.level", seat.get("level", "easy"))
        elif not seat.get("here", True):
            page.uncheck(f"{row} input.here")
    page.click("#create")


def game_id(page: Any) -> str:
    match = re.search(r"#/game/([^/]+)", page.url)
    assert match, page.url
    return match.group(1)


def state_messages(frames: FrameLog) -> list[dict[str, Any]]:
    return [m for m in frames.messages() if m.get("type") == "state"]


def assert_no_hidden_quadropolis_facts(frames: FrameLog, record: dict[str, Any]) -> None:
    """No frame names a face-down tile or a tile of a round not yet laid out."""
    states = state_messages(frames)
    assert states
    face_down: set[str] = set()
    for msg in states:
        view = msg["view"]
        for r, dealt in enumerate(view["public_rounds"]):
            face_down |= {
                t
                for t, shown in zip(record["setup"]["rounds"][r], dealt, strict=True)
                if shown is None
            }
    assert face_down, "a 2-player game has face-down tiles"
    for raw in frames.frames:
        assert "setup" not in json.loads(raw)
        for tile in face_down:
            assert tile not in raw
    for msg in states:
        view = msg["view"]
        if view["finished"]:
            continue
        later = {f"R{r}-" for r in range(view["round"] + 1, view["rounds"] + 1)}
        text = json.dumps(msg)
        assert not any(prefix in text for prefix in later), f"future round in {view['round']}"


def assert_no_other_metropolys_cards(frames: FrameLog, record: dict[str, Any], seat: int) -> None:
    """No frame shows another seat's secret cards before the end: not in a view, not in the
    event log (the seat sees only its own cards being dealt)."""
    setup = record["setup"]
    others_area = {c for p, c in enumerate(setup["area_cards"]) if p != seat}
    states = 0
    for raw in frames.frames:
        msg = json.loads(raw)
        assert "area_cards" not in raw and "neighbourhood_cards" not in raw
        if msg.get("type") == "state":
            states += 1
            assert msg["seat"] == seat
            view = msg["view"]
            assert view["player"] == seat
            assert view["area_card"] == setup["area_cards"][seat]
            assert view["area_card"] not in others_area
            dealt = [e for e in msg["log"] if e["key"] == "cards_dealt"]
            assert [e["params"]["player"] for e in dealt] == [seat]
            assert dealt[0]["params"]["area_card"] == setup["area_cards"][seat]
            if not msg["finished"]:
                assert "game_ended" not in {e["key"] for e in msg["log"]}
    assert states > 10


def assert_log_worded(page: Any, *names: str, at_least: int = 10) -> None:
    """The log is worded from events: sentences with the players' names, no raw keys."""
    lines = log_lines(page)
    assert len(lines) >= at_least
    assert not [line for line in lines if "event." in line or "{" in line or not line.strip()]
    for name in names:
        assert any(name in line for line in lines), name


def test_quadropolis_against_a_bot_by_clicks(server: ServerProcess, browser: Any) -> None:
    context, page, errors, frames = new_page(browser)
    start_game(
        page,
        server.base,
        "quadropolis",
        "classic",
        [{"kind": "human", "name": "Ada"}, {"kind": "bot", "name": "Robo", "level": "easy"}],
    )
    page.wait_for_selector("#site")
    clicks = play_until_end(page, "quadropolis")
    assert clicks == 16  # 4 rounds x 4 actions
    gid = game_id(page)
    assert page.is_visible("#scorepad") and page.is_visible("#download")
    assert "Tower Blocks" in page.inner_text("#scorepad")
    with page.expect_download() as dl:
        page.click("#download")
    record = json.loads(Path(dl.value.path()).read_text())
    assert record["game"] == "quadropolis" and len(record["moves"]) == 32 and "result" in record
    assert record == server.api(f"/api/games/{gid}/record")
    assert_no_hidden_quadropolis_facts(frames, record)
    frames.assert_moves_came_from_choices()
    assert len(frames.moves_sent()) == 16
    assert_log_worded(page, "Ada", "Robo")
    assert {"architect_placed", "building_built", "round_ended", "game_ended"} <= log_keys(page)
    # replay: back to the start and one move forward
    page.click("#replay-start")
    page.wait_for_function("() => document.querySelector('#status').textContent.includes('0')")
    assert position(page) == 0
    assert log_keys(page) == {"game_started", "round_started", "site_revealed"}  # the set-up
    # a replay is nobody's turn: no "you" badge, no rematch, no winner yet
    assert page.query_selector(".seat-list .badge") is None
    assert page.query_selector("#rematch") is None and page.query_selector("#winner") is None
    page.click("#replay-next")
    wait_position(page, "=== 1")
    assert "architect_placed" in log_keys(page)
    page.click("#replay-end")
    wait_position(page, "=== 32")
    page.wait_for_selector("#winner")
    assert page.query_selector(".seat-list .badge") is not None
    # rematch: a fresh game with the same seats, this browser holding the same seat
    page.click("#rematch")
    page.wait_for_function(f"() => !location.hash.includes('{gid}')")
    page.wait_for_selector("#site")
    assert game_id(page) != gid
    assert errors == []
    context.close()


def test_metropolys_against_a_bot_by_clicks_with_secret_check(
    server: ServerProcess, browser: Any
) -> None:
    context, page, errors, frames = new_page(browser)
    start_game(
        page,
        server.base,
        "metropolys",
        "family",
        [{"kind": "human", "name": "Ada"}, {"kind": "bot", "name": "Robo", "level": "easy"}],
    )
    page.wait_for_selector("#metro-board")
    assert page.is_visible("#my-cards")
    play_until_end(page, "metropolys")
    gid = game_id(page)
    record = server.api(f"/api/games/{gid}/record")
    assert "Trendy neighborhoods" in page.inner_text("#scorepad")
    assert_no_other_metropolys_cards(frames, record, seat=0)
    frames.assert_moves_came_from_choices()
    assert_log_worded(page, "Ada", "Robo")
    assert {"cards_dealt", "bid_placed", "bid_won", "game_ended"} <= log_keys(page)
    assert errors == []
    context.close()


def test_two_browsers_play_through_invite_links(server: ServerProcess, browser: Any) -> None:
    ctx_a, page_a, errors_a, frames_a = new_page(browser)
    start_game(
        page_a,
        server.base,
        "metropolys",
        "expert",
        [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Lin", "here": False}],
    )
    page_a.wait_for_selector("input.invite-link")
    invite = page_a.input_value("input.invite-link")
    page_a.click("#enter")
    page_a.wait_for_selector("#metro-board")
    ctx_b, page_b, errors_b, frames_b = new_page(browser)
    page_b.goto(invite)
    page_b.wait_for_selector("#metro-board")
    assert "#/game/" in page_b.url and invite.split("/")[-1] not in page_b.url  # token dropped
    gid = game_id(page_a)
    pages = {0: page_a, 1: page_b}
    turns = 0
    while turns < 12:
        pages[0].wait_for_selector("#status")
        current = 0 if pages[0].query_selector("#status.your-turn") else 1
        assert pages[current].query_selector("#status.your-turn") is not None
        other = pages[1 - current]
        # the waiting side is offered nothing to click
        assert other.query_selector("g.field.legal") is None
        assert other.query_selector("#pass") is None
        before = position(pages[current])
        click_metropolys_move(pages[current], turns)
        turns += 1
        for pg in pages.values():
            wait_position(pg, f"> {before}")
        if turns == 5:  # a reload in the middle of the game restores everything
            cards = page_b.inner_text("#my-cards")
            page_b.reload()
            page_b.wait_for_selector("#metro-board")
            wait_position(page_b, f"=== {before + 1}")
            assert page_b.inner_text("#my-cards") == cards
    # an out-of-turn move sent by hand from the waiting browser is refused, state unchanged
    waiting = page_b if page_a.query_selector("#status.your-turn") else page_a
    # two of the frames sent by hand break the contract on purpose (not JSON, too long)
    (frames_b if waiting is page_b else frames_a).expect_unfit(2)
    pos = server.api(f"/api/games/{gid}")["position"]
    answer = waiting.evaluate(
        """async ([gid, pos]) => {
            const token = Object.values(JSON.parse(localStorage.getItem('polis:tokens:' + gid)))[0];
            const ws = new WebSocket(`ws://${location.host}/ws/${gid}`);
            const got = [];
            let heard = () => {};
            ws.onmessage = (ev) => { got.push(JSON.parse(ev.data)); heard(); };
            const next = () => new Promise((ok) => { heard = ok; });
            const errors = () => got.filter((m) => m.type === 'error').map((m) => m.code);
            await new Promise((ok) => { ws.onopen = ok; });
            const greeted = next();
            ws.send(JSON.stringify({type: 'hello', token}));
            await greeted;  // the server has taken the hello: no fixed sleep for a busy machine
            ws.send(JSON.stringify({type: 'move', move: 'pass', position: pos}));
            ws.send('{"type": "move", "move": ');
            ws.send(JSON.stringify({type: 'move', move: 'x'.repeat(3000), position: pos}));
            const deadline = Date.now() + 20000;
            while (errors().length < 3 && Date.now() < deadline) {
                await Promise.race([next(), new Promise((ok) => setTimeout(ok, 250))]);
            }
            await new Promise((ok) => setTimeout(ok, 200));  // nothing else follows
            ws.close();
            return errors();
        }""",
        [gid, pos],
    )
    assert answer == ["not_your_turn", "malformed", "too_large"]
    assert server.api(f"/api/games/{gid}")["position"] == pos
    record_status = 409
    try:
        server.api(f"/api/games/{gid}/record")
    except Exception as exc:  # the record holds secrets until the end
        record_status = getattr(exc, "code", 0)
    assert record_status == 409
    # B never saw A's secret cards
    a_cards = page_a.inner_text("#my-cards")
    b_cards = page_b.inner_text("#my-cards")
    assert a_cards and b_cards
    for msg in state_messages(frames_b):
        assert msg["seat"] == 1 and msg["view"]["player"] == 1
        assert msg["view"]["area_card"] == state_messages(frames_b)[0]["view"]["area_card"]
    assert errors_a == [] and errors_b == []
    ctx_a.close()
    ctx_b.close()


def test_language_switch(server: ServerProcess, browser: Any) -> None:
    context, page, errors, _frames = new_page(browser)
    page.goto(server.base + "/")
    page.wait_for_selector("#create")
    expected = {"de": "Neues Spiel", "pl": "Nowa gra", "it": "Nuova partita", "en": "New game"}
    for code, text in expected.items():
        page.select_option("#lang", code)
        page.wait_for_function(
            f"() => document.querySelector('#new-game h2').textContent === '{text}'"
        )
    page.select_option("#lang", "de")
    start_game(
        page,
        server.base,
        "quadropolis",
        "expert",
        [{"kind": "human", "name": "Ada"}, {"kind": "bot", "name": "Robo"}],
    )
    page.wait_for_selector("#site")
    assert "Baustelle" in page.inner_text("#board")
    assert "Expertenspiel" in page.inner_text(".table-head")
    assert any(line.startswith("Runde 1 beginnt") for line in log_lines(page))
    page.select_option("#lang", "it")
    board_says = "() => document.querySelector('#board').innerText.includes('{}')"
    page.wait_for_function(board_says.format("Cantiere"))
    assert any(line.startswith("Inizia il round 1") for line in log_lines(page))
    page.select_option("#lang", "pl")
    page.wait_for_function(board_says.format("Plac budowy"))
    assert any(line.startswith("Zaczyna się runda 1") for line in log_lines(page))
    assert_log_worded(page, at_least=3)
    page.reload()  # the choice is remembered
    page.wait_for_selector("#site")
    assert "Plac budowy" in page.inner_text("#board")
    assert errors == []
    context.close()


def test_server_killed_mid_game_continues(browser: Any, tmp_path: Path) -> None:
    srv = ServerProcess(f"sqlite:///{tmp_path / 'restart.db'}")
    srv.start()
    try:
        context, page, errors, _frames = new_page(browser)
        start_game(
            page,
            srv.base,
            "quadropolis",
            "classic",
            [{"kind": "human", "name": "Ada"}, {"kind": "bot", "name": "Robo"}],
        )
        page.wait_for_selector("#site")
        for _ in range(3):
            assert wait_turn_or_end(page)
            before = position(page)
            click_quadropolis_move(page)
            wait_position(page, f"> {before}")
        gid = game_id(page)
        stored = srv.api(f"/api/games/{gid}")["position"]
        srv.kill()
        page.wait_for_selector(".offline")
        srv.start()  # same port, same database
        page.wait_for_selector(".offline", state="detached", timeout=30_000)
        assert srv.api(f"/api/games/{gid}")["position"] >= stored
        assert play_until_end(page, "quadropolis") == 13
        assert len(srv.api(f"/api/games/{gid}/record")["moves"]) == 32
        assert errors == []
        context.close()
    finally:
        srv.kill()
