"""In a real browser: the review of a finished game says in words what each marked move
should have been and why (the game's reasons, in the reader's language), and every row opens
that move in the replay, by click, Enter or Space.

The game: a person who plays random moves (sent here over the WebSocket) against an easy
bot, at Quadropolis, so the person loses by a wide margin and the review marks several of
their moves (severities on the game's scale: a lopsided game shows its blunders)."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser_helpers import (
    BROWSER_TESTS,
    ServerProcess,
    axe_problems,
    new_context,
    page_errors,
    shoot,
)

pytestmark = BROWSER_TESTS

#: Budgets small enough for a review of some 35 moves in seconds, large enough to be sure of
#: a random move's loss of points.
BUDGETS = {"POLIS_REVIEW_AGENT": "mcts:32i", "POLIS_REVIEW_SAMPLES": "16"}
#: What a reason's sentence says in English (never the notation alone).
SENTENCE = re.compile(r"instead of .+ (would have scored|was expected to score|would have won)")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("review-words")
    srv = ServerProcess(f"sqlite:///{folder / 'polis.db'}", env=BUDGETS)
    srv.start()
    yield srv
    srv.kill()


def play_randomly(server: ServerProcess, game_id: str, token: str, seed: int) -> None:
    """Seat 0's person plays random legal moves over the WebSocket until the game is over."""
    from websockets.sync.client import connect

    url = server.base.replace("http", "ws", 1) + f"/ws/{game_id}"
    with connect(url, open_timeout=30) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        while True:
            msg = json.loads(ws.recv(timeout=120))
            if msg.get("type") != "state":
                continue
            if msg["finished"]:
                return
            if msg["current_player"] == msg["seat"] and msg["legal"]:
                # one choice per position, however often its state comes
                move = random.Random(seed * 1000 + msg["position"]).choice(sorted(msg["legal"]))
                ws.send(json.dumps({"type": "move", "move": move, "position": msg["position"]}))


@pytest.fixture(scope="module")
def game(server: ServerProcess) -> dict[str, Any]:
    seats = [{"name": "Ada", "kind": "human"}, {"name": "Bot", "kind": "bot", "level": "easy"}]
    made = server.api(
        "/api/games", {"game": "quadropolis", "mode": "classic", "seats": seats, "seed": 7}
    )
    token = made["seats"][0]["invite"].rstrip("/").split("/")[-1]
    play_randomly(server, made["id"], token, 7)
    record = server.api(f"/api/games/{made['id']}/record")
    return {"id": made["id"], "moves": len(record["moves"]), "scores": record["result"]}


def open_review(page: Any, server: ServerProcess, game_id: str) -> None:
    page.goto(f"{server.base}/#/review/{game_id}")
    page.wait_for_selector("#review-table", timeout=180_000)


def replay_status(page: Any, n: int, total: int) -> None:
    """Until the table shows the replay at move ``n``."""
    page.wait_for_function(
        "(want) => document.body.innerText.includes(want)",
        arg=f"Replay: move {n} of {total}",
        timeout=60_000,
    )


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_marked_moves_are_sentences_and_rows_open_the_replay(
    server: ServerProcess, browser: Any, shots: Path, game: dict[str, Any], dark: bool
) -> None:
    context = new_context(browser, 390, 844, dark=dark)
    page = context.new_page()
    errors = page_errors(page)
    open_review(page, server, game["id"])
    reasons = page.query_selector_all("#review .review-worst li .reason")
    said = [r.text_content() or "" for r in reasons]
    # (the bot's moves vary from run to run; tests/bots/test_review_words.py counts the marks
    # of a fixed lopsided game)
    assert len(said) >= 2, f"a game lost this widely shows its mistakes: {said}"
    for sentence in said:
        assert SENTENCE.search(sentence), sentence
        assert not re.fullmatch(r"[\w@ -]+", sentence)  # words, not notation only
    badges = page.eval_on_selector_all(
        "#review .review-worst li .badge", "(els) => els.map((el) => el.textContent)"
    )
    assert {"Blunder", "Mistake"} & set(badges), badges
    assert axe_problems(page) == []
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the review is {width} px wide on a 390 px phone"
    theme = "dark" if dark else "light"
    shoot(page, shots, f"review-words-390x844-{theme}")
    page.set_viewport_size({"width": 1366, "height": 900})
    shoot(page, shots, f"review-words-1366x900-{theme}")

    # Enter on a marked move's line: the replay at that move
    first = page.query_selector("#review .review-worst li")
    assert first is not None
    index = int(first.get_attribute("data-move") or "0")
    first.focus()
    page.keyboard.press("Enter")
    replay_status(page, index + 1, game["moves"])
    assert page.url.endswith(f"#/replay/{game['id']}/{index + 1}")
    shoot(page, shots, f"review-words-replay-1366x900-{theme}")

    # Space on a row of the table: the same for any move
    open_review(page, server, game["id"])
    row = page.query_selector("#review-table tbody tr[data-move='2']")
    assert row is not None
    row.focus()
    page.keyboard.press(" ")
    replay_status(page, 3, game["moves"])
    # and a click
    open_review(page, server, game["id"])
    page.click("#review-table tbody tr[data-move='5']")
    replay_status(page, 6, game["moves"])
    assert not errors, errors
    context.close()


def test_the_reasons_speak_the_readers_language(
    server: ServerProcess, browser: Any, game: dict[str, Any]
) -> None:
    context = new_context(browser, 1366, 900)
    page = context.new_page()
    page.goto(server.base)
    page.wait_for_selector("#lang")
    page.select_option("#lang", "de")
    page.wait_for_function("() => document.documentElement.lang === 'de'")  # its words loaded
    open_review(page, server, game["id"])
    said = page.eval_on_selector_all(
        "#review .review-worst li .reason", "(els) => els.map((el) => el.textContent)"
    )
    assert said and all(s.startswith("Besser: ") and " statt " in s for s in said), said
    context.close()
